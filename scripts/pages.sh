# The addresses beside index.html. `views` are copies of index.html (one app, one bundle: the
# app reads the address to pick its view); `embed` is its own Trunk target and binary, smaller.
# Sourced by build.sh and size.sh.
views=(lesson compare export routes)

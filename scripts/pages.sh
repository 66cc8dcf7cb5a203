# The pages besides index.html (binary `app`): each is `<page>.html` at the root, a Trunk target
# with its own binary of the app crate named like it. Sourced by build.sh and size.sh.
pages=(compare embed export lesson routes)

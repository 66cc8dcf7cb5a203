# Fan-out Playground. Two commands matter:
#   make serve   install what is missing, build, serve on http://127.0.0.1:8080
#   make test    install what is missing, run every check and test, print a summary
SHELL := /bin/bash
PORT ?= 8080
DEV_PORT ?= 8081

.PHONY: serve test dev build size bench perf bootstrap bootstrap-test clean

serve: bootstrap
	@scripts/serve.sh $(PORT)

test: bootstrap-test
	@scripts/test.sh

# Working on the playground: a debug, unsplit build served on DEV_PORT, rebuilt on change
# (docs/building.md, "The dev loop").
dev: bootstrap
	@scripts/dev.sh $(DEV_PORT)

build: bootstrap
	@scripts/build.sh
	@scripts/compress.sh

size: build
	@scripts/size.sh

bench:
	cargo bench -p fanout-engine

perf: bootstrap-test build
	@cd tests && node perf/measure.js

.PHONY: links shots
links:
	@python3 scripts/check_links.py

shots: bootstrap-test build
	@cd tests && node shots.mjs --docs

bootstrap:
	@scripts/bootstrap.sh build

bootstrap-test:
	@scripts/bootstrap.sh test

clean:
	cargo clean
	rm -rf dist

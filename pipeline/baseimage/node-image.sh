#!/usr/bin/env bash
# node-image.sh --tag TAG --parent PARENT --tools DIR [--force]
#
# Builds lolbench's offline node image (JavaScript and TypeScript) as one
# layer on top of the offline base image PARENT (base-image.sh), as
# layer-image.sh builds every language's: Debian's Node.js 18 with its
# node:test runner, TypeScript 4.8 (tsc) and ts-node, and lolbench's node
# tools (DIR holds them): the JUnit reporter that names tests "describe ›
# it" in their file, the runner that loads test files in one process, and
# lolbench-node-test, the command recipes run. `lolbench env base --lang
# node` runs it. See docs/projects.md, "JavaScript and TypeScript".
set -euo pipefail
IMAGE=node-image
WHAT="node (JavaScript and TypeScript)"
# Node.js 18 (with @types/node), tsc and ts-node.
PACKAGES=(nodejs node-typescript ts-node)
TOOLDIR=/usr/local/share/lolbench/node
INSTALL='mkdir -p "$T"
install -m 0644 /tools/junit-reporter.mjs /tools/lolbench-node-run.mjs "$T/"
install -m 0755 /tools/lolbench-node-test /usr/local/bin/lolbench-node-test
chmod -R a+rX "$T"'
ENV_CHANGES=("LOLBENCH_NODE_TOOLS=$TOOLDIR")
VERIFY='node --version && tsc --version && ls '"$TOOLDIR"' && command -v lolbench-node-test && node -e "require(\"ts-node\")"'
. "$(dirname "$0")/layer-image.sh"

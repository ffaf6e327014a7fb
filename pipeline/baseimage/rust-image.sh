#!/usr/bin/env bash
# rust-image.sh --tag TAG --parent PARENT --tools DIR [--force]
#
# Builds lolbench's offline Rust image as one layer on top of the offline
# base image PARENT (base-image.sh), as layer-image.sh builds every
# language's: Debian's rustc 1.63 and cargo, the crates Debian packages as
# an offline directory source (/usr/share/cargo/registry), LLVM 14's
# profdata and cov tools with clang's profile runtime (Debian's rustc has no
# profiler_builtins, so coverage links clang's), and lolbench's test
# runner, lolbench-cargo-test (DIR holds it and cargo's configuration).
# `lolbench env base --lang rust` runs it. See docs/projects.md, "Rust".
set -euo pipefail
IMAGE=rust-image
WHAT="Rust"
# The toolchain, a few crates Debian packages (installed as a directory
# source below /usr/share/cargo/registry), LLVM 14's coverage tools and
# clang's profile runtime: rustc 1.63 is built against LLVM 14, so its
# .profraw files are what llvm-profdata-14 reads.
PACKAGES=(rustc cargo llvm-14 libclang-rt-14-dev librust-memchr-dev librust-quickcheck-dev)
TOOLDIR=/usr/local/share/lolbench/rust
# Cargo's home, root's and read-only to the tests, holds the configuration
# every user and project gets: crates.io replaced by Debian's directory
# source, offline. It ranks below a project's .cargo/config.toml, and a
# recipe that brings its own crates (cargo vendor) sets CARGO_HOME to a
# home of its own (docs/projects.md, "Rust").
INSTALL='mkdir -p /usr/local/cargo
install -m 0644 /tools/cargo-config.toml /usr/local/cargo/config.toml
mkdir -p "$T"
install -m 0755 /tools/lolbench-cargo-test /usr/local/bin/lolbench-cargo-test
RT=$(ls /usr/lib/llvm-14/lib/clang/*/lib/linux/libclang_rt.profile-x86_64.a | head -n 1)
[ -f "$RT" ] || { echo "no clang profile runtime"; exit 1; }
ln -s "$RT" "$T/libclang_rt.profile.a"
chmod -R a+rX "$T"'
ENV_CHANGES=("LOLBENCH_RUST_TOOLS=$TOOLDIR" "CARGO_HOME=/usr/local/cargo")
VERIFY='rustc --version && cargo --version && llvm-profdata-14 --version | head -n 2 && ls -L '"$TOOLDIR"' && command -v lolbench-cargo-test'
. "$(dirname "$0")/layer-image.sh"

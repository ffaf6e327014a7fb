#!/usr/bin/env bash
# deploy/image.sh TAG: builds lolbench's own container image (make image).
#
# lolbench is built on this host as one static binary (cgo for tree-sitter,
# linked statically; netgo and osusergo keep glibc's resolvers out), and so
# is the verifier's result parser, lolbench-grade. Both go into an image on
# the offline base image, which `lolbench env base` builds from Debian's
# packages when it is missing (minutes, once, as root) and otherwise only
# names. Nothing is pulled from an image registry; the one package step
# (deploy/Dockerfile) reads Debian's mirror, as the base image does.
set -euo pipefail
tag=${1:?usage: deploy/image.sh TAG}
version=${VERSION:-${tag##*:}}
root=$(cd "$(dirname "$0")/.." && pwd)
go=${GO:-go}
start=$(date +%s)
ctx=$(mktemp -d)
trap 'rm -rf "$ctx"' EXIT

echo "image: building the static binaries (version $version)" >&2
(cd "$root" &&
	CGO_ENABLED=1 "$go" build -trimpath -tags netgo,osusergo \
		-ldflags "-s -w -X main.version=$version -linkmode external -extldflags -static" \
		-o "$ctx/lolbench" ./cmd/lolbench &&
	CGO_ENABLED=0 "$go" build -trimpath -ldflags "-s -w" -o "$ctx/lolbench-grade" ./pipeline/sandbox/cmd/lolbench-grade)
base=$("$ctx/lolbench" env base)
cp "$root/deploy/Dockerfile" "$ctx/"
echo "image: docker build $tag on $base" >&2
old=$(docker image inspect -f '{{.Id}}' "$tag" 2>/dev/null || true)
docker build -q --build-arg "BASE=$base" --label "org.lolbench.version=$version" -t "$tag" "$ctx" >/dev/null
new=$(docker image inspect -f '{{.Id}}' "$tag")
if [ -n "$old" ] && [ "$old" != "$new" ]; then
	# The image this tag named before would linger untagged.
	docker rmi "$old" >/dev/null 2>&1 || true
fi
echo "image: $tag built in $(($(date +%s) - start)) s" >&2
echo "$tag"

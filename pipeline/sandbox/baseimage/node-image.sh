#!/usr/bin/env bash
# node-image.sh --tag TAG --parent PARENT --tools DIR [--force]
#
# Builds lolbench's offline node image (JavaScript and TypeScript) as one
# layer on top of the offline base image PARENT (base-image.sh): Debian's
# Node.js 18 with its node:test runner, TypeScript 4.8 (tsc) and ts-node,
# and lolbench's node tools (DIR holds them): the JUnit reporter that names
# tests "describe › it" in their file, the runner that loads test files in
# one process, and lolbench-node-test, the command recipes run.
#
# As node-image.sh: the .deb files come from Debian's mirror on the host,
# resolved by apt against PARENT's dpkg status; a container of PARENT with
# no network installs them, and docker commit makes the layer. `lolbench
# env base --lang node` runs this script (embedded in the binary) with a
# tag that hashes this file, the tools and PARENT's tag; when the tag
# exists the script exits 0 at once.
#
# Needs root (apt's private state) and the docker CLI. See docs/projects.md,
# "The offline base image".
set -euo pipefail
{

SUITE=bookworm
TAG=""
PARENT=""
TOOLS=""
FORCE=0
# Node.js 18 (with @types/node), tsc and ts-node (docs/projects.md,
# "JavaScript and TypeScript").
PACKAGES=(nodejs node-typescript ts-node)
TOOLDIR=/usr/local/share/lolbench/node

usage() {
	cat <<USAGE
usage: node-image.sh --tag TAG --parent PARENT --tools DIR [--force]

Build the offline node image TAG on top of PARENT. Exits 0 at once when the
tag already exists, unless --force is given.
USAGE
}

while [ $# -gt 0 ]; do
	case "$1" in
	--force) FORCE=1 ;;
	--tag | --parent | --tools)
		[ $# -ge 2 ] || { usage >&2; exit 2; }
		case "$1" in --tag) TAG="$2" ;; --parent) PARENT="$2" ;; --tools) TOOLS="$2" ;; esac
		shift
		;;
	-h | --help) usage; exit 0 ;;
	*) echo "node-image: unknown argument $1" >&2; usage >&2; exit 2 ;;
	esac
	shift
done
[ -n "$TAG" ] && [ -n "$PARENT" ] && [ -d "$TOOLS" ] || { usage >&2; exit 2; }

START=$(date +%s)
STEP="start"
log() { printf 'node-image: [%ss] %s\n' "$(($(date +%s) - START))" "$*" >&2; }
step() { STEP="$*"; log "$STEP"; }

BUILD_DIR=""
CONTAINER=""
cleanup() {
	local rc=$?
	[ -n "$CONTAINER" ] && docker rm -f "$CONTAINER" >/dev/null 2>&1 || true
	[ -n "$BUILD_DIR" ] && rm -rf --one-file-system "$BUILD_DIR"
	[ $rc -ne 0 ] && echo "node-image: FAILED at step: $STEP (exit $rc)" >&2
	exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM

step "checking docker"
command -v docker >/dev/null || { echo "node-image: docker CLI not found" >&2; exit 1; }
if [ "$FORCE" = 0 ] && docker image inspect "$TAG" >/dev/null 2>&1; then
	log "image $TAG exists; nothing to do (use --force to rebuild)"
	exit 0
fi
docker image inspect "$PARENT" >/dev/null 2>&1 || { echo "node-image: the parent image $PARENT is missing: build it with 'lolbench env base'" >&2; exit 1; }
[ "$(id -u)" = 0 ] || { echo "node-image: must run as root (apt's state and cache)" >&2; exit 1; }
command -v apt-get >/dev/null || { echo "node-image: apt-get not found: the packages are resolved with the host's apt" >&2; exit 1; }

step "waiting for other builds (lock /var/lock/lolbench-node-image.lock)"
exec 9>/var/lock/lolbench-node-image.lock
flock 9
if [ "$FORCE" = 0 ] && docker image inspect "$TAG" >/dev/null 2>&1; then
	log "image $TAG was built meanwhile; nothing to do"
	exit 0
fi
OLD_ID=$(docker image inspect -f '{{.Id}}' "$TAG" 2>/dev/null || true)

BUILD_DIR=$(mktemp -d /var/tmp/lolbench-node-image.XXXXXX)
A="$BUILD_DIR/apt"
mkdir -p "$A/lists/partial" "$A/archives/partial" "$A/etc"

step "reading the parent's dpkg status and mirror"
docker run --rm --network none "$PARENT" cat /var/lib/dpkg/status >"$A/status"
MIRROR=$(docker run --rm --network none "$PARENT" sh -c "awk '\$1 == \"deb\" { print \$2; exit }' /etc/apt/sources.list")
[ -n "$MIRROR" ] || MIRROR=http://deb.debian.org/debian
log "mirror: $MIRROR"
KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg
SIGNED=""
[ -r "$KEYRING" ] && SIGNED="[signed-by=$KEYRING] "
echo "deb ${SIGNED}$MIRROR $SUITE main" >"$A/etc/sources.list"
# apt on the host, with a state of its own: the parent's installed
# packages, the parent's mirror and suite, nothing of the host's lists.
APT=(apt-get -q -o "Dir::Etc::SourceList=$A/etc/sources.list" -o Dir::Etc::SourceParts=/dev/null
	-o "Dir::State::Lists=$A/lists" -o "Dir::State::status=$A/status" -o "Dir::Cache=$A"
	-o "Dir::Cache::archives=$A/archives" -o Debug::NoLocking=1 -o APT::Get::List-Cleanup=0
	-o Dir::Etc::Preferences=/dev/null -o Dir::Etc::PreferencesParts=/dev/null)

step "apt-get update ($SUITE main)"
"${APT[@]}" update >"$BUILD_DIR/apt.log" 2>&1 || { tail -n 20 "$BUILD_DIR/apt.log" >&2; exit 1; }
step "downloading ${PACKAGES[*]} and their dependencies"
"${APT[@]}" install -y --download-only --no-install-recommends "${PACKAGES[@]}" >>"$BUILD_DIR/apt.log" 2>&1 ||
	{ tail -n 20 "$BUILD_DIR/apt.log" >&2; exit 1; }
n=$(find "$A/archives" -maxdepth 1 -name '*.deb' | wc -l)
log "$n packages, $(du -sm "$A/archives" | cut -f1) MiB"

cp -R "$TOOLS" "$BUILD_DIR/tools"
cat >"$BUILD_DIR/install.sh" <<'INSTALL'
set -eu
export DEBIAN_FRONTEND=noninteractive
mkdir -p /usr/share/man/man1
# Local files only: apt resolves them among themselves and the installed
# packages, and reaches for no list and no network.
apt-get install -y -q --no-install-recommends /debs/*.deb >/tmp/install.log 2>&1 ||
	{ grep -i -m 10 'error' /tmp/install.log; tail -n 20 /tmp/install.log; exit 1; }
rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin /tmp/install.log
T=__TOOLDIR__
mkdir -p "$T"
install -m 0644 /tools/junit-reporter.mjs /tools/lolbench-node-run.mjs "$T/"
install -m 0755 /tools/lolbench-node-test /usr/local/bin/lolbench-node-test
chmod -R a+rX "$T"
INSTALL
sed -i "s|__TOOLDIR__|$TOOLDIR|" "$BUILD_DIR/install.sh"

step "installing in a container of $PARENT (no network)"
CONTAINER="lolbench-node-image-$$"
docker run --name "$CONTAINER" --network none -u 0 \
	-v "$A/archives:/debs:ro" -v "$BUILD_DIR/tools:/tools:ro" -v "$BUILD_DIR/install.sh:/install.sh:ro" \
	"$PARENT" sh /install.sh >&2

step "docker commit -> $TAG"
docker commit \
	--change "ENV LOLBENCH_NODE_TOOLS=$TOOLDIR" \
	--change "LABEL org.lolbench.offline-base=$TAG" \
	--change 'USER root' \
	--change 'WORKDIR /' \
	--change 'CMD ["/bin/bash"]' \
	"$CONTAINER" "$TAG" >/dev/null
docker rm -f "$CONTAINER" >/dev/null
CONTAINER=""
NEW_ID=$(docker image inspect -f '{{.Id}}' "$TAG")
if [ -n "$OLD_ID" ] && [ "$OLD_ID" != "$NEW_ID" ]; then
	docker rmi "$OLD_ID" >/dev/null 2>&1 || log "old image $OLD_ID is still in use; left in place"
fi

step "verifying the image (docker run --network none)"
docker run --rm --network none "$TAG" sh -c 'node --version && tsc --version && ls '"$TOOLDIR"' && command -v lolbench-node-test && node -e "require(\"ts-node\")"' >&2

size=$(docker image inspect -f '{{.Size}}' "$TAG")
log "done: $TAG, $((size / 1024 / 1024)) MiB in all, built in $(($(date +%s) - START))s"
exit 0
}

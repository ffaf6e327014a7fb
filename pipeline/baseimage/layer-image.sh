# layer-image.sh: what every language image's script shares (sourced by
# java-image.sh, rust-image.sh, c-image.sh and node-image.sh, which set the
# variables below first). It builds an offline image as one layer on top
# of the offline base image PARENT (base-image.sh), with no registry and no
# network inside the build: the host's apt resolves the .deb files against
# PARENT's own dpkg status (so virtual and already-installed dependencies
# resolve as apt resolves them; debootstrap --include cannot), a container
# of PARENT with no network installs them from a read-only mount and runs
# the language's own steps, and docker commit makes the layer. Sharing
# PARENT's layers keeps the cold cost of a language to its own packages.
#
# `lolbench env base --lang L` runs the language's script (embedded in the
# binary, with this file beside it) with a tag that hashes both files, the
# tools and PARENT's tag; when the tag exists the script exits 0 at once.
#
# The language's script sets:
#   IMAGE        its name in messages, locks and temporary files (c-image)
#   WHAT         what the image is for, in the usage text ("C and C++")
#   PACKAGES     the Debian packages, an array
#   TOOLDIR      where its tools go in the image ("" for none); install
#                steps see it as $T
#   INSTALL      the shell steps run as root in the container after the
#                packages (the tools are in /tools)
#   ENV_CHANGES  ENV instructions for docker commit, an array
#   VERIFY       a shell command that checks the image, run in it
#
# Needs root (apt's private state) and the docker CLI.
set -euo pipefail
{

SUITE=bookworm
TAG=""
PARENT=""
TOOLS=""
FORCE=0

usage() {
	cat <<USAGE
usage: $IMAGE.sh --tag TAG --parent PARENT --tools DIR [--force]

Build the offline $WHAT image TAG on top of PARENT. Exits 0 at once when the
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
	*) echo "$IMAGE: unknown argument $1" >&2; usage >&2; exit 2 ;;
	esac
	shift
done
[ -n "$TAG" ] && [ -n "$PARENT" ] && [ -d "$TOOLS" ] || { usage >&2; exit 2; }

START=$(date +%s)
STEP="start"
log() { printf '%s: [%ss] %s\n' "$IMAGE" "$(($(date +%s) - START))" "$*" >&2; }
step() { STEP="$*"; log "$STEP"; }

BUILD_DIR=""
CONTAINER=""
cleanup() {
	local rc=$?
	[ -n "$CONTAINER" ] && docker rm -f "$CONTAINER" >/dev/null 2>&1 || true
	[ -n "$BUILD_DIR" ] && rm -rf --one-file-system "$BUILD_DIR"
	[ $rc -ne 0 ] && echo "$IMAGE: FAILED at step: $STEP (exit $rc)" >&2
	exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM

step "checking docker"
command -v docker >/dev/null || { echo "$IMAGE: docker CLI not found" >&2; exit 1; }
if [ "$FORCE" = 0 ] && docker image inspect "$TAG" >/dev/null 2>&1; then
	log "image $TAG exists; nothing to do (use --force to rebuild)"
	exit 0
fi
docker image inspect "$PARENT" >/dev/null 2>&1 || { echo "$IMAGE: the parent image $PARENT is missing: build it with 'lolbench env base'" >&2; exit 1; }
[ "$(id -u)" = 0 ] || { echo "$IMAGE: must run as root (apt's state and cache)" >&2; exit 1; }
command -v apt-get >/dev/null || { echo "$IMAGE: apt-get not found: the packages are resolved with the host's apt" >&2; exit 1; }

step "waiting for other builds (lock /var/lock/lolbench-$IMAGE.lock)"
exec 9>"/var/lock/lolbench-$IMAGE.lock"
flock 9
if [ "$FORCE" = 0 ] && docker image inspect "$TAG" >/dev/null 2>&1; then
	log "image $TAG was built meanwhile; nothing to do"
	exit 0
fi
OLD_ID=$(docker image inspect -f '{{.Id}}' "$TAG" 2>/dev/null || true)

BUILD_DIR=$(mktemp -d "/var/tmp/lolbench-$IMAGE.XXXXXX")
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
{
	cat <<'INSTALL'
set -eu
export DEBIAN_FRONTEND=noninteractive
# The parent leaves manual pages out (dpkg path-exclude), but packages
# such as the JDK link into their folders and fail without them.
mkdir -p /usr/share/man/man1
# Local files only: apt resolves them among themselves and the installed
# packages, and reaches for no list and no network.
apt-get install -y -q --no-install-recommends /debs/*.deb >/tmp/install.log 2>&1 ||
	{ grep -i -m 10 'error' /tmp/install.log; tail -n 20 /tmp/install.log; exit 1; }
rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin /tmp/install.log
INSTALL
	printf 'T=%s\n' "$TOOLDIR"
	printf '%s\n' "$INSTALL"
} >"$BUILD_DIR/install.sh"

step "installing in a container of $PARENT (no network)"
CONTAINER="lolbench-$IMAGE-$$"
docker run --name "$CONTAINER" --network none -u 0 \
	-v "$A/archives:/debs:ro" -v "$BUILD_DIR/tools:/tools:ro" -v "$BUILD_DIR/install.sh:/install.sh:ro" \
	"$PARENT" sh /install.sh >&2

step "docker commit -> $TAG"
CHANGES=()
for e in "${ENV_CHANGES[@]}"; do
	CHANGES+=(--change "ENV $e")
done
docker commit "${CHANGES[@]}" \
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
docker run --rm --network none "$TAG" sh -c "$VERIFY" >&2

size=$(docker image inspect -f '{{.Size}}' "$TAG")
log "done: $TAG, $((size / 1024 / 1024)) MiB in all, built in $(($(date +%s) - START))s"
exit 0
}

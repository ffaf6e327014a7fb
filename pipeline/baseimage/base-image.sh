#!/usr/bin/env bash
# base-image.sh --tag TAG [--force]
#
# Builds lolbench's bundled offline base image: no image registry is
# reachable on the machines lolbench is built for, only Debian's package
# mirror. The root filesystem comes from debootstrap (Debian bookworm,
# minbase) with the tools the sample projects' tests need, and is turned into
# an image with `docker import`. `lolbench env base` runs this script (it is
# embedded in the binary) with a tag that is a hash of this file, so any
# change here yields a new tag and every machine rebuilds; when the tag
# exists the script exits 0 at once.
#
# Needs root (debootstrap chroots and makes device nodes); CI runs as root.
# See docs/projects.md, "The offline base image".
set -euo pipefail
# The whole script is one block, read before it runs: editing or checking out
# this file during a build cannot change what the running build does.
{

SUITE=bookworm
TAG=""
# What the sample projects' tests need, and pip, which installs a recipe's
# wheels offline (docs/projects.md, "Dependencies"). debootstrap resolves the
# dependencies of --include packages (not their Recommends, which keeps the
# image small).
PACKAGES=(ca-certificates git python3 python3-pytest python3-coverage python3-pip golang-go procps)
IMAGE_PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin

FORCE=0
usage() {
	cat <<EOF
usage: base-image.sh --tag TAG [--force]

Build the offline base image TAG with debootstrap and docker import.
Exits 0 at once when the tag already exists, unless --force is given.

  --force      rebuild even if the tag exists (the old image is replaced)
  --tag TAG    image tag (lolbench env base passes the content tag)
  --from-host  not supported: see docs/projects.md for why debootstrap is used
EOF
}

while [ $# -gt 0 ]; do
	case "$1" in
	--force) FORCE=1 ;;
	--tag)
		[ $# -ge 2 ] || { usage >&2; exit 2; }
		TAG="$2"
		shift
		;;
	--tag=*) TAG="${1#--tag=}" ;;
	--from-host)
		echo "base-image: --from-host is not supported: a host's /usr differs from machine to machine, so an image cached by tag would not be reproducible; see docs/projects.md" >&2
		exit 2
		;;
	-h | --help)
		usage
		exit 0
		;;
	*)
		echo "base-image: unknown argument $1" >&2
		usage >&2
		exit 2
		;;
	esac
	shift
done

[ -n "$TAG" ] || { usage >&2; exit 2; }
START=$(date +%s)
STEP="start"
log() { printf 'base-image: [%ss] %s\n' "$(($(date +%s) - START))" "$*" >&2; }
step() {
	STEP="$*"
	log "$STEP"
}

BUILD_DIR=""
# cleanup unmounts anything debootstrap left mounted inside the root
# filesystem (a failed run can leave proc or sys there) before removing it:
# rm -rf through a mounted /proc or /sys would be a disaster.
cleanup() {
	local rc=$?
	if [ -n "$BUILD_DIR" ] && [ -d "$BUILD_DIR" ]; then
		local m
		# Deepest mount points first.
		for m in $(awk -v r="$BUILD_DIR" 'index($2, r"/") == 1 { print $2 }' /proc/mounts | sort -r); do
			umount -l "$m" 2>/dev/null || true
		done
		if awk -v r="$BUILD_DIR" 'index($2, r"/") == 1 { found=1 } END { exit !found }' /proc/mounts; then
			echo "base-image: still mounted under $BUILD_DIR; not removing it" >&2
		else
			rm -rf --one-file-system "$BUILD_DIR"
		fi
	fi
	if [ $rc -ne 0 ]; then
		echo "base-image: FAILED at step: $STEP (exit $rc)" >&2
	fi
	exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM

step "checking docker"
command -v docker >/dev/null || { echo "base-image: docker CLI not found" >&2; exit 1; }
docker info >/dev/null 2>&1 || { echo "base-image: docker engine not reachable (docker info failed)" >&2; exit 1; }

if [ "$FORCE" = 0 ] && docker image inspect "$TAG" >/dev/null 2>&1; then
	log "image $TAG exists; nothing to do (use --force to rebuild)"
	exit 0
fi

step "checking privileges"
if [ "$(id -u)" != 0 ]; then
	echo "base-image: must run as root (debootstrap needs chroot and mknod)" >&2
	exit 1
fi

# One build at a time per machine: test packages that run in parallel may
# all ask for the image. Whoever waited finds the image built.
step "waiting for other builds (lock /var/lock/lolbench-base-image.lock)"
exec 9>/var/lock/lolbench-base-image.lock
flock 9
if [ "$FORCE" = 0 ] && docker image inspect "$TAG" >/dev/null 2>&1; then
	log "image $TAG was built meanwhile; nothing to do"
	exit 0
fi
OLD_ID=$(docker image inspect -f '{{.Id}}' "$TAG" 2>/dev/null || true)

# mirror prints the Debian mirror that apt already uses here, so that the
# image is built from the same (possibly local or snapshot) archive.
mirror() {
	local f uri=""
	f=/etc/apt/sources.list.d/debian.sources
	if [ -r "$f" ]; then
		# deb822: the URIs of the first stanza whose Suites name the suite.
		uri=$(awk -v s="$SUITE" '
			/^[[:space:]]*$/ { if (u != "" && ok) { print u; done=1; exit } u=""; ok=0; next }
			tolower($1) == "uris:" { u=$2 }
			tolower($1) == "suites:" { for (i = 2; i <= NF; i++) if ($i == s) ok=1 }
			END { if (!done && u != "" && ok) print u }' "$f")
	fi
	if [ -z "$uri" ]; then
		for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
			[ -r "$f" ] || continue
			uri=$(awk -v s="$SUITE" '$1 == "deb" {
				i = 2; if ($i ~ /^\[/) { while (i <= NF && $i !~ /\]$/) i++; i++ }
				if ($(i+1) == s) { print $i; exit } }' "$f")
			[ -n "$uri" ] && break
		done
	fi
	echo "${uri:-http://deb.debian.org/debian}"
}

step "finding the Debian mirror"
MIRROR=$(mirror)
log "mirror: $MIRROR"

if ! command -v debootstrap >/dev/null; then
	step "installing debootstrap (apt-get update; apt-get install debootstrap)"
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
fi

BUILD_DIR=$(mktemp -d /var/tmp/lolbench-base-image.XXXXXX)
ROOTFS="$BUILD_DIR/rootfs"
mkdir "$ROOTFS"

KEYRING_ARGS=()
if [ -r /usr/share/keyrings/debian-archive-keyring.gpg ]; then
	KEYRING_ARGS=(--keyring=/usr/share/keyrings/debian-archive-keyring.gpg)
fi

include=$(
	IFS=,
	echo "${PACKAGES[*]}"
)
step "debootstrap --variant=minbase $SUITE from $MIRROR (packages: $include); takes minutes"
if ! debootstrap --variant=minbase "${KEYRING_ARGS[@]}" --include="$include" \
	"$SUITE" "$ROOTFS" "$MIRROR" >"$BUILD_DIR/debootstrap.log" 2>&1; then
	echo "base-image: debootstrap failed; last lines of its log:" >&2
	tail -n 30 "$BUILD_DIR/debootstrap.log" >&2
	[ -r "$ROOTFS/debootstrap/debootstrap.log" ] && tail -n 30 "$ROOTFS/debootstrap/debootstrap.log" >&2
	exit 1
fi

step "configuring the root filesystem"
# Repositories are mounted into containers and owned by another uid; git
# refuses those ("dubious ownership") unless told they are safe.
cat >"$ROOTFS/etc/gitconfig" <<'EOF'
[safe]
	directory = *
[user]
	name = lolbench
	email = lolbench@localhost
EOF
# The same mirror inside, for anyone who runs the image with a network.
echo "deb $MIRROR $SUITE main" >"$ROOTFS/etc/apt/sources.list"
# Nothing cached: the archives and lists only make the image bigger. Nor
# documentation, manuals, translations or Go's own test suite (~90 MB); dpkg
# is told to leave them out of later installs too. Go's precompiled standard
# library stays: without it every fresh container rebuilds it first.
rm -rf "${ROOTFS:?}"/var/cache/apt/archives/*.deb "${ROOTFS:?}"/var/lib/apt/lists/* \
	"${ROOTFS:?}"/var/log/*.log "${ROOTFS:?}"/debootstrap \
	"${ROOTFS:?}"/usr/share/doc/* "${ROOTFS:?}"/usr/share/man/* "${ROOTFS:?}"/usr/share/info/* \
	"${ROOTFS:?}"/usr/share/locale/* "${ROOTFS:?}"/usr/share/go-*/test
cat >"$ROOTFS/etc/dpkg/dpkg.cfg.d/01-lolbench-nodoc" <<'EOF2'
path-exclude /usr/share/doc/*
path-exclude /usr/share/man/*
path-exclude /usr/share/info/*
path-exclude /usr/share/locale/*
EOF2
for p in "${PACKAGES[@]}"; do
	chroot "$ROOTFS" dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		{ echo "base-image: package $p is not installed in the root filesystem" >&2; exit 1; }
done

step "docker import -> $TAG"
tar --numeric-owner -C "$ROOTFS" -c . | docker import \
	--change "ENV PATH=$IMAGE_PATH" \
	--change 'ENV LANG=C.UTF-8' \
	--change 'ENV GOFLAGS=-buildvcs=false' \
	--change 'ENV GOTOOLCHAIN=local' \
	--change "LABEL org.lolbench.offline-base=$TAG" \
	--change 'WORKDIR /' \
	--change 'CMD ["/bin/bash"]' \
	- "$TAG" >/dev/null

step "removing the root filesystem"
rm -rf --one-file-system "$BUILD_DIR"
BUILD_DIR=""
NEW_ID=$(docker image inspect -f '{{.Id}}' "$TAG")
if [ -n "$OLD_ID" ] && [ "$OLD_ID" != "$NEW_ID" ]; then
	# --force: the replaced image would linger untagged.
	docker rmi "$OLD_ID" >/dev/null 2>&1 || log "old image $OLD_ID is still in use; left in place"
fi

step "verifying the image (docker run --network none)"
docker run --rm --network none "$TAG" sh -c 'go version && python3 -m pytest --version && python3 -m coverage --version | head -n1 && python3 -m pip --version && git --version' >&2

size=$(docker image inspect -f '{{.Size}}' "$TAG")
log "done: $TAG, $((size / 1024 / 1024)) MiB, built in $(($(date +%s) - START))s"
exit 0
}

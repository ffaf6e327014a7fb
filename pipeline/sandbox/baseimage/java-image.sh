#!/usr/bin/env bash
# java-image.sh --tag TAG --parent PARENT --tools DIR [--force]
#
# Builds lolbench's offline Java image as one layer on top of the offline
# base image PARENT (base-image.sh): OpenJDK 17, Maven 3.8 with Debian's
# offline repository (/usr/share/maven-repo), JUnit 5, Surefire and JaCoCo,
# and lolbench's two Java tools for per-test coverage (DIR holds their
# sources). Sharing PARENT's layers keeps the cold cost of a second
# language to its own packages.
#
# No registry and no network inside the build: the .deb files come from
# Debian's mirror on the host, resolved by apt against PARENT's own dpkg
# status (so virtual and already-installed dependencies resolve as apt
# resolves them; debootstrap --include cannot), then a container of PARENT
# with no network installs them from a read-only mount, and docker commit
# makes the layer. `lolbench env base --lang java` runs this script (it is
# embedded in the binary) with a tag that hashes this file, the tools and
# PARENT's tag; when the tag exists the script exits 0 at once.
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
# The JDK, Maven and the plugins the Maven projects' POMs pin to Debian's
# versions (docs/projects.md, "Java"), JUnit 5 with Surefire's JUnit
# Platform provider, JaCoCo (agent and core; Debian has no Maven plugin).
PACKAGES=(openjdk-17-jdk-headless maven junit5 libsurefire-java libjacoco-java
	libmaven-resources-plugin-java libmaven-compiler-plugin-java libmaven-jar-plugin-java)
TOOLDIR=/usr/local/share/lolbench/java

usage() {
	cat <<USAGE
usage: java-image.sh --tag TAG --parent PARENT --tools DIR [--force]

Build the offline Java image TAG on top of PARENT. Exits 0 at once when the
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
	*) echo "java-image: unknown argument $1" >&2; usage >&2; exit 2 ;;
	esac
	shift
done
[ -n "$TAG" ] && [ -n "$PARENT" ] && [ -d "$TOOLS" ] || { usage >&2; exit 2; }

START=$(date +%s)
STEP="start"
log() { printf 'java-image: [%ss] %s\n' "$(($(date +%s) - START))" "$*" >&2; }
step() { STEP="$*"; log "$STEP"; }

BUILD_DIR=""
CONTAINER=""
cleanup() {
	local rc=$?
	[ -n "$CONTAINER" ] && docker rm -f "$CONTAINER" >/dev/null 2>&1 || true
	[ -n "$BUILD_DIR" ] && rm -rf --one-file-system "$BUILD_DIR"
	[ $rc -ne 0 ] && echo "java-image: FAILED at step: $STEP (exit $rc)" >&2
	exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM

step "checking docker"
command -v docker >/dev/null || { echo "java-image: docker CLI not found" >&2; exit 1; }
if [ "$FORCE" = 0 ] && docker image inspect "$TAG" >/dev/null 2>&1; then
	log "image $TAG exists; nothing to do (use --force to rebuild)"
	exit 0
fi
docker image inspect "$PARENT" >/dev/null 2>&1 || { echo "java-image: the parent image $PARENT is missing: build it with 'lolbench env base'" >&2; exit 1; }
[ "$(id -u)" = 0 ] || { echo "java-image: must run as root (apt's state and cache)" >&2; exit 1; }
command -v apt-get >/dev/null || { echo "java-image: apt-get not found: the packages are resolved with the host's apt" >&2; exit 1; }

step "waiting for other builds (lock /var/lock/lolbench-java-image.lock)"
exec 9>/var/lock/lolbench-java-image.lock
flock 9
if [ "$FORCE" = 0 ] && docker image inspect "$TAG" >/dev/null 2>&1; then
	log "image $TAG was built meanwhile; nothing to do"
	exit 0
fi
OLD_ID=$(docker image inspect -f '{{.Id}}' "$TAG" 2>/dev/null || true)

BUILD_DIR=$(mktemp -d /var/tmp/lolbench-java-image.XXXXXX)
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
# The parent leaves manual pages out (dpkg path-exclude), but the JDK's
# update-alternatives links into their folders and fails without them.
mkdir -p /usr/share/man/man1
# Local files only: apt resolves them among themselves and the installed
# packages, and reaches for no list and no network.
apt-get install -y -q --no-install-recommends /debs/*.deb >/tmp/install.log 2>&1 ||
	{ grep -i -m 10 'error' /tmp/install.log; tail -n 20 /tmp/install.log; exit 1; }
rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin /tmp/install.log
# Maven offline against Debian's repository, for every user; a recipe's
# maven_repo puts its own local repository in the test user's settings.
cat >/etc/maven/settings.xml <<'XML'
<?xml version="1.0" encoding="UTF-8"?>
<!-- lolbench: Maven offline against Debian's repository (docs/projects.md, "Java"). -->
<settings xmlns="http://maven.apache.org/SETTINGS/1.0.0">
  <localRepository>/usr/share/maven-repo</localRepository>
  <offline>true</offline>
</settings>
XML
T=__TOOLDIR__
mkdir -p "$T" /tmp/lolbench-tools/pertest /tmp/lolbench-tools/lines
cd /tmp/lolbench-tools
# JaCoCo's agent jar is packed inside org.jacoco.agent.jar.
(cd "$T" && jar xf /usr/share/java/org.jacoco.agent.jar jacocoagent.jar)
P=/usr/share/java
javac --release 11 -nowarn -d pertest -cp "$P/junit-platform-launcher.jar:$P/junit-platform-engine.jar:$P/junit-platform-commons.jar" /tools/PerTestCoverage.java
mkdir -p pertest/META-INF/services
echo lolbench.PerTestCoverage >pertest/META-INF/services/org.junit.platform.launcher.TestExecutionListener
jar cf "$T/lolbench-pertest.jar" -C pertest .
javac --release 11 -nowarn -d lines -cp "$P/org.jacoco.core.jar" /tools/JacocoLines.java
jar cf "$T/lolbench-jacoco-lines.jar" -C lines .
install -m 0755 /tools/lolbench-maven-test /usr/local/bin/lolbench-maven-test
cd /
rm -rf /tmp/lolbench-tools
chmod -R a+rX "$T"
INSTALL
sed -i "s|__TOOLDIR__|$TOOLDIR|" "$BUILD_DIR/install.sh"

step "installing in a container of $PARENT (no network)"
CONTAINER="lolbench-java-image-$$"
docker run --name "$CONTAINER" --network none -u 0 \
	-v "$A/archives:/debs:ro" -v "$BUILD_DIR/tools:/tools:ro" -v "$BUILD_DIR/install.sh:/install.sh:ro" \
	"$PARENT" sh /install.sh >&2

step "docker commit -> $TAG"
JAVA_HOME=/usr/lib/jvm/java-17-openjdk-amd64
docker commit \
	--change "ENV JAVA_HOME=$JAVA_HOME" \
	--change "ENV LOLBENCH_JAVA_TOOLS=$TOOLDIR" \
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
docker run --rm --network none "$TAG" sh -c 'java -version 2>&1 | head -n1 && mvn -v 2>&1 | head -n1 && ls '"$TOOLDIR"' && command -v lolbench-maven-test' >&2

size=$(docker image inspect -f '{{.Size}}' "$TAG")
log "done: $TAG, $((size / 1024 / 1024)) MiB in all, built in $(($(date +%s) - START))s"
exit 0
}

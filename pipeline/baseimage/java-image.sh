#!/usr/bin/env bash
# java-image.sh --tag TAG --parent PARENT --tools DIR [--force]
#
# Builds lolbench's offline Java image as one layer on top of the offline
# base image PARENT (base-image.sh), as layer-image.sh builds every
# language's: OpenJDK 17, Maven 3.8 with Debian's offline repository
# (/usr/share/maven-repo), JUnit 5, Surefire and JaCoCo, and lolbench's two
# Java tools for per-test coverage (DIR holds their sources). `lolbench env
# base --lang java` runs it. See docs/projects.md, "The offline base image".
set -euo pipefail
IMAGE=java-image
WHAT="Java"
# The JDK, Maven and the plugins the Maven projects' POMs pin to Debian's
# versions (docs/projects.md, "Java"), JUnit 5 with Surefire's JUnit
# Platform provider, JaCoCo (agent and core; Debian has no Maven plugin).
PACKAGES=(openjdk-17-jdk-headless maven junit5 libsurefire-java libjacoco-java
	libmaven-resources-plugin-java libmaven-compiler-plugin-java libmaven-jar-plugin-java)
TOOLDIR=/usr/local/share/lolbench/java
# Maven offline against Debian's repository, for every user (a recipe's
# maven_repo puts its own local repository in the test user's settings);
# JaCoCo's agent jar, packed inside org.jacoco.agent.jar; the per-test
# listener and the line reader, compiled against Debian's jars.
INSTALL='cat >/etc/maven/settings.xml <<XML
<?xml version="1.0" encoding="UTF-8"?>
<!-- lolbench: Maven offline against Debian'"'"'s repository (docs/projects.md, "Java"). -->
<settings xmlns="http://maven.apache.org/SETTINGS/1.0.0">
  <localRepository>/usr/share/maven-repo</localRepository>
  <offline>true</offline>
</settings>
XML
mkdir -p "$T" /tmp/lolbench-tools/pertest /tmp/lolbench-tools/lines
cd /tmp/lolbench-tools
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
chmod -R a+rX "$T"'
ENV_CHANGES=("JAVA_HOME=/usr/lib/jvm/java-17-openjdk-amd64" "LOLBENCH_JAVA_TOOLS=$TOOLDIR")
VERIFY='java -version 2>&1 | head -n1 && mvn -v 2>&1 | head -n1 && ls '"$TOOLDIR"' && command -v lolbench-maven-test'
. "$(dirname "$0")/layer-image.sh"

#!/bin/sh
# Prints the home of the JDK 25 that the build, the tests and the local stack run on: JAVA_HOME when it is a JDK 25,
# else one installed in /usr/lib/jvm (our machines have Temurin 25 beside the system's JDK 17), else the java on
# the PATH when it is 25. Fails with what to install when there is none. Used by ./mvnw and deploy/local/lib.sh.
set -eu
is_jdk25() {
  [ -x "$1/bin/javac" ] && grep -q '^JAVA_VERSION="25[."]' "$1/release" 2>/dev/null
}
if [ -n "${JAVA_HOME:-}" ] && is_jdk25 "$JAVA_HOME"; then
  echo "$JAVA_HOME"
  exit 0
fi
for home in /usr/lib/jvm/temurin-25-jdk* /usr/lib/jvm/java-25-openjdk* /usr/lib/jvm/jdk-25*; do
  if is_jdk25 "$home"; then
    echo "$home"
    exit 0
  fi
done
if javac_path="$(command -v javac 2>/dev/null)"; then
  home="$(dirname "$(dirname "$(readlink -f "$javac_path")")")"
  if is_jdk25 "$home"; then
    echo "$home"
    exit 0
  fi
fi
echo "no JDK 25 found: install one (Temurin 25 from Adoptium's apt repository) or point JAVA_HOME at it" >&2
exit 1

#!/usr/bin/env bash
# Builds (once) the Spring AI agent's runnable jar under $E2E_CACHE_DIR, keyed by the hash of its
# pom.xml and sources, and prints the command that runs it. Maven's downloads go under the cache
# too (maven-repo). The build runs in a copy of the project, and the jar is moved to its place
# whole, so a build that fails or is stopped leaves nothing half-made.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
CACHE="${E2E_CACHE_DIR:-$HOME/.cache/otel-tool-errors}"
KEY="$(cd "$HERE" && find pom.xml src -type f | LC_ALL=C sort | xargs sha256sum | sha256sum | cut -c1-12)"
JAR="$CACHE/java-agent-$KEY/spring-ai-agent.jar"
if [ ! -f "$JAR" ]; then
  command -v java >/dev/null 2>&1 && command -v mvn >/dev/null 2>&1 ||
    { echo "java-agent: java and mvn are needed on PATH" >&2; exit 1; }
  echo "java-agent: building $HERE into $JAR (a cold build downloads its dependencies)" >&2
  t0=$(date +%s)
  build="$(mktemp -d "${TMPDIR:-/tmp}/java-agent.XXXXXX")"
  trap 'rm -rf "$build"' EXIT
  cp -r "$HERE/pom.xml" "$HERE/src" "$build/"
  if ! mvn -q -B -Dstyle.color=never -f "$build/pom.xml" -Dmaven.repo.local="$CACHE/maven-repo" package >&2; then
    echo "java-agent: mvn package failed" >&2
    exit 1
  fi
  mkdir -p "$(dirname "$JAR")"
  mv "$build/target/spring-ai-agent.jar" "$JAR.tmp.$$"
  mv "$JAR.tmp.$$" "$JAR"
  echo "java-agent: built in $(($(date +%s) - t0))s" >&2
fi
echo "java -jar $JAR"

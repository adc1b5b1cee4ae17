#!/usr/bin/env bash
# Reactor Netty's answers to pipelined requests with a `Connection: close` among them, on plain
# Reactor Netty at the version this stack's pom.xml resolves (README.md, "Keep-alive"): run from
# anywhere, with JDK 25 and Maven. Runs PipelinedClose.java twice, without and with the system
# property the stack sets in jvm.options; exits 1 if either run left a request unanswered.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
# Maven's own Guava calls sun.misc.Unsafe, which JDK 25 warns about on every run.
export MAVEN_OPTS=${MAVEN_OPTS:---sun-misc-unsafe-memory-access=allow}
java=$JAVA_HOME/bin/java
classpath=target/measurements.classpath
mvn -B -q dependency:build-classpath -Dmdep.includeScope=runtime -Dmdep.outputFile="$classpath"
status=0
for flush in false true; do
  "$java" --enable-native-access=ALL-UNNAMED -cp "$(cat "$classpath")" \
    -Dreactor.netty.http.server.lastFlushWhenNoRead=$flush measurements/PipelinedClose.java || status=1
done
exit $status

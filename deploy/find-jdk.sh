# shellcheck shell=bash
# Sourced by ./tunefarm and deploy/install-agent.sh (the coordinator inlines it into the installer
# it serves), so both pick Java the same way.
#
#   tunefarm_find_java MIN TOOL   sets TUNEFARM_JAVA_HOME to a Java MIN+ home that has bin/TOOL
#                                 (javac: a JDK, to build; java: a runtime is enough), or returns 1.
#
# Order: $JAVA_HOME if it qualifies; else the newest qualifying one under /usr/lib/jvm (Debian,
# Ubuntu), $PREFIX/lib/jvm (Termux) or /Library/Java (macOS); else the one on PATH.

# Prints the feature version (17, 21, 25) of the Java at $1, or nothing if $1/bin/$2 is missing.
tunefarm_java_major() {
  local home=$1 tool=$2 v=""
  [[ -x $home/bin/java && -x $home/bin/$tool ]] || return 0
  # The release file is cheap to read; starting a JVM per candidate is not.
  if [[ -f $home/release ]]; then
    # A foreign architecture's Java (an arm64 JRE installed beside the x86 one for emulation)
    # would not start here.
    local arch
    arch=$(sed -n 's/^OS_ARCH="\(.*\)"$/\1/p' "$home/release")
    arch=${arch/amd64/x86_64} arch=${arch/arm64/aarch64}
    [[ -z $arch || $arch == "$(uname -m)" ]] || return 0
    v=$(sed -n 's/^JAVA_VERSION="\(.*\)"$/\1/p' "$home/release")
  fi
  [[ -n $v ]] || v=$("$home/bin/java" -version 2>&1 | sed -n '1s/.*version "\([^"]*\)".*/\1/p')
  v=${v#1.}          # 1.8.0_392 -> 8.0_392
  echo "${v%%[!0-9]*}"
}

tunefarm_find_java() {
  local min=$1 tool=$2 best="" best_v=0 v d
  TUNEFARM_JAVA_HOME=""
  if [[ -n ${JAVA_HOME:-} ]]; then
    v=$(tunefarm_java_major "$JAVA_HOME" "$tool")
    if [[ -n $v ]] && (( v >= min )); then TUNEFARM_JAVA_HOME=$JAVA_HOME; return 0; fi
  fi
  for d in /usr/lib/jvm/*/ ${PREFIX:+"$PREFIX"/lib/jvm/*/} /Library/Java/JavaVirtualMachines/*/Contents/Home/; do
    d=${d%/}
    v=$(tunefarm_java_major "$d" "$tool")
    if [[ -n $v ]] && (( v >= min && v > best_v )); then best=$d best_v=$v; fi
  done
  if [[ -z $best ]] && command -v "$tool" >/dev/null 2>&1; then
    d=$(dirname "$(dirname "$(readlink -f "$(command -v "$tool")")")")
    v=$(tunefarm_java_major "$d" "$tool")
    if [[ -n $v ]] && (( v >= min )); then best=$d; fi
  fi
  [[ -n $best ]] || return 1
  # shellcheck disable=SC2034  # read by the caller
  TUNEFARM_JAVA_HOME=$best
}

# Maven's bundled guava warns about sun.misc.Unsafe on Java 23+: noise about Maven, not tunefarm.
tunefarm_quiet_maven() {
  local v
  v=$(tunefarm_java_major "$JAVA_HOME" java)
  if [[ -n $v ]] && (( v >= 23 )); then export MAVEN_OPTS="${MAVEN_OPTS:-} --sun-misc-unsafe-memory-access=allow"; fi
}

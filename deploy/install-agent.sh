#!/usr/bin/env bash
# Installs a tunefarm agent on a Linux board (Raspberry Pi OS, Jetson L4T, Debian, Ubuntu) or an
# Android phone (Termux), and starts it. A coordinator serves this script at /install/agent.sh with
# its own address and bridge port filled in:
#
#   curl -fsSL http://FARM:8080/install/agent.sh | bash -s -- --token-file FILE [OPTIONS]
#   curl -fsSL http://FARM:8080/install/agent.sh | TUNEFARM_TOKEN=... bash -s -- [OPTIONS]
#   deploy/install-agent.sh --jar FILE --coordinator HOST:PORT --token-file FILE   (from a checkout)
#
#   --token-file FILE         the farm token (its first line); or TUNEFARM_TOKEN in the environment
#   --farm URL                the farm's HTTP address, to fetch the agent jar from (filled in when served)
#   --coordinator H:P[,H:P]   the agent bridge (default: the farm's host and the bridge port it serves)
#   --jar FILE                install this agent jar instead of the farm's
#   --trust FILE              PEM CA or certificate of a farm with a self-signed TLS certificate
#   --tls                     the bridge speaks TLS (set already when the farm serves over TLS)
#   --id ID  --label K=V      the agent's id (default: the host name) and labels (repeatable)
#   --prefix DIR              jar, config and run script (default: /opt/tunefarm as root,
#                             $PREFIX/opt/tunefarm in Termux, ~/.local/share/tunefarm-agent otherwise)
#   --state DIR               the agent's own folder: token file, credentials (default:
#                             /var/lib/tunefarm-agent as root, else PREFIX/state)
#   --java DIR                the Java home to run the agent with (default: found, 17 or newer)
#   --foreground              run the agent here and now, as you: no service, no account
#   --no-start                install only; print how to start
#
# As root on Linux the agent runs as user tunefarm under systemd (tunefarm-agent.service); in
# Termux under termux-services when installed. The token goes into a file only the agent's user
# can read; it never appears in a command line.
set -euo pipefail

# A coordinator serving this script fills in these three lines.
SERVED_FARM=""
SERVED_BRIDGE_PORT=""
SERVED_BRIDGE_TLS=""

HERE=""
[[ -n ${BASH_SOURCE[0]:-} && -f ${BASH_SOURCE[0]} ]] && HERE=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
# shellcheck source=deploy/find-jdk.sh
source "$HERE/find-jdk.sh"

say() { echo "tunefarm-agent: $*" >&2; }
die() { say "$1"; exit "${2:-1}"; }

FARM=$SERVED_FARM COORD="" JAR="" TRUST="" TLS=$SERVED_BRIDGE_TLS AGENT_ID="" LABELS=() TOKEN_FILE=""
DEST="" STATE="" JAVA_DIR="" FOREGROUND="" NO_START=""
while (( $# )); do
  case $1 in
    --token-file) TOKEN_FILE=${2:?--token-file needs a file}; shift 2 ;;
    --token) die "--token would put the farm token in a command line: use --token-file FILE or TUNEFARM_TOKEN" 2 ;;
    --farm) FARM=${2:?--farm needs a URL}; shift 2 ;;
    --coordinator) COORD=${2:?--coordinator needs HOST:PORT}; shift 2 ;;
    --jar) JAR=${2:?--jar needs a file}; shift 2 ;;
    --trust) TRUST=${2:?--trust needs a PEM file}; shift 2 ;;
    --tls) TLS=1; shift ;;
    --id) AGENT_ID=${2:?--id needs a value}; shift 2 ;;
    --label) LABELS+=("${2:?--label needs KEY=VALUE}"); shift 2 ;;
    --prefix) DEST=${2:?--prefix needs a folder}; shift 2 ;;
    --state) STATE=${2:?--state needs a folder}; shift 2 ;;
    --java) JAVA_DIR=${2:?--java needs a Java home}; shift 2 ;;
    --foreground) FOREGROUND=1; shift ;;
    --no-start) NO_START=1; shift ;;
    -h|--help) echo "usage: install-agent.sh [--token-file FILE] [--farm URL] [--coordinator HOST:PORT] [--jar FILE] [--trust PEM]"
               echo "         [--tls] [--id ID] [--label K=V]... [--prefix DIR] [--state DIR] [--java DIR] [--foreground | --no-start]"; exit 0 ;;
    *) die "unknown option: $1 (see --help)" 2 ;;
  esac
done

# Values that go into agent.yaml quoted, so they are checked rather than escaped.
[[ -z $FARM || $FARM =~ ^https?://[][A-Za-z0-9.:_-]+/?$ ]] || die "--farm: expected http(s)://HOST[:PORT], not '$FARM'" 2
[[ -z $COORD || $COORD =~ ^[A-Za-z0-9._-]+:[0-9]{1,5}(,[A-Za-z0-9._-]+:[0-9]{1,5})*$ ]] || die "--coordinator: expected HOST:PORT[,HOST:PORT...], not '$COORD'" 2
[[ -z $AGENT_ID || $AGENT_ID =~ ^[A-Za-z0-9._:-]+$ ]] || die "--id: use letters, digits and ._:- only" 2
for l in "${LABELS[@]}"; do [[ $l =~ ^[A-Za-z0-9._-]+=[A-Za-z0-9._:/@+-]*$ ]] || die "--label: '$l' is not KEY=VALUE (letters, digits, ._:/@+-)" 2; done
FARM=${FARM%/}

TERMUX=""
[[ -n ${TERMUX_VERSION:-} || ${PREFIX:-} == */com.termux/* ]] && TERMUX=1
ROOT=""
[[ $(id -u) == 0 && -z $TERMUX ]] && ROOT=1
SERVICE=""   # systemd, termux-services, or empty
if [[ -z $FOREGROUND && -z $NO_START ]]; then
  if [[ -n $TERMUX && -d ${PREFIX:-}/var/service ]]; then SERVICE=termux-services
  elif [[ -n $ROOT && -d /run/systemd/system ]]; then SERVICE=systemd
  fi
fi
# A service runs as its own account; a foreground agent is yours.
AGENT_USER=$(id -un)
[[ $SERVICE == systemd ]] && AGENT_USER=tunefarm
if [[ -z $DEST ]]; then
  if [[ -n $TERMUX ]]; then DEST=$PREFIX/opt/tunefarm
  elif [[ -n $ROOT ]]; then DEST=/opt/tunefarm
  else DEST=${XDG_DATA_HOME:-$HOME/.local/share}/tunefarm-agent
  fi
fi
if [[ -z $STATE ]]; then
  if [[ -n $ROOT && $DEST == /opt/tunefarm ]]; then STATE=/var/lib/tunefarm-agent; else STATE=$DEST/state; fi
fi
# ---- the token: into a file only the agent's user reads ----
if [[ -n $TOKEN_FILE ]]; then
  [[ -r $TOKEN_FILE ]] || die "--token-file: cannot read $TOKEN_FILE"
  TOKEN=$(head -n 1 "$TOKEN_FILE" | tr -d '[:space:]')
else
  TOKEN=${TUNEFARM_TOKEN:-}
fi
if [[ -z $TOKEN && ! -s $STATE/farm-token ]]; then
  die "the farm token is needed: --token-file FILE, or TUNEFARM_TOKEN in the environment (it is 'token' in the coordinator's config)" 2
fi

# ---- Java: the agent runs on 17 or newer; the kernels are fastest on a recent JIT ----
apt_has() { command -v apt-cache >/dev/null && apt-cache policy "$1" 2>/dev/null | grep -q 'Candidate: [0-9]'; }
# The package that gives this system a Java the agent runs on.
java_advice() {
  if [[ -n $TERMUX ]]; then echo "pkg install openjdk-21"
  elif apt_has openjdk-21-jre-headless; then echo "sudo apt install openjdk-21-jre-headless"
  elif command -v apt-get >/dev/null; then echo "sudo apt install openjdk-17-jre-headless   (Debian 12, Raspberry Pi OS 12 and Ubuntu 22.04 have no newer one)"
  else echo "a Java 17+ runtime from your distribution, or Temurin from https://adoptium.net"
  fi
}
# Where a newer JIT comes from on a system whose Java is older than 21.
newer_java_advice() {
  if [[ -n $TERMUX ]]; then echo "pkg install openjdk-21"
  elif apt_has openjdk-21-jre-headless; then echo "sudo apt install openjdk-21-jre-headless"
  else echo "Temurin 21+ from https://adoptium.net (packages.adoptium.net has Debian/Raspberry Pi OS/Ubuntu packages for arm64 and x64)"
  fi
}
AGENT_MIN_JAVA=17
# As tunefarm_java_major, but asks the JVM itself when the release file names another architecture
# (an emulated board's Java given with --java).
java_major() {
  local v
  v=$(tunefarm_java_major "$1" java)
  [[ -n $v || ! -x $1/bin/java ]] || { v=$("$1/bin/java" -version 2>&1 | sed -n '1s/.*version "\([0-9]*\).*/\1/p'); }
  echo "$v"
}
if [[ -n $JAVA_DIR ]]; then
  v=$(java_major "$JAVA_DIR")
  if [[ -z $v ]] || (( v < AGENT_MIN_JAVA )); then die "--java: $JAVA_DIR is not a Java $AGENT_MIN_JAVA+ home"; fi
  TUNEFARM_JAVA_HOME=$JAVA_DIR
elif ! tunefarm_find_java "$AGENT_MIN_JAVA" java; then
  die "no Java $AGENT_MIN_JAVA or newer found. Install one: $(java_advice); then run this again."
fi
JAVA_HOME_USED=$(cd "$TUNEFARM_JAVA_HOME" && pwd -P)
JAVA_MAJOR=$(java_major "$JAVA_HOME_USED")
say "java: $JAVA_HOME_USED (Java $JAVA_MAJOR)"
VECTOR=""
if "$JAVA_HOME_USED/bin/java" --list-modules 2>/dev/null | grep -q '^jdk.incubator.vector'; then
  VECTOR="--add-modules jdk.incubator.vector"
else
  say "note: this Java has no jdk.incubator.vector module, so the Vector API kernels report INVALID; a full JRE package has it."
fi
if (( JAVA_MAJOR < 21 )); then
  say "note: the agent runs on Java $JAVA_MAJOR, but a newer JIT compiles the Vector API kernels much faster (Temurin 25 best);"
  say "      $(newer_java_advice), then run this again. The JVM is part of the device class: a 17 board is its own class."
fi

# Checks passed: now the folders.
mkdir -p "$DEST" "$STATE"
DEST=$(cd "$DEST" && pwd) STATE=$(cd "$STATE" && pwd)

# ---- the agent jar: the farm's, checked against the SHA-256 it serves, or a local one ----
CURL=(curl -fsSL --retry 3)
[[ -n $TRUST ]] && { [[ -r $TRUST ]] || die "--trust: cannot read $TRUST"; CURL+=(--cacert "$TRUST"); }
sha256() { if command -v sha256sum >/dev/null; then sha256sum "$1"; else shasum -a 256 "$1"; fi | cut -d' ' -f1; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
if [[ -z $JAR && -n $FARM ]]; then
  command -v curl >/dev/null || die "curl is needed to fetch the agent: apt install curl (Termux: pkg install curl)"
  [[ $FARM == https://* ]] || say "warning: $FARM is plain HTTP, so the checksum below only catches a damaged download, not a forged one; give the farm TLS."
  "${CURL[@]}" -o "$TMP/tunefarm-agent.jar" "$FARM/install/tunefarm-agent.jar" || die "could not fetch $FARM/install/tunefarm-agent.jar"
  "${CURL[@]}" -o "$TMP/sha256" "$FARM/install/tunefarm-agent.jar.sha256" || die "could not fetch $FARM/install/tunefarm-agent.jar.sha256"
  want=$(cut -d' ' -f1 "$TMP/sha256") got=$(sha256 "$TMP/tunefarm-agent.jar")
  [[ $want =~ ^[0-9a-f]{64}$ && $want == "$got" ]] || die "the agent jar's SHA-256 is $got, but the farm says ${want:-nothing}: not installing it"
  say "agent jar: $FARM/install/tunefarm-agent.jar (SHA-256 $got, checked)"
  JAR=$TMP/tunefarm-agent.jar
elif [[ -z $JAR && -n $HERE ]]; then
  for f in "$HERE"/../agent/target/tunefarm-agent-*-all.jar "$HERE"/tunefarm-agent*.jar; do [[ -f $f ]] && { JAR=$f; break; }; done
fi
[[ -n $JAR && -f $JAR ]] || die "no agent jar: give --farm URL (or run the script the farm serves), or --jar FILE"

# ---- where the agent connects ----
if [[ -z $COORD ]]; then
  [[ -n $FARM && -n $SERVED_BRIDGE_PORT ]] || die "--coordinator HOST:PORT is needed (the bridge address from the coordinator's config)" 2
  host=${FARM#*://}; host=${host%%/*}; host=${host%:*}
  COORD=$host:$SERVED_BRIDGE_PORT
fi
LINK=()
if [[ -n $TRUST ]]; then install -m 644 "$TRUST" "$DEST/farm-trust.pem"; LINK=(--trust "$DEST/farm-trust.pem")
elif [[ -n $TLS ]]; then LINK=(--tls)
fi

# ---- files ----
install -m 644 "$JAR" "$DEST/tunefarm-agent.jar.new" && mv "$DEST/tunefarm-agent.jar.new" "$DEST/tunefarm-agent.jar"
if [[ -n $TOKEN ]]; then
  ( umask 077; printf '%s\n' "$TOKEN" > "$STATE/farm-token.new" )
  mv "$STATE/farm-token.new" "$STATE/farm-token"
fi
if [[ $AGENT_USER == tunefarm && $(id -un) != tunefarm ]]; then
  id tunefarm >/dev/null 2>&1 ||
    useradd --system --user-group --home-dir "$STATE" --no-create-home --shell /usr/sbin/nologin tunefarm
  # A Pi's throttle bits: vcgencmd opens /dev/vchiq, the video group's (the unit adds it as well).
  if getent group video >/dev/null 2>&1; then usermod -aG video tunefarm; fi
  chown -R tunefarm:tunefarm "$STATE"
fi

# RAPL energy counters are root-only since Linux 5.10 (closed for a side channel): opening them to
# the agent is the board owner's call, so the installer only says how.
RAPL=/sys/class/powercap/intel-rapl:0/energy_uj
rapl_readable() {
  local mode group
  [[ $AGENT_USER == root ]] && return 0
  mode=$(stat -c %A "$RAPL" 2>/dev/null) || return 0
  group=$(stat -c %G "$RAPL" 2>/dev/null)
  [[ ${mode:7:1} == r ]] || { [[ ${mode:4:1} == r && " $(id -nG "$AGENT_USER" 2>/dev/null) " == *" $group "* ]]; }
}
if [[ -z $TERMUX && -e $RAPL ]] && ! rapl_readable; then
  AGENT_GROUP=$(id -gn "$AGENT_USER" 2>/dev/null || echo "$AGENT_USER")
  say "energy: RAPL counters ($RAPL) are readable by root only, so records carry no energy figure."
  say "  To let the agent's group ($AGENT_GROUP) read them, as root:"
  say "  echo 'ACTION==\"add\", SUBSYSTEM==\"powercap\", KERNEL==\"intel-rapl:*\", RUN+=\"/bin/chgrp $AGENT_GROUP /sys%p/energy_uj\", RUN+=\"/bin/chmod g+r /sys%p/energy_uj\"' > /etc/udev/rules.d/70-tunefarm-rapl.rules"
  say "  udevadm trigger --subsystem-match=powercap --action=add"
fi
chmod 700 "$STATE"
chmod 600 "$STATE/farm-token"

# agent.yaml: a reinstall keeps the file (labels, command kernels) and rewrites only the
# coordinators, the token file, and the id given here.
CONFIG=$DEST/agent.yaml
if [[ ! -f $CONFIG ]]; then
  {
    echo "# tunefarm agent. install-agent.sh wrote this; a reinstall rewrites only coordinators, tokenFile and id."
    echo "coordinators: []"
    echo "tokenFile: \"\""
    echo "id: \"\""
    if (( ${#LABELS[@]} )); then
      echo "labels:"
      for l in "${LABELS[@]}"; do echo "  ${l%%=*}: \"${l#*=}\""; done
    fi
  } > "$CONFIG"
fi
TF_COORD=$COORD TF_TOKEN_FILE=$STATE/farm-token TF_ID=$AGENT_ID awk '
  /^coordinators:/ { print "coordinators:"; n = split(ENVIRON["TF_COORD"], cs, ",")
                     for (i = 1; i <= n; i++) print "  - \"" cs[i] "\""
                     skip = 1; next }
  skip && /^  - / { next }
  { skip = 0 }
  /^token:/ { next }      # the token lives in tokenFile, never in this file
  /^tokenFile:/ { print "tokenFile: \"" ENVIRON["TF_TOKEN_FILE"] "\""; next }
  /^id:/ && ENVIRON["TF_ID"] != "" { print "id: \"" ENVIRON["TF_ID"] "\""; next }
  { print }' "$CONFIG" > "$CONFIG.new"
grep -q '^tokenFile:' "$CONFIG.new" || echo "tokenFile: \"$STATE/farm-token\"" >> "$CONFIG.new"
chmod 644 "$CONFIG.new" && mv "$CONFIG.new" "$CONFIG"

# One run script for every way of starting: it names no secret.
SHELL_PATH=/bin/sh
[[ -n $TERMUX ]] && SHELL_PATH=$PREFIX/bin/sh
cat > "$DEST/run-agent.sh" <<RUN
#!$SHELL_PATH
# Starts the tunefarm agent (written by install-agent.sh). Extra JVM options: TUNEFARM_JAVA_OPTS.
cd "$STATE" || exit 1
# shellcheck disable=SC2086
exec "$JAVA_HOME_USED/bin/java" \$TUNEFARM_JAVA_OPTS $VECTOR -jar "$DEST/tunefarm-agent.jar" --config "$CONFIG" ${LINK[*]}
RUN
chmod 755 "$DEST/run-agent.sh"
say "installed in $DEST (state: $STATE, agent user: $AGENT_USER); bridge $COORD${LINK:+ over TLS}"

# ---- start ----
unit_template() { cat "$HERE/tunefarm-agent.service"; }
if [[ -n $FOREGROUND ]]; then
  say "running in the foreground (Ctrl-C stops it)"
  trap - EXIT; rm -rf "$TMP"
  exec "$DEST/run-agent.sh"
elif [[ $SERVICE == systemd ]]; then
  unit=$(unit_template)
  # systemd refuses to start a unit whose SupplementaryGroups= names a group the system lacks.
  getent group video >/dev/null 2>&1 || unit=$(sed '/^SupplementaryGroups=video$/d' <<<"$unit")
  sed -e "s|@PREFIX@|$DEST|g" -e "s|@STATE@|$STATE|g" -e "s|@USER@|$AGENT_USER|g" <<<"$unit" \
    > /etc/systemd/system/tunefarm-agent.service
  systemctl daemon-reload
  systemctl enable --quiet tunefarm-agent.service
  systemctl restart tunefarm-agent.service
  say "started: systemctl status tunefarm-agent; follow: journalctl -fu tunefarm-agent"
elif [[ $SERVICE == termux-services ]]; then
  SV=$PREFIX/var/service/tunefarm-agent
  mkdir -p "$SV/log"
  printf '#!%s/bin/sh\nexec 2>&1\nexec %s/run-agent.sh\n' "$PREFIX" "$DEST" > "$SV/run"
  chmod 755 "$SV/run"
  ln -sf "$PREFIX/share/termux-services/svlogger" "$SV/log/run"
  if command -v sv-enable >/dev/null; then
    sv-enable tunefarm-agent
    say "started under termux-services (log: $PREFIX/var/log/sv/tunefarm-agent)."
  else
    say "installed as a termux-services service: start it with sv-enable tunefarm-agent."
  fi
  say "Run termux-wake-lock too, so Android does not suspend the CPU mid-batch."
elif [[ -n $TERMUX ]]; then
  say "start: termux-wake-lock; $DEST/run-agent.sh   (or pkg install termux-services, restart Termux, and run this again)"
else
  say "start: $DEST/run-agent.sh${ROOT:+   (no systemd here: run it as a user that can read $STATE)}"
fi

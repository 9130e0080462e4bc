#!/usr/bin/env bash
# Installs a tunefarm agent on a Linux board (as root) or an Android phone (Termux).
#   deploy/install-agent.sh [--jar FILE] [--config FILE] [--coordinator HOST:PORT[,HOST:PORT]] [--token T]
# The jar defaults to the one this checkout built (./tunefarm --help builds it), or one beside
# this script; the config to configs/agent.yaml. An installed agent.yaml is kept, and only the
# coordinators and token given here are changed in it.
# Linux: /opt/tunefarm, user tunefarm, tunefarm-agent.service where systemd runs.
# Termux: $PREFIX/opt/tunefarm and a run script; prints how to keep it running.
set -euo pipefail
HERE=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
# shellcheck source=deploy/find-jdk.sh
source "$HERE/find-jdk.sh"

JAR="" CONFIG=$HERE/../configs/agent.yaml COORD="" TOKEN=""
while (( $# )); do
  case $1 in
    --jar) JAR=${2:?--jar needs a file}; shift 2 ;;
    --config) CONFIG=${2:?--config needs a file}; shift 2 ;;
    --coordinator) COORD=${2:?--coordinator needs HOST:PORT}; shift 2 ;;
    --token) TOKEN=${2:?--token needs a value}; shift 2 ;;
    -h|--help) sed -n '2,9s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) echo "unknown argument: $1 (see --help)" >&2; exit 2 ;;
  esac
done
# Checked so that they can go into agent.yaml quoted, without escaping.
[[ -z $COORD || $COORD =~ ^[][A-Za-z0-9.:_-]+(,[][A-Za-z0-9.:_-]+)*$ ]] || { echo "--coordinator: expected HOST:PORT[,HOST:PORT...]" >&2; exit 2; }
[[ -z $TOKEN || $TOKEN =~ ^[A-Za-z0-9._~+/=-]+$ ]] || { echo "--token: use letters, digits and ._~+/=- only" >&2; exit 2; }

if [[ -z $JAR ]]; then
  for f in "$HERE"/../agent/target/tunefarm-agent-*-all.jar "$HERE"/tunefarm-agent*.jar; do
    [[ -f $f ]] && { JAR=$f; break; }
  done
fi
[[ -n $JAR && -f $JAR ]] || { echo "no agent jar: build it with ./tunefarm --help, or pass --jar FILE" >&2; exit 1; }
[[ -f $CONFIG ]] || { echo "no config at $CONFIG: pass --config FILE" >&2; exit 1; }

TERMUX=""
[[ -n ${TERMUX_VERSION:-} || ${PREFIX:-} == */com.termux/* ]] && TERMUX=1
if ! tunefarm_find_java 21 java; then
  if [[ -n $TERMUX ]]; then echo "the agent needs Java 21 or newer: pkg install openjdk-21, then run this again." >&2
  else echo "the agent needs Java 21 or newer: apt-get install openjdk-21-jre-headless (Debian 13, Ubuntu 24.04; on Debian 12 install Temurin 21+ from packages.adoptium.net), then run this again." >&2
  fi
  exit 1
fi

# Writes agent.yaml at $1 from the installed one (or $CONFIG), with --coordinator/--token applied.
write_config() {
  local dest=$1 src=$CONFIG
  [[ -f $dest ]] && src=$dest
  ( umask 077   # the token must not be readable by others, even for a moment
  TF_COORD=$COORD TF_TOKEN=$TOKEN awk '
    ENVIRON["TF_COORD"] != "" && /^coordinators:/ {
      print "coordinators:"; n = split(ENVIRON["TF_COORD"], cs, ",")
      for (i = 1; i <= n; i++) print "  - \"" cs[i] "\""
      skip = 1; next }
    skip && /^  - / { next }
    { skip = 0 }
    ENVIRON["TF_TOKEN"] != "" && /^token:/ { print "token: \"" ENVIRON["TF_TOKEN"] "\""; next }
    { print }' "$src" > "$dest.new" )
  mv "$dest.new" "$dest"
  echo "config: $dest"
}

if [[ -n $TERMUX ]]; then
  DEST=$PREFIX/opt/tunefarm
  mkdir -p "$DEST"
  cp "$JAR" "$DEST/tunefarm-agent.jar"
  write_config "$DEST/agent.yaml"
  cat > "$DEST/run-agent.sh" <<RUN
#!$PREFIX/bin/sh
exec "$TUNEFARM_JAVA_HOME/bin/java" --add-modules jdk.incubator.vector -jar "$DEST/tunefarm-agent.jar" --config "$DEST/agent.yaml"
RUN
  chmod 755 "$DEST/run-agent.sh"
  if [[ -d $PREFIX/var/service ]]; then   # termux-services (runit) restarts it when it exits
    SV=$PREFIX/var/service/tunefarm-agent
    mkdir -p "$SV/log"
    printf '#!%s/bin/sh\nexec 2>&1\nexec %s/run-agent.sh\n' "$PREFIX" "$DEST" > "$SV/run"
    chmod 755 "$SV/run"
    ln -sf "$PREFIX/share/termux-services/svlogger" "$SV/log/run"
    echo "start: termux-wake-lock; sv-enable tunefarm-agent   (log: $PREFIX/var/log/sv/tunefarm-agent)"
  else
    echo "start: termux-wake-lock; while :; do $DEST/run-agent.sh; sleep 5; done"
    echo "   or: pkg install termux-services, restart Termux, and run this again for a supervised service"
  fi
  echo "termux-wake-lock keeps Android from suspending the CPU mid-batch."
  exit 0
fi

DEST=/opt/tunefarm
[[ $(id -u) == 0 ]] || { echo "installing into $DEST needs root: sudo $0 $*" >&2; exit 1; }
id tunefarm >/dev/null 2>&1 ||
  useradd --system --user-group --home-dir /var/lib/tunefarm-agent --no-create-home --shell /usr/sbin/nologin tunefarm
install -d -m 755 "$DEST"
install -m 644 "$JAR" "$DEST/tunefarm-agent.jar"
ln -sfn "$TUNEFARM_JAVA_HOME" "$DEST/java"
write_config "$DEST/agent.yaml"
chown root:tunefarm "$DEST/agent.yaml"
chmod 640 "$DEST/agent.yaml"   # it holds the farm token
echo "java: $DEST/java -> $TUNEFARM_JAVA_HOME"

if [[ -d /run/systemd/system ]]; then
  install -m 644 "$HERE/tunefarm-agent.service" /etc/systemd/system/tunefarm-agent.service
  systemctl daemon-reload
  systemctl enable tunefarm-agent.service
  echo "start: systemctl restart tunefarm-agent; follow: journalctl -fu tunefarm-agent"
else
  echo "no systemd here; run as user tunefarm:"
  echo "  $DEST/java/bin/java --add-modules jdk.incubator.vector -jar $DEST/tunefarm-agent.jar --config $DEST/agent.yaml"
fi

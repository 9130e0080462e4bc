#!/usr/bin/env bash
# An emulated Raspberry Pi 4 for the test suite (EmulatedArmBoardTest): Debian's arm64 Java 17
# installed beside the x86 one, run by qemu-user through binfmt_misc, so that the worker JVMs the
# agent starts with its own `java` are emulated too. Run as root; safe to run again.
# Tests set QEMU_CPU=cortex-a72 in the agent's environment themselves (its workers inherit it).
set -euo pipefail

[[ $(id -u) == 0 ]] || { echo "arm64-board.sh: run as root (dpkg, apt-get, binfmt_misc)" >&2; exit 1; }

if ! dpkg --print-foreign-architectures | grep -qx arm64; then
  dpkg --add-architecture arm64
fi
apt-get update -q
# openjdk-17-jre-headless is Multi-Arch: same, so apt may also upgrade the amd64 one to the same version.
DEBIAN_FRONTEND=noninteractive apt-get install -y -q qemu-user-static openjdk-17-jre-headless:arm64

# Register qemu-aarch64 with the kernel (the F flag opens the interpreter now, so it works in containers too).
if [[ ! -e /proc/sys/fs/binfmt_misc/register ]]; then
  mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
fi
if [[ ! -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ]]; then
  cat /usr/lib/binfmt.d/qemu-aarch64.conf > /proc/sys/fs/binfmt_misc/register
fi

QEMU_CPU=cortex-a72 /usr/lib/jvm/java-17-openjdk-arm64/bin/java -version

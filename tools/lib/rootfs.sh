# SPDX-License-Identifier: Apache-2.0
# Shared shell helpers for tools/bootstrap and tools/bazel: where the Debian sid root filesystem
# lives, how it is mounted, and how commands run inside it. Sourced, never executed.

# Everything the bootstrap makes lives outside any clone, so every clone (and CI) shares it.
HELIA_HOME="${HELIA_HOME:-/opt/helia-aot}"
HELIA_ROOTFS="${HELIA_ROOTFS:-$HELIA_HOME/sid-rootfs}"
# Bazel's output root: bind-mounted at the same absolute path inside the rootfs, so the
# bazel-bin/... paths Bazel prints resolve from the host shell too.
HELIA_OUTPUT_ROOT="${HELIA_OUTPUT_ROOT:-$HELIA_HOME/bazel-output-root}"
# Paths as seen inside the rootfs.
HELIA_VENV=/opt/helia-python
HELIA_STUBS=/opt/helia-bazel-stubs
# Remote execution (opt-in: HELIA_REMOTE_EXECUTION=1 tools/bootstrap): BuildGrid's own environment and
# the Debian packages of the workers (buildbox) and of BuildGrid's scheduler database, pinned.
HELIA_REMOTE_VENV=/opt/helia-remote
HELIA_REMOTE_PACKAGES="buildbox=1.4.30+dfsg-1+b1 postgresql-18=18.6-3"
# The TensorFlow Lite Micro peer benchmark (opt-in: HELIA_TFLM_PEER=1 tools/bootstrap; tools/tflm_peer):
# TFLM is C++, so it needs the C++ standard library of the Arm toolchain (picolibc-based), pinned.
HELIA_TFLM_PEER_PACKAGES="libstdc++-arm-none-eabi=15:15.3.rel1-1+33 libstdc++-arm-none-eabi-common=15:15.3.rel1-1+33"
# Its source folders, one variable each (tools/tflm_peer.py --help; tools/bench mounts them read-only).
HELIA_TFLM_PEER_ENVS="HELIA_TFLM_DIR HELIA_TFLM_CMSIS_NN_DIR HELIA_TFLM_FLATBUFFERS_DIR HELIA_TFLM_GEMMLOWP_DIR \
HELIA_TFLM_RUY_DIR"
# Bump when the rootfs recipe changes; a rootfs made by another recipe is rebuilt.
HELIA_ROOTFS_RECIPE=1
# zip and file: Bazel's test-setup.sh zips what tests keep (TEST_UNDECLARED_OUTPUTS_DIR) and types it.
HELIA_ROOTFS_PACKAGES="bazel-bootstrap gcc-arm-none-eabi picolibc-arm-none-eabi qemu-system-arm \
python3 python3-venv ca-certificates git chromium cmake nginx zip file"

helia_die() {
  echo "helia: error: $*" >&2
  exit 1
}

# Mounts below the rootfs, deepest first (so nested mounts come off before their parents).
helia_rootfs_mounts() {
  awk -v root="$HELIA_ROOTFS" '$2 == root || index($2, root "/") == 1 { print $2 }' /proc/self/mounts |
    awk '{ print length($0) " " $0 }' | sort -rn | cut -d' ' -f2-
}

helia_bind() { # helia_bind SRC DST [ro]: idempotent bind mount of SRC at DST inside the rootfs
  local src="$1" dst="$HELIA_ROOTFS$2" mode="${3:-rw}"
  if mountpoint -q "$dst" 2>/dev/null; then return 0; fi
  if [ -d "$src" ]; then mkdir -p "$dst"; else mkdir -p "$(dirname "$dst")"; touch "$dst"; fi
  mount --bind "$src" "$dst" || helia_die "cannot bind-mount $src at $dst (are you root?)"
  if [ "$mode" = ro ]; then mount -o remount,bind,ro "$dst" 2>/dev/null || true; fi
}

helia_mount_system() {
  mountpoint -q "$HELIA_ROOTFS/proc" || mount -t proc proc "$HELIA_ROOTFS/proc" ||
    helia_die "cannot mount /proc in $HELIA_ROOTFS"
  helia_bind /dev /dev
  mountpoint -q "$HELIA_ROOTFS/dev/pts" || mount --bind /dev/pts "$HELIA_ROOTFS/dev/pts" 2>/dev/null || true
  mountpoint -q "$HELIA_ROOTFS/sys" || mount --bind /sys "$HELIA_ROOTFS/sys" 2>/dev/null || true
  # Bazel's linux-sandbox and QEMU want a writable, roomy /dev/shm and /tmp.
  mountpoint -q "$HELIA_ROOTFS/dev/shm" || mount -t tmpfs shm "$HELIA_ROOTFS/dev/shm" 2>/dev/null || true
}

helia_unmount_all() {
  local m
  for m in $(helia_rootfs_mounts); do
    umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null || echo "helia: could not unmount $m" >&2
  done
}

# Everything a command in the rootfs needs of the host, for the clone at $1: the system mounts,
# the clone and Bazel's output root at their own paths, the shared models beside the clone
# (read-only; also exported as HELIA_MODELS_DIR; without them the tests that need them skip), any
# HELIA_TFLM_MODELS_DIR folder and any ns-cmsis-nn checkout. Idempotent.
helia_mount_workspace() {
  local workspace="$1" shared
  [ -f "$HELIA_ROOTFS/var/lib/helia/ready" ] ||
    helia_die "the build environment is not set up: run tools/bootstrap first (about 3 minutes)."
  helia_mount_system
  mkdir -p "$HELIA_OUTPUT_ROOT"
  helia_bind "$workspace" "$workspace"
  helia_bind "$HELIA_OUTPUT_ROOT" "$HELIA_OUTPUT_ROOT"
  shared="$(dirname "$workspace")/shared"
  if [ -d "$shared" ]; then
    helia_bind "$shared" "$shared" ro
    if [ -z "${HELIA_MODELS_DIR:-}" ] && [ -d "$shared/models/mlperf-tiny" ]; then
      export HELIA_MODELS_DIR="$shared/models/mlperf-tiny"
    fi
  fi
  # A HELIA_MODELS_DIR that is not a folder passes through as it is: the tests that need the models
  # skip with a reason naming it, and everything else runs.
  if [ -n "${HELIA_MODELS_DIR:-}" ] && [ -d "$HELIA_MODELS_DIR" ]; then
    HELIA_MODELS_DIR="$(cd "$HELIA_MODELS_DIR" && pwd)"
    helia_bind "$HELIA_MODELS_DIR" "$HELIA_MODELS_DIR" ro
  fi
  if [ -n "${HELIA_TFLM_MODELS_DIR:-}" ]; then
    [ -d "$HELIA_TFLM_MODELS_DIR" ] || helia_die "HELIA_TFLM_MODELS_DIR=$HELIA_TFLM_MODELS_DIR is not a folder."
    HELIA_TFLM_MODELS_DIR="$(cd "$HELIA_TFLM_MODELS_DIR" && pwd)"
    helia_bind "$HELIA_TFLM_MODELS_DIR" "$HELIA_TFLM_MODELS_DIR" ro
  fi
  if [ -n "${HELIA_NS_CMSIS_NN_DIR:-}" ]; then
    [ -d "$HELIA_NS_CMSIS_NN_DIR/Include" ] ||
      helia_die "HELIA_NS_CMSIS_NN_DIR=$HELIA_NS_CMSIS_NN_DIR is not an ns-cmsis-nn checkout (no Include/)."
    HELIA_NS_CMSIS_NN_DIR="$(cd "$HELIA_NS_CMSIS_NN_DIR" && pwd)"
    helia_bind "$HELIA_NS_CMSIS_NN_DIR" "$HELIA_NS_CMSIS_NN_DIR" ro
  fi
}

# Run a command inside the rootfs with a clean, predictable environment.
helia_chroot() { # helia_chroot DIR CMD...: run CMD in DIR inside the rootfs
  local dir="$1"; shift
  local -a envs=(HOME=/root LANG=C.UTF-8 LC_ALL=C.UTF-8
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
    PIP_CERT=/etc/helia/host-ca-bundle.crt DEBIAN_FRONTEND=noninteractive)
  local v
  for v in TERM CI HELIA_NS_CMSIS_NN_DIR HELIA_MODELS_DIR HELIA_TFLM_MODELS_DIR HELIA_REQUIRE_MODELS HELIA_FVP; do
    if [ -n "${!v:-}" ]; then envs+=("$v=${!v}"); fi
  done
  chroot "$HELIA_ROOTFS" /usr/bin/env -i "${envs[@]}" /bin/sh -c 'cd "$1" && shift && exec "$@"' sh "$dir" "$@"
}

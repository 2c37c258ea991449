#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs a Cortex-M firmware ELF on a simulator and turns its semihosting exit code into a test verdict.
#   run_firmware.sh --simulator=qemu|fvp [--machine=QEMU_MACHINE] [--expect-exit=N] \
#                   [--expect-output=TEXT]... [--timeout=SECONDS] [--dry-run] FIRMWARE.elf
# qemu: a QEMU machine (default mps3-an547, the Corstone-300 FPGA image; the boards of
#       toolchains/arm_gnu/cores.bzl), -icount shift=0 so instruction counts repeat.
# fvp:  Arm's FVP_Corstone_SSE-300 (HELIA_FVP names the binary, else it is looked up on PATH).
# --dry-run prints the simulator command line instead of running it.
set -uo pipefail

simulator=qemu
machine=mps3-an547
expect_exit=0
timeout_seconds=300
dry_run=0
expected_outputs=()
firmware=""
for arg in "$@"; do
  case "$arg" in
    --simulator=*) simulator="${arg#*=}" ;;
    --machine=*) machine="${arg#*=}" ;;
    --expect-exit=*) expect_exit="${arg#*=}" ;;
    --expect-output=*) expected_outputs+=("${arg#*=}") ;;
    --timeout=*) timeout_seconds="${arg#*=}" ;;
    --dry-run) dry_run=1 ;;
    -*) echo "run_firmware: unknown option $arg" >&2; exit 2 ;;
    *) firmware="$arg" ;;
  esac
done
[ -n "$firmware" ] || { echo "run_firmware: no firmware ELF given" >&2; exit 2; }

find_fvp() {
  if [ -n "${HELIA_FVP:-}" ]; then echo "$HELIA_FVP"; return; fi
  command -v FVP_Corstone_SSE-300 || command -v FVP_Corstone_SSE-300_Ethos-U55 || true
}

case "$simulator" in
  qemu)
    command=(qemu-system-arm -M "$machine" -nographic -monitor none -serial none
      -icount shift=0 -semihosting-config enable=on,target=native -kernel "$firmware")
    ;;
  fvp)
    fvp="$(find_fvp)"
    if [ -z "$fvp" ] || [ ! -x "$fvp" ]; then
      echo "run_firmware: FVP_Corstone_SSE-300 not found (HELIA_FVP='${HELIA_FVP:-}', PATH searched)." >&2
      echo "run_firmware: install Arm's Corstone-300 FVP (Arm Ecosystem FVPs) and set HELIA_FVP to its" >&2
      echo "run_firmware: FVP_Corstone_SSE-300 binary, or run this test with simulator = \"qemu\"." >&2
      exit 1
    fi
    # Semihosting carries stdout and exit(); no visualisation, no telnet terminals.
    command=("$fvp" -a "cpu0=$firmware"
      -C mps3_board.visualisation.disable-visualisation=1
      -C mps3_board.telnetterminal0.start_telnet=0
      -C mps3_board.uart0.out_file=-
      -C cpu0.semihosting-enable=1
      -C cpu0.semihosting-stack_base=0
      --stat)
    ;;
  *)
    echo "run_firmware: unknown simulator '$simulator' (use qemu or fvp)" >&2
    exit 2
    ;;
esac

if [ "$dry_run" = 1 ]; then
  echo "${command[*]}"
  exit 0
fi

log="$(mktemp)"
trap 'rm -f "$log"' EXIT
timeout --foreground "$timeout_seconds" "${command[@]}" </dev/null 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
if [ "$status" = 124 ]; then
  echo "helia: FAIL: firmware did not exit within ${timeout_seconds}s (it must call exit())"
  exit 1
fi
verdict=0
if [ "$status" != "$expect_exit" ]; then
  echo "helia: FAIL: firmware exit code $status, expected $expect_exit"
  verdict=1
fi
for text in "${expected_outputs[@]}"; do
  if ! grep -qF -- "$text" "$log"; then
    echo "helia: FAIL: output lacks the expected text: $text"
    verdict=1
  fi
done
[ "$verdict" = 0 ] && echo "helia: PASS: firmware exit code $status (expected $expect_exit)"
exit "$verdict"

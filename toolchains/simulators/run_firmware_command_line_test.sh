#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Unit test of run_firmware.sh: the command lines it would run, and its message when the FVP is absent.
set -uo pipefail
runner="toolchains/simulators/run_firmware.sh"
failures=0
expect_contains() { # expect_contains NAME OUTPUT TEXT
  if [[ "$2" == *"$3"* ]]; then echo "ok: $1"; else echo "FAIL: $1: '$3' not in: $2"; failures=$((failures + 1)); fi
}

out="$("$runner" --simulator=qemu --dry-run fw.elf)"
expect_contains "qemu machine" "$out" "qemu-system-arm -M mps3-an547"
expect_contains "qemu icount" "$out" "-icount shift=0"
expect_contains "qemu semihosting" "$out" "-semihosting-config enable=on,target=native"
expect_contains "qemu kernel" "$out" "-kernel fw.elf"

fake_fvp="$TEST_TMPDIR/FVP_Corstone_SSE-300"
printf '#!/bin/sh\nexit 0\n' >"$fake_fvp"
chmod +x "$fake_fvp"
out="$(HELIA_FVP="$fake_fvp" "$runner" --simulator=fvp --dry-run fw.elf)"
expect_contains "fvp binary from HELIA_FVP" "$out" "$fake_fvp"
expect_contains "fvp application" "$out" "-a cpu0=fw.elf"
expect_contains "fvp semihosting" "$out" "cpu0.semihosting-enable=1"
expect_contains "fvp no visualisation" "$out" "mps3_board.visualisation.disable-visualisation=1"

out="$(HELIA_FVP="$TEST_TMPDIR/missing" PATH=/usr/bin:/bin "$runner" --simulator=fvp fw.elf 2>&1)"
status=$?
expect_contains "missing fvp says how to install" "$out" "install Arm's Corstone-300 FVP"
expect_contains "missing fvp suggests qemu" "$out" 'simulator = "qemu"'
if [ "$status" = 0 ]; then echo "FAIL: missing FVP must fail the test"; failures=$((failures + 1)); fi

out="$("$runner" --simulator=renode fw.elf 2>&1)"
expect_contains "unknown simulator rejected" "$out" "unknown simulator 'renode'"

echo "$failures failure(s)"
[ "$failures" = 0 ]

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
out="$("$runner" --simulator=qemu --machine=mps2-an505 --dry-run fw.elf)"
expect_contains "qemu machine of another board" "$out" "qemu-system-arm -M mps2-an505 "

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

# The verdict: exit code and expected output both decide, whichever way the expectation points. A fake
# simulator on PATH stands in for QEMU (prints a line, exits with FAKE_EXIT).
fake_bin="$TEST_TMPDIR/bin"
mkdir -p "$fake_bin"
printf '#!/bin/sh\necho "fake firmware says hello"\nexit "${FAKE_EXIT:-0}"\n' >"$fake_bin/qemu-system-arm"
chmod +x "$fake_bin/qemu-system-arm"
verdict() { # verdict NAME WANTED_STATUS FAKE_EXIT ARGS...
  local name="$1" wanted="$2" fake_exit="$3"
  shift 3
  FAKE_EXIT="$fake_exit" PATH="$fake_bin:$PATH" "$runner" --simulator=qemu "$@" fw.elf >"$TEST_TMPDIR/out" 2>&1
  local got=$?
  if [ "$got" = "$wanted" ]; then echo "ok: $name"; else
    echo "FAIL: $name: run_firmware exited $got, expected $wanted: $(cat "$TEST_TMPDIR/out")"
    failures=$((failures + 1))
  fi
}
verdict "exit 0 as expected" 0 0 --expect-output="says hello"
verdict "expected failure exits 3" 0 3 --expect-exit=3 --expect-output="says hello"
verdict "exit 3 where 0 is expected fails" 1 3
verdict "exit 0 where 3 is expected fails" 1 0 --expect-exit=3
verdict "exit 1 where 3 is expected fails" 1 1 --expect-exit=3 --expect-output="says hello"
verdict "missing expected output fails" 1 0 --expect-output="never printed"
verdict "missing output fails an expected failure too" 1 3 --expect-exit=3 --expect-output="never printed"

echo "$failures failure(s)"
[ "$failures" = 0 ]

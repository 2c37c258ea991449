# SPDX-License-Identifier: Apache-2.0
"""Each simulated target is the machine QEMU models: a probe built from the target's own table runs
on the machine, writes and reads back both ends of every writable memory, reads every read-only one,
and reports the core's FPU (CPACR, MVFR0) and, on Armv8-M, DSP (ID_ISAR3), which must agree with the
target's capabilities. A writable memory that is not there faults or loses what was written, and the
probe says which; the boot memory and the scratch memory hold the probe's code and stack, so running
at all proves them. Limits: a read-only memory is only read (QEMU answers some unmapped addresses with
zero), and a size that reaches into one of QEMU's mirrors of the same RAM would pass."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from helia_aot.config.targets import Target, get_target
from tests.skip_policy import OPTIONAL_TOOL

# target -> (QEMU machine, -mcpu, offset of the secure alias the probe runs at: the TrustZone machines
# boot in the secure state, and the targets give the non-secure addresses as corstone300 does)
MACHINES = {
    "mps2_an385": ("mps2-an385", "cortex-m3", 0),
    "mps2_an386": ("mps2-an386", "cortex-m4", 0),
    "mps2_an500": ("mps2-an500", "cortex-m7", 0),
    "mps2_an505": ("mps2-an505", "cortex-m33", 0x10000000),
    "mps3_an524": ("mps3-an524", "cortex-m33+nodsp", 0x10000000),
    "microbit": ("microbit", "cortex-m0", 0),
    "corstone300": ("mps3-an547", "cortex-m55", 0x10000000),
}
# armsse.c aliases only these non-secure ranges at +0x10000000; memory elsewhere (PSRAM at 0x80000000,
# DDR) is reached at its own address.
SECURE_ALIASED = ((0x00000000, 0x10000000), (0x20000000, 0x30000000))

_PROBE = r"""
#include <stdint.h>
extern uint32_t __stack_top;
static void sh(uint32_t op, const void *arg) {
  register uint32_t r0 __asm__("r0") = op; register const void *r1 __asm__("r1") = arg;
  __asm__ volatile("bkpt 0xAB" : "+r"(r0) : "r"(r1) : "memory");
}
static void say(const char *text) { sh(4, text); }
static void bye(void) { sh(0x18, (const void *)0x20026); for (;;) {} }
static void hex(const char *label, uint32_t v) {
  char buf[48]; int i = 0;
  while (label[i]) { buf[i] = label[i]; i++; }
  buf[i++] = '=';
  for (int k = 7; k >= 0; k--) { uint32_t d = (v >> (4 * k)) & 15; buf[i++] = (char)(d < 10 ? '0' + d : 'a' + d - 10); }
  buf[i++] = '\n'; buf[i] = 0; say(buf);
}
static const char *current = "none";
void HardFault_Handler(void) { say("fault in "); say(current); say("\n"); bye(); }
__attribute__((unused)) static void probe(const char *name, uint32_t first, uint32_t last, int writable) {
  current = name;
  volatile uint32_t *a = (volatile uint32_t *)first, *b = (volatile uint32_t *)last;
  if (writable) {
    *a = 0xA5A50000u ^ first; *b = 0x5A5A0000u ^ last;
    if (*a != (0xA5A50000u ^ first) || *b != (0x5A5A0000u ^ last)) { say("lost "); say(name); say("\n"); return; }
  } else {
    (void)*a; (void)*b;
  }
  say("ok "); say(name); say("\n");
}
void Reset_Handler(void) {
  volatile uint32_t *cpacr = (volatile uint32_t *)0xE000ED88;
  *cpacr |= 0xFu << 20;
  __asm__ volatile("dsb\n isb");
  hex("CPACR", *cpacr);
  hex("MVFR0", *(volatile uint32_t *)0xE000EF40);
  hex("ID_ISAR3", *(volatile uint32_t *)0xE000ED6C);
%(probes)s
  bye();
}
__attribute__((section(".vectors"), used)) const void *vectors[4] = {
  &__stack_top, (void *)Reset_Handler, (void *)HardFault_Handler, (void *)HardFault_Handler};
"""


def _tool(name: str, why: str) -> str:
    path = shutil.which(name)
    if path is None:
        pytest.skip(f"{OPTIONAL_TOOL} {name} ({why}; tools/bootstrap installs it in the build environment)")
    return path


def _address(base: int, secure_offset: int) -> int:
    if secure_offset and any(start <= base < start + 0x10000000 for start, _ in SECURE_ALIASED):
        return base + secure_offset
    return base


def _code_memory(target: Target):
    """The memory at address 0, where each of these machines boots (VTOR, or its secure alias)."""
    return next(m for m in target.memories if m.base == 0)


def _probed(target: Target) -> list[str]:
    # The probe's own code and stack live in the boot and scratch memories: running proves them.
    return [m.name for m in target.memories if m.name not in (_code_memory(target).name, target.scratch_memory)]


def _probe_source(target: Target, secure_offset: int) -> str:
    lines = []
    for m in target.memories:
        if m.name not in _probed(target):
            continue
        base = _address(m.base, secure_offset)
        lines.append(f'  probe("{m.name}", {base:#x}u, {base + m.size - 4:#x}u, {int(m.writable)});')
    return _PROBE % {"probes": "\n".join(lines)}


def _linker_script(target: Target, secure_offset: int) -> str:
    code, data = _code_memory(target), target.memory(target.scratch_memory)
    return (f"MEMORY {{ CODE (rx) : ORIGIN = {_address(code.base, secure_offset):#x}, LENGTH = {code.size}\n"
            f"         DATA (rw) : ORIGIN = {_address(data.base, secure_offset):#x}, LENGTH = {data.size} }}\n"
            "SECTIONS { .text : { KEEP(*(.vectors)) *(.text*) *(.rodata*) } > CODE\n"
            "           .bss (NOLOAD) : { *(.bss*) *(COMMON) } > DATA\n"
            "           __stack_top = ORIGIN(DATA) + LENGTH(DATA); }\n")


@pytest.mark.parametrize("name", sorted(MACHINES))
def test_the_target_is_what_its_qemu_machine_models(tmp_path, name):
    gcc = _tool("arm-none-eabi-gcc", "Arm GNU toolchain for the probe")
    qemu = _tool("qemu-system-arm", "runs the probe")
    machine, mcpu, secure_offset = MACHINES[name]
    target = get_target(name)
    (tmp_path / "probe.c").write_text(_probe_source(target, secure_offset))
    (tmp_path / "probe.ld").write_text(_linker_script(target, secure_offset))
    build = subprocess.run([gcc, f"-mcpu={mcpu}", "-mthumb", "-mfloat-abi=soft", "-O1", "-nostdlib", "-nostartfiles",
                            "-Wall", "-Werror", "-T", "probe.ld", "probe.c", "-o", "probe.elf"],
                           cwd=tmp_path, capture_output=True, text=True)
    assert build.returncode == 0, build.stderr
    proc = subprocess.run([qemu, "-M", machine, "-nographic", "-monitor", "none", "-serial", "none",
                           "-semihosting-config", "enable=on,target=native", "-kernel", "probe.elf"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=60)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out
    assert re.findall(r"^ok (\S+)$", out, re.M) == _probed(target), out
    registers = dict(re.findall(r"^(\w+)=([0-9a-f]{8})$", out, re.M))
    fpu = (int(registers["CPACR"], 16) >> 20) & 0xF == 0xF
    double = (int(registers["MVFR0"], 16) >> 8) & 0xF == 2
    assert (fpu, double) == (target.has("fpu"), target.has("double")), out
    if mcpu.startswith("cortex-m33"):  # Armv8-M: ID_ISAR3.SIMD_instrs is 3 with the DSP extension
        assert ((int(registers["ID_ISAR3"], 16) >> 4) & 0xF == 3) == target.has("dsp"), out

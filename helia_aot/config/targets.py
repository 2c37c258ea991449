# SPDX-License-Identifier: Apache-2.0
"""Target registry: CPU, capabilities and named memories of each board the compiler knows."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from helia_aot.config.spec import MAX_ARENA_ALIGNMENT
from helia_aot.config.yaml_file import read_yaml
from helia_aot.emit.symbols import slug
from helia_aot.errors import InvalidConfigError, UnknownTargetError, brief, rename_hint

# What a target may declare: dsp (the Armv7E-M/Armv8-M DSP extension), mve (Helium, integer), mve_f
# (Helium's floating-point vectors), fpu (a hardware floating-point unit: single precision at least),
# fp16 (native half-precision compute, which helia-aot takes from MVE-F) and double (a
# double-precision FPU). The order is the order capability lists are written in.
KNOWN_CAPABILITIES = ("dsp", "mve", "mve_f", "fpu", "fp16", "double")
# The cpu of the host target: a build for the machine running it, not a Cortex-M core.
HOST_CPU = "generic"
KIB = 1024
MIB = 1024 * 1024

# What each Cortex-M core can have (a given chip may leave an optional part out), from Arm's technical
# reference manuals: the M0, M0+ and M3 have neither DSP nor FPU; the M4 has DSP and an optional
# single-precision FPU; the M7 an optional single- or double-precision FPU; the M33 optional DSP and
# single-precision FPU; the M55 and M85 DSP, optional Helium (integer, or integer and floating point)
# and an optional FPU with half, single and double precision.
CPU_CAPABILITIES: dict[str, frozenset[str]] = {
    "cortex-m0": frozenset(),
    "cortex-m0plus": frozenset(),
    "cortex-m3": frozenset(),
    "cortex-m4": frozenset({"dsp", "fpu"}),
    "cortex-m7": frozenset({"dsp", "fpu", "double"}),
    "cortex-m33": frozenset({"dsp", "fpu"}),
    "cortex-m55": frozenset(KNOWN_CAPABILITIES),
    "cortex-m85": frozenset(KNOWN_CAPABILITIES),
}


@dataclass(frozen=True)
class Memory:
    name: str
    size: int
    base: int | None = None
    writable: bool = True


@dataclass(frozen=True)
class Target:
    name: str
    cpu: str
    capabilities: tuple[str, ...]
    memories: tuple[Memory, ...]
    scratch_memory: str  # where the activation arena goes by default
    constant_memory: str  # where weights go by default
    description: str = ""
    arena_alignment: int = 16
    source: str = "builtin"
    # Where the persistent arena (state kept across runs) goes by default; "" = the scratch memory.
    persistent_default: str = ""
    # Where the memory map and core come from (a datasheet, a simulator's source), for `helia-aot targets`.
    citation: str = ""

    def has(self, capability: str) -> bool:
        return capability in self.capabilities

    @property
    def persistent_memory(self) -> str:
        return self.persistent_default or self.scratch_memory

    @property
    def kernel_build(self) -> str:
        """Which ns-cmsis-nn code paths a build for this target compiles: mve, dsp or plain C."""
        if self.has("mve"):
            return "mve"
        if self.has("dsp"):
            return "dsp"
        return "plain"

    @property
    def supports_fp16(self) -> bool:
        """Whether native half-precision operators may run here (the FP16 gate of every operator).

        A Cortex-M core needs MVE-FP, declared by the fp16 capability: without it ns-cmsis-nn's _f16
        kernels do not build or fall back to code the core cannot run well. The generic host is no
        Cortex-M core: its C compiler supplies the half type (_Float16) and the module runs on the
        plain-C or portable kernels, which is how FP16 modules are tested on x86."""
        return self.has("fp16") or self.cpu == HOST_CPU

    @property
    def supports_float(self) -> bool:
        """Whether float32 arithmetic may run here (the FPU gate of every operator): a Cortex-M core
        needs a hardware FPU, since helia-aot never falls back to software floating point silently.
        The generic host computes in float natively."""
        return self.has("fpu") or self.cpu == HOST_CPU

    def memory(self, name: str) -> Memory | None:
        for m in self.memories:
            if m.name.lower() == name.lower():
                return m
        return None


def check_capabilities(name: str, cpu: str, capabilities, where: str) -> tuple[str, ...]:
    """The capabilities in KNOWN_CAPABILITIES order, checked against each other and against what the
    cpu can have (a cpu outside CPU_CAPABILITIES, e.g. a custom core, is taken at its word)."""
    if not isinstance(capabilities, (list, tuple)):
        raise InvalidConfigError(f"{where}.capabilities must be a list drawn from {list(KNOWN_CAPABILITIES)}, got "
                                 f"{brief(capabilities)}", "Write them as a list, e.g. [dsp, fpu]")
    for c in capabilities:
        if c not in KNOWN_CAPABILITIES:
            raise InvalidConfigError(f"{where}.capabilities has {brief(c)}, not one of {list(KNOWN_CAPABILITIES)}",
                                     rename_hint(c, KNOWN_CAPABILITIES, "Fix the capability names"))
    caps = set(capabilities)
    if "mve" in caps and "dsp" not in caps:
        raise InvalidConfigError(f"{where}.capabilities has mve without dsp (every Helium core has the DSP "
                                 "extension)", "Add dsp")
    if "fp16" in caps and "mve" not in caps:
        # fp16 names MVE-FP, the floating-point half of Helium; a core without MVE cannot have it.
        raise InvalidConfigError(f"{where}.capabilities has fp16 without mve (fp16 is Helium's half-precision "
                                 "vector floating point, MVE-FP)", "Add mve and dsp, or remove fp16")
    if "fp16" in caps:
        # Half-precision vectors are part of MVE-F, which needs the FPU: a list written before mve_f and
        # fpu were separate capabilities ([dsp, mve, fp16]) means them.
        caps |= {"mve_f", "fpu"}
    if "mve_f" in caps and not {"mve", "fpu"} <= caps:
        raise InvalidConfigError(f"{where}.capabilities has mve_f without {'mve' if 'mve' not in caps else 'fpu'} "
                                 "(Helium's floating-point vectors use the MVE unit and the FPU's registers)",
                                 "Add mve, dsp and fpu, or remove mve_f")
    if "double" in caps and "fpu" not in caps:
        raise InvalidConfigError(f"{where}.capabilities has double without fpu (double precision is a kind of "
                                 "FPU)", "Add fpu, or remove double")
    allowed = CPU_CAPABILITIES.get(cpu.lower())
    if allowed is not None:
        for c in KNOWN_CAPABILITIES:
            if c in caps and c not in allowed:
                can = ", ".join(c2 for c2 in KNOWN_CAPABILITIES if c2 in allowed) or "none of them"
                raise InvalidConfigError(f"{where}: target {brief(name)} declares capability {c}, which a {cpu} "
                                         f"cannot have (a {cpu} can have: {can})",
                                         f"Remove {c}, or name the core that has it")
    return tuple(c for c in KNOWN_CAPABILITIES if c in caps)


_BUILTIN: dict[str, Target] = {}


def _register(target: Target) -> None:
    check_capabilities(target.name, target.cpu, target.capabilities, f"built-in target {target.name}")
    names = [m.name for m in target.memories]
    assert target.scratch_memory in names and target.constant_memory in names, target.name
    assert target.memory(target.scratch_memory).writable, target.name
    assert target.memory(target.persistent_memory).writable, target.name
    _BUILTIN[target.name] = target


# ---------------------------------------------------------------------------------------------------
# Simulated boards. Each memory map is the one the simulator models (the source is cited per target;
# tests/unit/test_targets_qemu.py runs a probe of each table on its machine), so a module placed by
# these targets runs there unchanged. QEMU runs every RAM at one speed; the real FPGA images differ.
# ---------------------------------------------------------------------------------------------------

# Arm MPS3 AN547 (Corstone-300 FVP / FPGA) memory map, non-secure aliases. Its Cortex-M55 has Helium
# with floating point and the FPU with double precision (QEMU 11 on mps3-an547: MVFR0 0x10110221).
_register(Target(
    name="corstone300",
    cpu="cortex-m55",
    capabilities=("dsp", "mve", "mve_f", "fpu", "fp16", "double"),
    memories=(
        # The AN547 map as QEMU mps3-an547 models it (non-secure addresses; secure = +0x10000000),
        # matching toolchains/corstone300/corstone300.ld.
        Memory("ITCM", 512 * KIB, 0x00000000),
        Memory("SRAM", 2 * MIB, 0x01000000),
        Memory("DTCM", 512 * KIB, 0x20000000),
        Memory("ISRAM", 4 * MIB, 0x21000000),
        Memory("DDR", 256 * MIB, 0x60000000),
    ),
    scratch_memory="DTCM",
    constant_memory="SRAM",
    description="Arm Corstone-300 (MPS3 AN547 / FVP): Cortex-M55 with Helium",
    citation="QEMU hw/arm/mps2-tz.c (mps3-an547, an547_raminfo) and hw/arm/armsse.c (SSE-300 TCMs); Arm AN547",
))

# Arm MPS2 AN385: Cortex-M3, no DSP, no FPU (QEMU mps2-an385). QEMU hw/arm/mps2.c maps ZBT SSRAM1
# (4 MiB at 0, mirrored at 0x00400000), ZBT SSRAM2&3 (4 MiB at 0x20000000), a 16 KiB FPGA block RAM at
# 0x01000000 (mirrored three times above it) and 16 MiB PSRAM at 0x21000000. SSRAM1 holds the image's
# code and constants (toolchains/mps2/mps2.ld): RAM on the board, read-only to the compiler so no arena
# lands on the code. The block RAM is single-cycle FPGA memory, but 16 KiB holds no KWS arena.
_MPS2_AN385_AN386_MEMORIES = (
    Memory("SSRAM1", 4 * MIB, 0x00000000, writable=False),
    Memory("BRAM", 16 * KIB, 0x01000000),
    Memory("SSRAM23", 4 * MIB, 0x20000000),
    Memory("PSRAM", 16 * MIB, 0x21000000),
)
_register(Target(
    name="mps2_an385",
    cpu="cortex-m3",
    capabilities=(),
    memories=_MPS2_AN385_AN386_MEMORIES,
    scratch_memory="SSRAM23",
    constant_memory="SSRAM1",
    description="Arm MPS2 AN385 (QEMU mps2-an385): Cortex-M3, no DSP, no FPU; integer models only",
    citation="QEMU hw/arm/mps2.c (mps2-an385 memory map); Arm AN385 (MPS2 Cortex-M3 FPGA image)",
))
# Arm MPS2 AN386: Cortex-M4 with the FPU (QEMU mps2-an386); the same memory map as AN385.
_register(Target(
    name="mps2_an386",
    cpu="cortex-m4",
    capabilities=("dsp", "fpu"),
    memories=_MPS2_AN385_AN386_MEMORIES,
    scratch_memory="SSRAM23",
    constant_memory="SSRAM1",
    description="Arm MPS2 AN386 (QEMU mps2-an386): Cortex-M4F with DSP extension",
    citation="QEMU hw/arm/mps2.c (mps2-an386: AN385's map); Arm AN386 (MPS2 Cortex-M4 FPGA image)",
))
# Arm MPS2 AN500: Cortex-M7 (QEMU mps2-an500 models its FPU with double precision, like the FPGA image's
# M7). QEMU hw/arm/mps2.c: SSRAM1 4 MiB at 0, SSRAM2&3 4 MiB at 0x20000000, no block RAM, and the 16 MiB
# PSRAM at 0x60000000 (not 0x21000000 as on AN385/AN386).
_register(Target(
    name="mps2_an500",
    cpu="cortex-m7",
    capabilities=("dsp", "fpu", "double"),
    memories=(
        Memory("SSRAM1", 4 * MIB, 0x00000000, writable=False),
        Memory("SSRAM23", 4 * MIB, 0x20000000),
        Memory("PSRAM", 16 * MIB, 0x60000000),
    ),
    scratch_memory="SSRAM23",
    constant_memory="SSRAM1",
    description="Arm MPS2 AN500 (QEMU mps2-an500): Cortex-M7 with DSP extension and double-precision FPU",
    citation="QEMU hw/arm/mps2.c (mps2-an500: psram_base 0x60000000, no block RAM); Arm AN500",
))
# Arm MPS2 AN505: Cortex-M33 with DSP and single-precision FPU on the IoTKit (armsse.c: CPU0_FPU and
# CPU0_DSP true; QEMU 11 reads MVFR0 0x10110021 and ID_ISAR3 0x01111131 there). Non-secure
# addresses; each secure alias is +0x10000000. QEMU hw/arm/mps2-tz.c an505_raminfo: SSRAM1 4 MiB at 0
# (code), SSRAM2 and SSRAM3 2 MiB each at 0x28000000 and 0x28200000, PSRAM 16 MiB at 0x80000000; the
# IoTKit's own SRAM (hw/arm/armsse.c: one bank of 2^sram_addr_width = 32 KiB at 0x20000000).
_register(Target(
    name="mps2_an505",
    cpu="cortex-m33",
    capabilities=("dsp", "fpu"),
    memories=(
        Memory("SSRAM1", 4 * MIB, 0x00000000, writable=False),
        Memory("SRAM", 32 * KIB, 0x20000000),
        Memory("SSRAM2", 2 * MIB, 0x28000000),
        Memory("SSRAM3", 2 * MIB, 0x28200000),
        Memory("PSRAM", 16 * MIB, 0x80000000),
    ),
    scratch_memory="SSRAM2",
    constant_memory="SSRAM1",
    description="Arm MPS2 AN505 (QEMU mps2-an505): Cortex-M33 with DSP extension and FPU, IoTKit",
    citation="QEMU hw/arm/mps2-tz.c (mps2-an505, an505_raminfo) and hw/arm/armsse.c (IoTKit SRAM); Arm AN505",
))
# Arm MPS3 AN524: the SSE-200's two Cortex-M33; QEMU boots CPU0 (CPU1 waits at reset), and CPU0 of an
# SSE-200 has neither DSP nor FPU (hw/arm/armsse.c sse200_properties: CPU0_FPU and CPU0_DSP false, "matching
# the hardware"; mps2-tz.c does not override them). Checked on the build root's QEMU 11: on mps3-an524
# CPACR's CP10/CP11 bits stay 0 when written, MVFR0 reads 0, a VADD.F32 faults, and ID_ISAR3 is
# 0x01111110 (0x01111131 with DSP, as on mps2-an505; QEMU still executes SMLAD there, so a DSP build
# would pass on QEMU and fail on the FPGA). The target has no capabilities: integer models on plain C,
# float refused. KWS int8 built for cortex-m33+nodsp, soft float, matches the host bit for bit there.
# Non-secure addresses; secure = +0x10000000. hw/arm/mps2-tz.c an524_raminfo: 512 KiB FPGA block RAM at
# 0 (code), QSPI flash 8 MiB at 0x28000000 (modelled as ROM), DDR at 0x60000000 (2 GiB in QEMU on 64-bit
# hosts); the SSE-200's SRAM (hw/arm/armsse.c: four 32 KiB banks at 0x20000000).
_register(Target(
    name="mps3_an524",
    cpu="cortex-m33",
    capabilities=(),
    memories=(
        Memory("BRAM", 512 * KIB, 0x00000000, writable=False),
        Memory("SRAM", 128 * KIB, 0x20000000),
        Memory("QSPI", 8 * MIB, 0x28000000, writable=False),
        Memory("DDR", 2048 * MIB, 0x60000000),
    ),
    scratch_memory="SRAM",
    constant_memory="BRAM",
    description="Arm MPS3 AN524 (QEMU mps3-an524): SSE-200 CPU0, a Cortex-M33 without DSP and FPU; "
                "integer models only",
    citation="QEMU hw/arm/mps2-tz.c (mps3-an524, an524_raminfo) and hw/arm/armsse.c (SSE-200 SRAM; CPU0 without "
             "FPU and DSP), checked on QEMU 11; Arm AN524",
))
# BBC micro:bit v1: Nordic nRF51822 (QFAA), Cortex-M0 at 16 MHz. QEMU hw/arm/nrf51_soc.c: flash
# NRF51822_FLASH_SIZE = 256 KiB at 0, SRAM NRF51822_SRAM_SIZE = 16 KiB at 0x20000000.
_register(Target(
    name="microbit",
    cpu="cortex-m0",
    capabilities=(),
    memories=(
        Memory("FLASH", 256 * KIB, 0x00000000, writable=False),
        Memory("SRAM", 16 * KIB, 0x20000000),
    ),
    scratch_memory="SRAM",
    constant_memory="FLASH",
    description="BBC micro:bit v1 (QEMU microbit): nRF51822, Cortex-M0, 256 KiB flash, 16 KiB RAM; "
                "integer models only",
    citation="QEMU hw/arm/microbit.c and hw/arm/nrf51_soc.c (NRF51822_FLASH_SIZE, NRF51822_SRAM_SIZE); "
             "Nordic nRF51822 product specification",
))

# ---------------------------------------------------------------------------------------------------
# Microcontroller families. Memory maps from the vendors' public datasheets and SDK linker scripts
# (cited per target). Scratch goes to the fastest writable memory large enough for typical models,
# constants to the non-volatile memory the core executes from.
# ---------------------------------------------------------------------------------------------------

# Ambiq Apollo510 EVB.
_register(Target(
    name="apollo510_evb",
    cpu="cortex-m55",
    capabilities=("dsp", "mve", "mve_f", "fpu", "fp16"),
    memories=(
        Memory("ITCM", 256 * KIB, 0x00000000),
        Memory("MRAM", 4 * MIB, 0x00410000, writable=False),
        Memory("DTCM", 512 * KIB, 0x20000000),
        Memory("SRAM", 3 * MIB, 0x20080000),
    ),
    scratch_memory="DTCM",
    constant_memory="MRAM",
    description="Ambiq Apollo510 evaluation board: Cortex-M55 with Helium",
    citation="AmbiqAI neuralSPOT ns-core/src/apollo510/gcc/linker_script_sbl.ld (ITCM, MRAM application "
             "region, DTCM, shared SRAM)",
))
# Ambiq Apollo510 Lite (neuralSPOT's apollo510L): the Apollo510's core with half the MRAM and less SRAM.
# neuralSPOT ns-core/src/apollo510L/gcc/linker_script_sbl.ld: MRAM application region 0x00410000 +
# 1,984 KiB (after the secure bootloader), DTCM 240 KiB at 0x20000000 (the linker's usable part), shared
# SRAM 1,792 KiB at 0x20080000. ITCM not confirmed (that SDK's ITCM script repeats Apollo510's sizes), so
# left out. Helium with MVE-F as on the Apollo510 is assumed from the shared core, not confirmed from a
# datasheet.
_register(Target(
    name="apollo510l_evb",
    cpu="cortex-m55",
    capabilities=("dsp", "mve", "mve_f", "fpu", "fp16"),
    memories=(
        Memory("MRAM", 1984 * KIB, 0x00410000, writable=False),
        Memory("DTCM", 240 * KIB, 0x20000000),
        Memory("SRAM", 1792 * KIB, 0x20080000),
    ),
    scratch_memory="DTCM",
    constant_memory="MRAM",
    description="Ambiq Apollo510 Lite evaluation board: Cortex-M55 with Helium, 2 MB MRAM",
    citation="AmbiqAI neuralSPOT ns-core/src/apollo510L/gcc/linker_script_sbl.ld (MRAM, DTCM, shared SRAM); "
             "ITCM size and MVE-F not confirmed",
))
# Ambiq Apollo4 Plus EVB.
_register(Target(
    name="apollo4p_evb",
    cpu="cortex-m4",
    capabilities=("dsp", "fpu"),
    memories=(
        Memory("MRAM", 2 * MIB, 0x00018000, writable=False),
        Memory("TCM", 384 * KIB, 0x10000000),
        Memory("SRAM", 1 * MIB, 0x10060000),
    ),
    scratch_memory="TCM",
    constant_memory="MRAM",
    description="Ambiq Apollo4 Plus evaluation board: Cortex-M4F with DSP extension, no Helium",
    citation="AmbiqAI neuralSPOT ns-core/src/apollo4p/gcc/linker_script.ld (MCU_MRAM from 0x18000, MCU_TCM, "
             "SHARED_SRAM)",
))
# Ambiq Apollo4 Lite (apollo4l): Cortex-M4F at up to 192 MHz. neuralSPOT ns-core/src/apollo4l/gcc/
# linker_script.ld: MRAM application region 0x00018000 + 1,998,848 bytes (2 MB MRAM less the boot
# region), TCM 384 KiB at 0x10000000 (zero wait state, fastest), shared SRAM 1 MiB at 0x10060000: the
# same map as that SDK's apollo4p script. A target of its own so plans name the part; any SRAM the Plus
# adds for its graphics is not in either script and not confirmed here.
_register(Target(
    name="apollo4l_evb",
    cpu="cortex-m4",
    capabilities=("dsp", "fpu"),
    memories=(
        Memory("MRAM", 1998848, 0x00018000, writable=False),
        Memory("TCM", 384 * KIB, 0x10000000),
        Memory("SRAM", 1 * MIB, 0x10060000),
    ),
    scratch_memory="TCM",
    constant_memory="MRAM",
    description="Ambiq Apollo4 Lite evaluation board: Cortex-M4F with DSP extension",
    citation="AmbiqAI neuralSPOT ns-core/src/apollo4l/gcc/linker_script.ld (MCU_MRAM, MCU_TCM, SHARED_SRAM)",
))
# Ambiq Apollo3 Blue: Cortex-M4F at 48/96 MHz, 1 MB flash, 384 KB SRAM. AmbiqSuite R3 apollo3_evb
# linker scripts: flash application region 0x0000C000 + 976 KiB (after the 48 KiB secure bootloader),
# SRAM 384 KiB at 0x10000000, whose first 64 KiB are the TCM (zero wait state). The TCM is listed as its
# own memory so the arena lands in it; SRAM is the rest.
_register(Target(
    name="apollo3_evb",
    cpu="cortex-m4",
    capabilities=("dsp", "fpu"),
    memories=(
        Memory("FLASH", 976 * KIB, 0x0000C000, writable=False),
        Memory("TCM", 64 * KIB, 0x10000000),
        Memory("SRAM", 320 * KIB, 0x10010000),
    ),
    scratch_memory="TCM",
    constant_memory="FLASH",
    description="Ambiq Apollo3 Blue evaluation board: Cortex-M4F, 1 MB flash, 384 KB SRAM (64 KB TCM)",
    citation="AmbiqSuite R3.1.1 boards/apollo3_evb gcc linker scripts and neuralSPOT ns-core/src/apollo3 "
             "(ROMEM 0xC000 + 976K, RWMEM 0x10000000 + 384K); Ambiq Apollo3 Blue datasheet (TCM 64 KB)",
))
# Ambiq Apollo3 Blue Plus: Cortex-M4F, 2 MB flash, 768 KB SRAM. neuralSPOT ns-core/src/apollo3p/gcc/
# linker_script.ld: flash application region 0x0000C000 + 2,048,000 bytes, TCM 64 KiB at 0x10000000,
# SRAM from 0x10010000. That script's RWMEM (700 KiB from 0x10014000) would end 12 KiB past 768 KiB; the
# SRAM here is the datasheet's 768 KB total less the TCM (704 KiB), not confirmed against the datasheet
# text in this change.
_register(Target(
    name="apollo3p_evb",
    cpu="cortex-m4",
    capabilities=("dsp", "fpu"),
    memories=(
        Memory("FLASH", 2048000, 0x0000C000, writable=False),
        Memory("TCM", 64 * KIB, 0x10000000),
        Memory("SRAM", 704 * KIB, 0x10010000),
    ),
    scratch_memory="TCM",
    constant_memory="FLASH",
    description="Ambiq Apollo3 Blue Plus evaluation board: Cortex-M4F, 2 MB flash, 768 KB SRAM (64 KB TCM)",
    citation="AmbiqAI neuralSPOT ns-core/src/apollo3p/gcc/linker_script.ld (ROMEM, TCM, STACKMEM, RWMEM)",
))
# ST STM32H743 (e.g. NUCLEO-H743ZI): Cortex-M7 at 480 MHz with double-precision FPU and 16 KiB I/D caches.
# RM0433 memory map: ITCM 64 KiB at 0 and DTCM 128 KiB at 0x20000000 (both zero wait state, fastest;
# the DTCM takes the arena), AXI SRAM 512 KiB at 0x24000000 (D1), SRAM1 128 KiB at 0x30000000, SRAM2
# 128 KiB at 0x30020000, SRAM3 32 KiB at 0x30040000 (D2), SRAM4 64 KiB at 0x38000000 (D3), backup SRAM
# 4 KiB at 0x38800000, flash 2 MiB at 0x08000000 (two banks of 1 MiB).
_register(Target(
    name="stm32h743",
    cpu="cortex-m7",
    capabilities=("dsp", "fpu", "double"),
    memories=(
        Memory("ITCM", 64 * KIB, 0x00000000),
        Memory("FLASH", 2 * MIB, 0x08000000, writable=False),
        Memory("DTCM", 128 * KIB, 0x20000000),
        Memory("AXI_SRAM", 512 * KIB, 0x24000000),
        Memory("SRAM1", 128 * KIB, 0x30000000),
        Memory("SRAM2", 128 * KIB, 0x30020000),
        Memory("SRAM3", 32 * KIB, 0x30040000),
        Memory("SRAM4", 64 * KIB, 0x38000000),
        Memory("BKPSRAM", 4 * KIB, 0x38800000),
    ),
    scratch_memory="DTCM",
    constant_memory="FLASH",
    description="ST STM32H743: Cortex-M7 with DSP extension and double-precision FPU, 2 MB flash, 1 MB SRAM",
    citation="ST RM0433 (STM32H742/743/753/750 reference manual) memory map; ST DS12110 (STM32H743 datasheet)",
))
# Nordic nRF5340, application core: Cortex-M33 at 128 MHz with DSP, FPU and TrustZone. nRF5340 product
# specification (and Zephyr dts nrf5340_cpuapp_qkaa.dtsi): flash 1 MiB at 0, RAM 512 KiB at 0x20000000.
# The network core's own 256 KiB flash and 64 KiB RAM are not the application core's and are left out.
_register(Target(
    name="nrf5340_cpuapp",
    cpu="cortex-m33",
    capabilities=("dsp", "fpu"),
    memories=(
        Memory("FLASH", 1 * MIB, 0x00000000, writable=False),
        Memory("SRAM", 512 * KIB, 0x20000000),
    ),
    scratch_memory="SRAM",
    constant_memory="FLASH",
    description="Nordic nRF5340 application core: Cortex-M33 with DSP extension and FPU, 1 MB flash, 512 KB RAM",
    citation="Nordic nRF5340 Product Specification (application core memory); Zephyr "
             "dts/arm/nordic/nrf5340_cpuapp_qkaa.dtsi (flash0 1024K at 0, sram0 512K at 0x20000000)",
))
# Raspberry Pi RP2350 (Pico 2): two Cortex-M33 at 150 MHz with DSP and single-precision FPU (the double
# coprocessor is not an Arm FPU and not used). RP2350 datasheet section 2.2.3: 520 KiB SRAM in ten banks,
# SRAM0-7 (8 x 64 KiB, striped, 0x20000000) and SRAM8-9 (2 x 4 KiB, 0x20080000 and 0x20081000, often
# each core's stack); section 2.2.2: flash is external QSPI executed in place from 0x10000000 (up to
# 16 MiB per chip select; the Pico 2 carries 4 MiB, the size used here: board-dependent).
_register(Target(
    name="rp2350",
    cpu="cortex-m33",
    capabilities=("dsp", "fpu"),
    memories=(
        Memory("XIP_FLASH", 4 * MIB, 0x10000000, writable=False),
        Memory("SRAM", 512 * KIB, 0x20000000),
        Memory("SRAM8", 4 * KIB, 0x20080000),
        Memory("SRAM9", 4 * KIB, 0x20081000),
    ),
    scratch_memory="SRAM",
    constant_memory="XIP_FLASH",
    description="Raspberry Pi RP2350 (Pico 2): Cortex-M33 with DSP extension and FPU, 520 KB SRAM, "
                "external QSPI flash",
    citation="Raspberry Pi RP2350 datasheet sections 2.2.2 (XIP) and 2.2.3 (SRAM); flash size is the Pico 2's "
             "4 MB (board-dependent)",
))
# NXP i.MX RT1060 (MIMXRT1060-EVK): Cortex-M7 at 600 MHz with double-precision FPU (VFPv5). 1 MiB on-chip
# RAM: 512 KiB FlexRAM, split by fuses or IOMUXC_GPR17 among ITCM, DTCM and OCRAM (the default, used
# here: ITCM 128 KiB at 0, DTCM 128 KiB at 0x20000000, OCRAM 256 KiB at 0x20280000), plus the fixed
# OCRAM2 512 KiB at 0x20200000. Code and constants sit in external flash on FlexSPI, executed in place
# from 0x60000000 (the EVK's 8 MiB QSPI flash here: board-dependent). The TCMs are the fastest.
_register(Target(
    name="imxrt1060_evk",
    cpu="cortex-m7",
    capabilities=("dsp", "fpu", "double"),
    memories=(
        Memory("ITCM", 128 * KIB, 0x00000000),
        Memory("DTCM", 128 * KIB, 0x20000000),
        Memory("OCRAM2", 512 * KIB, 0x20200000),
        Memory("OCRAM", 256 * KIB, 0x20280000),
        Memory("FLEXSPI_FLASH", 8 * MIB, 0x60000000, writable=False),
    ),
    scratch_memory="DTCM",
    constant_memory="FLEXSPI_FLASH",
    description="NXP i.MX RT1060: Cortex-M7 with DSP extension and double-precision FPU, 1 MB OCRAM "
                "(FlexRAM at its default split), external flash",
    citation="NXP i.MX RT1060 reference manual (memory map, FlexRAM default 128K ITCM / 128K DTCM / 256K OCRAM, "
             "OCRAM2 at 0x20200000); NXP AN12077 (Using the i.MX RT FlexRAM); flash size is the EVK's",
))
# Any machine, portable C: the plain-C kernels of ns-cmsis-nn or our portable library.
_register(Target(
    name="host",
    cpu=HOST_CPU,
    capabilities=(),
    memories=(Memory("RAM", 1 << 30), Memory("ROM", 1 << 30, writable=False)),
    scratch_memory="RAM",
    constant_memory="ROM",
    description="Host build: portable C, no SIMD",
    arena_alignment=16,
    citation="the machine running the build",
))


def builtin_targets() -> list[Target]:
    return [_BUILTIN[n] for n in sorted(_BUILTIN)]


_TARGET_KEYS = {"name", "cpu", "capabilities", "memories", "scratch_memory", "constant_memory",
                "persistent_memory", "description", "arena_alignment", "base"}
_MEMORY_KEYS = {"name", "size", "base", "writable"}
# Names of targets, CPUs and memories: they appear in plans, Bazel attributes and command lines.
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.+-]{0,63}")
ADDRESS_SPACE = 1 << 32  # a Cortex-M core addresses 4 GiB


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_name(value, where: str, what: str) -> str:
    if not isinstance(value, str) or not _NAME.fullmatch(value):
        raise InvalidConfigError(f"{where} must be a name of at most 64 letters, digits, '_', '.', '+' or '-', "
                                 f"starting with a letter or digit; got {brief(value)}", f"Name the {what} that way")
    return value


def _check_keys(spec: dict, allowed: set[str], where: str) -> None:
    unknown = sorted((k for k in spec if k not in allowed), key=str)
    if unknown:
        raise InvalidConfigError(f"{where}: unknown key {brief(unknown[0])} (allowed: {sorted(allowed)})",
                                 rename_hint(unknown[0], allowed, "Remove or rename the key"))


def _memory_from_dict(m, where: str) -> Memory:
    if not isinstance(m, dict):
        raise InvalidConfigError(f"{where} must be a mapping with name and size", "Give name and size")
    _check_keys(m, _MEMORY_KEYS, where)
    name = _check_name(m.get("name"), f"{where}.name", "memory")
    size = m.get("size")
    if not _is_int(size) or not 0 < size <= ADDRESS_SPACE:
        raise InvalidConfigError(f"{where}.size must be a number of bytes from 1 to {ADDRESS_SPACE} (4 GiB), "
                                 f"got {brief(size)}", "Give the size in bytes, e.g. 524288 for 512 KiB")
    base = m.get("base")
    if base is not None and (not _is_int(base) or base < 0 or base + size > ADDRESS_SPACE):
        raise InvalidConfigError(f"{where}.base must be an address from 0 with base + size at most "
                                 f"{ADDRESS_SPACE:#x}, got {brief(base)}", "Give the memory's start address")
    writable = m.get("writable", True)
    if not isinstance(writable, bool):
        raise InvalidConfigError(f"{where}.writable must be true or false, got {brief(writable)}",
                                 "Write true or false")
    return Memory(name, size, base, writable)


def target_from_dict(spec: dict, where: str) -> Target:
    """Build a custom target from a YAML mapping; ``base`` copies a registered target first."""
    if not isinstance(spec, dict):
        raise InvalidConfigError(f"{where} must be a mapping", "See `helia-aot targets` for the fields")
    _check_keys(spec, _TARGET_KEYS, where)
    base = None
    if "base" in spec:
        base = get_target(_check_name(spec["base"], f"{where}.base", "base target"))
    name = _check_name(spec.get("name"), f"{where}.name", "custom target")
    cpu = _check_name(spec.get("cpu", base.cpu if base else None), f"{where}.cpu", "CPU (e.g. cortex-m55)")
    caps = check_capabilities(name, cpu, spec.get("capabilities", list(base.capabilities) if base else []), where)
    mems_spec = spec.get("memories")
    if mems_spec is None:
        memories = base.memories if base else ()
    else:
        if not isinstance(mems_spec, list) or not mems_spec:
            raise InvalidConfigError(f"{where}.memories must be a non-empty list", "List the memories")
        memories = tuple(_memory_from_dict(m, f"{where}.memories[{i}]") for i, m in enumerate(mems_spec))
    names = [m.name for m in memories]
    if not names:
        raise InvalidConfigError(f"{where} has no memories", "List them under memories, or name a base target")
    folded = [n.lower() for n in names]
    for n in names:
        if folded.count(n.lower()) > 1:
            raise InvalidConfigError(f"{where}.memories names {brief(n)} twice (names are compared ignoring case)",
                                     "Give every memory its own name")
    # A memory's name becomes part of C identifiers and section names (helia_aot/emit/symbols.py): two
    # names that mangle alike would give two arrays one name, which C merges silently.
    mangled: dict[str, str] = {}
    for n in names:
        other = mangled.setdefault(slug(n), n)
        if other != n:
            raise InvalidConfigError(f"{where}.memories {brief(other)} and {brief(n)} both become '{slug(n)}' in C "
                                     "names (arena and section names)", "Rename one of them")
    scratch = spec.get("scratch_memory", base.scratch_memory if base else names[0])
    const = spec.get("constant_memory", base.constant_memory if base else names[0])
    # The persistent arena follows the scratch memory unless the target (or its base) names another.
    persistent = spec.get("persistent_memory", base.persistent_default if base and base.persistent_default in names
                          else "")
    for key, value in (("scratch_memory", scratch), ("constant_memory", const), ("persistent_memory", persistent)):
        if value not in names and not (key == "persistent_memory" and value == ""):
            raise InvalidConfigError(f"{where}.{key} {brief(value)} is not one of the memories {names}",
                                     rename_hint(value, names, "Name one of the target's memories"))
    for key, value in (("scratch_memory", scratch), ("persistent_memory", persistent)):
        if value and not memories[names.index(value)].writable:
            raise InvalidConfigError(f"{where}.{key} {brief(value)} is read-only (writable: false)",
                                     "Put the arena in a writable memory")
    align = spec.get("arena_alignment", base.arena_alignment if base else 16)
    if not _is_int(align) or not 0 < align <= MAX_ARENA_ALIGNMENT or align & (align - 1):
        raise InvalidConfigError(f"{where}.arena_alignment must be a power of two from 1 to {MAX_ARENA_ALIGNMENT}, "
                                 f"got {brief(align)}", "Use 4, 8 or 16")
    description = spec.get("description", "")
    if not isinstance(description, str):
        raise InvalidConfigError(f"{where}.description must be a string, got {type(description).__name__}",
                                 "Quote the description")
    return Target(name, cpu, caps, memories, scratch, const, description, align, source="custom",
                  persistent_default=persistent)


def load_custom_targets(path: str | Path) -> list[Target]:
    doc = read_yaml(Path(path), "target file", "Check the target.file path")
    if isinstance(doc, dict):
        _check_keys(doc, {"targets"}, f"target file {path}")
    if not isinstance(doc, dict) or not isinstance(doc.get("targets"), list) or not doc["targets"]:
        raise InvalidConfigError(f"target file {path} must hold a non-empty list under 'targets'",
                                 "Start the file with targets: and list the targets under it")
    targets = [target_from_dict(t, f"{path}:targets[{i}]") for i, t in enumerate(doc["targets"])]
    check_distinct(targets, f"target file {path}")
    return targets


def check_distinct(targets: list[Target], where: str) -> None:
    names = [t.name for t in targets]
    for n in names:
        if names.count(n) > 1:
            raise InvalidConfigError(f"{where} defines target {brief(n)} twice", "Give every target its own name")


def get_target(name, custom: list[Target] | None = None) -> Target:
    if isinstance(name, Target):
        return name
    if not isinstance(name, str):
        raise UnknownTargetError(f"a target is named by a string, got {type(name).__name__} {brief(name)}",
                                 "Pass the target's name, e.g. corstone300")
    for t in custom or []:
        if t.name == name:
            return t
    if name in _BUILTIN:
        return _BUILTIN[name]
    known = sorted(_BUILTIN) + sorted(t.name for t in custom or [])
    raise UnknownTargetError(f"unknown target {brief(name)} (known targets: {', '.join(known)})",
                             rename_hint(name, known, "Pick one of those, or define it under target: in the "
                                                      "config file"))

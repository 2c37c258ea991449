# SPDX-License-Identifier: Apache-2.0
"""The Cortex-M cores firmware is built for: compiler flags and the simulator that runs them.

The one definition of these facts. //toolchains/arm_gnu builds its cc toolchains from it, and the
benchmark (tools/bench_lib/toolchain.py) reads this file as data, so both compile and run firmware
the same way. Keep it to plain literals (strings, lists, dicts, ints): Python's ast.literal_eval
reads every top-level assignment.
"""

# Flags of every compile action, whatever the core (picolibc's specs select its headers too).
COMPILE_FLAGS = [
    "--specs=picolibc.specs",
    "-ffunction-sections",
    "-fdata-sections",
]

# Flags of every link action: semihosting carries stdout and exit() to the simulator.
LINK_FLAGS = [
    "--specs=picolibc.specs",
    "--oslib=semihost",
    "-Wl,--gc-sections",
]

# Optimization of each Bazel compilation mode. cortex_m_test builds its firmware in "opt" (the golden
# tests too), and the benchmark and the kernel cost measurement count instructions with "opt"'s
# optimization. HELIA_OPTIMIZATION names it in every instruction count a firmware prints
# (toolchains/corstone300/instruction_counter.h).
COMPILATION_MODE_FLAGS = {
    "opt": ["-O2", "-DNDEBUG", "-DHELIA_OPTIMIZATION=\"-O2\""],
    "dbg": ["-Og", "-g3", "-DHELIA_OPTIMIZATION=\"-Og\""],
    "fastbuild": ["-O1", "-DHELIA_OPTIMIZATION=\"-O1\""],
}

# QEMU arguments after -M <machine>: -icount shift=0 makes one instruction one nanosecond of virtual
# time, so SysTick counts instructions and every run repeats exactly.
QEMU_ARGS = [
    "-nographic",
    "-monitor",
    "none",
    "-serial",
    "none",
    "-icount",
    "shift=0",
    "-semihosting-config",
    "enable=on,target=native",
]

# The boards QEMU emulates, one folder of board support each under toolchains/ (startup code, linker
# script matching QEMU's memory map), and the SysTick clock that turns ticks into instructions: under
# -icount shift=0 one instruction is one nanosecond of virtual time, so instructions per tick = 1e9 /
# the processor clock QEMU gives SysTick (x 100 to stay an integer). Memory maps as QEMU 11 builds them
# (`info mtree` of each machine; sources: QEMU hw/arm/mps2.c, mps2-tz.c, nrf51_soc.c).
BOARDS = {
    # Arm MPS3 AN547 (Corstone-300, Cortex-M55), 32 MHz (mps2-tz.c). Boots secure at 0x10000000.
    "corstone300": {
        "qemu_machine": "mps3-an547",
        "instructions_per_tick_x100": 3125,
        "startup": "toolchains/corstone300/startup.c",
        "linker_script": "toolchains/corstone300/corstone300.ld",
        "source": "QEMU hw/arm/mps2-tz.c (AN547); Arm AN547",
    },
    # Arm MPS2 AN385 (Cortex-M3), 25 MHz (mps2.c): SSRAM1 4 MiB at 0, SSRAM2/3 4 MiB at 0x20000000,
    # PSRAM 16 MiB at 0x21000000.
    "mps2_an385": {
        "qemu_machine": "mps2-an385",
        "instructions_per_tick_x100": 4000,
        "startup": "toolchains/mps2/startup.c",
        "linker_script": "toolchains/mps2/mps2.ld",
        "source": "QEMU hw/arm/mps2.c (AN385); Arm AN385",
    },
    # Arm MPS2 AN386 (Cortex-M4F), the AN385 map, 25 MHz.
    "mps2_an386": {
        "qemu_machine": "mps2-an386",
        "instructions_per_tick_x100": 4000,
        "startup": "toolchains/mps2/startup.c",
        "linker_script": "toolchains/mps2/mps2.ld",
        "source": "QEMU hw/arm/mps2.c (AN386); Arm AN386",
    },
    # Arm MPS2 AN500 (Cortex-M7 with a double-precision FPU), 25 MHz: the AN385 map but PSRAM at
    # 0x60000000.
    "mps2_an500": {
        "qemu_machine": "mps2-an500",
        "instructions_per_tick_x100": 4000,
        "startup": "toolchains/mps2/startup.c",
        "linker_script": "toolchains/mps2_an500/mps2_an500.ld",
        "source": "QEMU hw/arm/mps2.c (AN500); Arm AN500",
    },
    # Arm MPS2 AN505 (Cortex-M33 with DSP and FPU, IoT Kit), 20 MHz: boots secure at 0x10000000
    # (SSRAM1, 4 MiB); SSRAM2/3 4 MiB at 0x38000000 (secure alias).
    "mps2_an505": {
        "qemu_machine": "mps2-an505",
        "instructions_per_tick_x100": 5000,
        "startup": "toolchains/mps2/startup.c",
        "linker_script": "toolchains/mps2_an505/mps2_an505.ld",
        "source": "QEMU hw/arm/mps2-tz.c (AN505); Arm AN505",
    },
    # Arm MPS3 AN524 (SSE-200), 32 MHz: its CPU0 is a Cortex-M33 without FPU and DSP, as on the hardware
    # (QEMU hw/arm/armsse.c: "CPU0 in an SSE-200 has neither"; DSP code faults there). Boots secure at
    # 0x10000000 (BRAM, 512 KiB); SRAM 128 KiB at 0x30000000, DDR at 0x70000000 (secure aliases).
    "mps3_an524": {
        "qemu_machine": "mps3-an524",
        "instructions_per_tick_x100": 3125,
        "startup": "toolchains/mps2/startup.c",
        "linker_script": "toolchains/mps3_an524/mps3_an524.ld",
        "source": "QEMU hw/arm/mps2-tz.c (AN524); Arm AN524",
    },
    # BBC micro:bit v1 (Nordic nRF51822, Cortex-M0), 16 MHz: flash 256 KiB at 0, RAM 16 KiB at
    # 0x20000000.
    "microbit": {
        "qemu_machine": "microbit",
        "instructions_per_tick_x100": 6250,
        "startup": "toolchains/microbit/startup.c",
        "linker_script": "toolchains/microbit/microbit.ld",
        "source": "QEMU hw/arm/microbit.c, nrf51_soc.c; Nordic nRF51822 product specification",
    },
}

# The cores firmware is built for: name (also the name of its constraint, platform and toolchain):
#   core: the CPU name helia-aot targets use (a target's `cpu`);
#   cpu_flags: -mcpu/FPU/float-ABI flags of every compile and link;
#   platform_cpu: the @platforms//cpu value (the architecture; the constraint names the exact core);
#   ns_cmsis_nn_build: the code path ns-cmsis-nn compiles for it: mve (Helium), dsp (the DSP
#     extension's SIMD) or plain (C);
#   capabilities: hardware the compiler may count on: dsp (DSP extension), mve (Helium integer),
#     mve_f (Helium floating point), fpu (single-precision FPU), fp16 (half-precision arithmetic),
#     double (double-precision FPU);
#   board: the BOARDS entry QEMU runs it on, or None: built, never run (no emulator here);
#   other_boards: further BOARDS entries that run it (tested too);
#   default_target: the helia-aot target a module gets on this core's platform when it names none
#     (only a target the compiler has built in).
CORES = {
    "cortex_m0": {
        "core": "cortex-m0",
        "cpu_flags": ["-mcpu=cortex-m0", "-mfloat-abi=soft", "-mthumb"],
        "platform_cpu": "@platforms//cpu:armv6-m",
        "ns_cmsis_nn_build": "plain",
        "capabilities": [],
        "board": "microbit",
        "default_target": "microbit",
    },
    # QEMU has no Cortex-M0+ machine; the micro:bit's M0 runs its code (the same Armv6-M instructions).
    "cortex_m0plus": {
        "core": "cortex-m0plus",
        "cpu_flags": ["-mcpu=cortex-m0plus", "-mfloat-abi=soft", "-mthumb"],
        "platform_cpu": "@platforms//cpu:armv6-m",
        "ns_cmsis_nn_build": "plain",
        "capabilities": [],
        "board": "microbit",
    },
    "cortex_m3": {
        "core": "cortex-m3",
        "cpu_flags": ["-mcpu=cortex-m3", "-mfloat-abi=soft", "-mthumb"],
        "platform_cpu": "@platforms//cpu:armv7-m",
        "ns_cmsis_nn_build": "plain",
        "capabilities": [],
        "board": "mps2_an385",
        "default_target": "mps2_an385",
    },
    "cortex_m4": {
        "core": "cortex-m4",
        "cpu_flags": ["-mcpu=cortex-m4", "-mfpu=fpv4-sp-d16", "-mfloat-abi=hard", "-mthumb"],
        "platform_cpu": "@platforms//cpu:armv7e-mf",
        "ns_cmsis_nn_build": "dsp",
        "capabilities": ["dsp", "fpu"],
        "board": "mps2_an386",
        "default_target": "apollo4p_evb",
    },
    "cortex_m4_nofp": {
        "core": "cortex-m4",
        "cpu_flags": ["-mcpu=cortex-m4+nofp", "-mfloat-abi=soft", "-mthumb"],
        "platform_cpu": "@platforms//cpu:armv7e-m",
        "ns_cmsis_nn_build": "dsp",
        "capabilities": ["dsp"],
        "board": "mps2_an386",
    },
    "cortex_m7": {
        "core": "cortex-m7",
        "cpu_flags": ["-mcpu=cortex-m7", "-mfpu=fpv5-sp-d16", "-mfloat-abi=hard", "-mthumb"],
        "platform_cpu": "@platforms//cpu:armv7e-mf",
        "ns_cmsis_nn_build": "dsp",
        "capabilities": ["dsp", "fpu"],
        "board": "mps2_an500",
        "default_target": "mps2_an500",
    },
    "cortex_m7_dp": {
        "core": "cortex-m7",
        "cpu_flags": ["-mcpu=cortex-m7", "-mfpu=fpv5-d16", "-mfloat-abi=hard", "-mthumb"],
        "platform_cpu": "@platforms//cpu:armv7e-mf",
        "ns_cmsis_nn_build": "dsp",
        "capabilities": ["dsp", "fpu", "double"],
        "board": "mps2_an500",
    },
    "cortex_m33": {
        "core": "cortex-m33",
        "cpu_flags": ["-mcpu=cortex-m33", "-mfpu=fpv5-sp-d16", "-mfloat-abi=hard", "-mthumb"],
        "platform_cpu": "@platforms//cpu:armv8-m",
        "ns_cmsis_nn_build": "dsp",
        "capabilities": ["dsp", "fpu"],
        "board": "mps2_an505",
        "default_target": "mps2_an505",
    },
    "cortex_m33_nodsp": {
        "core": "cortex-m33",
        "cpu_flags": ["-mcpu=cortex-m33+nodsp+nofp", "-mfloat-abi=soft", "-mthumb"],
        "platform_cpu": "@platforms//cpu:armv8-m",
        "ns_cmsis_nn_build": "plain",
        "capabilities": [],
        "board": "mps3_an524",
        "other_boards": ["mps2_an505"],
    },
    "cortex_m55": {
        "core": "cortex-m55",
        "cpu_flags": ["-mcpu=cortex-m55", "-mfloat-abi=hard", "-mthumb"],
        "platform_cpu": "@platforms//cpu:armv8-m",
        "ns_cmsis_nn_build": "mve",
        "capabilities": ["dsp", "mve", "mve_f", "fpu", "fp16", "double"],
        "board": "corstone300",
        "default_target": "corstone300",
    },
    "cortex_m55_nomvef": {
        "core": "cortex-m55",
        "cpu_flags": ["-mcpu=cortex-m55+nomve.fp", "-mfloat-abi=hard", "-mthumb"],
        "platform_cpu": "@platforms//cpu:armv8-m",
        "ns_cmsis_nn_build": "mve",
        "capabilities": ["dsp", "mve", "fpu", "fp16", "double"],
        "board": "corstone300",
    },
    # arm-none-eabi-gcc builds for it; no emulator here runs it (QEMU 11 has no Cortex-M85).
    "cortex_m85": {
        "core": "cortex-m85",
        "cpu_flags": ["-mcpu=cortex-m85", "-mfloat-abi=hard", "-mthumb"],
        "platform_cpu": "@platforms//cpu:armv8-m",
        "ns_cmsis_nn_build": "mve",
        "capabilities": ["dsp", "mve", "mve_f", "fpu", "fp16", "double"],
        "board": None,
    },
}

# The built-in helia-aot targets (helia_aot/config/targets.py) and the CORES entry each runs on; the
# rules' TARGET_CORES (rules/private/targets.bzl) follows from it, and tests/bazel checks both agree
# with the compiler.
TARGET_CORE_NAMES = {
    "corstone300": "cortex_m55",
    "apollo510_evb": "cortex_m55",
    "apollo510l_evb": "cortex_m55",
    "apollo4p_evb": "cortex_m4",
    "apollo4l_evb": "cortex_m4",
    "apollo3_evb": "cortex_m4",
    "apollo3p_evb": "cortex_m4",
    "mps2_an386": "cortex_m4",
    "mps2_an385": "cortex_m3",
    "microbit": "cortex_m0",
    "mps2_an500": "cortex_m7_dp",
    "stm32h743": "cortex_m7_dp",
    "imxrt1060_evk": "cortex_m7_dp",
    "mps2_an505": "cortex_m33",
    "nrf5340_cpuapp": "cortex_m33",
    "rp2350": "cortex_m33",
    "mps3_an524": "cortex_m33_nodsp",
}

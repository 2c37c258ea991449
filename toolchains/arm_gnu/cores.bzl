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

# name: core, cpu_flags, @platforms//cpu value, core constraint, board support folder under
# toolchains/, QEMU machine, and instructions per SysTick tick x 100 under -icount shift=0 (the
# machine's processor clock: 32 MHz on AN547, 25 MHz on the MPS2 images).
CORES = {
    "cortex_m55": {
        "core": "cortex-m55",
        "cpu_flags": ["-mcpu=cortex-m55", "-mfloat-abi=hard", "-mthumb"],
        "platform_cpu": "@platforms//cpu:armv8-m",
        "constraint": "//toolchains/constraints:cortex_m55",
        "board": "corstone300",
        "qemu_machine": "mps3-an547",
        "instructions_per_tick_x100": 3125,
    },
    "cortex_m4": {
        "core": "cortex-m4",
        "cpu_flags": ["-mcpu=cortex-m4", "-mfpu=fpv4-sp-d16", "-mfloat-abi=hard", "-mthumb"],
        "platform_cpu": "@platforms//cpu:armv7e-mf",
        "constraint": "//toolchains/constraints:cortex_m4",
        "board": "mps2",
        "qemu_machine": "mps2-an386",
        "instructions_per_tick_x100": 4000,
    },
}

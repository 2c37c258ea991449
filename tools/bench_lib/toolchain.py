# SPDX-License-Identifier: Apache-2.0
"""The Arm GNU toolchain and QEMU as the benchmark uses them: flags, paths and a command runner
that turns a failure into a BenchError carrying the command and its output.

CPU flags, the flags every compile and link takes and the QEMU command line come from
toolchains/arm_gnu/cores.bzl, the file Bazel's Arm toolchains are built from."""

from __future__ import annotations

import ast
import concurrent.futures
import dataclasses
import os
import shutil
import subprocess
from pathlib import Path
from typing import Callable, Iterable, TypeVar

REPO = Path(__file__).resolve().parents[2]
CORES_FILE = REPO / "toolchains" / "arm_gnu" / "cores.bzl"
CORSTONE300_DIR = REPO / "toolchains" / "corstone300"
MPS2_DIR = REPO / "toolchains" / "mps2"
PORTABLE_DIR = REPO / "kernels" / "portable"
C_DIR = Path(__file__).resolve().parent / "c"

NS_CMSIS_NN_ENV = "HELIA_NS_CMSIS_NN_DIR"

ARM_CC = "arm-none-eabi-gcc"
ARM_AR = "arm-none-eabi-ar"
ARM_SIZE = "arm-none-eabi-size"
QEMU = "qemu-system-arm"


def read_bzl_constants(path: Path) -> dict:
    """The top-level `NAME = literal` assignments of a Starlark file written as plain literals."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    found = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            found[node.targets[0].id] = ast.literal_eval(node.value)
    return found


_CORES_BZL = read_bzl_constants(CORES_FILE)


@dataclasses.dataclass(frozen=True)
class Core:
    """One Cortex-M core as cores.bzl defines it, and the board (cores.bzl BOARDS) the benchmark runs it on."""

    name: str  # cores.bzl key, e.g. cortex_m55
    core: str  # e.g. cortex-m55
    cpu_flags: tuple[str, ...]
    board: str  # BOARDS key, e.g. mps2_an386
    qemu_machine: str
    instructions_per_tick_x100: int
    startup: Path
    linker_script: Path
    capabilities: tuple[str, ...] = ()
    ns_cmsis_nn_build: str = "plain"  # mve, dsp or plain: the code path ns-cmsis-nn compiles for the core

    @property
    def tick_instructions(self) -> float:
        return self.instructions_per_tick_x100 / 100

    def runtime_sources(self) -> list[Path]:
        """Startup code and the SysTick counter (toolchains/corstone300's on every board)."""
        return [self.startup, CORSTONE300_DIR / "instruction_counter.c"]

    def runtime_flags(self) -> list[str]:
        return ["-I", str(CORSTONE300_DIR), f"-DHELIA_INSTRUCTIONS_PER_TICK_X100={self.instructions_per_tick_x100}u"]

    @property
    def float16(self) -> bool:
        """Whether the kernel libraries are built with half precision (ARM_NN_ENABLE_F16): it needs the
        Cortex-M55's MVE-FP."""
        return "mve_f" in self.capabilities

    @property
    def library_defines(self) -> list[str]:
        # Both kernel libraries are built with their float switches, which they hand to the modules (as
        # the Bazel overlays do): a float module checks them in its <prefix>_common.h.
        return ["-DARM_NN_ENABLE_F32=1"] + (["-DARM_NN_ENABLE_F16=1"] if self.float16 else [])

    @property
    def board_cflags(self) -> list[str]:
        """The core's CPU flags and the flags of every compile (cores.bzl), without the kernel libraries' defines."""
        return [*self.cpu_flags, *_CORES_BZL["COMPILE_FLAGS"]]

    @property
    def common_cflags(self) -> list[str]:
        return [*self.board_cflags, *self.library_defines]

    @property
    def ldflags(self) -> list[str]:
        return [*self.cpu_flags, *_CORES_BZL["LINK_FLAGS"], "-nostartfiles", "-T", str(self.linker_script)]

    def qemu_command(self, elf: Path) -> list[str]:
        return [QEMU, "-M", self.qemu_machine, *_CORES_BZL["QEMU_ARGS"], "-kernel", str(elf)]


def _core(name: str, facts: dict) -> Core:
    board = _CORES_BZL["BOARDS"][facts["board"]]
    return Core(name, facts["core"], tuple(facts["cpu_flags"]), facts["board"], board["qemu_machine"],
                board["instructions_per_tick_x100"], REPO / board["startup"], REPO / board["linker_script"],
                tuple(facts["capabilities"]), facts["ns_cmsis_nn_build"])


# The cores an emulator here runs (cores.bzl's build-only ones, with no board, are not benchmarked).
CORES = {name: _core(name, c) for name, c in _CORES_BZL["CORES"].items() if c["board"]}
# The benchmark's targets and the core each runs on: the two product targets, then the QEMU boards'
# targets (named after the board, as helia-aot's built-in targets for them are), each on its board's
# first core in cores.bzl. tools/bench runs by default those the compiler knows.
TARGET_CORES = {"corstone300": CORES["cortex_m55"], "apollo4p_evb": CORES["cortex_m4"]}
for _name, _core in CORES.items():
    if _core.board not in TARGET_CORES:
        TARGET_CORES[_core.board] = _core
M55 = CORES["cortex_m55"]

# Code size is measured on a -Os build (issue 6), instruction counts with the optimization of Bazel's
# "opt" compilation mode, in which the golden tests' firmware is built (cores.bzl).
_OPT_MODE_FLAGS = _CORES_BZL["COMPILATION_MODE_FLAGS"]["opt"]
SIZE_OPT = "-Os"
SPEED_OPT = _OPT_MODE_FLAGS[0]


def optimization_flags(optimization: str) -> list[str]:
    """Compile flags of an optimization level: for SPEED_OPT all of Bazel's "opt" flags, so a count here
    and a golden test's count come from the same compilation; any level defines HELIA_OPTIMIZATION, which
    the instruction counter names in its reports."""
    if optimization == SPEED_OPT:
        return list(_OPT_MODE_FLAGS)
    return [optimization, f'-DHELIA_OPTIMIZATION="{optimization}"']

OUR_WARNINGS = ["-std=c99", "-Wall", "-Wextra", "-Werror"]

COMPILE_TIMEOUT_S = 300
QEMU_TIMEOUT_S = 300
# The machine is shared: never more than two compilers or simulators at once.
MAX_JOBS = 2

T = TypeVar("T")
R = TypeVar("R")


class BenchError(RuntimeError):
    """A benchmark step failed; the message says which step, the command and its output."""


def missing_tools() -> list[str]:
    return [tool for tool in (ARM_CC, ARM_AR, ARM_SIZE, QEMU) if shutil.which(tool) is None]


def ns_cmsis_nn_root() -> Path | None:
    value = os.environ.get(NS_CMSIS_NN_ENV)
    if not value:
        return None
    root = Path(value)
    if not (root / "Include" / "arm_nnfunctions.h").is_file():
        raise BenchError(f"{NS_CMSIS_NN_ENV}={value} has no Include/arm_nnfunctions.h; point it at the "
                         "root of an ns-cmsis-nn checkout (the directory holding Include/ and Source/)")
    return root


def run(cmd: Iterable[str | Path], what: str, *, timeout: float = COMPILE_TIMEOUT_S,
        merge_stderr: bool = False) -> str:
    """Runs cmd and returns its stdout (and stderr, where QEMU's semihosting console writes, when
    merge_stderr); any failure is a BenchError naming `what`."""
    argv = [str(part) for part in cmd]
    try:
        proc = subprocess.run(argv, capture_output=True, timeout=timeout, text=True, errors="replace")
    except subprocess.TimeoutExpired:
        raise BenchError(f"{what}: timed out after {timeout} s: {' '.join(argv)}") from None
    if proc.returncode != 0:
        raise BenchError(f"{what}: exit status {proc.returncode}\n$ {' '.join(argv)}\n"
                         f"{proc.stdout[-4000:]}{proc.stderr[-4000:]}")
    return proc.stdout + proc.stderr if merge_stderr else proc.stdout


def parallel_map(function: Callable[[T], R], items: Iterable[T]) -> list[R]:
    with concurrent.futures.ThreadPoolExecutor(MAX_JOBS) as pool:
        return list(pool.map(function, items))


def compile_c(source: Path, obj: Path, flags: list[str], what: str) -> Path:
    obj.parent.mkdir(parents=True, exist_ok=True)
    run([ARM_CC, *flags, "-c", source, "-o", obj], what)
    return obj

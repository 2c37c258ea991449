# SPDX-License-Identifier: Apache-2.0
"""The Arm GNU toolchain and QEMU as the benchmark uses them: flags, paths and a command runner
that turns a failure into a BenchError carrying the command and its output."""

from __future__ import annotations

import concurrent.futures
import os
import shutil
import subprocess
from pathlib import Path
from typing import Callable, Iterable, TypeVar

REPO = Path(__file__).resolve().parents[2]
CORSTONE300_DIR = REPO / "toolchains" / "corstone300"
PORTABLE_DIR = REPO / "kernels" / "portable"
C_DIR = Path(__file__).resolve().parent / "c"

NS_CMSIS_NN_ENV = "HELIA_NS_CMSIS_NN_DIR"

ARM_CC = "arm-none-eabi-gcc"
ARM_AR = "arm-none-eabi-ar"
ARM_SIZE = "arm-none-eabi-size"
QEMU = "qemu-system-arm"

ARCH_FLAGS = ["-mcpu=cortex-m55", "-mfloat-abi=hard", "-mthumb"]
# picolibc's specs select its headers too, so compiles need them as well as links.
# Both kernel libraries are built with their float switches, which they hand to the modules (as the
# Bazel overlays do): a float module checks them in its <prefix>_common.h.
LIBRARY_DEFINES = ["-DARM_NN_ENABLE_F32=1", "-DARM_NN_ENABLE_F16=1"]
COMMON_CFLAGS = ARCH_FLAGS + ["--specs=picolibc.specs", "-ffunction-sections", "-fdata-sections",
                              *LIBRARY_DEFINES]
# Code size is measured on a -Os build, instruction counts on a -O2 build (issue 6).
SIZE_OPT = "-Os"
SPEED_OPT = "-O2"
OUR_WARNINGS = ["-std=c99", "-Wall", "-Wextra", "-Werror"]
LDFLAGS = ["--oslib=semihost", "-nostartfiles", "-Wl,--gc-sections",
           "-T", str(CORSTONE300_DIR / "corstone300.ld")]
QEMU_ARGS = ["-M", "mps3-an547", "-nographic", "-monitor", "none", "-serial", "none",
             "-icount", "shift=0", "-semihosting-config", "enable=on,target=native"]

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

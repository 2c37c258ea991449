# SPDX-License-Identifier: Apache-2.0
"""Firmware for our Helium kernels (kernels/helium): the parity firmware (random calls checked against
the portable reference kernel) and the per-call instruction measurement, both on Corstone-300 under
QEMU mps3-an547, with the benchmark's compiler flags and QEMU arguments (toolchain.py). The machinery
is own_kernels.py's, shared with the DSP kernels (dsp.py)."""

from __future__ import annotations

from pathlib import Path

from . import own_kernels, toolchain
from .own_kernels import portable_sources  # noqa: F401  (part of this module's interface)

CORE = toolchain.M55  # the flags and QEMU command line of toolchains/arm_gnu/cores.bzl
FAMILY = own_kernels.Family("helium", CORE)
HELIUM_DIR = FAMILY.kernel_dir
HELIUM_SOURCES = FAMILY.sources
PORTABLE_SRC = own_kernels.PORTABLE_SRC
TEST_DIR = FAMILY.test_dir

# Per Helium kernel: its parity firmware (random calls checked against the portable reference) and its
# bench firmware (instructions per call beside the library's entries for the same layers).
PARITY = FAMILY.firmware("parity")
BENCH = FAMILY.firmware("bench")


def run(elf: Path, what: str, *, count_instructions: bool, timeout: float = toolchain.QEMU_TIMEOUT_S) -> str:
    """Runs a firmware on QEMU; returns what it printed. A non-zero exit status is a BenchError."""
    return own_kernels.run_on(CORE, elf, what, count_instructions=count_instructions, timeout=timeout)


def parity(work_dir: Path, calls: int, seed: int, defines: tuple[str, ...] = (),
           kernel: str = "depthwise") -> dict:
    """Builds and runs one kernel's parity firmware (a PARITY key); returns its counts (and its output,
    for messages). defines: extra ones for the kernel, e.g. HELIA_MVE_DW3X3_WINDOW_BYTES=480 to shrink
    the depthwise kernel's window."""
    return own_kernels.parity(FAMILY, work_dir, calls, seed, defines, kernel,
                              runner=lambda elf, what: run(elf, what, count_instructions=False))


def bench(work_dir: Path, backend: str, kernel: str = "depthwise") -> list[dict]:
    """Instructions per warm call of one of our kernels (a BENCH key) and of the backend's entries for
    the same layers (kernels.PORTABLE or kernels.NS_CMSIS_NN, built for Cortex-M55 at -O2) on the kws /
    vww layer shapes."""
    return own_kernels.bench(FAMILY, work_dir, backend, kernel,
                             runner=lambda elf, what: run(elf, what, count_instructions=True))

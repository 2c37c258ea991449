# SPDX-License-Identifier: Apache-2.0
"""Firmware for our DSP-extension kernels (kernels/dsp): the parity firmware (random calls checked
against the portable reference kernel) on any core with the DSP extension and without Helium (Cortex-M4
on QEMU mps2-an386 by default; the M7 and M33 boards too), and the per-call instruction measurement on
the Cortex-M4, with the benchmark's compiler flags and QEMU arguments (toolchain.py, own_kernels.py)."""

from __future__ import annotations

from pathlib import Path

from . import own_kernels, toolchain

CORE = toolchain.CORES["cortex_m4"]
FAMILY = own_kernels.Family("dsp", CORE)
# The cores the kernels serve (cores.bzl capabilities "dsp" without "mve") that QEMU runs here.
CORES = {name: core for name, core in toolchain.CORES.items()
         if "dsp" in core.capabilities and "mve" not in core.capabilities}

PARITY = FAMILY.firmware("parity")
BENCH = FAMILY.firmware("bench")


def parity(work_dir: Path, calls: int, seed: int, defines: tuple[str, ...] = (), kernel: str = "depthwise",
           core: toolchain.Core = CORE) -> dict:
    """Builds and runs one kernel's parity firmware (a PARITY key) for `core`; returns its counts (and its
    output, for messages)."""
    return own_kernels.parity(FAMILY, work_dir, calls, seed, defines, kernel, core=core)


def bench(work_dir: Path, backend: str, kernel: str = "depthwise") -> list[dict]:
    """Instructions per warm call of one of our kernels (a BENCH key) and of the backend's entries for the
    same layers (kernels.PORTABLE or kernels.NS_CMSIS_NN's DSP build, for the Cortex-M4 at -O2) on the
    kws / vww layer shapes."""
    return own_kernels.bench(FAMILY, work_dir, backend, kernel)

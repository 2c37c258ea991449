# SPDX-License-Identifier: Apache-2.0
"""Firmware for our own kernel families (kernels/helium on the Cortex-M55, kernels/dsp on the Cortex-M4
and the other DSP cores): the parity firmware (random calls checked against the portable reference
kernel) and the per-call instruction measurement, under QEMU on the family's core's board, with the
benchmark's compiler flags and QEMU arguments (toolchain.py). helium.py and dsp.py name the families."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from . import kernels, toolchain
from .toolchain import BenchError

PORTABLE_SRC = toolchain.PORTABLE_DIR / "src"
# Each test firmware names the portable sources compiled into it (the reference it compares against,
# or what its bench calls: building the whole library, over 200 files, for one firmware was most of the
# test's time) in a comment "Portable sources compiled with this firmware (...): a/b.c c/d.c */", paths
# under kernels/portable/src, or "none, ..." when the reference is the plain C in the kernel's own
# source. So a new kernel's firmware needs nothing here.
_PORTABLE_SOURCES = re.compile(r"Portable sources compiled with this firmware[^:]*:(.*?)\*/", re.S)


@dataclasses.dataclass(frozen=True)
class Family:
    """One folder of our kernels: kernels/<name>, its sources, test firmware and the core it is measured on.
    `name` is also the tag of its firmware's result lines ("<name> parity: ...", "<name> bench: ...")."""

    name: str
    core: toolchain.Core

    @property
    def kernel_dir(self) -> Path:
        return toolchain.REPO / "kernels" / self.name

    @property
    def include_dir(self) -> Path:
        return self.kernel_dir / "include"

    @property
    def sources(self) -> list[Path]:
        return sorted((self.kernel_dir / "src").glob("*.c"))

    @property
    def test_dir(self) -> Path:
        return self.kernel_dir / "test"

    def firmware(self, kind: str) -> dict[str, Path]:
        """Kernel name -> its firmware of this kind (parity or bench), from the files test/<kernel>_<kind>.c."""
        return {path.name[:-len(f"_{kind}.c")]: path for path in sorted(self.test_dir.glob(f"*_{kind}.c"))}


def portable_sources(firmware: Path) -> list[Path]:
    """The portable sources a test firmware says it is compiled with, in its order."""
    match = _PORTABLE_SOURCES.search(firmware.read_text(encoding="utf-8"))
    if match is None:
        raise BenchError(f"{firmware}: no comment 'Portable sources compiled with this firmware: ... */'")
    sources = [PORTABLE_SRC / name for name in match.group(1).split() if name.endswith(".c")]
    missing = [str(path) for path in sources if not path.is_file()]
    if (not sources and match.group(1).split()[:1] != ["none,"]) or missing:
        raise BenchError(f"{firmware}: portable sources missing or none named: {missing}")
    return sources


def _qemu_command(core: toolchain.Core, elf: Path, count_instructions: bool) -> list[str]:
    """QEMU without -icount runs the parity firmware several times faster; counts need -icount shift=0."""
    command = core.qemu_command(elf)
    if not count_instructions and "-icount" in command:
        at = command.index("-icount")
        del command[at:at + 2]
    return command


def build(family: Family, name: str, sources: list[Path], include_dirs: list[Path], work_dir: Path,
          defines: tuple[str, ...] = (), ours: tuple[Path, ...] = (), archives: tuple[Path, ...] = (),
          core: toolchain.Core | None = None) -> Path:
    """Compiles and links one -O2 firmware ELF for `core` (default: the family's). Files in `ours` (and
    the family's kernels) are held to our warning flags; the rest (e.g. ns-cmsis-nn) are built as their
    project builds them."""
    core = core or family.core
    out = work_dir / name
    out.mkdir(parents=True, exist_ok=True)
    includes = [flag for d in include_dirs for flag in ("-I", str(d))]
    base = (core.common_cflags + core.runtime_flags() + toolchain.optimization_flags(toolchain.SPEED_OPT)
            + includes + [f"-D{d}" for d in defines])
    strict = set(family.sources) | set(ours)

    def compile_one(job: tuple[int, Path]) -> Path:
        index, src = job
        flags = base + (toolchain.OUR_WARNINGS if src in strict else [])
        return toolchain.compile_c(src, out / f"{index:03d}_{src.stem}.o", flags, f"{name}: compile {src.name}")

    objects = toolchain.parallel_map(compile_one, list(enumerate(sources)))
    elf = out / "firmware.elf"
    toolchain.run([toolchain.ARM_CC, *core.ldflags, "-o", elf, *objects, *archives], f"{name}: link")
    return elf


def run_on(core: toolchain.Core, elf: Path, what: str, *, count_instructions: bool,
           timeout: float = toolchain.QEMU_TIMEOUT_S) -> str:
    """Runs a firmware on QEMU on `core`'s board; returns what it printed. A non-zero exit status is a
    BenchError."""
    return toolchain.run(_qemu_command(core, elf, count_instructions), what, timeout=timeout, merge_stderr=True)


def parity(family: Family, work_dir: Path, calls: int, seed: int, defines: tuple[str, ...] = (),
           kernel: str = "depthwise", core: toolchain.Core | None = None,
           runner=None) -> dict:
    """Builds and runs one kernel's parity firmware (test/<kernel>_parity.c) on `core` (default: the
    family's); returns its counts (and its output, for messages). runner(elf, what) runs the firmware
    (default: run_on the core)."""
    core = core or family.core
    firmware_source = family.firmware("parity")[kernel]
    reference = portable_sources(firmware_source)
    sources = family.sources + reference + core.runtime_sources() + [firmware_source]
    tag = "-".join([kernel, str(seed), core.name] + [d.replace("=", "") for d in defines])
    elf = build(family, f"parity-{tag}", sources, [family.include_dir, toolchain.PORTABLE_DIR / "include"],
                work_dir, defines=(f"HELIA_PARITY_CALLS={calls}", f"HELIA_PARITY_SEED={seed}u", *defines),
                ours=tuple(reference + [firmware_source]), core=core)
    what = f"{family.name} parity firmware"
    try:
        text = (runner(elf, what) if runner else run_on(core, elf, what, count_instructions=False))
    except BenchError as error:  # mismatches exit with status 1; the counts are still in the output
        text = str(error)
    match = re.search(rf"{family.name} parity: calls (\d+) outputs (\d+) mismatches (\d+) refusal_failures (\d+)",
                      text)
    if match is None:
        raise BenchError(f"{what} printed no result line:\n{text[-3000:]}")
    calls_run, outputs, mismatches, refusals = map(int, match.groups())
    return {"calls": calls_run, "outputs": outputs, "mismatches": mismatches, "refusal_failures": refusals,
            "text": text}


def bench(family: Family, work_dir: Path, backend: str, kernel: str = "depthwise", runner=None) -> list[dict]:
    """Instructions per warm call of one of the family's kernels (test/<kernel>_bench.c) and of the
    backend's entries for the same layers (kernels.PORTABLE or kernels.NS_CMSIS_NN, built for the family's
    core at -O2). The portable kernels it calls are compiled into the firmware; ns-cmsis-nn is linked as a
    whole archive (kept and reused in a kept work_dir)."""
    core = family.core
    source = family.firmware("bench")[kernel]
    portable = portable_sources(source)
    sources = family.sources + core.runtime_sources() + [source]
    if backend == kernels.PORTABLE:
        include_dir, archives, ours = toolchain.PORTABLE_DIR / "include", (), (source, *portable)
        sources += portable
    else:
        library = kernels.build(backend, toolchain.SPEED_OPT, work_dir, core)
        include_dir, archives, ours = library.include_dir, (library.archive,), (source,)
    elf = build(family, f"bench-{family.name}-{kernel}-{backend}", sources, [family.include_dir, include_dir],
                work_dir, ours=ours, archives=archives)
    what = f"{family.name} bench firmware ({kernel}, {backend})"
    text = runner(elf, what) if runner else run_on(core, elf, what, count_instructions=True)
    line = re.compile(rf"{family.name} bench: layer (\S+) entry (\S+) instructions (\d+) scratch (\d+) "
                      r"same_output ([01])")
    rows = [{"backend": backend, "kernel": kernel, "layer": layer, "entry": entry, "instructions": int(count),
             "scratch_bytes": int(scratch), "same_output": same == "1"}
            for layer, entry, count, scratch, same in line.findall(text)]
    if not rows:
        raise BenchError(f"{what} printed no measurement:\n{text[-3000:]}")
    return rows

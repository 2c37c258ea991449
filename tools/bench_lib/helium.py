# SPDX-License-Identifier: Apache-2.0
"""Firmware for our Helium kernels (kernels/helium): the parity firmware (random calls checked against
the portable reference kernel) and the per-call instruction measurement, both on Corstone-300 under
QEMU mps3-an547, with the benchmark's compiler flags and QEMU arguments (toolchain.py)."""

from __future__ import annotations

import re
from pathlib import Path

from . import kernels, toolchain
from .toolchain import BenchError

HELIUM_DIR = toolchain.REPO / "kernels" / "helium"
HELIUM_SOURCES = sorted((HELIUM_DIR / "src").glob("*.c"))
PORTABLE_SRC = toolchain.PORTABLE_DIR / "src"
TEST_DIR = HELIUM_DIR / "test"
# Each test firmware names the portable sources compiled into it (the reference it compares against,
# or what its bench calls: building the whole library, over 200 files, for one firmware was most of the
# test's time) in a comment "Portable sources compiled with this firmware (...): a/b.c c/d.c */", paths
# under kernels/portable/src, or "none, ..." when the reference is the plain C in the Helium kernel's own
# source. So a new kernel's firmware needs nothing here.
_PORTABLE_SOURCES = re.compile(r"Portable sources compiled with this firmware[^:]*:(.*?)\*/", re.S)


def _firmware(kind: str) -> dict[str, Path]:
    """Kernel name -> its firmware of this kind (parity or bench), from the files test/<kernel>_<kind>.c."""
    return {path.name[:-len(f"_{kind}.c")]: path for path in sorted(TEST_DIR.glob(f"*_{kind}.c"))}


# Per Helium kernel: its parity firmware (random calls checked against the portable reference) and its
# bench firmware (instructions per call beside the library's entries for the same layers).
PARITY = _firmware("parity")
BENCH = _firmware("bench")


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


RUNTIME_SOURCES = [toolchain.CORSTONE300_DIR / "startup.c", toolchain.CORSTONE300_DIR / "instruction_counter.c"]
CORE = toolchain.M55  # the flags and QEMU command line of toolchains/arm_gnu/cores.bzl


def _qemu_command(elf: Path, count_instructions: bool) -> list[str]:
    """QEMU without -icount runs the parity firmware several times faster; counts need -icount shift=0."""
    command = CORE.qemu_command(elf)
    if not count_instructions and "-icount" in command:
        at = command.index("-icount")
        del command[at:at + 2]
    return command

PARITY_LINE = re.compile(r"helium parity: calls (\d+) outputs (\d+) mismatches (\d+) refusal_failures (\d+)")


def build(name: str, sources: list[Path], include_dirs: list[Path], work_dir: Path,
          defines: tuple[str, ...] = (), ours: tuple[Path, ...] = (), archives: tuple[Path, ...] = ()) -> Path:
    """Compiles and links one -O2 firmware ELF. Files in `ours` (and the Helium kernels) are held to
    our warning flags; the rest (e.g. ns-cmsis-nn) are built as their project builds them."""
    out = work_dir / name
    out.mkdir(parents=True, exist_ok=True)
    includes = [flag for d in include_dirs for flag in ("-I", str(d))]
    base = (CORE.common_cflags + toolchain.optimization_flags(toolchain.SPEED_OPT) + includes
            + [f"-D{d}" for d in defines])
    strict = set(HELIUM_SOURCES) | set(ours)

    def compile_one(job: tuple[int, Path]) -> Path:
        index, src = job
        flags = base + (toolchain.OUR_WARNINGS if src in strict else [])
        return toolchain.compile_c(src, out / f"{index:03d}_{src.stem}.o", flags, f"{name}: compile {src.name}")

    objects = toolchain.parallel_map(compile_one, list(enumerate(sources)))
    elf = out / "firmware.elf"
    toolchain.run([toolchain.ARM_CC, *CORE.ldflags, "-o", elf, *objects, *archives], f"{name}: link")
    return elf


def run(elf: Path, what: str, *, count_instructions: bool, timeout: float = toolchain.QEMU_TIMEOUT_S) -> str:
    """Runs a firmware on QEMU; returns what it printed. A non-zero exit status is a BenchError."""
    return toolchain.run(_qemu_command(elf, count_instructions), what, timeout=timeout, merge_stderr=True)


def parity(work_dir: Path, calls: int, seed: int, defines: tuple[str, ...] = (),
           kernel: str = "depthwise") -> dict:
    """Builds and runs one kernel's parity firmware (a PARITY key); returns its counts (and its output,
    for messages). defines: extra ones for the kernel, e.g. HELIA_MVE_DW3X3_SHIFTED=0 / 1 to force an
    edge method of the depthwise kernel."""
    firmware_source = PARITY[kernel]
    reference = portable_sources(firmware_source)
    sources = HELIUM_SOURCES + reference + RUNTIME_SOURCES + [firmware_source]
    tag = "-".join([kernel, str(seed)] + [d.replace("=", "") for d in defines])
    elf = build(f"parity-{tag}", sources, [HELIUM_DIR / "include", toolchain.PORTABLE_DIR / "include",
                                            toolchain.CORSTONE300_DIR], work_dir,
                defines=(f"HELIA_PARITY_CALLS={calls}", f"HELIA_PARITY_SEED={seed}u", *defines),
                ours=tuple(reference + [firmware_source]))
    try:
        text = run(elf, "helium parity firmware", count_instructions=False)
    except BenchError as error:  # mismatches exit with status 1; the counts are still in the output
        text = str(error)
    match = PARITY_LINE.search(text)
    if match is None:
        raise BenchError(f"helium parity firmware printed no result line:\n{text[-3000:]}")
    calls_run, outputs, mismatches, refusals = map(int, match.groups())
    return {"calls": calls_run, "outputs": outputs, "mismatches": mismatches, "refusal_failures": refusals,
            "text": text}


BENCH_LINE = re.compile(r"helium bench: layer (\S+) entry (\S+) instructions (\d+) scratch (\d+) same_output ([01])")


def bench(work_dir: Path, backend: str, kernel: str = "depthwise") -> list[dict]:
    """Instructions per warm call of one of our kernels (a BENCH key) and of the backend's entries for
    the same layers (kernels.PORTABLE or kernels.NS_CMSIS_NN, built for Cortex-M55 at -O2) on the kws /
    vww layer shapes. The portable kernels it calls are compiled into the firmware; ns-cmsis-nn is
    linked as a whole archive (kept and reused in a kept work_dir)."""
    source = BENCH[kernel]
    portable = portable_sources(source)
    sources = HELIUM_SOURCES + RUNTIME_SOURCES + [source]
    if backend == kernels.PORTABLE:
        include_dir, archives, ours = toolchain.PORTABLE_DIR / "include", (), (source, *portable)
        sources += portable
    else:
        library = kernels.build(backend, toolchain.SPEED_OPT, work_dir)
        include_dir, archives, ours = library.include_dir, (library.archive,), (source,)
    elf = build(f"bench-{kernel}-{backend}", sources, [HELIUM_DIR / "include", include_dir, toolchain.CORSTONE300_DIR],
                work_dir, ours=ours, archives=archives)
    text = run(elf, f"helium bench firmware ({kernel}, {backend})", count_instructions=True)
    rows = [{"backend": backend, "kernel": kernel, "layer": layer, "entry": entry, "instructions": int(count),
             "scratch_bytes": int(scratch), "same_output": same == "1"}
            for layer, entry, count, scratch, same in BENCH_LINE.findall(text)]
    if not rows:
        raise BenchError(f"helium bench firmware printed no measurement:\n{text[-3000:]}")
    return rows

# SPDX-License-Identifier: Apache-2.0
"""Kernel libraries for the benchmark firmware: our portable kernels and, when HELIA_NS_CMSIS_NN_DIR
names a checkout, ns-cmsis-nn (integer and float sources, with its float switches), each built for
one core: on the Cortex-M55 ns-cmsis-nn compiles its MVE code, on the Cortex-M4 its DSP code. Each is a static archive of -ffunction-sections objects, so the firmware link
keeps only the kernels a module calls."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

from helia_aot.library import own_kernels

from . import toolchain

PORTABLE = "portable"
# ns-cmsis-nn has no kernels of TFLM's Signal operators: its library carries ours (as Bazel's
# //kernels:ns_cmsis_nn_with_signal does); the portable library has them already.
SIGNAL_SOURCES_DIR = toolchain.PORTABLE_DIR / "src" / "signal"
NS_CMSIS_NN = "ns-cmsis-nn"
# helia-aot's name of each library (--kernel_library): a module is converted for the library it links.
HELIA_AOT_NAMES = {PORTABLE: "portable", NS_CMSIS_NN: "ns_cmsis_nn"}
# Which files of an ns-cmsis-nn tree are compiled: stated once, for Bazel's overlay and for us.
NS_CMSIS_NN_SOURCES_FILE = toolchain.REPO / "third_party" / "ns_cmsis_nn" / "sources.bzl"


@dataclasses.dataclass(frozen=True)
class KernelLibrary:
    backend: str
    optimization: str
    archive: Path
    include_dir: Path
    core: toolchain.Core = toolchain.CORES["cortex_m55"]
    # Our kernel families for the core (helia_aot.library.own_kernels: kernels/helium on a core with MVE,
    # kernels/dsp on one with the DSP extension), built beside the library: their archives and include
    # directories (a module may call their entries there).
    own_archives: tuple[Path, ...] = ()
    own_include_dirs: tuple[Path, ...] = ()
    # Our Signal kernels (helia_signal.h) beside a library without them (ns-cmsis-nn): their archive
    # and the portable include directory, searched last so the library's own headers win.
    signal_archive: Path | None = None
    signal_include_dir: Path | None = None

    @property
    def archives(self) -> list[Path]:
        """What a firmware links, our kernel families first (they need nothing of the library's code)."""
        return [*self.own_archives, self.archive] + ([self.signal_archive] if self.signal_archive else [])

    @property
    def include_dirs(self) -> list[Path]:
        return [self.include_dir, *self.own_include_dirs] + ([self.signal_include_dir] if self.signal_include_dir else [])

    @property
    def own_headers(self) -> list[Path]:
        """The headers declaring our kernel families' entries (each family's one header)."""
        return [d / f.header for f in own_kernels.FAMILIES for d in self.own_include_dirs
                if (d / f.header).is_file()]


def ns_cmsis_nn_sources(root: Path, float16: bool) -> list[Path]:
    """The C sources of the ns-cmsis-nn tree at `root` that a build compiles, by the globs of
    third_party/ns_cmsis_nn/sources.bzl: the float16 kernels only when `float16` (ARM_NN_ENABLE_F16)."""
    lists = toolchain.read_bzl_constants(NS_CMSIS_NN_SOURCES_FILE)
    excluded = lists["NS_CMSIS_NN_EXCLUDED_SOURCES"] + ([] if float16 else lists["NS_CMSIS_NN_FLOAT16_SOURCES"])

    def matching(patterns: list[str]) -> set[Path]:
        return {path for pattern in patterns for path in root.glob(pattern) if path.is_file()}

    return sorted(matching(lists["NS_CMSIS_NN_SOURCES"]) - matching(excluded))


def sources(backend: str, core: toolchain.Core = toolchain.CORES["cortex_m55"]) -> tuple[Path, Path, list[Path]]:
    """(source root, include dir, C sources) of a backend, as built for `core`."""
    if backend == PORTABLE:
        root = toolchain.PORTABLE_DIR
        return root / "src", root / "include", sorted((root / "src").rglob("*.c"))
    root = toolchain.ns_cmsis_nn_root()
    if root is None:
        raise toolchain.BenchError(f"backend {NS_CMSIS_NN} needs {toolchain.NS_CMSIS_NN_ENV}")
    return root / "Source", root / "Include", ns_cmsis_nn_sources(root, core.float16)


def build(backend: str, optimization: str, work_dir: Path,
          core: toolchain.Core = toolchain.CORES["cortex_m55"]) -> KernelLibrary:
    """Compiles a backend's sources (two at a time) for `core` into work_dir/lib<backend><opt>[-core].a,
    our kernel families for the core beside it (lib<backend><opt>[-core]-<family>.a), and for ns-cmsis-nn
    our Signal kernels (lib<backend><opt>[-core]-signal.a)."""
    source_root, include_dir, files = sources(backend, core)
    if not files:
        raise toolchain.BenchError(f"kernel library {backend}: no C sources under {source_root}")
    tag = f"{backend}{optimization}" + ("" if core.name == "cortex_m55" else f"-{core.core}")
    own = {}
    families = own_kernels.families_for(core.capabilities)
    if families:
        dirs = [toolchain.REPO / f.folder for f in families]
        own = dict(own_archives=tuple(
            _archive(sorted((d / "src").glob("*.c")), d / "src", f"{tag}-{f.name}", work_dir, core.common_cflags + [
                *toolchain.optimization_flags(optimization), "-I", str(include_dir), "-I", str(d / "include"),
                *toolchain.OUR_WARNINGS]) for f, d in zip(families, dirs)),
            own_include_dirs=tuple(d / "include" for d in dirs))
    # Our kernels are held to our warning flags; ns-cmsis-nn is built as its project builds it.
    flags = core.common_cflags + [*toolchain.optimization_flags(optimization), "-I", str(include_dir)]
    if backend == PORTABLE:
        flags += toolchain.OUR_WARNINGS
    archive = _archive(files, source_root, tag, work_dir, flags)
    signal = {}
    if backend != PORTABLE:
        signal_include = toolchain.PORTABLE_DIR / "include"
        signal = dict(signal_archive=_archive(sorted(SIGNAL_SOURCES_DIR.glob("*.c")), SIGNAL_SOURCES_DIR,
                                              f"{tag}-signal", work_dir, core.common_cflags + [
                                                  *toolchain.optimization_flags(optimization), "-I", str(include_dir), "-I", str(signal_include),
                                                  *toolchain.OUR_WARNINGS]),
                      signal_include_dir=signal_include)
    return KernelLibrary(backend, optimization, archive, include_dir, core, **own, **signal)


def _archive(files: list[Path], source_root: Path, tag: str, work_dir: Path, flags: list[str]) -> Path:
    archive = work_dir / f"lib{tag}.a"
    # A kept --work-dir reuses an archive newer than every source (the flags never change).
    if archive.is_file() and archive.stat().st_mtime > max(p.stat().st_mtime for p in files):
        return archive
    obj_dir = work_dir / f"{tag}-obj"

    def compile_one(src: Path) -> Path:
        # Object names keep the relative path, so equal file names in two folders do not clash.
        name = str(src.relative_to(source_root)).replace(os.sep, "__")[:-2] + ".o"
        return toolchain.compile_c(src, obj_dir / name, flags, f"compile {tag} {src.name}")

    objects = toolchain.parallel_map(compile_one, files)
    archive.unlink(missing_ok=True)
    toolchain.run([toolchain.ARM_AR, "rcsD", archive, *objects], f"archive {tag}")
    return archive

# SPDX-License-Identifier: Apache-2.0
"""Conversion figures: wall time of helia_aot.convert (median of three runs) and the memory figures
of its report (scratch arena, lower bound, ratio, constants, MACs). Folded in from the former
tools/bench_convert."""

from __future__ import annotations

import statistics
import time
from pathlib import Path

import helia_aot

from . import kernels
from .firmware import ModuleBuild

RUNS = 3
# A peer compiler's scratch arenas for the MLPerf Tiny int8 models on a Cortex-M55 target (issue 3).
PEER_SCRATCH_ARENA_BYTES = {"kws_ref_model": 19344, "vww_96_int8": 55296,
                            "pretrainedResnet_quant": 49728, "ad01_int8": 768}


def convert(model: Path, out_dir: Path, prefix: str, target: str,
            config: Path | None = None) -> tuple[dict, helia_aot.ConversionResult]:
    """Converts `model` RUNS times into out_dir/run<i> (for the configuration's kernel library); returns
    its figures and the last result."""
    seconds = []
    for run in range(RUNS):
        start = time.perf_counter()
        result = helia_aot.convert(model, out_dir / f"run{run}", prefix=prefix, target=target, config=config)
        seconds.append(time.perf_counter() - start)
    memory = result.report["memory"]
    figures = {
        "seconds_median": round(statistics.median(seconds), 4),
        "seconds_runs": [round(s, 4) for s in seconds],
        "scratch_arena_bytes": memory["scratch_arena_bytes"],
        "lower_bound_bytes": memory["lower_bound_bytes"],
        "ratio": memory["ratio"],
        "constant_bytes": memory["constant_bytes"],
        "peer_scratch_arena_bytes": PEER_SCRATCH_ARENA_BYTES.get(model.stem) if target == "corstone300" else None,
        "kernel_choice": result.report.get("kernel_choice"),
        "total_macs": result.report["total_macs"],
        "operators": len(result.plan["operators"]),
        "kernel_symbols": sorted(set(result.kernel_symbols)),
    }
    return figures, result


def module_build(name: str, model: Path, work_dir: Path, result: helia_aot.ConversionResult) -> ModuleBuild:
    """The firmware builds' view of one conversion."""
    return ModuleBuild(name=name, model_path=model, module_dir=result.output_dir, work_dir=work_dir,
                       operator_count=max(len(result.plan["operators"]), len(result.plan.get("schedule", []))),
                       kernel_symbols=result.kernel_symbols)


def for_backend(build: ModuleBuild, backend: str, prefix: str, target: str,
                config: Path | None = None) -> ModuleBuild:
    """`build`'s model converted for a kernel library (kernels.PORTABLE or kernels.NS_CMSIS_NN), as a
    Bazel build with that //kernels:backend converts it: its plan picks that library's entries and
    scratch (with the portable kernels, no entry that needs scratch, such as our Helium convolution).
    A library's instruction count is of this module, never of one planned for another library."""
    result = helia_aot.convert(build.model_path, build.work_dir / f"convert-{backend}", prefix=prefix, target=target,
                               config=config, kernel_library=kernels.HELIA_AOT_NAMES[backend])
    return module_build(build.name, build.model_path, build.work_dir, result)

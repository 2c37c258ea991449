# SPDX-License-Identifier: Apache-2.0
"""Shared fixtures-free helpers for the compiler's unit tests."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from tests.skip_policy import NS_CMSIS_NN_NOT_CONFIGURED, models_not_available

REPO = Path(__file__).resolve().parents[2]
NS_SKIP = NS_CMSIS_NN_NOT_CONFIGURED
MLPERF = ("kws_ref_model", "vww_96_int8", "pretrainedResnet_quant", "ad01_int8")
# A peer compiler's scratch arenas on a Cortex-M55 target (issue 3): ours must not exceed them.
ARENA_TARGETS = {"kws_ref_model": 19344, "vww_96_int8": 55296, "pretrainedResnet_quant": 49728, "ad01_int8": 768}


def models_dir() -> Path:
    return Path(os.environ.get("HELIA_MODELS_DIR", REPO.parent / "shared" / "models" / "mlperf-tiny"))


def mlperf_model(name: str) -> Path:
    path = models_dir() / f"{name}.tflite"
    if not path.exists():
        pytest.skip(models_not_available(f"MLPerf Tiny model {path}", "HELIA_MODELS_DIR"))
    return path


def ns_cmsis_nn_dir() -> Path:
    value = os.environ.get("HELIA_NS_CMSIS_NN_DIR")
    if not value:
        pytest.skip(NS_SKIP)
    return Path(value)


def portable_kernels_dir() -> Path:
    root = REPO / "kernels" / "portable"
    assert (root / "include" / "arm_nnfunctions.h").exists() and list((root / "src").rglob("*.c")), \
        f"the portable kernels are missing from {root} (include/arm_nnfunctions.h and src/**/*.c)"
    return root


def require_gcc() -> str:
    gcc = shutil.which("gcc")
    if gcc is None:
        pytest.skip("host gcc not installed")
    return gcc


def function_body(c_source: str, position: int) -> str:
    """The text of the generated static function for operator ``position``."""
    match = re.search(rf"_op_{position}\(uint8_t \*arena(?:, uint8_t \*persistent)?\)\n\{{\n(.*?)\n\}}\n",
                      c_source, re.S)
    assert match, f"no function for operator {position}"
    return match.group(1)


def compile_c(args: list[str], cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(args, capture_output=True, text=True, cwd=cwd)


def build_host_module(out: Path, main_source: str, kernel_folders, *flags: str, strict: bool = True,
                      extra_sources=(), includes=()) -> Path:
    """A host executable of the module converted into `out`: `main_source` as main.c, the module's sources and
    the portable kernels' src/<folder> files for each of `kernel_folders` (and support). `strict`: -Wall
    -Wextra -Werror and the sanitizers."""
    from tests.sanitizers import SANITIZERS
    gcc, kernels = require_gcc(), portable_kernels_dir()
    main = out / "main.c"
    main.write_text(main_source)
    folders = set(kernel_folders) | {"support"}
    sources = [str(p) for p in (out / "src").glob("*.c")] + [str(main), *map(str, extra_sources)]
    sources += [str(p) for p in (kernels / "src").rglob("*.c") if p.parent.name in folders]
    checks = ["-g", "-Wall", "-Wextra", "-Werror", *SANITIZERS] if strict else []
    exe = out / "run"
    proc = compile_c([gcc, "-std=c99", "-O1", *checks, *flags, *sources, "-I", str(out / "include"),
                      "-I", str(kernels / "include"), *(a for d in includes for a in ("-I", str(d))),
                      "-o", str(exe), "-lm"])
    assert proc.returncode == 0, proc.stderr[-3000:]
    return exe

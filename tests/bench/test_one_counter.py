# SPDX-License-Identifier: Apache-2.0
"""One instruction counter: the KWS module counted the golden test's way and the benchmark's way gives
one figure, to the tick.

Golden way: the conversion //models:kws_golden makes (rules/private/helia_action.py's arguments: target
corstone300, the portable kernels of the offline build, seed 7), its generated test main with
golden_profile.h force-included, compiled with Bazel's opt flags (cortex_m_test builds firmware in opt);
it reports the first model_run (sample 0). Benchmark way: tools/bench's own conversion for the portable
kernels and its bench_main.c, fed sample 0, which reports a warm model_run. Under QEMU -icount shift=0
there is no cache and no lazy set-up, so a stateless module's first run costs what a warm run on the
same input costs: any difference is the counting (window, counter, conversion to instructions) or the
build (module plan, optimization), which is what this test is for."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

import helia_aot

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tools"))

from bench_lib import convert, counter, firmware, kernels, toolchain  # noqa: E402

KWS = REPO / "models" / "kws.tflite"
TARGET = "corstone300"
CORE = toolchain.TARGET_CORES[TARGET]
# //models:kws_golden's attributes, and the library the offline build's modules link.
GOLDEN_SEED = 7
GOLDEN_LIBRARY = kernels.PORTABLE


@pytest.fixture(scope="module")
def work(tmp_path_factory) -> Path:
    missing = toolchain.missing_tools()
    if missing:
        pytest.skip(f"{', '.join(missing)} not on PATH: counting needs the Arm GNU toolchain and QEMU "
                    "(tools/bootstrap installs both in the sid rootfs)")
    return tmp_path_factory.mktemp("one-counter")


@pytest.fixture(scope="module")
def library(work) -> kernels.KernelLibrary:
    return kernels.build(GOLDEN_LIBRARY, toolchain.SPEED_OPT, work, CORE)


def golden_firmware(work: Path, library: kernels.KernelLibrary) -> tuple[Path, Path]:
    """The golden test's firmware for kws (two samples: the first run and a warm one), and its module."""
    module = helia_aot.convert(KWS, work / "golden" / "module", prefix="kws", target=TARGET,
                               kernel_library=kernels.HELIA_AOT_NAMES[GOLDEN_LIBRARY], with_test_data=True,
                               num_test_samples=2, seed=GOLDEN_SEED).output_dir
    opt_flags = toolchain.read_bzl_constants(toolchain.CORES_FILE)["COMPILATION_MODE_FLAGS"]["opt"]
    flags = [*CORE.common_cflags, *opt_flags, *toolchain.OUR_WARNINGS, "-I", str(module / "include"),
             *(f for d in library.include_dirs for f in ("-I", str(d))), *CORE.runtime_flags()]
    out = work / "golden" / "obj"
    jobs = [(src, out / f"{src.stem}.o", flags, f"golden: compile {src.name}")
            for src in [*sorted((module / "src").glob("*.c")), module / "test" / "kws_test_data.c",
                        *CORE.runtime_sources()]]
    # rules/private/golden_test.bzl's harness copts.
    jobs.append((module / "test" / "kws_test_main.c", out / "kws_test_main.o", flags + ["-include", "golden_profile.h"],
                 "golden: compile kws_test_main.c"))
    objects = toolchain.parallel_map(lambda job: toolchain.compile_c(*job), jobs)
    elf = work / "golden" / "firmware.elf"
    toolchain.run([toolchain.ARM_CC, *CORE.ldflags, "-o", elf, *objects, *library.archives, "-lm"], "golden: link")
    return elf, module


def test_golden_and_bench_count_the_same_model_run(work, library):
    elf, golden_module = golden_firmware(work, library)
    golden_output = toolchain.run(CORE.qemu_command(elf), "golden firmware", timeout=toolchain.QEMU_TIMEOUT_S,
                                  merge_stderr=True)
    assert "PASS: 2 samples" in golden_output, golden_output[-2000:]
    golden_counts = counter.counts(golden_output)
    assert [(c.what, c.run) for c in golden_counts] == [("model_run", "first"), ("model_run", "warm")]
    first = golden_counts[0]

    # The benchmark's way, on the golden test's sample 0.
    sample_0 = np.load(golden_module / "test" / "golden.npz")["input_0"][0]
    bench_dir = work / "bench"
    bench_dir.mkdir(exist_ok=True)
    firmware.write_inputs(KWS, bench_dir / "bench_input.c", [sample_0])
    unplanned = firmware.ModuleBuild(name="kws", model_path=KWS, module_dir=bench_dir, work_dir=bench_dir,
                                     operator_count=0, kernel_symbols=[])
    build = convert.for_backend(unplanned, GOLDEN_LIBRARY, firmware.PREFIX, TARGET)
    bench_output = firmware.run_firmware(firmware.build_firmware(build, library, "plain"), "bench firmware", CORE)
    [warm] = bench_output["counts"]
    assert (warm.what, warm.run) == ("model_run", "warm")

    assert first.optimization == warm.optimization == "-O2"
    assert first.instructions_per_tick_x100 == warm.instructions_per_tick_x100 == CORE.instructions_per_tick_x100
    assert first.instructions == first.ticks * CORE.instructions_per_tick_x100 // 100
    assert (first.ticks, first.instructions) == (warm.ticks, warm.instructions), (
        f"golden test: {first.instructions} instructions (first run), benchmark: {warm.instructions} (warm run)")

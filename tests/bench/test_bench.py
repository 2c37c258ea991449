# SPDX-License-Identifier: Apache-2.0
"""tools/bench on one tiny model (a single CONV_2D from the model builder): it runs, its JSON has
every field with consistent values, and a second run gives identical instruction counts and sizes.
No figure is asserted: the benchmark reports, it is not a gate."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.modelgen.cases import CASES_DIR, build_case_model, load_case

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tools"))

from bench_lib import micro_speech, toolchain  # noqa: E402
from tests.skip_policy import NS_CMSIS_NN_NOT_CONFIGURED, models_not_available

CASE = "conv_2d_3x3_stride2_same"
SECTION_KINDS = ("text", "rodata", "data", "bss")
NS_CMSIS_NN_SKIP_REASON = NS_CMSIS_NN_NOT_CONFIGURED


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory) -> Path:
    missing = toolchain.missing_tools()
    if missing:
        pytest.skip(f"{', '.join(missing)} not on PATH: the benchmark needs the Arm GNU toolchain and QEMU "
                    "(tools/bootstrap installs both in the sid rootfs)")
    path = tmp_path_factory.mktemp("bench-model") / f"{CASE}.tflite"
    path.write_bytes(build_case_model(load_case(CASES_DIR / f"{CASE}.yaml")))
    return path


def run_bench(model: Path, work_dir: Path, json_path: Path, *backends: str,
              target: str = "corstone300") -> tuple[dict, str]:
    cmd = [sys.executable, str(REPO / "tools" / "bench.py"), "--skip-mlperf", "--skip-int16", "--skip-micro-speech",
           "--target", target,
           "--work-dir", str(work_dir), "--json", str(json_path), str(model)]
    for backend in backends:
        cmd += ["--backend", backend]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, f"tools/bench failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}"
    return json.loads(json_path.read_text()), proc.stdout


def check_backend(figures: dict, total_macs: int, per_tick_x100: int = 3125) -> None:
    count = figures["model_run_instructions"]
    assert count > 0
    # The firmware converts ticks with the board's rule (x 31.25 on AN547); the JSON must agree with it.
    assert count == figures["model_run_ticks"] * per_tick_x100 // 100
    assert figures["instructions_per_mac"] == pytest.approx(count / total_macs, abs=1e-3)
    assert re.fullmatch(r"[0-9a-f]{8}", figures["output_checksum"])
    assert 0 < figures["timer_overhead_per_call"] < 200
    # Glue is what the kernel calls leave over; timing is exact to about a tick per timed call.
    calls = sum(op["kernel_calls"] for op in figures["operators"])
    assert calls >= 1
    slack = 32 * calls
    assert figures["kernel_instructions"] + figures["glue_instructions"] == pytest.approx(count, abs=1)
    assert -slack <= figures["glue_instructions"] <= count
    # glue_instructions is rounded to a whole instruction, glue_share to 7 decimals.
    assert figures["glue_share"] == pytest.approx(figures["glue_instructions"] / count, abs=0.5 / count + 1e-7)
    for op in figures["operators"]:
        assert 0 <= op["kernel_instructions"] <= op["instructions"] + slack


def test_bench_tiny_model_fields_and_determinism(tiny_model, tmp_path):
    work = tmp_path / "work"
    data, stdout = run_bench(tiny_model, work, tmp_path / "first.json", "portable")

    assert data["schema"] == "helia-bench/1"
    assert data["target"] == "corstone300"
    assert data["backends"] == ["portable"]
    assert set(data["method"]) == {"conversion", "kernel_choice", "memory", "code_size", "instructions", "glue", "macs"}
    assert all(data["tools"][key] for key in ("arm_gcc", "qemu", "python", "helia_aot"))
    [row] = data["models"]
    assert row["name"] == CASE and "error" not in row

    conv = row["conversion"]
    assert len(conv["seconds_runs"]) == 3 and sorted(conv["seconds_runs"])[1] == conv["seconds_median"] > 0
    assert 0 < conv["lower_bound_bytes"] <= conv["scratch_arena_bytes"]
    assert conv["ratio"] == pytest.approx(conv["scratch_arena_bytes"] / conv["lower_bound_bytes"], abs=1e-3)
    assert conv["constant_bytes"] > 0 and conv["peer_scratch_arena_bytes"] is None
    assert row["total_macs"] == conv["total_macs"] > 0
    assert conv["kernel_symbols"], "a CONV_2D module calls at least one kernel"

    size = row["code_size"]
    for part in ("module", "kernels", "module_with_kernels", "runtime", "firmware_total"):
        assert set(size[part]) == set(SECTION_KINDS)
    module, kernels, both, total = (size[k] for k in ("module", "kernels", "module_with_kernels", "firmware_total"))
    assert module["text"] > 0 and kernels["text"] > 0
    assert module["rodata"] >= conv["constant_bytes"], "the weights are the module's read-only data"
    assert module["bss"] >= conv["scratch_arena_bytes"], "the static arena is the module's .bss"
    for kind in SECTION_KINDS:
        assert both[kind] == module[kind] + kernels[kind]
        assert total[kind] >= both[kind] + size["runtime"][kind]

    check_backend(row["backends"]["portable"], row["total_macs"])
    assert f"| {CASE} |" in stdout and "instr (portable)" in stdout

    # Determinism: a second run rebuilds the module and firmware (kernel archives are reused).
    again, _ = run_bench(tiny_model, work, tmp_path / "second.json", "portable")
    [row2] = again["models"]
    assert row2["code_size"] == row["code_size"]
    assert row2["backends"] == row["backends"]


@pytest.mark.skipif(not os.environ.get(toolchain.NS_CMSIS_NN_ENV), reason=NS_CMSIS_NN_SKIP_REASON)
def test_bench_ns_cmsis_nn_matches_portable_outputs(tiny_model, tmp_path):
    data, stdout = run_bench(tiny_model, tmp_path / "work", tmp_path / "out.json", "portable", "ns-cmsis-nn")
    [row] = data["models"]
    portable, ns = row["backends"]["portable"], row["backends"]["ns-cmsis-nn"]
    check_backend(ns, row["total_macs"])
    assert ns["output_checksum"] == portable["output_checksum"], "both libraries must compute the same outputs"
    assert "instr (ns-cmsis-nn)" in stdout


@pytest.mark.skipif(not os.environ.get(toolchain.NS_CMSIS_NN_ENV), reason=NS_CMSIS_NN_SKIP_REASON)
def test_bench_cortex_m4_target(tiny_model, tmp_path):
    """apollo4p_evb: the module converted for the Cortex-M4, built with cores.bzl's flags and run on
    QEMU mps2-an386 with ns-cmsis-nn's DSP build and the portable kernels, same outputs."""
    data, stdout = run_bench(tiny_model, tmp_path / "work", tmp_path / "m4.json", "portable", "ns-cmsis-nn",
                             target="apollo4p_evb")
    assert data["targets"] == ["apollo4p_evb"]
    [row] = data["models"]
    assert row["target"] == "apollo4p_evb" and row["core"] == "cortex-m4"
    portable, ns = row["backends"]["portable"], row["backends"]["ns-cmsis-nn"]
    for figures in (portable, ns):
        check_backend(figures, row["total_macs"], toolchain.CORES["cortex_m4"].instructions_per_tick_x100)
    assert ns["output_checksum"] == portable["output_checksum"]
    assert f"| {CASE} | apollo4p_evb |" in stdout


def test_bench_micro_speech_per_frame_and_per_clip(tmp_path):
    """The micro_speech step alone: per clip, frames + classifier = clip, per frame = frames / 49, and the
    firmware's features and scores equal TFLM's; with ns-cmsis-nn configured, also built against it (the
    preprocessor's Signal kernels are ours, linked beside it)."""
    missing = toolchain.missing_tools()
    if missing:
        pytest.skip(f"{', '.join(missing)} not on PATH: the benchmark needs the Arm GNU toolchain and QEMU")
    if not micro_speech.available():
        pytest.skip(models_not_available(f"TFLM's micro_speech models in {micro_speech.models_dir()}",
                                         f"{micro_speech.TFLM_MODELS_ENV} to the folder holding TFLM's example models"))
    backends = ["portable"] + (["ns-cmsis-nn"] if os.environ.get(toolchain.NS_CMSIS_NN_ENV) else [])
    cmd = [sys.executable, str(REPO / "tools" / "bench.py"), "--skip-mlperf", "--skip-int16",
           *(f for b in backends for f in ("--backend", b)),
           "--work-dir", str(tmp_path / "work"), "--json", str(tmp_path / "out.json")]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=900 * len(backends))
    assert proc.returncode == 0, f"tools/bench failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}"
    data = json.loads((tmp_path / "out.json").read_text())
    assert data["models"] == []
    for backend in backends:
        figures = data["micro_speech"]["backends"][backend]
        assert figures.get("bit_identical_to_tflm") is True, (backend, figures)
        assert set(figures["clips"]) == set(micro_speech.CLIPS)
        for clip in figures["clips"].values():
            assert clip["instructions_per_clip"] == clip["frames_instructions"] + clip["classifier_instructions"]
            assert abs(clip["instructions_per_frame"] * 49 - clip["frames_instructions"]) <= 49
            assert clip["frames_instructions"] > 0 and clip["classifier_instructions"] > 0
    assert "| yes_1000ms |" in proc.stdout and "bit-identical" in proc.stdout


def test_inputs_come_from_our_front_end_where_litert_refuses_the_model(tmp_path):
    """person_detect's rank-1 biases carry quantized_dimension 3, which LiteRT's interpreter refuses while
    the compiler takes the model: the bench's seeded inputs follow our front end, so it still runs."""
    from bench_lib import firmware

    model = micro_speech.models_dir() / "person_detect.tflite"
    if not model.is_file():
        pytest.skip(models_not_available(f"TFLM's person_detect ({model})", micro_speech.TFLM_MODELS_ENV))
    from ai_edge_litert.interpreter import Interpreter

    with pytest.raises(ValueError, match="quantized_dimension"):
        Interpreter(model_path=str(model))
    source = firmware.write_inputs(model, tmp_path / "bench_input.c").read_text()
    assert "helia_bench_input_offsets[2] = { 0, 9216 }" in source  # one 96x96x1 int8 image

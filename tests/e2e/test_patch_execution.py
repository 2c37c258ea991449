# SPDX-License-Identifier: Apache-2.0
"""Patch-based execution (issue #31 item 1, helia_aot/memory/patches.py) on the host with ASan/UBSan:
the module converted with optimization.goal size runs its first operators one band of rows at a time,
and its outputs must equal the layer-by-layer module's (goal latency never patches) bit for bit, and
LiteRT's within the model's tolerance, in each halo mode (the planner held to it through
patches.HALO_MODES): recompute, and cache with its moves of kept rows. The patched plan must actually
hold a chain in that mode and an arena below the layer-by-layer arena, so a planner that stopped
patching fails here instead of passing.

The MobileNetV2-style network (tests/modelgen/mobilenet_v2.py: PAD, CONV_2D, DEPTHWISE_CONV_2D and
ADD in the chain) runs in CI at 96x96 width 0.35; VWW and person_detect run when the models are present.
  HELIA_MOBILENET_SIZE=224 HELIA_MOBILENET_WIDTH=1.0 pytest tests/e2e/test_patch_execution.py
"""

from __future__ import annotations

import json
import os

import numpy as np
import pytest

import helia_aot
from helia_aot.memory import patches
from tests.e2e import harness
from tests.e2e.conftest import mlperf_model_or_skip
from tests.modelgen.builder import ModelBuilder
from tests.skip_policy import models_not_available

MOBILENET_SIZE = int(os.environ.get("HELIA_MOBILENET_SIZE", 96))
MOBILENET_WIDTH = float(os.environ.get("HELIA_MOBILENET_WIDTH", 0.35))
SUITE = "patch-based execution vs layer by layer"
HALO_MODES = patches.HALO_MODES


def _convert(model_bytes: bytes, out, halo: str | None, **kwargs) -> None:
    """helia_aot.convert with the planner held to one halo mode (None: both, as a user gets)."""
    with pytest.MonkeyPatch.context() as mp:
        if halo is not None:
            mp.setattr(patches, "HALO_MODES", (halo,))
        helia_aot.convert(model_bytes, out, prefix=harness.PREFIX, **kwargs)


def _module(e2e, model: harness.ModelUnderTest, config: dict | None, goal: str | None, tag: str,
            halo: str | None = None):
    def make():
        out = e2e.root / "modules" / "host-patch" / f"{model.name}_{tag}"
        _convert(model.model_bytes, out, halo, target="host", goal=goal, config=config)
        plan = json.loads((out / f"{harness.PREFIX}_plan.json").read_text())
        report = json.loads((out / f"{harness.PREFIX}_report.json").read_text())
        return out, plan, report
    return e2e._once(("patch-module", model.name, tag), make)


def _outputs(e2e, model, lib, module_dir, tag: str):
    def make():
        exe = e2e.root / "bin" / lib.name / f"{model.name}_{tag}"
        exe.parent.mkdir(parents=True, exist_ok=True)
        harness.build_host_executable(module_dir, lib, exe)
        return harness.run_host_executable(exe, model)
    return e2e._once(("patch-run", model.name, tag, lib.name), make)


def _check(e2e, model: harness.ModelUnderTest, halo: str, config: dict | None = None, goal: str = "size",
           tag: str = "size") -> dict:
    """The patched module (halo mode `halo`) against the layer-by-layer one, bit for bit; returns the
    report's chain."""
    lib = e2e.portable_host_library()
    tag = f"{tag}_{halo}"
    plain_dir, plain_plan, _ = _module(e2e, model, None, "latency", "latency")
    patched_dir, plan, report = _module(e2e, model, config, goal, tag, halo)
    assert plain_plan["patches"] == [], "goal latency must never patch"
    assert len(plan["patches"]) == 1, f"{model.name}: the planner took no patch chain"
    chain = report["patches"][0]
    assert plan["patches"][0]["halo"] == chain["halo"] == halo
    assert plan["memory"]["scratch_arena_bytes"] == chain["arena_after_bytes"] < chain["arena_before_bytes"]
    if halo == "cache":
        # Every row once: nothing recomputed; the kept rows moved (every chain here has a 3-row window).
        assert chain["recomputed_macs"] == 0 and chain["moved_bytes"] > 0
        assert "memmove(arena + bands[i].out" in (patched_dir / "src" / f"{harness.PREFIX}_model.c").read_text()
    want = _outputs(e2e, model, lib, plain_dir, "latency")
    got = _outputs(e2e, model, lib, patched_dir, tag)
    differences = harness.bit_differences(got, want)
    e2e.record(SUITE, f"{model.name} ({halo})", patches=chain["patches"], operators=len(chain["operators"]),
               arena_before=chain["arena_before_bytes"], bound_before=chain["lower_bound_before_bytes"],
               arena_after=chain["arena_after_bytes"], recomputed_macs=chain["recomputed_macs"],
               moved_bytes=chain["moved_bytes"], total_macs=chain["total_macs"], differ=len(differences))
    assert not differences, f"{model.name}: patched outputs differ from layer by layer: {differences}"
    against_litert = harness.per_output_max_diff(got, model.reference)
    assert all(d <= b for d, b in zip(against_litert, model.bounds())), (model.name, against_litert)
    return chain


@pytest.mark.parametrize("halo", HALO_MODES)
def test_mobilenet_v2_patched_matches_layer_by_layer(e2e, halo):
    model = e2e.mobilenet_v2(MOBILENET_SIZE, MOBILENET_WIDTH)
    chain = _check(e2e, model, halo)
    # The stem's PAD and the first blocks' convolutions run in bands, not just one operator.
    assert len(chain["operators"]) >= 4
    assert chain["arena_after_bytes"] < chain["lower_bound_before_bytes"]


@pytest.mark.parametrize("halo", HALO_MODES)
@pytest.mark.parametrize("name", ["vww_96_int8"])
def test_mlperf_patched_matches_layer_by_layer(e2e, name, halo):
    model = mlperf_model_or_skip(e2e, name)
    chain = _check(e2e, model, halo)
    assert chain["arena_after_bytes"] < chain["lower_bound_before_bytes"]


@pytest.mark.parametrize("halo", HALO_MODES)
def test_person_detect_patched_matches_layer_by_layer(e2e, halo):
    from tests.e2e import tflm
    path = tflm.models_dir() / "person_detect.tflite"
    if not path.is_file():
        pytest.skip(models_not_available(f"TFLM model {path}", f"{tflm.TFLM_MODELS_ENV} to the folder holding "
                                         "person_detect.tflite"))
    chain = _check(e2e, e2e.tflm_model("person_detect"), halo)
    assert chain["arena_after_bytes"] < chain["lower_bound_before_bytes"]


def _pool_chain_model() -> bytes:
    """CONV_2D 3x3 stride 2 SAME -> MAX_POOL_2D 3x3 stride 1 SAME -> AVERAGE_POOL_2D 3x3 stride 2 SAME
    -> ADD of two branches -> CONV_2D 1x1: every band geometry (top, middle, bottom padding)."""
    rng = np.random.default_rng(31)
    b = ModelBuilder(description="patch chain with pools")
    x = b.input("x", (1, 40, 12, 3), "int8", scale=0.05, zero_point=-3)
    scales = {"x": 0.05, "c1": 0.08, "sum": 0.1}

    def conv(name, inp, out_ch, k, stride):
        c = inp.shape[3]
        w = b.const(f"{name}/w", rng.integers(-127, 128, (out_ch, k, k, c)).astype(np.int8), scale=[0.02] * out_ch,
                    zero_point=[0] * out_ch, quantized_dimension=0)
        bias = b.const(f"{name}/b", rng.integers(-500, 500, out_ch).astype(np.int32),
                       scale=[scales[inp.name] * 0.02] * out_ch, zero_point=[0] * out_ch)
        h = -(-inp.shape[1] // stride)
        ww = -(-inp.shape[2] // stride)
        y = b.tensor(name, (1, h, ww, out_ch), "int8", scale=0.08, zero_point=5)
        b.op("CONV_2D", [inp, w, bias], [y], {"padding": "SAME", "stride_h": stride, "stride_w": stride,
                                                "dilation_h_factor": 1, "dilation_w_factor": 1,
                                                "fused_activation_function": "RELU"})
        return y

    def pool(kind, name, inp, stride):
        h, w = -(-inp.shape[1] // stride), -(-inp.shape[2] // stride)
        y = b.tensor(name, (1, h, w, inp.shape[3]), "int8", scale=0.08, zero_point=5)
        b.op(kind, [inp], [y], {"padding": "SAME", "stride_h": stride, "stride_w": stride, "filter_height": 3,
                                "filter_width": 3, "fused_activation_function": "NONE"})
        return y

    c1 = conv("c1", x, 8, 3, 2)
    p1 = pool("MAX_POOL_2D", "p1", c1, 1)
    p2 = pool("AVERAGE_POOL_2D", "p2", p1, 2)
    c2 = conv("c2", c1, 8, 3, 2)
    s = b.tensor("sum", p2.shape, "int8", scale=0.1, zero_point=-2)
    b.op("ADD", [p2, c2], [s], {"fused_activation_function": "NONE"})
    y = conv("c3", s, 4, 1, 1)
    b.output(y)
    return b.build()


@pytest.mark.parametrize("halo", HALO_MODES)
def test_pool_and_add_chain_patched_matches_layer_by_layer(e2e, halo):
    model = e2e._once(("patch-pools",), lambda: harness.ModelUnderTest(
        name="patch_pool_chain", kind="case", model_bytes=_pool_chain_model(), seed=31, tolerance=1))
    chain = _check(e2e, model, halo)
    assert len(chain["operators"]) >= 5


@pytest.mark.parametrize("halo", HALO_MODES)
def test_memory_budget_takes_patching(e2e, halo):
    """goal latency never patches, but a scratch budget the layer-by-layer arena exceeds does, and the
    patched module still computes the same bytes."""
    model = e2e.mobilenet_v2(MOBILENET_SIZE, MOBILENET_WIDTH)
    _, plain, _ = _module(e2e, model, None, "latency", "latency")
    budget = plain["memory"]["scratch_arena_bytes"] * 3 // 4
    config = {"memory": {"constraints": {plain["memory"]["scratch_memory"]: budget}}}
    chain = _check(e2e, model, halo, config, goal="latency", tag="budget")
    assert chain["arena_after_bytes"] <= budget


# -- Cortex-M55 on QEMU: the same bytes, and what the halos cost in instructions ---------------------------

def _qemu_model(e2e, name: str) -> harness.ModelUnderTest:
    if name == "mobilenet_v2":
        return e2e.mobilenet_v2(MOBILENET_SIZE, MOBILENET_WIDTH)
    if name == "person_detect":
        from tests.e2e import tflm
        path = tflm.models_dir() / "person_detect.tflite"
        if not path.is_file():
            pytest.skip(models_not_available(f"TFLM model {path}", f"{tflm.TFLM_MODELS_ENV} to the folder holding "
                                             "person_detect.tflite"))
        return e2e.tflm_model(name)
    return mlperf_model_or_skip(e2e, name)


def _qemu_run(e2e, model, lib, cc, qemu, goal: str, halo: str | None = None) -> tuple[harness.QemuRun, dict]:
    tag = goal if halo is None else f"{goal}_{halo}"

    def make():
        out = e2e.root / "modules" / "corstone300-patch" / f"{model.name}_{tag}"
        _convert(model.model_bytes, out, halo, target="corstone300", goal=goal)
        report = json.loads((out / f"{harness.PREFIX}_report.json").read_text())
        fw_dir = e2e.root / "firmware" / lib.name
        fw_dir.mkdir(parents=True, exist_ok=True)
        data = e2e._once(("test-data", model.name), lambda: harness.write_test_data(
            model, e2e.root / "firmware" / f"{model.name}_test_data.c"))
        elf = harness.build_firmware(out, lib, data, fw_dir / f"{model.name}_{tag}.elf", cc)
        return harness.run_firmware(elf, model, qemu), report
    return e2e._once(("patch-qemu", model.name, tag, lib.name), make)


@pytest.mark.parametrize("halo", HALO_MODES)
@pytest.mark.parametrize("library", ["portable", "ns-cmsis-nn"])
@pytest.mark.parametrize("name", ["mobilenet_v2", "vww_96_int8", "person_detect"])
def test_corstone300_patched_matches_layer_by_layer(e2e, arm_tools, request, name, library, halo):
    """goal size (patched, in each halo mode) against goal latency (layer by layer) on the Cortex-M55: the
    same output bytes, and one model_run's instructions each (the figure the halos cost)."""
    cc, ar, qemu = arm_tools
    model = _qemu_model(e2e, name)
    if library == "portable":
        lib = e2e.portable_arm_library(cc, ar)
    else:
        lib = e2e.ns_cmsis_nn_arm_library(request.getfixturevalue("ns_cmsis_nn_root"), cc, ar)
    plain, _ = _qemu_run(e2e, model, lib, cc, qemu, "latency")
    patched, report = _qemu_run(e2e, model, lib, cc, qemu, "size", halo)
    assert len(report["patches"]) == 1, f"{model.name}: goal size took no patch chain for corstone300"
    chain = report["patches"][0]
    assert chain["halo"] == halo
    differences = harness.bit_differences(patched.outputs, plain.outputs)
    e2e.record("patch-based execution on corstone300 (QEMU)", f"{model.name} ({lib.name}, {halo})",
               arena_before=chain["arena_before_bytes"], arena_after=chain["arena_after_bytes"],
               instructions_before=plain.instructions, instructions_after=patched.instructions,
               recomputed_macs=chain["recomputed_macs"], moved_bytes=chain["moved_bytes"],
               differ=len(differences))
    assert not differences, f"{model.name}: patched Cortex-M55 outputs differ: {differences}"
    assert chain["arena_after_bytes"] < chain["lower_bound_before_bytes"]

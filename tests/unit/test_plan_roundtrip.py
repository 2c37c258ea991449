# SPDX-License-Identifier: Apache-2.0
"""Round trip: convert -> <prefix>_plan.json -> convert with optimization.plan gives the same directory,
byte for byte, for the MLPerf Tiny int8 models and a few single-operator cases, under each configuration."""

from __future__ import annotations

import pytest

import helia_aot
from tests.modelgen.cases import build_case_model, load_case

from .helpers import MLPERF, REPO, mlperf_model

# name -> configuration (the target is corstone300 throughout: an MVE build, where the kernel knob chooses).
CONFIGS = {
    "default": {},
    "generic_convolutions": {"operators": [{"type": "CONV_2D", "optimization": {"kernel": "generic"}},
                                           {"type": "DEPTHWISE_CONV_2D", "optimization": {"kernel": "generic"}}]},
    # Constants staged into DTCM by <prefix>_model_init, and streamed through a DTCM pool (cpu and dma
    # engines): the schedule the compiler computes replays through optimization.plan.
    "dtcm_staged": {"memory": {"tensors": [{"type": "constant",
                                            "attributes": {"constant_destination_memory": "DTCM"}}]}},
    "streamed": {"memory": {"tensors": [{"type": "constant", "attributes": {"residency": "stream"}}],
                            "stream_pool": {"memory": "DTCM", "bytes": 65536}}},
    "streamed_dma": {"memory": {"tensors": [{"type": "constant", "attributes": {"residency": "stream"}}],
                                "stream_pool": {"memory": "DTCM", "bytes": 65536, "engine": "dma"}}},
}
CASES = ("conv_2d_3x3_stride2_same", "depthwise_conv_2d_3x3_mult1", "fully_connected_float32_64x10", "svdf_rank2_batch2",
         "hard_swish_range5")


def _files(root):
    return {p.relative_to(root): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _round_trip(model, tmp_path, config: dict, with_test_data: bool = False) -> dict:
    first = helia_aot.convert(model, tmp_path / "first", target="corstone300", config=config,
                              with_test_data=with_test_data, num_test_samples=1)
    again = helia_aot.convert(model, tmp_path / "again", target="corstone300",
                              config={**config, "optimization": {**config.get("optimization", {}),
                                                                 "plan": str(first.output_dir / "model_plan.json")}},
                              with_test_data=with_test_data, num_test_samples=1)
    files = _files(first.output_dir)
    assert files == _files(again.output_dir)
    assert any(str(p).endswith(".c") for p in files)
    return first.plan


@pytest.mark.parametrize("config", CONFIGS)
@pytest.mark.parametrize("name", MLPERF)
def test_mlperf_round_trip(tmp_path, name, config):
    model = mlperf_model(name)
    rules = CONFIGS[config]
    if rules.get("operators"):
        # The rules whose type the model has; ad01 (fully connected layers only) gets one on those.
        types = {o["op_type"] for o in helia_aot.convert(model, tmp_path / "probe", target="corstone300").plan[
            "operators"]}
        kept = [r for r in rules["operators"] if r["type"] in types]
        rules = {**rules, "operators": kept or [{"type": "FULLY_CONNECTED", "optimization": {"kernel": "generic"}}]}
    plan = _round_trip(model, tmp_path, rules)
    if config.startswith("streamed"):
        assert plan["schedule"]["source"] == "compiler" and plan["schedule"]["units"]
    ruled = {r["type"] for r in rules.get("operators", [])}
    knobs = [k for o in plan["operators"] if o["op_type"] in ruled for k in o["knobs"].values()]
    assert all(k["source"]["kind"] == "operator" and k["value"] == "generic" for k in knobs)
    assert bool(knobs) == bool(ruled)


@pytest.mark.parametrize("case", CASES)
def test_case_round_trip_with_test_data(tmp_path, case):
    model = build_case_model(load_case(REPO / "tests" / "e2e" / "cases" / f"{case}.yaml"))
    _round_trip(model, tmp_path, {}, with_test_data=True)

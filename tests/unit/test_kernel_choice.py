# SPDX-License-Identifier: Apache-2.0
"""Kernel choice by cost over the whole graph (helia_aot.lowering.kernel_choice): optimization.goal size reaches
the smallest arena, latency the fewest estimated instructions, balanced the fewest within 5 % of the
smallest arena; the plan records every option and the C calls the chosen entry directly."""

from __future__ import annotations

import re

import pytest

from helia_aot import convert
from tests.unit.helpers import mlperf_model

GOALS = ("size", "balanced", "latency")


def _convert(tmp_path, model, goal=None, kernel=None, target="corstone300", library=None):
    opt = {}
    if goal:
        opt["goal"] = goal
    if kernel:
        opt["kernel"] = kernel
    out = tmp_path / f"{goal}-{kernel}-{target}-{library}"
    return convert(model, out, prefix="m", target=target, kernel_library=library,
                   config={"optimization": opt} if opt else None)


@pytest.fixture(scope="module")
def kws_goals(tmp_path_factory):
    """kws at each goal for a library without our Helium kernels, where speed costs scratch."""
    import dataclasses

    from helia_aot.library import kernel_library
    from helia_aot.config import options as options_mod

    real_resolve = kernel_library.resolve
    model = mlperf_model("kws_ref_model")
    tmp = tmp_path_factory.mktemp("kws")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(options_mod.kernel_library, "resolve",
                   lambda name, target: dataclasses.replace(real_resolve(name, target), helium_kernels=False))
        return {goal: _convert(tmp, model, goal) for goal in GOALS}


def _layer_by_layer(result) -> tuple[int, int]:
    """(arena, lower bound) of the plan the kernel choice made, layer by layer. Goals size and balanced may then
    run a first chain of operators in row bands (helia_aot/memory/patches.py), which takes the module's arena
    below both; the report's patch chain keeps the figures from before."""
    patches = result.report["patches"]
    if not patches:
        return result.arena_bytes, result.plan["memory"]["lower_bound_bytes"]
    chain = patches[0]
    assert result.arena_bytes == chain["arena_after_bytes"] < chain["arena_before_bytes"]
    return chain["arena_before_bytes"], chain["lower_bound_before_bytes"]


def _chosen(result):
    return {op["index"]: op["kernel"] for op in result.plan["operators"] if op["kernel"]["choice"]}


def test_goals_span_the_trade_and_the_report_names_both_ends(kws_goals):
    size, balanced, latency = (kws_goals[g] for g in GOALS)
    ends = [r.report["kernel_choice"] for r in (size, balanced, latency)]
    # Every plan reports the same two ends, and each goal's plan sits where its report says.
    assert ends[0]["size"] == ends[1]["size"] == ends[2]["size"]
    assert ends[0]["latency"] == ends[1]["latency"] == ends[2]["latency"]
    size_arena, size_bound = _layer_by_layer(size)
    assert size_arena == ends[0]["size"]["scratch_arena_bytes"] == ends[0]["chosen"]["scratch_arena_bytes"]
    assert latency.arena_bytes == ends[0]["latency"]["scratch_arena_bytes"]
    assert ends[2]["chosen"] == ends[2]["latency"]
    assert size_arena == size_bound, "goal size's kernels reach the layer-by-layer lower bound"
    assert balanced.arena_bytes <= int(size_arena * 1.05) == ends[1]["arena_budget_bytes"]
    instructions = [e["chosen"]["estimated_instructions"] for e in ends]
    assert instructions[0] >= instructions[1] >= instructions[2]
    # On MVE the vectorised depthwise needs scratch the smallest arena has no room for.
    assert latency.arena_bytes > size.arena_bytes and instructions[2] < instructions[0]


def test_plan_records_options_and_the_c_calls_the_choice_directly(kws_goals):
    for goal, result in kws_goals.items():
        chosen = _chosen(result)
        assert chosen, "kws has depthwise layers with several entries"
        source = (result.output_dir / "src" / "m_model.c").read_text()
        assert "_wrapper_" not in source, f"goal {goal}: auto never calls a wrapper that re-decides at run time"
        for kernel in chosen.values():
            choice = kernel["choice"]
            assert choice["reason"] == "cost_model" and choice["chosen"] == kernel["entry"]
            entries = [o["entry"] for o in choice["options"]]
            assert kernel["entry"] in entries and set(entries) <= set(kernel["candidates"])
            option = next(o for o in choice["options"] if o["entry"] == kernel["entry"])
            assert option["scratch_bytes"] == kernel["local_scratch_bytes"]
            assert all(o["estimated_instructions"] > 0 for o in choice["options"])
            assert re.search(rf"\b{kernel['entry']}\(", source)
    latency = _chosen(kws_goals["latency"])
    for kernel in latency.values():
        fastest = min(kernel["choice"]["options"], key=lambda o: o["estimated_instructions"])
        assert kernel["entry"] == fastest["entry"]
    size = _chosen(kws_goals["size"])
    assert any(k["entry"] != latency[i]["entry"] for i, k in size.items())


def test_forced_kernel_knob_keeps_its_entries(tmp_path):
    model = mlperf_model("kws_ref_model")
    specialized = _convert(tmp_path, model, kernel="specialized")
    for kernel in _chosen(specialized).values():
        assert kernel["choice"]["reason"] == "optimization.kernel"
    entries = {op["kernel"]["entry"] for op in specialized.plan["operators"]}
    assert "arm_depthwise_conv_3x3_s8" in entries and "arm_depthwise_conv_s8_opt" not in entries
    generic = _convert(tmp_path, model, kernel="generic")
    assert "arm_depthwise_conv_wrapper_s8" in {op["kernel"]["entry"] for op in generic.plan["operators"]}


def test_conversion_is_byte_identical_run_to_run(tmp_path):
    model = mlperf_model("vww_96_int8")
    first, second = _convert(tmp_path / "a", model), _convert(tmp_path / "b", model)
    for name in first.files:
        a, b = first.output_dir / name, second.output_dir / name
        assert a.read_bytes() == b.read_bytes(), name


def test_balanced_vww_takes_vectorised_depthwise_off_the_peak(tmp_path):
    """vww's arena peaks in its first layers: later depthwise layers get the scratch-hungry fast
    entry for free, at the smallest arena."""
    model = mlperf_model("vww_96_int8")
    balanced, size = _convert(tmp_path, model), _convert(tmp_path, model, "size")
    assert _layer_by_layer(balanced)[0] == _layer_by_layer(size)[0]
    # Its first layers then run in row bands: the cost tables put the halos under 10 % of the instructions.
    (chain,) = balanced.report["patches"]
    assert chain["added_instructions"] <= 0.10 * chain["total_instructions"]
    entries = [k["entry"] for k in _chosen(balanced).values()]
    assert "arm_depthwise_conv_s8_opt" in entries


@pytest.mark.parametrize("target, library", [("apollo4p_evb", None), ("corstone300", "portable")])
def test_other_builds_choose_from_their_own_table(tmp_path, target, library):
    result = _convert(tmp_path, mlperf_model("kws_ref_model"), target=target, library=library)
    summary = result.report["kernel_choice"]
    table = {"apollo4p_evb": "ns_cmsis_nn-dsp-cortex-m4"}.get(target, "portable-plain-cortex-m55")
    assert summary["cost_table"] == table
    if library == "portable":  # no scratch anywhere: both ends are one plan
        assert summary["size"] == summary["latency"] == summary["chosen"]


def test_helium_depthwise_wins_on_mve_at_the_smallest_arena(tmp_path):
    """On a core with MVE our Helium 3x3 depthwise (no scratch) is a candidate with a measured cost; on
    kws it is the fastest entry, so every goal takes it at the smallest arena, and the module includes
    its header and calls it directly."""
    from helia_aot.ops.depthwise_conv_2d import HELIUM_DW_3X3

    model = mlperf_model("kws_ref_model")
    by_goal = {goal: _convert(tmp_path, model, goal) for goal in ("size", "latency")}
    by_goal["balanced"] = _convert(tmp_path, model)
    for goal, result in by_goal.items():
        depthwise = [k for k in _chosen(result).values() if "depthwise" in k["entry"]]
        assert depthwise and {k["entry"] for k in depthwise} == {HELIUM_DW_3X3}, goal
        for kernel in depthwise:
            options = {o["entry"]: o for o in kernel["choice"]["options"]}
            assert options[HELIUM_DW_3X3]["scratch_bytes"] == 0
            assert options[HELIUM_DW_3X3]["estimated_instructions"] == min(
                o["estimated_instructions"] for o in options.values())
        assert _layer_by_layer(result)[0] == result.report["kernel_choice"]["size"]["scratch_arena_bytes"]
        assert HELIUM_DW_3X3 in result.kernel_symbols
        source = (result.output_dir / "src" / "m_model.c").read_text()
        assert f"{HELIUM_DW_3X3}(&buf_ctx, &dw_conv_params" in source
        assert '#include "helia_helium.h"' in (result.output_dir / "include" / "m_common.h").read_text()


@pytest.mark.parametrize("target, library", [("apollo4p_evb", None), ("host", None), ("apollo4p_evb", "portable")])
def test_no_helium_kernels_without_mve(tmp_path, target, library):
    from helia_aot.ops.depthwise_conv_2d import HELIUM_DW_3X3

    result = _convert(tmp_path, mlperf_model("kws_ref_model"), target=target, library=library)
    for op in result.plan["operators"]:
        assert HELIUM_DW_3X3 not in (op["kernel"]["candidates"] or [])
    assert "helia_helium.h" not in (result.output_dir / "include" / "m_common.h").read_text()


def test_module_without_helium_calls_does_not_include_the_header(tmp_path):
    """ad01_fp32 has only float layers: its corstone300 module neither calls nor includes the Helium kernels."""
    result = _convert(tmp_path, mlperf_model("ad01_fp32"))
    assert not any(s.startswith("helia_mve_") for s in result.kernel_symbols)
    assert "helia_helium.h" not in (result.output_dir / "include" / "m_common.h").read_text()


@pytest.mark.parametrize("library", [None, "portable"])
def test_ad01_fully_connected_layers_take_the_helium_kernel_by_cost(tmp_path, library):
    """ad01_int8 on corstone300: every FULLY_CONNECTED layer weighs arm_fully_connected_s8 against our Helium
    kernel (no scratch either way) and takes the cheaper, ours, with the same arguments and kernel sums."""
    from helia_aot.ops.fully_connected import HELIUM_FC

    result = _convert(tmp_path, mlperf_model("ad01_int8"), library=library)
    layers = [op for op in result.plan["operators"] if op["op_type"] == "FULLY_CONNECTED"]
    assert len(layers) == 10
    for op in layers:
        kernel = op["kernel"]
        assert kernel["entry"] == HELIUM_FC and kernel["choice"]["reason"] == "cost_model"
        options = {o["entry"]: o for o in kernel["choice"]["options"]}
        assert set(options) == {"arm_fully_connected_s8", HELIUM_FC}
        assert options[HELIUM_FC]["scratch_bytes"] == options["arm_fully_connected_s8"]["scratch_bytes"] == 0
        assert options[HELIUM_FC]["estimated_instructions"] < options["arm_fully_connected_s8"]["estimated_instructions"]
    source = (result.output_dir / "src" / "m_model.c").read_text()
    assert f"{HELIUM_FC}(&buf_ctx, &fc_params" in source
    assert '#include "helia_helium.h"' in (result.output_dir / "include" / "m_common.h").read_text()


def test_an_operator_rule_forcing_a_kernel_keeps_it_while_the_others_are_chosen(tmp_path):
    model = mlperf_model("kws_ref_model")
    free = _convert(tmp_path, model, "latency")
    depthwise = [op for op in free.plan["operators"] if op["op_type"] == "DEPTHWISE_CONV_2D"]
    first, rest = depthwise[0], depthwise[1:]
    out = tmp_path / "ruled"
    ruled = convert(model, out, prefix="m", target="corstone300",
                    config={"optimization": {"goal": "latency"},
                            "operators": [{"id": first["id"], "optimization": {"kernel": "specialized"}}]})
    by_id = {op["id"]: op for op in ruled.plan["operators"]}
    # The ruled layer keeps the operator's own specialized entry, and says why.
    assert by_id[first["id"]]["kernel"]["entry"] == "arm_depthwise_conv_3x3_s8"
    assert by_id[first["id"]]["kernel"]["choice"]["reason"] == "optimization.kernel"
    assert by_id[first["id"]]["knobs"]["kernel"]["source"]["kind"] == "operator"
    # The other layers are still chosen by cost, as without the rule.
    for op in rest:
        assert by_id[op["id"]]["kernel"]["choice"]["reason"] == "cost_model"
        assert by_id[op["id"]]["kernel"]["entry"] == op["kernel"]["entry"]
    assert first["kernel"]["entry"] != "arm_depthwise_conv_3x3_s8", "latency picks the vectorised entry"


@pytest.mark.parametrize("cpu, table, warned", [("cortex-m0", "ns_cmsis_nn-plain-cortex-m3", True),
                                                ("cortex-m3", "ns_cmsis_nn-plain-cortex-m3", False)])
def test_a_core_without_a_table_takes_the_nearest_and_says_so(tmp_path, cpu, table, warned):
    """An M0 (no table: the micro:bit cannot hold the measured layers) is ranked by the M3's plain-C table
    and the report warns, naming both; the M3 has its own table and no such warning."""
    custom = {"name": "board", "cpu": cpu, "capabilities": [],
              "memories": [{"name": "RAM", "size": 1 << 20}, {"name": "ROM", "size": 1 << 20, "writable": False}],
              "scratch_memory": "RAM", "constant_memory": "ROM"}
    result = convert(mlperf_model("kws_ref_model"), tmp_path / cpu, prefix="m", target="board",
                     config={"target": {"name": "board", "custom": custom}})
    assert result.report["kernel_choice"]["cost_table"] == table
    notes = [w for w in result.report["warnings"] if "kernel cost table" in w]
    assert notes == ([f"no kernel cost table was measured on {cpu}: the kernel choice used {table}, the nearest "
                      "core's; measure one with tools/measure_kernel_costs if an emulator runs the core, or keep "
                      "the choice (entries rank alike across cores more than their counts agree)"] if warned else [])

# SPDX-License-Identifier: Apache-2.0
"""Kernel choice honours its goal's own arena budget (issue #26), with and without an `operators` rule
forcing one layer's kernel, with and without our Helium kernels: size's budget is the smallest arena,
balanced's that + 5 % (the same smallest arena whatever the goal), latency has none and takes every free
layer's fewest-instruction entry; a goal with a budget never plans past it. Every combination is run
(12 conversions of kws): exhaustive beats sampling at this size."""

from __future__ import annotations

import dataclasses

import pytest

from helia_aot import convert
from helia_aot.config import options as options_mod
from helia_aot.library import kernel_library
from helia_aot.lowering.kernel_choice import BALANCED_SLACK

from .helpers import mlperf_model

GOALS = ("size", "balanced", "latency")


@pytest.fixture(scope="module", params=[True, False], ids=["helium", "no_helium"])
def runs(request, tmp_path_factory):
    """goal -> (free conversion, conversion with the first depthwise layer forced to its specialized entry)."""
    model = mlperf_model("kws_ref_model")
    tmp = tmp_path_factory.mktemp("choice")
    real_resolve = kernel_library.resolve
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(options_mod.kernel_library, "resolve", lambda name, target: dataclasses.replace(
            real_resolve(name, target), helium_kernels=request.param))
        out = {}
        for goal in GOALS:
            free = convert(model, tmp / f"{goal}-free", prefix="m", target="corstone300",
                           config={"optimization": {"goal": goal}})
            first = next(op for op in free.plan["operators"] if op["op_type"] == "DEPTHWISE_CONV_2D")
            ruled = convert(model, tmp / f"{goal}-ruled", prefix="m", target="corstone300",
                            config={"optimization": {"goal": goal},
                                    "operators": [{"id": first["id"], "optimization": {"kernel": "specialized"}}]})
            out[goal] = free, ruled
        return out


@pytest.mark.parametrize("ruled", [False, True], ids=["free", "ruled"])
def test_each_goal_keeps_its_own_budget(runs, ruled):
    results = {goal: runs[goal][ruled] for goal in GOALS}
    budgets = {goal: r.report["kernel_choice"]["arena_budget_bytes"] for goal, r in results.items()}
    smallest = budgets["size"]
    assert smallest is not None
    assert budgets == {"size": smallest, "balanced": int(smallest * (1 + BALANCED_SLACK)), "latency": None}
    for goal in ("size", "balanced"):
        assert results[goal].report["kernel_choice"]["chosen"]["scratch_arena_bytes"] <= budgets[goal], goal


@pytest.mark.parametrize("ruled", [False, True], ids=["free", "ruled"])
def test_latency_takes_every_free_layers_fastest_entry(runs, ruled):
    result = runs["latency"][ruled]
    chosen = [op for op in result.plan["operators"] if op["kernel"]["choice"]]
    reasons = {op["kernel"]["choice"]["reason"] for op in chosen}
    assert reasons == ({"cost_model", "optimization.kernel"} if ruled else {"cost_model"})
    for op in chosen:
        choice = op["kernel"]["choice"]
        if choice["reason"] == "cost_model":
            fastest = min(o["estimated_instructions"] for o in choice["options"])
            by_entry = {o["entry"]: o for o in choice["options"]}
            assert by_entry[choice["chosen"]]["estimated_instructions"] == fastest, op["id"]

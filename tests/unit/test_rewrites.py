# SPDX-License-Identifier: Apache-2.0
"""helia_aot.lowering.rewrites: each pass fires on its pattern and refuses its near misses with the reason, the
plan records what fired, optimization.rewrites turns them off, and the folded operators' lowering takes
the folded padding and clamp range. (Outputs unchanged: tests/e2e/test_rewrites.py.)"""

from __future__ import annotations

import numpy as np
import pytest

import helia_aot
from helia_aot import ops
from helia_aot.lowering import lower as lowering, rewrites, verifier
from helia_aot.config import options as options_mod
from helia_aot.frontend import litert
from tests.modelgen import rewrite_models as rm

OFF = {"optimization": {"rewrites": False}}


def _graph(name: str, enabled: bool):
    data = rm.build(name)
    graph, _ = verifier.verify(litert.load(data, name, 0), name)
    opts = options_mod.resolve(None if enabled else OFF)
    return lowering.prepare(graph, opts, name), opts


@pytest.mark.parametrize("name", sorted(rm.PATTERNS))
def test_pattern_fires_as_expected(name):
    graph, _ = _graph(name, True)
    assert [r["rewrite"] for r in graph.rewrites] == rm.PATTERNS[name][1]
    unchanged, _ = _graph(name, False)
    assert unchanged.rewrites == []
    removed = sum(len(r["removed"]) for r in graph.rewrites)
    assert len(unchanged.operators) - len(graph.operators) == removed


# pattern -> (pass, words its refusal gives)
REFUSED = {
    "padv2_max_pool_zp": ("fold_pad", "dtype minimum"),
    "pad_average_pool": ("fold_pad", "in-bounds count"),
    "pad_conv_more_before": ("fold_pad", "is not SAME's [0, 1]"),
    "pad_conv_other_value": ("fold_pad", "is not the input zero point"),
    "pad_also_output": ("fold_pad", "graph output"),
    "conv_relu_requantizes": ("fold_clamp", "differ in dtype, shape or quantization"),
    "conv_relu_shared": ("fold_clamp", "graph output"),
    "requantize": ("elide_copy", "quantization differ"),
}


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_near_miss_is_refused_with_its_reason(name):
    graph, _ = _graph(name, False)
    found = rewrites.refusals(graph)
    pass_name, words = REFUSED[name]
    reasons = [why for p, _, why in found if p == pass_name]
    assert reasons and any(words in why for why in reasons), found


def test_float_is_refused():
    """A float32 conv + RELU: the standalone RELU keeps -0.0, a fused clamp gives +0.0."""
    from tests.modelgen import ModelBuilder
    b = ModelBuilder()
    x = b.input("x", (1, 4, 4, 2), "float32")
    w = b.const("w", np.full((2, 3, 3, 2), 0.25, dtype=np.float32), "float32")
    y = b.tensor("y", (1, 4, 4, 2), "float32")
    b.op("CONV_2D", [x, w, None], [y], {"padding": "SAME", "stride_h": 1, "stride_w": 1})
    r = b.tensor("r", (1, 4, 4, 2), "float32")
    b.op("RELU", [y], [r])
    b.output(r)
    graph, _ = verifier.verify(litert.load(b.build(), "f", 0), "f")
    prepared = lowering.prepare(graph, options_mod.resolve(None), "f")
    assert prepared.rewrites == []
    assert any(p == "fold_clamp" and "float32" in why for p, _, why in rewrites.refusals(prepared))


def _step(graph, opts, op_type):
    steps = lowering.lower(graph, opts)
    [step] = [s for s in steps if s.op.op_type == op_type]
    return step


def test_folded_clamp_reaches_the_kernel_range():
    """conv + MINIMUM(40) + MAXIMUM(-20): the convolution's act range becomes [-20, 40] codes."""
    graph, opts = _graph("conv_min_max", True)
    params = _step(graph, opts, "CONV_2D").lowering.params
    assert (params["act_min"], params["act_max"]) == (-20, 40)
    unchanged, opts_off = _graph("conv_min_max", False)
    params = _step(unchanged, opts_off, "CONV_2D").lowering.params
    assert (params["act_min"], params["act_max"]) == (-128, 127)


CLAMPS = sorted(t for t, module in ops.load_all().items() if module.clamp_bounds is not None)
CLAMP_CASES = [(t, dtype) for t in CLAMPS for dtype in ("int8", "int16")
               if any(dtype in v.outputs[0].dtypes for v in ops.get(t).variants)]


def test_the_clamp_operators_declare_their_bounds():
    assert CLAMPS == ["RELU", "RELU6", "RELU_0_TO_1", "RELU_N1_TO_1"]
    assert ("RELU_N1_TO_1", "int16") not in CLAMP_CASES  # no int16 kernel: fold_clamp refuses it


@pytest.mark.parametrize("op_type,dtype", CLAMP_CASES)
def test_folded_clamp_range_is_the_clamp_operators_own(op_type, dtype):
    """fold_clamp reads the clamp's bounds from its operator module: the convolution it folds into
    clamps to exactly the codes the standalone clamp's own lowering clamps to."""
    model = rm._conv_clamps((op_type,), dtype)
    name = f"conv_{op_type.lower()}_{dtype}"
    folded, _ = verifier.verify(litert.load(model, name, 0), name)
    folded = lowering.prepare(folded, options_mod.resolve(None), name)
    assert [r["rewrite"] for r in folded.rewrites] == ["fold_clamp"]
    conv = _step(folded, options_mod.resolve(None), "CONV_2D").lowering.params
    plain, _ = verifier.verify(litert.load(model, name, 0), name)
    plain = lowering.prepare(plain, options_mod.resolve(OFF), name)
    clamp = _step(plain, options_mod.resolve(OFF), op_type).lowering.params
    assert (conv["act_min"], conv["act_max"]) == (clamp["act_min"], clamp["act_max"])
    full = (-128, 127) if dtype == "int8" else (-32768, 32767)
    assert (clamp["act_min"], clamp["act_max"]) != full  # the clamp narrows: the comparison can fail


def test_folded_pad_reaches_the_kernel_padding():
    """PAD (0, 1) + VALID stride-2 conv on 8x8: the conv reads the unpadded input with padding 0 (top /
    left) and keeps its 4x4 output."""
    graph, opts = _graph("pad_conv_s2", True)
    params = _step(graph, opts, "CONV_2D").lowering.params
    assert params["input_dims"] == (1, 8, 8, 4) and params["output_dims"] == (1, 4, 4, 6)
    assert params["padding"] == (0, 0)
    graph, opts = _graph("pad_conv_s1", True)
    params = _step(graph, opts, "CONV_2D").lowering.params
    assert params["input_dims"] == (1, 8, 8, 4) and params["padding"] == (1, 1)


def test_mid_graph_fold_keeps_the_producer_name():
    """A clamp that is no graph output: its readers read the producer's tensor, whose id stays."""
    graph, _ = _graph("mixed", True)
    ids = [op_id for op_id, _ in lowering.operator_ids(graph)]
    folds = [r for r in graph.rewrites if r["rewrite"] == "fold_clamp"]
    assert folds[0]["into"] in ids and folds[0]["into"] not in folds[0]["removed"]
    assert all(r["into"] in ids for r in graph.rewrites if r["into"] is not None)


def test_plan_records_rewrites_and_the_knob(tmp_path):
    on = helia_aot.convert(rm.build("mixed"), tmp_path / "on")
    off = helia_aot.convert(rm.build("mixed"), tmp_path / "off", config=OFF)
    assert on.plan["optimization"]["rewrites"] is True and off.plan["optimization"]["rewrites"] is False
    assert off.plan["rewrites"] == []
    assert [r["rewrite"] for r in on.plan["rewrites"]] == rm.PATTERNS["mixed"][1]
    for r in on.plan["rewrites"]:
        assert set(r) == {"rewrite", "removed", "into", "detail"}
    assert len(off.plan["operators"]) - len(on.plan["operators"]) == 5
    assert on.arena_bytes <= off.arena_bytes


def test_rewritten_module_is_byte_identical_run_to_run(tmp_path):
    first = helia_aot.convert(rm.build("mixed"), tmp_path / "a")
    second = helia_aot.convert(rm.build("mixed"), tmp_path / "b")
    assert first.files == second.files
    for rel in first.files:
        assert (tmp_path / "a" / rel).read_bytes() == (tmp_path / "b" / rel).read_bytes(), rel


def test_config_knob_is_checked():
    with pytest.raises(helia_aot.errors.InvalidConfigError):
        options_mod.resolve({"optimization": {"rewrites": "yes"}})
    assert options_mod.resolve(None).optimization.rewrites is True


def test_in_place_add_takes_the_dying_input(tmp_path):
    """ADD(t1, t2) where both die there: the output shares t1's bytes (the first input that qualifies), the
    arena and its lower bound shrink (by at most one tensor's bytes), and the plan records it."""
    from helia_aot.memory import arena_planner as planner
    data = rm.IN_PLACE["add_in_place"][0]()
    graph, _ = verifier.verify(litert.load(data, "add", 0), "add")
    opts = options_mod.resolve(None)
    graph = lowering.prepare(graph, opts, "add")
    steps = lowering.lower(graph, opts)
    [add] = [s for s in steps if s.op.op_type == "ADD"]
    assert planner.in_place_aliases(graph, steps, {}) == {add.op.outputs[0]: add.op.inputs[0]}
    on = helia_aot.convert(data, tmp_path / "on")
    off = helia_aot.convert(data, tmp_path / "off", config=OFF)
    assert [r["rewrite"] for r in on.plan["rewrites"]] == ["in_place"] and off.plan["rewrites"] == []
    assert on.plan["rewrites"][0]["into"] == add.op_id
    nbytes = graph.tensors[add.op.outputs[0]].nbytes
    # The ADD's step loses one tensor; the peak may move to another step.
    bound_on, bound_off = on.plan["memory"]["lower_bound_bytes"], off.plan["memory"]["lower_bound_bytes"]
    assert bound_off - nbytes <= bound_on < bound_off
    assert on.arena_bytes < off.arena_bytes
    shared = [b["tensors"] for b in on.plan["memory"]["buffers"] if len(b["tensors"]) > 1]
    names = {graph.tensors[t].name for t in (add.op.inputs[0], add.op.outputs[0])}
    assert any(set(s) == names for s in shared)


def test_in_place_refuses_an_input_read_later():
    """An ADD whose inputs are read after it (or are graph inputs) computes nothing in place."""
    from helia_aot.memory import arena_planner as planner
    from tests.modelgen import ModelBuilder
    b = ModelBuilder()
    x = b.input("x", (1, 16), "int8", 0.05, -3)
    y = b.input("y", (1, 16), "int8", 0.05, -3)
    s = b.tensor("s", (1, 16), "int8", 0.1, 0)
    b.op("ADD", [x, y], [s], {"fused_activation_function": "NONE"})
    t = b.tensor("t", (1, 16), "int8", 0.1, 0)
    b.op("ADD", [s, x], [t], {"fused_activation_function": "NONE"})   # s dies here, x is a graph input
    u = b.tensor("u", (1, 16), "int8", 0.2, 0)
    b.op("ADD", [t, s], [u], {"fused_activation_function": "NONE"})  # s read again: not at the second ADD
    b.output(u)
    graph, _ = verifier.verify(litert.load(b.build(), "a", 0), "a")
    opts = options_mod.resolve(None)
    graph = lowering.prepare(graph, opts, "a")
    steps = lowering.lower(graph, opts)
    found = planner.in_place_aliases(graph, steps, {})
    names = {graph.tensors[o].name: graph.tensors[i].name for o, i in found.items()}
    assert names == {"u": "t"}  # the third ADD: t and s both die there, t comes first


@pytest.mark.parametrize("activation", sorted(k for k in vars(__import__(
    "ai_edge_litert.schema_py_generated", fromlist=["ActivationFunctionType"]).ActivationFunctionType)
    if not k.startswith("_")))
@pytest.mark.parametrize("clamp", ["RELU", "RELU6", "RELU_N1_TO_1"])
def test_a_clamp_after_any_fused_activation_converts_or_is_refused_in_one_line(tmp_path, activation, clamp):
    """fold_clamp narrows the producer's fused clamp; a fused activation that is no clamp (TANH,
    SIGN_BIT: LiteRT gives them the whole range) is no range to narrow. It once raised ValueError out of
    convert(); now the fold is refused there and the clamp runs as its own operator."""
    from tests.modelgen.builder import ModelBuilder
    b = ModelBuilder()
    x = b.input("x", [1, 4], "int8", scale=0.05, zero_point=0)
    y = b.tensor("y", [1, 4], "int8", scale=0.05, zero_point=0)
    b.op("ADD", [x, x], [y], {"fused_activation_function": activation})
    z = b.tensor("z", [1, 4], "int8", scale=0.05, zero_point=0)
    b.op(clamp, [y], [z])
    b.output(z)
    result = helia_aot.convert(b.build(), tmp_path / "out", prefix="t")
    types = [op["op_type"] for op in result.plan["operators"]]
    assert types == (["ADD", clamp] if activation in ("TANH", "SIGN_BIT") else ["ADD"]), activation

# SPDX-License-Identifier: Apache-2.0
"""Differential validation of operator rules (tests/e2e/differential.py): per operator, CASES_PER_OPERATOR
generated cases around its rules' boundaries, each asked of LiteRT (TFLM where LiteRT cannot load it) and
of helia-aot. Where a reference runs a case helia-aot converts it and matches (host build, portable kernels,
ASan/UBSan), or refuses it by a rule whose declared source is a documented limit; where the references
refuse it helia-aot refuses it in one line. More cases: tools/differential --cases N."""

from __future__ import annotations

import pytest

from tests.e2e import differential, harness

CASES_PER_OPERATOR = 12


@pytest.mark.parametrize("op", list(differential.GENERATORS))
def test_operator_rules_agree_with_the_references(e2e, op):
    cases = differential.CI_CASES.get(op, CASES_PER_OPERATOR)
    outcomes = differential.run_operator(op, cases, e2e, e2e.portable_host_library())
    counts = differential.tally(outcomes)
    print("\n" + "\n".join(differential.table({op: counts})))
    for limit in sorted(counts.limits):
        print(f"{op}: refused as a documented limit: {limit}")
    e2e.record("differential", op, **{name: value for name, value in zip(differential.HEADER[1:], counts.row())})
    broken = [f"{o.case.name} ({o.case.boundary}): {o.problem}" for o in outcomes if o.problem]
    assert not broken, "\n".join(broken)
    # A small grid (DEQUANTIZE) has fewer points than the bound; a generator may skip an empty output.
    assert counts.generated >= min(cases, 8), f"{op}: generated {counts.generated} cases"
    # Not vacuous: some case ran on a reference and matched, and the walk reached a refusal too.
    assert counts.converted_and_matched >= 1, f"{op}: no case converted and matched"
    assert counts.refused_by_both_and_us + counts.reference_runs_we_refuse_as_limit \
        + counts.reference_undefined_we_refuse + counts.litert_runs_we_refuse_as_tflm \
        + counts.tflm_runs_we_refuse_as_litert >= 1, \
        f"{op}: the walk reached no rule boundary"


def _assert_litert_runs_and_we_match(e2e, case, seed: int, bound: float | None = None) -> None:
    """LiteRT runs `case`; helia-aot converts it and matches within `bound` (default: the case's own)."""
    outcome = differential.evaluate(case, e2e, e2e.portable_host_library(), seed=seed)
    assert outcome.reference == "LiteRT" and outcome.converted, outcome.refusal or outcome.reference_error
    assert not outcome.problem, outcome.problem
    assert outcome.max_diff is not None and outcome.max_diff <= (outcome.bound if bound is None else bound)


def test_int8_fully_connected_weights_with_a_zero_point_match_litert(e2e):
    # The rule this replaced refused any nonzero weight zero point; LiteRT subtracts it (filter_offset), and
    # so do arm_fully_connected_s8 and the portable kernel. Per-tensor weights, zero point -3.
    import numpy as np
    from tests.modelgen import ModelBuilder
    rng = np.random.default_rng(5)
    b = ModelBuilder()
    x = b.input("x", (2, 8), dtype="int8", scale=0.05, zero_point=4)
    w = b.const("w", rng.integers(-127, 128, size=(5, 8)), dtype="int8", scale=0.01, zero_point=-3)
    bias = b.const("b", rng.integers(-500, 500, size=5), dtype="int32", scale=0.05 * 0.01, zero_point=0)
    y = b.tensor("y", (2, 5), dtype="int8", scale=0.2, zero_point=-2)
    b.op("FULLY_CONNECTED", [x, w, bias], [y], {"fused_activation_function": "RELU"})
    b.output(y)
    case = differential.Case("FULLY_CONNECTED", "fc_weight_zero_point", b.build(), "int8 weights zero point -3")
    _assert_litert_runs_and_we_match(e2e, case, 5, differential.INTEGER_BOUND)


def test_int8_fully_connected_per_channel_weight_zero_points_are_ignored_as_litert_does(e2e):
    # Per channel, LiteRT's FullyConnectedPerChannel reads no filter offset: zero points (2, -4, 0, 5, -1) are
    # computed as 0, and the module does the same (it refused them before).
    import numpy as np
    from tests.modelgen import ModelBuilder
    rng = np.random.default_rng(6)
    b = ModelBuilder()
    scales = [0.01, 0.02, 0.015, 0.012, 0.018]
    x = b.input("x", (2, 8), dtype="int8", scale=0.05, zero_point=4)
    w = b.const("w", rng.integers(-127, 128, size=(5, 8)), dtype="int8", scale=scales, zero_point=[2, -4, 0, 5, -1])
    bias = b.const("b", rng.integers(-500, 500, size=5), dtype="int32", scale=[0.05 * s for s in scales],
                   zero_point=[0] * 5)
    y = b.tensor("y", (2, 5), dtype="int8", scale=0.2, zero_point=-2)
    b.op("FULLY_CONNECTED", [x, w, bias], [y], {"fused_activation_function": "NONE"})
    b.output(y)
    case = differential.Case("FULLY_CONNECTED", "fc_per_channel_zero_points", b.build(), "per-channel zero points")
    _assert_litert_runs_and_we_match(e2e, case, 6, differential.INTEGER_BOUND)


@pytest.mark.parametrize("dtype,channel_zero_points", [("int8", (-3,)), ("int8", (2, -5, 0, 7)),
                                                        ("int16", (4, 4, 4, 4))])
def test_depthwise_filter_zero_points_are_ignored_as_the_references_do(e2e, dtype, channel_zero_points):
    # LiteRT runs a nonzero depthwise filter zero point and computes as if it were 0 (DepthwiseConvPerChannel
    # has no filter offset); the module does the same instead of refusing. Per tensor and per channel, and
    # the int16-activation (A16W8) variant.
    import numpy as np
    from tests.modelgen import ModelBuilder
    rng = np.random.default_rng(9)
    b = ModelBuilder()
    act = {"int8": dict(scale=0.05, zero_point=4), "int16": dict(scale=0.002, zero_point=0)}[dtype]
    x = b.input("x", (1, 5, 6, 4), dtype=dtype, **act)
    per_channel = len(channel_zero_points) > 1
    w_scale = [0.01, 0.02, 0.015, 0.012] if per_channel else 0.01
    w = b.const("w", rng.integers(-127, 128, size=(1, 3, 3, 4)), dtype="int8", scale=w_scale,
                zero_point=list(channel_zero_points) if per_channel else channel_zero_points[0],
                **({"quantized_dimension": 3} if per_channel else {}))
    bias_scale = [act["scale"] * s for s in w_scale] if per_channel else act["scale"] * w_scale
    bias = b.const("b", rng.integers(-300, 300, size=4), dtype="int32" if dtype == "int8" else "int64",
                   scale=bias_scale, zero_point=[0] * 4 if per_channel else 0,
                   **({"quantized_dimension": 0} if per_channel else {}))
    y = b.tensor("y", (1, 5, 6, 4), dtype=dtype, **dict(act, scale=act["scale"] * 4))
    b.op("DEPTHWISE_CONV_2D", [x, w, bias], [y], {"padding": "SAME", "stride_w": 1, "stride_h": 1,
                                                  "depth_multiplier": 1, "fused_activation_function": "NONE"})
    b.output(y)
    case = differential.Case("DEPTHWISE_CONV_2D", f"dw_filter_zero_point_{dtype}_{len(channel_zero_points)}",
                             b.build(), "nonzero filter zero point")
    _assert_litert_runs_and_we_match(e2e, case, 9)


def _int16_offset_model(op: str):
    """A model of `op` on int16 tensors with nonzero zero points, which LiteRT's int16 kernels refuse and
    TFLM's run (they subtract the zero point as the int8 kernels do)."""
    import numpy as np
    from tests.modelgen import ModelBuilder
    b = ModelBuilder()
    x = b.input("x", (2, 3, 4), dtype="int16", scale=0.002, zero_point=-7)
    if op in ("ADD", "SUB"):
        other = b.input("z", (4,), dtype="int16", scale=0.003, zero_point=11)  # broadcast on the last axis
        y = b.tensor("y", (2, 3, 4), dtype="int16", scale=0.004, zero_point=5)
        b.op(op, [x, other], [y], {"fused_activation_function": "RELU"})
    elif op == "LEAKY_RELU":
        y = b.tensor("y", (2, 3, 4), dtype="int16", scale=0.0015, zero_point=-3)
        b.op(op, [x], [y], {"alpha": 0.3})
    elif op == "RELU6":  # TFLM clamps in the input's quantization: the output shares it
        y = b.tensor("y", (2, 3, 4), dtype="int16", scale=0.002, zero_point=-7)
        b.op(op, [x], [y])
    elif op == "DEQUANTIZE":
        y = b.tensor("y", (2, 3, 4), dtype="float32")
        b.op(op, [x], [y])
    elif op == "QUANTIZE":
        y = b.tensor("y", (2, 3, 4), dtype="int16", scale=0.0031, zero_point=9)
        b.op(op, [x], [y])
    else:  # SUM
        axis = b.const("axis", np.array([1], np.int32))
        y = b.tensor("y", (2, 4), dtype="int16", scale=0.01, zero_point=-2)
        b.op(op, [x, axis], [y], {"keep_dims": False})
    b.output(y)
    return b.build()


@pytest.mark.parametrize("op", ["ADD", "SUB", "LEAKY_RELU", "RELU6", "DEQUANTIZE", "QUANTIZE", "SUM"])
def test_int16_with_zero_points_matches_tflm(e2e, op):
    # LiteRT's int16 kernels refuse a zero point; TFLM runs these, so TFLM is the reference they match.
    case = differential.Case(op, f"int16_offsets_{op.lower()}", _int16_offset_model(op), "int16 zero points")
    outcome = differential.evaluate(case, e2e, e2e.portable_host_library(), seed=7)
    assert outcome.reference == "TFLM" and "zero_point != 0" in outcome.reference_error, outcome.reference_error
    assert outcome.converted, outcome.refusal
    assert not outcome.problem, outcome.problem
    assert outcome.max_diff is not None and outcome.max_diff <= outcome.bound


@pytest.mark.parametrize("op,dtype", [("ADD", "int8"), ("SUB", "int16"), ("MUL", "int8"), ("MUL", "int16"),
                                      ("ADD", "float32"), ("EQUAL", "int8"), ("LESS", "int16"),
                                      ("GREATER", "float32"), ("SQUARED_DIFFERENCE", "int8")])
def test_a_broadcast_past_four_merged_dimensions_runs_inline_and_matches_litert(e2e, op, dtype):
    # LiteRT broadcasts at any rank; the 4-D entries take four merged dimension groups, so five run the
    # inline loop with the entries' arithmetic (the plan says why).
    from tests.modelgen import ModelBuilder
    sa, sb = differential.PAST_FOUR_GROUPS
    b = ModelBuilder()
    q = {"int8": dict(scale=0.05, zero_point=3), "int16": dict(scale=0.002, zero_point=0)}.get(dtype, {})
    x1 = b.input("a", sa, dtype=dtype, **q)
    x2 = b.input("b", sb, dtype=dtype, **dict(q, scale=q["scale"] * 0.7) if q else {})
    comparison = op in ("EQUAL", "LESS", "GREATER")
    y = b.tensor("y", (2, 2, 2, 2, 2, 3), dtype="bool" if comparison else dtype,
                 **({} if comparison else dict(q, scale=q["scale"] * 2) if q else {}))
    b.op(op, [x1, x2], [y], {} if comparison or op == "SQUARED_DIFFERENCE" else {"fused_activation_function": "NONE"})
    b.output(y)
    case = differential.Case(op, f"five_groups_{op.lower()}_{dtype}", b.build(), "five merged broadcast groups")
    outcome = differential.evaluate(case, e2e, e2e.portable_host_library(), seed=11)
    assert outcome.reference == "LiteRT" and outcome.converted, outcome.refusal or outcome.reference_error
    assert not outcome.problem, outcome.problem
    plan = (e2e.root / "differential" / case.name / f"{harness.PREFIX}_plan.json").read_text()
    if not (comparison and dtype == "float32"):  # plain-value comparisons run the inline loop at any rank
        assert "the broadcast needs more than four merged dimensions" in plan

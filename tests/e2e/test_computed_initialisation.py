# SPDX-License-Identifier: Apache-2.0
"""Resource variables whose CALL_ONCE initialisation computes the value it assigns from constants (issue #30):
helia_aot folds that subgraph at conversion with the main graph's constant folding, and the module matches
LiteRT over a sequence. The model outputs the variable as read too, so the first invocation compares the
folded initial value itself, exactly."""

from __future__ import annotations

import numpy as np
import pytest

from tests.e2e import harness
from tests.modelgen.stateful import SHAPE, accumulator_model

INT8_QUANT = dict(scale=0.25, zero_point=3)


def _initialised(init, dtype: str, q: dict):
    """The initial value, computed by operators that fold for `dtype`."""
    if dtype == "float32":
        s = init.tensor("init_squared", SHAPE, dtype)
        init.op("SQUARED_DIFFERENCE", [init.const("c0", np.linspace(-1.3, 2.1, 6).reshape(SHAPE), dtype),
                                       init.const("c1", np.full(SHAPE, 0.7), dtype)], [s])
        d = init.tensor("init_divided", SHAPE, dtype)
        init.op("DIV", [s, init.const("c2", np.full(SHAPE, 3.0), dtype)], [d])
        m = init.tensor("init_value", SHAPE, dtype)
        init.op("MAXIMUM", [d, init.const("c3", np.full(SHAPE, 0.1), dtype)], [m])
        return m
    if dtype == "int32":
        s = init.tensor("init_sum", SHAPE, dtype)
        init.op("ADD", [init.const("c0", np.arange(6).reshape(SHAPE) - 2, dtype),
                        init.const("c1", np.full(SHAPE, 40), dtype)], [s])
        m = init.tensor("init_value", SHAPE, dtype)
        init.op("MUL", [s, init.const("c2", np.full(SHAPE, -3), dtype)], [m])
        return m
    m = init.tensor("init_value", SHAPE, dtype, **q)
    init.op("MAXIMUM", [init.const("c0", np.asarray([[-9, 4, 17, -2, 30, 0]]), dtype, **q),
                        init.const("c1", np.asarray([[1, -5, 12, -7, 31, 0]]), dtype, **q)], [m])
    flat = init.tensor("init_flat", (SHAPE[1],), dtype, **q)
    init.op("RESHAPE", [m, init.const("flat", np.asarray([SHAPE[1]], np.int32))], [flat],
            {"new_shape": [SHAPE[1]]})
    return flat


def computed_accumulator(dtype: str) -> bytes:
    """The accumulator, its initial value computed by operators that fold for `dtype`."""
    q = INT8_QUANT if dtype == "int8" else {}
    return accumulator_model(f"computed initialisation {dtype}", dtype, q, lambda init: _initialised(init, dtype, q),
                             output_read=True)


@pytest.mark.parametrize("dtype", ["float32", "int32", "int8"])
def test_computed_initialisation_matches_litert_over_a_sequence(e2e, dtype):
    model = harness.ModelUnderTest(name=f"computed_initialisation_{dtype}", kind="stateful",
                                   model_bytes=computed_accumulator(dtype), seed=3030, tolerance=0,
                                   integer_ranges={"x": (-1000, 1000)})
    outputs = e2e.host_outputs(model, e2e.portable_host_library())
    diffs = harness.per_output_max_diff(outputs, model.reference)
    assert diffs == [0, 0], f"{model.name}: max |diff| per output vs LiteRT {diffs}"


# Quantization of the ADD / SUB initialisations: the two constants and the value on three different scales (and
# zero points for int8), so the fold rescales both inputs and the result.
_ARITH_QUANT = {"int8": ((0.05, -7), (0.125, 11), (0.25, 3)), "int16": ((2.0 ** -9, 0), (3e-3, 0), (0.02, 0))}


def arithmetic_initialised(op: str, dtype: str) -> bytes:
    """acc = acc + x, acc initialised to `op` of two constants (broadcast, RELU fused): ADD and SUB fold for
    float32, int8 and int16 too."""
    qa, qb, qy = [dict(scale=s, zero_point=z) for s, z in _ARITH_QUANT.get(dtype, ((None, None),) * 3)]
    options = {"pot_scale_int16": False} if dtype == "int16" else {}
    if dtype == "float32":
        c0, c1 = np.linspace(-2.5, 3.0, 6).reshape(SHAPE), np.asarray([0.75])
    else:
        info = np.iinfo(dtype)
        c0 = np.asarray([[info.min, -40, -3, 0, 25, info.max]])
        c1 = np.asarray([info.max // 3])

    def initial(init):
        value0 = init.tensor("init_value", SHAPE, dtype, **qy)
        init.op(op, [init.const("c0", c0, dtype, **qa), init.const("c1", c1, dtype, **qb)], [value0],
                {"fused_activation_function": "RELU", **options})
        return value0
    return accumulator_model(f"{op} initialisation {dtype}", dtype, qy, initial, options, output_read=True)


@pytest.mark.parametrize("dtype", ["float32", "int8", "int16"])
@pytest.mark.parametrize("op", ["ADD", "SUB"])
def test_arithmetic_initialisation_matches_litert_over_a_sequence(e2e, op, dtype):
    model = harness.ModelUnderTest(name=f"{op.lower()}_initialisation_{dtype}", kind="stateful",
                                   model_bytes=arithmetic_initialised(op, dtype), seed=3031, tolerance=0,
                                   integer_ranges={"x": (-1000, 1000)})
    outputs = e2e.host_outputs(model, e2e.portable_host_library())
    diffs = harness.per_output_max_diff(outputs, model.reference)
    assert diffs == [0, 0], f"{model.name}: max |diff| per output vs LiteRT {diffs}"

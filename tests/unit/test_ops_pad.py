# SPDX-License-Identifier: Apache-2.0
"""PAD / PADV2 lowering (helia_aot/ops/pad.py) beyond the rank-4 case of test_ops: lower ranks
right-aligned into NHWC, PADV2's value in codes, int16, and each refusal. Written to kill mutmut's
survivors in pad.py."""

from __future__ import annotations

import numpy as np
import pytest

import helia_aot
from helia_aot.errors import InvalidModelError, UnsupportedModelError
from tests.modelgen import ModelBuilder

from .helpers import function_body


def _pad_model(shape, pads, out_shape, dtype="int8", zero_point=-5, value=None, op="PAD", value_const=True):
    b = ModelBuilder()
    x = b.input("x", shape, dtype=dtype, scale=0.5, zero_point=zero_point)
    p = b.const("pads", np.array(pads, np.int32), dtype="int32")
    inputs = [x, p]
    if value is not None:
        if value_const:
            inputs.append(b.const("v", np.array([value], np.int8 if dtype == "int8" else np.int16), dtype=dtype,
                                  scale=0.5, zero_point=zero_point))
        else:
            inputs.append(b.input("v", (1,), dtype=dtype, scale=0.5, zero_point=zero_point))
    y = b.tensor("y", out_shape, dtype=dtype, scale=0.5, zero_point=zero_point)
    b.op(op, inputs, [y])
    b.output(y)
    return b


def _body(builder, tmp_path):
    result = helia_aot.convert(builder.build(), tmp_path / "out", target="host")
    return result, function_body((tmp_path / "out" / "src" / "model_model.c").read_text(), 0)


def test_rank_2_pads_go_to_the_last_two_dims(tmp_path):
    result, body = _body(_pad_model((3, 4), [[1, 2], [0, 3]], (6, 7)), tmp_path)
    assert result.plan["operators"][0]["kernel"]["entry"] == "arm_pad_s8"
    assert "input_dims = { 1, 1, 3, 4 };" in body
    assert "pre_pad = { 0, 0, 1, 0 };" in body and "post_pad = { 0, 0, 2, 3 };" in body
    assert "(int8_t)(-5)" in body  # PAD fills with the output's zero point


def test_padv2_value_in_codes_and_int16(tmp_path):
    _, body = _body(_pad_model((1, 2, 3), [[0, 0], [1, 0], [0, 2]], (1, 3, 5), value=7, op="PADV2"), tmp_path)
    assert "(int8_t)(7)" in body and "pre_pad = { 0, 0, 1, 0 };" in body and "post_pad = { 0, 0, 0, 2 };" in body
    _, body = _body(_pad_model((2, 2), [[1, 1], [0, 0]], (4, 2), dtype="int16", zero_point=0, value=-300,
                               op="PADV2"), tmp_path / "s16")
    assert "arm_pad_s16(" in body and "(int16_t)(-300)" in body
    # PADV2 without its value input pads with the zero point, like PAD.
    _, body = _body(_pad_model((2, 2), [[1, 1], [0, 0]], (4, 2), op="PADV2"), tmp_path / "novalue")
    assert "(int8_t)(-5)" in body


@pytest.mark.parametrize("shape,pads,out_shape,message", [
    ((1, 2, 2, 2, 2), [[0, 0]] * 5, (1, 2, 2, 2, 2), "tensor 'x': rank 5 input is not supported (up to 4) (kernel limit: arm_pad_s8"),
    ((2, 2), [[0, 0], [0, 0], [0, 0]], (2, 2), "tensor 'pads': paddings must be [2, 2]"),
    ((2, 2), [[0, -1], [0, 0]], (1, 2), "tensor 'pads': negative paddings"),
    ((2, 2), [[1, 0], [0, 1]], (3, 2), "tensor 'y': output shape [3, 2] does not match the padded [3, 3]"),
])
def test_refusals(tmp_path, shape, pads, out_shape, message):
    with pytest.raises((InvalidModelError, UnsupportedModelError)) as info:
        helia_aot.convert(_pad_model(shape, pads, out_shape).build(), tmp_path / "out", target="host")
    assert message in str(info.value)


def test_zero_paddings_are_accepted(tmp_path):
    _, body = _body(_pad_model((2, 2), [[0, 0], [0, 0]], (2, 2)), tmp_path)
    assert "pre_pad = { 0, 0, 0, 0 };" in body and "post_pad = { 0, 0, 0, 0 };" in body


def test_float_padv2_value_must_be_constant(tmp_path):
    b = ModelBuilder()
    x = b.input("x", (2, 2), dtype="float32")
    p = b.const("pads", np.array([[1, 0], [0, 0]], np.int32), dtype="int32")
    v = b.input("v", (1,), dtype="float32")
    y = b.tensor("y", (3, 2), dtype="float32")
    b.op("PADV2", [x, p, v], [y])
    b.output(y)
    with pytest.raises((InvalidModelError, UnsupportedModelError), match="must be a constant tensor"):
        helia_aot.convert(b.build(), tmp_path / "out", target="host")

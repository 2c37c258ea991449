# SPDX-License-Identifier: Apache-2.0
"""int16 layers requantized from an int64 accumulator: a scale ratio (input x weight / output) of 2^14
or more has no defined arithmetic (LiteRT and ns-cmsis-nn would shift by a negative count) and is
refused by name; just below it converts."""

from __future__ import annotations

import numpy as np
import pytest

import helia_aot
from helia_aot.errors import UnsupportedModelError
from tests.modelgen import ModelBuilder


def _layer(op: str, ratio_log2: int) -> bytes:
    b = ModelBuilder()
    out_scale = 2.0 ** -ratio_log2  # input and weight scales 1.0
    if op == "FULLY_CONNECTED":
        x = b.input("x", (1, 4), dtype="int16", scale=1.0, zero_point=0)
        w = b.const("w", np.ones((3, 4)), dtype="int8", scale=1.0, zero_point=0)
        bias = b.const("bias", np.zeros(3), dtype="int64", scale=1.0, zero_point=0)
        y = b.tensor("y", (1, 3), dtype="int16", scale=out_scale, zero_point=0)
        b.op(op, [x, w, bias], [y])
    elif op == "TRANSPOSE_CONV":
        x = b.input("x", (1, 2, 2, 2), dtype="int16", scale=1.0, zero_point=0)
        shape = b.const("shape", np.array([1, 4, 4, 3]), dtype="int32")
        w = b.const("w", np.ones((3, 2, 2, 2)), dtype="int8", scale=1.0, zero_point=0)
        y = b.tensor("y", (1, 4, 4, 3), dtype="int16", scale=out_scale, zero_point=0)
        b.op(op, [shape, w, x, None], [y], {"padding": "SAME", "stride_h": 2, "stride_w": 2})
    else:
        depthwise = op == "DEPTHWISE_CONV_2D"
        x = b.input("x", (1, 4, 4, 2), dtype="int16", scale=1.0, zero_point=0)
        w = b.const("w", np.ones((1, 3, 3, 2) if depthwise else (2, 3, 3, 2)), dtype="int8", scale=1.0,
                    zero_point=0)
        bias = b.const("bias", np.zeros(2), dtype="int64", scale=1.0, zero_point=0)
        y = b.tensor("y", (1, 4, 4, 2), dtype="int16", scale=out_scale, zero_point=0)
        options = {"padding": "SAME", "stride_h": 1, "stride_w": 1}
        b.op(op, [x, w, bias], [y], {**options, "depth_multiplier": 1} if depthwise else options)
    b.output(y)
    return b.build()


OPS = ["CONV_2D", "DEPTHWISE_CONV_2D", "FULLY_CONNECTED", "TRANSPOSE_CONV"]


@pytest.mark.parametrize("op", OPS)
def test_ratio_2_to_14_is_refused(op, tmp_path):
    # 2^14 = 0.5 x 2^15: multiplier 2^30, left shift 15.
    with pytest.raises(UnsupportedModelError, match=r"requantization scale 2\^14 or more"):
        helia_aot.convert(_layer(op, 14), tmp_path / "out", target="host")


@pytest.mark.parametrize("op", OPS)
def test_ratio_2_to_13_converts(op, tmp_path):
    helia_aot.convert(_layer(op, 13), tmp_path / "out", target="host")
    assert (tmp_path / "out" / "src" / "model_model.c").is_file()

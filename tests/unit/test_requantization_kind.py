# SPDX-License-Identifier: Apache-2.0
"""kernel.requantization in the plan: rshift_only exactly when every channel's effective scale is below
one half (a right shift) or zero; a multiplier in [0.5, 1) has shift 0 and needs the general path."""

from __future__ import annotations

import numpy as np
import pytest

import helia_aot
from helia_aot.ops.shared.accumulator import requantization_kind
from tests.modelgen import ModelBuilder

Q31_HALF = 1 << 30


@pytest.mark.parametrize("multipliers, shifts, kind", [
    ([Q31_HALF], [-1], "rshift_only"),
    ([Q31_HALF], [0], "general"),
    ([Q31_HALF], [1], "general"),
    ([0], [5], "rshift_only"),
    ([Q31_HALF, Q31_HALF], [-3, 0], "general"),
    ([Q31_HALF, 0], [-3, 0], "rshift_only"),
])
def test_boundaries(multipliers, shifts, kind):
    assert requantization_kind(multipliers, shifts) == kind


def depthwise(weight_scale: float) -> bytes:
    b = ModelBuilder()
    x = b.input("x", (1, 5, 5, 2), scale=1.0, zero_point=0)
    w = b.const("w", np.ones((1, 3, 3, 2), np.int8), dtype="int8", scale=[weight_scale, 0.125], zero_point=0,
                quantized_dimension=3)
    bias = b.const("b", np.zeros(2, np.int32), dtype="int32", scale=[weight_scale, 0.125], zero_point=0)
    y = b.tensor("y", (1, 5, 5, 2), scale=1.0, zero_point=0)
    b.op("DEPTHWISE_CONV_2D", [x, w, bias], [y], {"padding": "SAME", "stride_w": 1, "stride_h": 1,
                                                   "depth_multiplier": 1, "fused_activation_function": "NONE"})
    b.output(y)
    return b.build()


@pytest.mark.parametrize("weight_scale, kind", [(0.375, "rshift_only"), (0.75, "general"), (1.5, "general")])
def test_plan_records_the_depthwise_requantization(tmp_path, weight_scale, kind):
    plan = helia_aot.convert(depthwise(weight_scale), tmp_path / "out").plan
    (op,) = plan["operators"]
    assert op["kernel"]["requantization"] == kind

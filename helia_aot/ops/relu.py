# SPDX-License-Identifier: Apache-2.0
"""RELU, int8 and int16: a clamp when the scales match, else a requantization and a clamp
(int16 RELU: one arm_relu_s16 pass)."""

from __future__ import annotations

import math

from helia_aot.ops.base import register
from helia_aot.ops.shared.clamp import ClampLowering


@register
class Relu(ClampLowering):
    op_types = ("RELU",)
    options_table = None
    activation = "RELU"
    clamp_bounds = (0.0, math.inf)

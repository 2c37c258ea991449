# SPDX-License-Identifier: Apache-2.0
"""RELU6, int8 and int16: a clamp when the scales match, else a requantization and a clamp
(int16 RELU6: arm_requantize_s16_s16 then arm_clamp_s16)."""

from __future__ import annotations

from helia_aot.ops.base import register
from helia_aot.ops.shared.clamp import ClampLowering


@register
class Relu6(ClampLowering):
    op_types = ("RELU6",)
    options_table = None
    activation = "RELU6"
    clamp_bounds = (0.0, 6.0)

# SPDX-License-Identifier: Apache-2.0
"""MINIMUM: int8 / int16 / float32 on arm_minimum_s8 / _s16 / _f32, int32 inline C (see
shared.minmax)."""

from __future__ import annotations

from helia_aot.ops.base import register
from helia_aot.ops.shared.minmax import MinMaxLowering


@register
class Minimum(MinMaxLowering):
    op_types = ("MINIMUM",)
    options_table = "MaximumMinimumOptions"
    which = "minimum"
    variants = MinMaxLowering.variants_for("minimum")

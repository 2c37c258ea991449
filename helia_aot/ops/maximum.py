# SPDX-License-Identifier: Apache-2.0
"""MAXIMUM: int8 / int16 / float32 on arm_maximum_s8 / _s16 / _f32, int32 inline C (see
shared.minmax)."""

from __future__ import annotations

from helia_aot.ops.base import register
from helia_aot.ops.shared.minmax import MinMaxLowering


@register
class Maximum(MinMaxLowering):
    op_types = ("MAXIMUM",)
    options_table = "MaximumMinimumOptions"
    which = "maximum"
    variants = MinMaxLowering.variants_for("maximum")

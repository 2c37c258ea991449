# SPDX-License-Identifier: Apache-2.0
"""REDUCE_MAX: int8 / int16 on arm_reduce_max_s8 / _s16, float32 / int32 / int64 in inline C (see
shared.reduce_extreme)."""

from __future__ import annotations

from helia_aot.ops.base import register
from helia_aot.ops.shared.reduce_extreme import ReduceExtremeLowering, extreme_variants


@register
class ReduceMax(ReduceExtremeLowering):
    op_types = ("REDUCE_MAX",)
    kind = "max"
    variants = extreme_variants("max")

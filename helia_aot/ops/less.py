# SPDX-License-Identifier: Apache-2.0
"""LESS: int8 on arm_less_s8, int16 on arm_less_s16 (LiteRT's rescaling, see
shared.comparison), float32 / int32 / int64 in inline C; a bool mask out, inputs broadcast."""

from __future__ import annotations

from helia_aot.ops.base import register
from helia_aot.ops.shared.comparison import ComparisonLowering, comparison_variants


@register
class Less(ComparisonLowering):
    op_types = ("LESS",)
    options_table = "LessOptions"
    variants = comparison_variants("LESS")

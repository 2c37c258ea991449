# SPDX-License-Identifier: Apache-2.0
"""NOT_EQUAL: int8 on arm_not_equal_s8, int16 on arm_not_equal_s16 (LiteRT's rescaling, see
shared.comparison), float32 / int32 / int64 / bool in inline C; a bool mask out, inputs broadcast."""

from __future__ import annotations

from helia_aot.ops.base import register
from helia_aot.ops.shared.comparison import ComparisonLowering, comparison_variants


@register
class NotEqual(ComparisonLowering):
    op_types = ("NOT_EQUAL",)
    options_table = "NotEqualOptions"
    variants = comparison_variants("NOT_EQUAL")

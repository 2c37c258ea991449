# SPDX-License-Identifier: Apache-2.0
"""SUB: int8 / int16 on arm_elementwise_sub_s8/s16 or arm_sub_s8/s16 (broadcasting of any rank: the entries
take four merged dimensions, inline C the rest), float32 / float16 on the _f32 / _f16 entries, int32 inline C
(see shared.add_sub)."""

from __future__ import annotations

from helia_aot.ops.base import register
from helia_aot.ops.shared.add_sub import AddSubLowering


@register
class Sub(AddSubLowering):
    op_types = ("SUB",)
    options_table = "SubOptions"
    which = "sub"
    variants = AddSubLowering.variants_for("sub")

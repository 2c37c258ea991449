# SPDX-License-Identifier: Apache-2.0
"""ADD: int8 / int16 on arm_elementwise_add_s8/s16 or arm_add_s8/s16 (broadcasting of any rank: the entries
take four merged dimensions, inline C the rest), float32 / float16 on the _f32 / _f16 entries, int32 inline C
(see shared.add_sub). Beyond SUB's rules, LiteRT's int16 ADD takes no broadcast on its power-of-two path and
needs the output scale coarse enough."""

from __future__ import annotations

from helia_aot.ops.base import register
from helia_aot.ops.shared.add_sub import AddSubLowering


@register
class Add(AddSubLowering):
    op_types = ("ADD",)
    options_table = "AddOptions"
    which = "add"
    variants = AddSubLowering.variants_for("add")

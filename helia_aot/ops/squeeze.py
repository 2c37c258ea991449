# SPDX-License-Identifier: Apache-2.0
"""SQUEEZE: row-major layout is unchanged, so the output aliases the input (no code, no copy)."""

from __future__ import annotations

from helia_aot.ops.base import AXIS_RANGE_RULE, Axis, OpContext, Rule, both, register
from helia_aot.ops.shared.alias import AliasLowering, alias_validate, alias_variants

SQUEEZED_ONE = Rule("every squeeze_dims axis has size 1", both(
    "squeeze.cc Prepare (LiteRT and micro)", "TF_LITE_ENSURE(current >= 0 && current < input_num_dims && "
    "input_dims[current] == 1) for each squeeze_dims entry"))


@register
class Squeeze(AliasLowering):
    op_types = ("SQUEEZE",)
    options_table = "SqueezeOptions"
    axes = (Axis("option squeeze_dims"),)
    variants = alias_variants(AXIS_RANGE_RULE, SQUEEZED_ONE)

    def validate(self, ctx: OpContext) -> None:
        alias_validate(ctx)
        x = ctx.inp(0)
        rank = len(x.shape)
        for axis in ctx.options("squeeze_dims", None) or ():
            if int(x.shape[int(axis) % rank]) != 1:
                raise ctx.error(SQUEEZED_ONE, x, detail=f"squeeze_dims axis {axis} has size {x.shape[int(axis) % rank]}, "
                                                        f"not 1")

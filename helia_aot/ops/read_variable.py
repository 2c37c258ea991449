# SPDX-License-Identifier: Apache-2.0
"""READ_VARIABLE: copies a resource variable into its output. The resources stage
(helia_aot/frontend/resources.py) has replaced the handle input by the variable's own tensor, which lives in
the persistent arena; the output is an ordinary activation a later ASSIGN_VARIABLE may overwrite
the variable from, so it is a copy, never an alias."""

from __future__ import annotations

from helia_aot.ops.base import ANY, Lowered, OpContext, OpLowering, Operand, Variant, register


def check_variable_copy(ctx: OpContext, variable, value) -> None:
    """The variable and the value copied to or from it have one dtype, shape and quantization."""
    if not variable.is_variable:
        raise ctx.error("input 0 must be a resource variable (a VAR_HANDLE's output)", variable)
    if (variable.dtype, tuple(variable.shape)) != (value.dtype, tuple(value.shape)) or variable.quant != value.quant:
        raise ctx.error(f"the variable is {variable.dtype} {list(variable.shape)} and the value {value.dtype} "
                        f"{list(value.shape)} (or their quantization differs); the bytes are copied as they are",
                        value, "Export the model with one type, shape and quantization per variable")


@register
class ReadVariable(OpLowering):
    op_types = ("READ_VARIABLE",)
    options_table = "ReadVariableOptions"
    keeps_state = True
    variants = (
        Variant("any", inputs=(Operand("variable", ANY),), outputs=(Operand("value", ANY),),
                template="copy_bytes.c.j2",
                notes=("the variable (resource) and the value have one dtype, shape and quantization",)),
    )

    def validate(self, ctx: OpContext) -> None:
        check_variable_copy(ctx, ctx.inp(0), ctx.out(0))

    def lower(self, ctx: OpContext) -> Lowered:
        out = ctx.out(0)
        return Lowered(params={"copies": [dict(dst=out.index, src=ctx.inp(0).index, bytes=out.nbytes)]})

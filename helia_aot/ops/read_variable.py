# SPDX-License-Identifier: Apache-2.0
"""READ_VARIABLE: copies a resource variable into its output. The resources stage
(helia_aot/frontend/resources.py) has replaced the handle input by the variable's own tensor, which lives in
the persistent arena; the output is an ordinary activation a later ASSIGN_VARIABLE may overwrite
the variable from, so it is a copy, never an alias."""

from __future__ import annotations

from helia_aot.ops.base import (ANY, Lowered, OpContext, OpLowering, Operand, Rule, Variant, helia_limit, register,
                                tflm, undefined)

IS_VARIABLE = Rule("input 0 is a resource variable", tflm(
    "read_variable.cc / assign_variable.cc Prepare", "the input is a resource id (TFLITE_DCHECK / TF_LITE_ENSURE of "
    "kTfLiteResource), resolved here to the variable's tensor"))
# Measured (tests/e2e/differential_ops/other.py): both references copy a variable's bytes as they are, so a value
# of another shape with as many elements, or of other quantization, reads back the same codes.
ONE_FORM = Rule("the variable and every value copied to or from it have one dtype", helia_limit(
    "each variable is one static buffer in the persistent arena, its bytes copied as they are (as both references "
    "do); for a value of another dtype LiteRT retypes the variable and its READ_VARIABLE then refuses the old one, "
    "while TFLM copies the bytes", "a byte copy between dtypes of one size, as TFLM"))
# Measured: with a value of fewer elements, LiteRT's second run reads a stale element and TFLM's first run an
# element no input explains.
ONE_SIZE = Rule("the variable and every value copied to or from it have one element count", undefined(
    "read_variable.cc / assign_variable.cc Eval (LiteRT and micro)",
    "LiteRT resizes the variable to the value assigned and READ_VARIABLE then resizes its output under operators "
    "prepared for the declared shape, which read past it; TFLM's buffer takes the size of the first assignment it "
    "prepares, and copies of another size leave part of it stale or read past it"))
VARIABLE_RULES = (IS_VARIABLE, ONE_FORM, ONE_SIZE)


def same_bytes(a, b) -> bool:
    """Whether a value and a variable (or two uses of one) copy into each other as they are: one dtype and
    element count; shape and quantization may differ (the codes are copied, not requantized)."""
    return a.dtype == b.dtype and a.nbytes == b.nbytes


def check_variable_copy(ctx: OpContext, variable, value) -> None:
    """The variable and the value copied to or from it have one dtype (ONE_FORM) and element count (ONE_SIZE)."""
    if not variable.is_variable:
        raise ctx.error(IS_VARIABLE, variable, detail="input 0 must be a resource variable (a VAR_HANDLE's output)")
    if not same_bytes(variable, value):
        raise ctx.error(ONE_FORM if variable.dtype != value.dtype else ONE_SIZE, value,
                        "Export the model with one dtype and size per variable",
                        detail=f"the variable is {variable.dtype} {list(variable.shape)} and the value {value.dtype} "
                               f"{list(value.shape)}; the bytes are copied as they are")


@register
class ReadVariable(OpLowering):
    op_types = ("READ_VARIABLE",)
    options_table = "ReadVariableOptions"
    keeps_state = True
    variants = (
        Variant("any", inputs=(Operand("variable", ANY),), outputs=(Operand("value", ANY),),
                template="copy_bytes.c.j2", rules=VARIABLE_RULES,
                notes=("the variable (resource) and the value have one dtype and element count",
                       "codes copied as they are")),
    )

    def validate(self, ctx: OpContext) -> None:
        check_variable_copy(ctx, ctx.inp(0), ctx.out(0))

    def lower(self, ctx: OpContext) -> Lowered:
        out = ctx.out(0)
        return Lowered(params={"copies": [dict(dst=out.index, src=ctx.inp(0).index, bytes=out.nbytes)]})

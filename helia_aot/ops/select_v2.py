# SPDX-License-Identifier: Apache-2.0
"""SELECT_V2: output = condition ? x : y with the three inputs broadcast (NumPy rules, any rank: LiteRT runs a
rank-6 broadcast, measured). int8 / int16 on ns-cmsis-nn's arm_select_v2_s8 / _s16 (each input read through its
strides, 0 along broadcast axes; ranks 1 to 8, every rank the model verifier admits), float32 / int32 / int64 / bool in inline C.

LiteRT copies the chosen codes as they are: it neither requires x, y and the output to share quantization
nor rescales, so neither does this (the same codes come out)."""

from __future__ import annotations

import numpy as np

from helia_aot.ops.base import ConstArray, Lowered, OpContext, OpLowering, Operand, Rule, Variant, litert, register
from helia_aot.ops.shared.broadcast import broadcast_shape

BROADCAST = Rule("condition, x and y broadcast (NumPy rules) to the output's shape", litert(
    "select.cc SelectPrepare", "CalculateShapeForBroadcast of the three shapes; the output is resized to it"))
_RULES = (BROADCAST,)
_NOTES = ("codes copied as they are (no rescaling, as LiteRT)", "broadcasts at any rank")
_CTYPES = {"float32": "float", "int32": "int32_t", "int64": "int64_t",
           "bool": "uint8_t"}


def _variant(dtype: str) -> Variant:
    entry = {"int8": ("arm_select_v2_s8",), "int16": ("arm_select_v2_s16",)}.get(dtype, ())
    return Variant(dtype, inputs=(Operand("condition", ("bool",)), Operand("x", (dtype,)), Operand("y", (dtype,))),
                   outputs=(Operand("output", (dtype,)),), entries=entry,
                   template="select_v2.c.j2" if entry else "select_v2_inline.c.j2",
                   lower="lower" if entry else "lower_inline", rules=_RULES,
                   notes=_NOTES + (() if entry else ("inline C",)))


def _strides(shape, out_shape) -> list[int]:
    dims = [1] * (len(out_shape) - len(shape)) + [int(d) for d in shape]
    strides, step = [0] * len(out_shape), 1
    for axis in range(len(out_shape) - 1, -1, -1):
        strides[axis] = step if dims[axis] == out_shape[axis] and dims[axis] != 1 else 0
        step *= dims[axis]
    return strides


@register
class SelectV2(OpLowering):
    op_types = ("SELECT_V2",)
    options_table = "SelectV2Options"
    variants = tuple(_variant(d) for d in ("int8", "int16", "float32", "int32", "int64", "bool"))

    def validate(self, ctx: OpContext) -> None:
        c, x, y = ctx.inp(0), ctx.inp(1), ctx.inp(2)
        out = ctx.out(0)
        shape = broadcast_shape(c.shape, x.shape)
        shape = broadcast_shape(shape, y.shape) if shape is not None else None
        if shape is None:
            raise ctx.error(BROADCAST, y, detail=f"condition {list(c.shape)}, x {list(x.shape)} and y {list(y.shape)} "
                                                 "do not broadcast")
        if tuple(out.shape) != shape:
            raise ctx.error(BROADCAST, out, detail=f"output shape {list(out.shape)} does not match the broadcast shape "
                                                   f"{list(shape)}")

    def _params(self, ctx: OpContext) -> tuple[dict, list[ConstArray]]:
        c, x, y = ctx.inp(0), ctx.inp(1), ctx.inp(2)
        out = ctx.out(0)
        same = tuple(c.shape) == tuple(x.shape) == tuple(y.shape)
        # equal shapes (any rank) walk as one flat axis; a scalar output is one element
        shape = [int(out.num_elements)] if same or not out.shape else [int(d) for d in out.shape]
        strides = [[1] if same else ([0] if not out.shape else _strides(t.shape, out.shape)) for t in (c, x, y)]
        consts = [ConstArray(name, "int32_t", np.asarray(v, dtype=np.int64), comment)
                  for name, v, comment in (("shape", shape, "output shape"), ("cond_strides", strides[0], "condition"),
                                           ("x_strides", strides[1], "x"), ("y_strides", strides[2], "y"))]
        params = dict(condition=c.index, x=x.index, y=y.index, output=out.index, rank=len(shape), shape=shape,
                      strides=strides)
        return params, consts

    def lower(self, ctx: OpContext) -> Lowered:
        params, consts = self._params(ctx)
        return Lowered(entry=ctx.variant.entries[0], params=params, constants=consts)

    def lower_inline(self, ctx: OpContext) -> Lowered:
        params, _ = self._params(ctx)
        params["ctype"] = _CTYPES[ctx.inp(1).dtype]
        return Lowered(entry=None, fixed={"implementation": "inline"}, params=params)

    def fold(self, ctx: OpContext):
        c, x, y = (np.asarray(t.data) for t in ctx.inputs())
        return [np.where(c.astype(bool), x, y).astype(x.dtype)]

# SPDX-License-Identifier: Apache-2.0
"""MIRROR_PAD, REFLECT (the edge element is not repeated) and SYMMETRIC (it is), with constant paddings; any
rank. LiteRT reads outside the input for pads wider than the mirror (REFLECT: axis - 1, SYMMETRIC: axis), so
those are refused, as are negative pads.

int8 / int16 call arm_mirror_pad_s8 / _s16 (up to its 8 axes; inline C beyond); float32, int32, int64 and bool are inline
C."""

from __future__ import annotations

import numpy as np

from helia_aot.ops.base import Lowered, OpContext, OpLowering, Rule, both, helia_limit, litert, register
from helia_aot.ops.shared.checks import OUTPUT_SHAPE_RULE, constant_ints
from helia_aot.ops.shared.indexing import (NOT_EMPTY, NOT_SCALAR, check_not_empty, ctype, data, data_variant, entry_for,
                                           prod)
from helia_aot.ops.shared.operands import const_ints
from helia_aot.ops.shared.shapes import row_major_strides

_NOTES = ("paddings constant",)
MODE = Rule("mode REFLECT (0) or SYMMETRIC (1)", helia_limit(
    "the schema's MirrorPadMode has these two values; another is a damaged file (LiteRT reads any other as REFLECT)"))
PADDINGS_SHAPE = Rule("paddings [rank, 2]", both(
    "mirror_pad.cc Prepare (LiteRT and micro)", "NumDimensions(padding_matrix) == 2 and SizeOfDimension("
    "padding_matrix, 0) == NumDimensions(input)"))
# Measured (ai-edge-litert's mirror_pad.cc Prepare; TFLM runs wider pads without a check, reading past the input).
PAD_WIDTH = Rule("each pad in [0, axis - 1] (REFLECT) or [0, axis] (SYMMETRIC)", litert(
    "mirror_pad.cc Prepare", "\"MirrorPad paddings must be no greater than the input dimension size minus the mode "
    "offset\"", "mirrors past the axis and reads before or past the input"))
# Measured: LiteRT checks the scale and zero point of int8 and int16 (mirror_pad.cc:383-389), TFLM runs int8 under
# any (it copies codes, as helia-aot does) and has no int16 MIRROR_PAD: int16 follows LiteRT.
INT16_QUANT = Rule("int16: input and output share scale, zero points 0", litert(
    "mirror_pad.cc Prepare", "input_tensor->params.scale == output_tensor->params.scale, zero points equal and 0 for "
    "int16"))
_RULES = (MODE, PADDINGS_SHAPE, PAD_WIDTH, NOT_SCALAR, NOT_EMPTY, OUTPUT_SHAPE_RULE)
_MODES = {0: "REFLECT", 1: "SYMMETRIC"}
_ENTRY_MAX_RANK = 8


def _variant(name: str):
    entry = {"int8": "arm_mirror_pad_s8", "int16": "arm_mirror_pad_s16"}.get(name)
    return data_variant(name, (data(name), const_ints("paddings")), "mirror_pad.c.j2", entry, _NOTES,
                        _RULES + ((INT16_QUANT,) if name == "int16" else ()))


def _pads(ctx: OpContext) -> tuple[list[int], list[int], int]:
    x = ctx.inp(0)
    mode = ctx.options("mode", 0)
    mode = {"REFLECT": 0, "SYMMETRIC": 1}.get(mode, mode)
    if mode not in _MODES:
        raise ctx.error(MODE, detail=f"mode {mode} is not REFLECT (0) or SYMMETRIC (1)")
    pads = constant_ints(ctx, 1, "paddings")
    rank = len(x.shape)
    if tuple(ctx.inp(1).shape) != (rank, 2):
        raise ctx.error(PADDINGS_SHAPE, ctx.inp(1), detail=f"paddings must be [{rank}, 2] for a rank-{rank} input, has "
                                                           f"shape {list(ctx.inp(1).shape)}")
    before, after = pads[0::2], pads[1::2]
    reflect = 1 if mode == 0 else 0
    for d in range(rank):
        limit = int(x.shape[d]) - reflect
        if not (0 <= before[d] <= limit and 0 <= after[d] <= limit):
            raise ctx.error(PAD_WIDTH, ctx.inp(1), detail=f"{_MODES[mode]} paddings ({before[d]}, {after[d]}) on axis "
                                                          f"{d} of size {x.shape[d]} must be in [0, {limit}]")
    return before, after, mode


@register
class MirrorPad(OpLowering):
    op_types = ("MIRROR_PAD",)
    options_table = "MirrorPadOptions"
    variants = tuple(_variant(n) for n in ("int8", "int16", "float32", "int32", "int64", "bool"))

    def validate(self, ctx: OpContext) -> None:
        x, y = ctx.inp(0), ctx.out(0)
        if len(x.shape) < 1:
            raise ctx.error(NOT_SCALAR, x, detail="input must have at least one axis")
        before, after, _ = _pads(ctx)
        expected = tuple(int(d) + b + a for d, b, a in zip(x.shape, before, after))
        if tuple(y.shape) != expected:
            raise ctx.error(OUTPUT_SHAPE_RULE, y, detail=f"output shape {list(y.shape)} does not match the padded "
                                                         f"{list(expected)}")
        check_not_empty(ctx, x)
        if x.dtype == "int16":
            xs, xz = (float(x.quant.scale), x.quant.zero_point) if x.quant is not None else (0.0, 0)
            ys, yz = (float(y.quant.scale), y.quant.zero_point) if y.quant is not None else (0.0, 0)
            if xs != ys or xz != yz or xz != 0:
                raise ctx.error(INT16_QUANT, y, detail=f"int16 input {xs:g}/{xz} and output {ys:g}/{yz} must share "
                                                       f"scale and a zero point 0")

    def lower(self, ctx: OpContext) -> Lowered:
        x, y = ctx.inp(0), ctx.out(0)
        before, _, mode = _pads(ctx)
        entry = entry_for(ctx, "arm_mirror_pad")
        if len(x.shape) > _ENTRY_MAX_RANK:
            entry = None
        p = dict(input=x.index, output=y.index, ctype=ctype(ctx), rank=len(x.shape), mode=mode,
                 reflect=1 if mode == 0 else 0, input_shape=[int(d) for d in x.shape],
                 output_shape=[int(d) for d in y.shape], before=before, in_strides=row_major_strides(x.shape),
                 size=prod(y.shape))
        return Lowered(entry=entry, params=p, fixed={} if entry else {"implementation": "inline"})

    def fold(self, ctx: OpContext):
        before, after, mode = _pads(ctx)
        return [np.pad(np.asarray(ctx.inp(0).data), list(zip(before, after)),
                       mode="reflect" if mode == 0 else "symmetric")]

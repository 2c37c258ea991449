# SPDX-License-Identifier: Apache-2.0
"""MIRROR_PAD, REFLECT (the edge element is not repeated) and SYMMETRIC (it is), with constant paddings; any
rank. LiteRT reads outside the input for pads wider than the mirror (REFLECT: axis - 1, SYMMETRIC: axis), so
those are refused, as are negative pads.

int8 / int16 call arm_mirror_pad_s8 / _s16 (up to its 8 axes; inline C beyond); float32, int32, int64 and bool are inline
C."""

from __future__ import annotations

import numpy as np

from helia_aot.ops.base import Lowered, OpContext, OpLowering, register
from helia_aot.ops.shared.checks import constant_ints
from helia_aot.ops.shared.indexing import check_not_empty, check_same_quant, ctype, data, data_variant, entry_for, prod
from helia_aot.ops.shared.operands import const_ints
from helia_aot.ops.shared.shapes import row_major_strides

_NOTES = ("paddings constant, [rank, 2]; mode REFLECT (pad <= axis - 1) or SYMMETRIC (pad <= axis)",
          "input and output share quantization")
_MODES = {0: "REFLECT", 1: "SYMMETRIC"}
_ENTRY_MAX_RANK = 8


def _variant(name: str):
    entry = {"int8": "arm_mirror_pad_s8", "int16": "arm_mirror_pad_s16"}.get(name)
    return data_variant(name, (data(name), const_ints("paddings")), "mirror_pad.c.j2", entry,
                        _NOTES if entry else _NOTES[:1])


def _pads(ctx: OpContext) -> tuple[list[int], list[int], int]:
    x = ctx.inp(0)
    mode = ctx.options("mode", 0)
    mode = {"REFLECT": 0, "SYMMETRIC": 1}.get(mode, mode)
    if mode not in _MODES:
        raise ctx.error(f"mode {mode} is not REFLECT (0) or SYMMETRIC (1)")
    pads = constant_ints(ctx, 1, "paddings")
    rank = len(x.shape)
    if len(pads) != 2 * rank:
        raise ctx.error(f"paddings must be [{rank}, 2] for a rank-{rank} input", ctx.inp(1))
    before, after = pads[0::2], pads[1::2]
    reflect = 1 if mode == 0 else 0
    for d in range(rank):
        limit = int(x.shape[d]) - reflect
        if not (0 <= before[d] <= limit and 0 <= after[d] <= limit):
            raise ctx.error(f"{_MODES[mode]} paddings ({before[d]}, {after[d]}) on axis {d} of size {x.shape[d]} must "
                            f"be in [0, {limit}] (wider ones read outside the input)", ctx.inp(1))
    return before, after, mode


@register
class MirrorPad(OpLowering):
    op_types = ("MIRROR_PAD",)
    options_table = "MirrorPadOptions"
    variants = tuple(_variant(n) for n in ("int8", "int16", "float32", "int32", "int64", "bool"))

    def validate(self, ctx: OpContext) -> None:
        x, y = ctx.inp(0), ctx.out(0)
        if len(x.shape) < 1:
            raise ctx.error("input must have at least one axis", x)
        before, after, _ = _pads(ctx)
        expected = tuple(int(d) + b + a for d, b, a in zip(x.shape, before, after))
        if tuple(y.shape) != expected:
            raise ctx.error(f"output shape {list(y.shape)} does not match the padded {list(expected)}", y)
        check_not_empty(ctx, x)
        check_same_quant(ctx, x)

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

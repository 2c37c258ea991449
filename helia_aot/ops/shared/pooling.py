# SPDX-License-Identifier: Apache-2.0
"""What AVERAGE_POOL_2D and MAX_POOL_2D share: their rules, validation and kernel parameters."""

from __future__ import annotations

from helia_aot.ops.base import OpContext, Rule, litert
from helia_aot.ops.shared.checks import OUTPUT_SHAPE_RULE
from helia_aot.ops.shared.fused_activation import ACTIVATION_RULE, fused_activation
from helia_aot.ops.shared.shapes import nhwc
from helia_aot.ops.shared.window import WINDOW_EXTENT_RULE, check_window_extent, output_size, pad_before

RANK = Rule("input 4-D NHWC", litert("pooling.cc GenericPrepare", "TF_LITE_ENSURE_EQ(NumDimensions(input), 4)"))
# An input and output of other scales or zero points: TFLM's PoolingPrepare refuses the pool, LiteRT's pooling.cc
# runs it on the codes as they are, clamped to the output's activation range, which is what the kernels we call
# (arm_max_pool_s8 / arm_avgpool_s8 and _s16) compute (measured by tests/e2e/test_differential.py: 24 such
# cases of 80 match LiteRT). LiteRT is the reference that runs it, so there is no rule.
WINDOW = Rule("the padding a SAME window computes fits int16", litert(
    "pooling.cc GenericPrepare", "refuses a leading padding over 32767 in either dimension (measured with the pinned "
    "ai-edge-litert: a 65537-wide SAME window over 6 columns runs at stride 2, padding 32767, and is refused at "
    "stride 1, padding 32768)", "keeps the padding in int16 (PoolParams), where 32768 wraps to -32768, and "
    "misplaces the window"))
POOL_RULES = (RANK, WINDOW, WINDOW_EXTENT_RULE, ACTIVATION_RULE, OUTPUT_SHAPE_RULE)
MAX_PADDING = (1 << 15) - 1


def pool_validate(ctx: OpContext) -> None:
    x, y = ctx.inp(0), ctx.out(0)
    if len(x.shape) != 4:
        raise ctx.error(RANK, x, detail=f"input must be 4-D NHWC, got {list(x.shape)}")
    fused_activation(ctx, y)
    pad = ctx.options("padding", "VALID")
    out_hw = []
    for axis, size in (("height", int(x.shape[1])), ("width", int(x.shape[2]))):
        window, stride = int(ctx.options(f"filter_{axis}", 1)), int(ctx.options(f"stride_{axis[0]}", 1))
        out = output_size(pad, size, window, stride)
        before = pad_before(pad, size, window, stride, 1, out)
        if before > MAX_PADDING:
            raise ctx.error(WINDOW, x, detail=f"a {window}-wide window at stride {stride} pads {before} {axis} "
                                              f"elements before the input, over the {MAX_PADDING} LiteRT accepts")
        check_window_extent(ctx, out, window, stride)
        out_hw.append(out)
    oh, ow = out_hw
    if tuple(y.shape) != (x.shape[0], oh, ow, x.shape[3]):
        raise ctx.error(OUTPUT_SHAPE_RULE, y, detail=f"output shape {list(y.shape)} does not match the computed "
                                                     f"{[x.shape[0], oh, ow, x.shape[3]]}")


def pool_params(ctx: OpContext) -> dict:
    x, y = ctx.inp(0), ctx.out(0)
    in_dims, out_dims = nhwc(x.shape), nhwc(y.shape)
    fh, fw = int(ctx.options("filter_height", 1)), int(ctx.options("filter_width", 1))
    sh, sw = int(ctx.options("stride_h", 1)), int(ctx.options("stride_w", 1))
    pad = ctx.options("padding", "VALID")
    act_min, act_max = fused_activation(ctx, y)
    return dict(
        input=x.index, output=y.index, input_dims=in_dims, output_dims=out_dims,
        filter_dims=(1, fh, fw, 1), stride=(sw, sh),
        padding=(pad_before(pad, in_dims[2], fw, sw, 1, out_dims[2]), pad_before(pad, in_dims[1], fh, sh, 1, out_dims[1])),
        act_min=act_min, act_max=act_max,
    )

# SPDX-License-Identifier: Apache-2.0
"""What AVERAGE_POOL_2D and MAX_POOL_2D share: their rules, validation and kernel parameters."""

from __future__ import annotations

from helia_aot.ops.base import OpContext, Rule, litert, tflm
from helia_aot.ops.shared.checks import OUTPUT_SHAPE_RULE, require_same_quant
from helia_aot.ops.shared.fused_activation import ACTIVATION_RULE, fused_activation
from helia_aot.ops.shared.operands import is_float
from helia_aot.ops.shared.shapes import nhwc
from helia_aot.ops.shared.window import WINDOW_EXTENT_RULE, check_window_extent, output_size, pad_before

RANK = Rule("input 4-D NHWC", litert("pooling.cc GenericPrepare", "TF_LITE_ENSURE_EQ(NumDimensions(input), 4)"))
# TFLM refuses a requantizing pool, LiteRT runs it (both measured by tests/e2e/test_differential.py); the kernels
# we call (arm_max_pool_s8 / arm_avgpool_s8 and _s16) move or average codes without requantizing, as TFLM's.
SAME_QUANT = Rule("input and output share scale and zero point", tflm(
    "pooling_common.cc / pooling.cc PoolingPrepare", "TF_LITE_ENSURE(scale_diff <= 1.0e-6) and equal zero points "
    "(LiteRT's pooling.cc runs a requantizing pool)"))
WINDOW = Rule(f"filter height and width at most {1 << 16}", litert(
    "pooling.cc GenericPrepare", "refuses a window over 2^16 in either dimension (measured with the pinned "
    "ai-edge-litert; TFLM keeps the padding in int16 and misplaces such a window)"))
POOL_RULES = (RANK, SAME_QUANT, WINDOW, WINDOW_EXTENT_RULE, ACTIVATION_RULE, OUTPUT_SHAPE_RULE)
FLOAT_POOL_RULES = (RANK, WINDOW, WINDOW_EXTENT_RULE, ACTIVATION_RULE, OUTPUT_SHAPE_RULE)
# LiteRT's Prepare refuses a window over 2^16 in either dimension (measured with the pinned ai-edge-litert);
# TFLM keeps the padding in int16 and so misplaces such a window.
MAX_WINDOW = 1 << 16


def pool_validate(ctx: OpContext) -> None:
    x, y = ctx.inp(0), ctx.out(0)
    if len(x.shape) != 4:
        raise ctx.error(RANK, x, detail=f"input must be 4-D NHWC, got {list(x.shape)}")
    if not is_float(x):
        require_same_quant(ctx, x, y, f"{ctx.variant.name} pooling", SAME_QUANT)
    fused_activation(ctx, y)
    for option in ("filter_height", "filter_width"):
        size = int(ctx.options(option, 1))
        if size > MAX_WINDOW:
            raise ctx.error(WINDOW, x, detail=f"{option} {size} is over {MAX_WINDOW}, the largest pooling window "
                                              "LiteRT accepts")
    pad = ctx.options("padding", "VALID")
    oh = output_size(pad, x.shape[1], ctx.options("filter_height", 1), ctx.options("stride_h", 1))
    ow = output_size(pad, x.shape[2], ctx.options("filter_width", 1), ctx.options("stride_w", 1))
    check_window_extent(ctx, oh, ctx.options("filter_height", 1), ctx.options("stride_h", 1))
    check_window_extent(ctx, ow, ctx.options("filter_width", 1), ctx.options("stride_w", 1))
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

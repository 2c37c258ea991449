# SPDX-License-Identifier: Apache-2.0
"""Window geometry of the convolutions and pools: output sizes, TFLite's padding, strides and dilations
from the options, and the bound the kernels' int32 index arithmetic sets."""

from __future__ import annotations

from helia_aot.ir.graph import Tensor
from helia_aot.library.ns_cmsis_nn_scratch import ConvGeometry
from helia_aot.ops.base import OpContext, Rule, helia_limit, litert


def output_size(padding: str, in_size: int, filter_size: int, stride: int, dilation: int = 1) -> int:
    eff = (filter_size - 1) * dilation + 1
    if padding == "SAME":
        return (in_size + stride - 1) // stride
    return (in_size - eff + stride) // stride


def pad_before(padding: str, in_size: int, filter_size: int, stride: int, dilation: int, out_size: int) -> int:
    """TFLite's ComputePaddingWithOffset: the smaller half goes before; the kernels take it."""
    if padding != "SAME":
        return 0
    eff = (filter_size - 1) * dilation + 1
    total = max((out_size - 1) * stride + eff - in_size, 0)
    return total // 2


def geometry(ctx: OpContext, in_hw, filter_hw, out_hw) -> ConvGeometry:
    sh, sw = int(ctx.options("stride_h", 1)), int(ctx.options("stride_w", 1))
    dh, dw = int(ctx.options("dilation_h_factor", 1)), int(ctx.options("dilation_w_factor", 1))
    padding = ctx.options("padding", "VALID")
    ph = pad_before(padding, in_hw[0], filter_hw[0], sh, dh, out_hw[0])
    pw = pad_before(padding, in_hw[1], filter_hw[1], sw, dw, out_hw[1])
    return ConvGeometry(stride_w=sw, stride_h=sh, pad_w=pw, pad_h=ph, dilation_w=dw, dilation_h=dh)


FILTER_RANK_RULE = Rule("filter 4-D", litert("transpose_conv.cc Prepare (as conv.cc)",
                                             "TF_LITE_ENSURE_EQ(NumDimensions(weights), 4)"))


def check_filter_rank(ctx: OpContext, w: Tensor) -> None:
    if len(w.shape) != 4:
        raise ctx.error(FILTER_RANK_RULE, w, detail="filter must be 4-D")


WINDOW_EXTENT_RULE = Rule("the window's last input position fits int32 (stride x outputs + dilation x taps)",
                          helia_limit("the kernels index the input in int32 arithmetic; no exporter writes such "
                                      "strides"))


def check_window_extent(ctx: OpContext, out_size: int, filter_size: int, stride: int, dilation: int = 1) -> None:
    """The kernels index the input at out * stride + tap * dilation in int32 arithmetic."""
    extent = (max(out_size, 1) - 1) * stride + (filter_size - 1) * dilation
    if extent > (1 << 31) - 1:
        raise ctx.error(WINDOW_EXTENT_RULE, detail=f"the window reaches input position {extent} (stride {stride}, "
                                                   f"dilation {dilation}, filter {filter_size}), past the kernels' "
                                                   "int32 index arithmetic",
                        hint="Check the operator's strides and dilations (no exporter writes these)")


def windowed_output_shape(ctx: OpContext, x: Tensor, w: Tensor, out_channels: int) -> tuple:
    """NHWC output shape of a convolution-like window (padding, strides, dilations from options)."""
    pad = ctx.options("padding", "VALID")
    sizes = []
    for axis, name in ((1, "h"), (2, "w")):
        stride, dilation = ctx.options(f"stride_{name}", 1), ctx.options(f"dilation_{name}_factor", 1)
        sizes.append(output_size(pad, x.shape[axis], w.shape[axis], stride, dilation))
        check_window_extent(ctx, sizes[-1], w.shape[axis], stride, dilation)
    return (x.shape[0], sizes[0], sizes[1], out_channels)

# SPDX-License-Identifier: Apache-2.0
"""What BATCH_TO_SPACE_ND, SPACE_TO_BATCH_ND, DEPTH_TO_SPACE, SPACE_TO_DEPTH, RESIZE_NEAREST_NEIGHBOR,
RESIZE_BILINEAR and DILATE share: their constant shape inputs, read and checked as LiteRT's Prepare
does, the 4-D (NHWC) form of 3-D inputs, and NumPy forms of the moves (constant folding). No operator
registers here."""

from __future__ import annotations

import numpy as np

from helia_aot.ir.graph import Tensor
from helia_aot.ops.base import OpContext, Operand, Rule, both, litert
from helia_aot.ops.shared.checks import OUTPUT_SHAPE_RULE, constant_ints

INT32 = ("int32",)

# The *_ND operators' rules (LiteRT's batch_to_space_nd.cc and space_to_batch_nd.cc, which check the same things;
# TFLM's kernels check the rank and types only and compute with the model's shapes).
ND_RANK = Rule("input rank 3 or 4", both(
    "batch_to_space_nd.cc / space_to_batch_nd.cc Prepare (LiteRT and micro)",
    "kInputMinDimensionNum (3) <= NumDimensions(input) <= kInputMaxDimensionNum (4)"))
ND_SHAPES = Rule("block_shape [rank - 2], crops / paddings [rank - 2, 2]", litert(
    "batch_to_space_nd.cc / space_to_batch_nd.cc ResizeOutputTensor",
    "NumDimensions(block_shape) == 1, block_shape and crops / paddings sized by the spatial dims"))
ND_VALUES = Rule("block_shape >= 1, crops / paddings >= 0", litert(
    "batch_to_space_nd.cc / space_to_batch_nd.cc ResizeOutputTensor",
    "TF_LITE_ENSURE(block_shape[dim] >= 1) and non-negative crops / paddings"))
ND_SAME_QUANT = Rule("int8 / int16: input and output share scale and zero point", litert(
    "batch_to_space_nd.cc / space_to_batch_nd.cc Prepare",
    "TF_LITE_ENSURE_EQ of input and output params.scale and params.zero_point for int8 and int16",
    "copies the codes and disregards the output's scale and zero point"))
ND_INT16_ZERO_POINT = Rule("int16: zero points 0", litert(
    "batch_to_space_nd.cc / space_to_batch_nd.cc Prepare",
    "TF_LITE_ENSURE_EQ(input / output params.zero_point, 0) for int16"))
INPUT_4D = Rule("input 4-D NHWC", both(
    "depth_to_space.cc, space_to_depth.cc, resize_bilinear.cc, resize_nearest_neighbor.cc Prepare (LiteRT and micro)",
    "TF_LITE_ENSURE_EQ(NumDimensions(input), 4)"))
RESIZE_SIZE = Rule("size int32 [2], both positive", both(
    "resize_bilinear.cc / resize_nearest_neighbor.cc Prepare (LiteRT and micro)",
    "NumDimensions(size) == 1 with 2 elements; a size below 1 gives no output (LiteRT's ResizeOutputTensor)"))


def const_int32(role: str) -> Operand:
    """A constant int32 operand: LiteRT reads block shapes, crops, paddings, sizes and dilations as int32."""
    return Operand(role, INT32, constant=True)


def nhwc_of(shape) -> tuple[int, int, int, int]:
    """A 3-D (N, H, C) or 4-D (N, H, W, C) shape as 4-D: LiteRT's *_ND kernels treat 3-D as W = 1."""
    dims = [int(d) for d in shape]
    if len(dims) == 3:
        dims = [dims[0], dims[1], 1, dims[2]]
    return tuple(dims)  # type: ignore[return-value]


def block_and_pairs(ctx: OpContext, pairs_role: str) -> tuple[tuple[int, int], tuple[int, int, int, int]]:
    """block_shape (input 1) and crops / paddings (input 2) of a *_ND operator as (block h, block w) and
    (top, left, bottom, right); a 3-D input has block width 1 and no left / right."""
    x = ctx.inp(0)
    rank = len(x.shape)
    if rank not in (3, 4):
        raise ctx.error(ND_RANK, x, detail=f"input must be 3-D (N, H, C) or 4-D (N, H, W, C), got rank {rank}")
    spatial = rank - 2
    block_t, pairs_t = ctx.inp(1), ctx.inp(2)
    block = constant_ints(ctx, 1, "block_shape")
    pairs = constant_ints(ctx, 2, pairs_role)
    if tuple(block_t.shape) != (spatial,) or len(block) != spatial:
        raise ctx.error(ND_SHAPES, block_t, detail=f"block_shape must be 1-D with {spatial} values for a rank-{rank} "
                                                   f"input, has shape {list(block_t.shape)}")
    if tuple(pairs_t.shape) != (spatial, 2) or len(pairs) != 2 * spatial:
        raise ctx.error(ND_SHAPES, pairs_t, detail=f"{pairs_role} must be [{spatial}, 2] for a rank-{rank} input, has "
                                                   f"shape {list(pairs_t.shape)}")
    if any(b < 1 for b in block):
        raise ctx.error(ND_VALUES, block_t, detail=f"block_shape {block} must be at least 1 in every dimension")
    if any(p < 0 for p in pairs):
        raise ctx.error(ND_VALUES, pairs_t, detail=f"{pairs_role} {pairs} must not be negative")
    if spatial == 1:
        return (block[0], 1), (pairs[0], 0, pairs[1], 0)
    return (block[0], block[1]), (pairs[0], pairs[2], pairs[1], pairs[3])


def check_shape(ctx: OpContext, y: Tensor, expected, empty: Rule) -> None:
    """`empty`: the operator's rule refusing an output with an empty dimension."""
    expected = [int(d) for d in expected]
    if any(d < 1 for d in expected):
        raise ctx.error(empty, y, detail=f"the output shape {expected} has an empty dimension")
    if [int(d) for d in y.shape] != expected:
        raise ctx.error(OUTPUT_SHAPE_RULE, y, detail=f"output shape {list(y.shape)} does not match the computed "
                                                     f"{expected}")


def require_4d(ctx: OpContext) -> tuple[int, int, int, int]:
    x = ctx.inp(0)
    if len(x.shape) != 4:
        raise ctx.error(INPUT_4D, x, detail=f"input must be 4-D (N, H, W, C), got rank {len(x.shape)}")
    return tuple(int(d) for d in x.shape)  # type: ignore[return-value]


def resize_size(ctx: OpContext) -> tuple[int, int]:
    """RESIZE_*'s size input (1): constant int32 [2], both positive."""
    t = ctx.inp(1)
    size = constant_ints(ctx, 1, "size")
    if tuple(t.shape) != (2,):
        raise ctx.error(RESIZE_SIZE, t, detail=f"size must be 1-D with 2 values (height, width), has shape "
                                               f"{list(t.shape)}")
    if size[0] < 1 or size[1] < 1:
        raise ctx.error(RESIZE_SIZE, t, detail=f"size {size} must be positive")
    return size[0], size[1]


def check_nd_quantization(ctx: OpContext) -> None:
    """BATCH_TO_SPACE_ND / SPACE_TO_BATCH_ND int8 and int16: LiteRT's shared-quantization and int16 zero-point
    checks (an absent quantization reads as scale 0, zero point 0 there, as here)."""
    x, y = ctx.inp(0), ctx.out(0)
    if x.dtype not in ("int8", "int16"):
        return
    xs, xz = (float(x.quant.scale), int(x.quant.zero_point)) if x.quant is not None else (0.0, 0)
    ys, yz = (float(y.quant.scale), int(y.quant.zero_point)) if y.quant is not None else (0.0, 0)
    if xs != ys or xz != yz:
        raise ctx.error(ND_SAME_QUANT, y, detail=f"{x.dtype} {ctx.op.op_type}: input and output must share scale and "
                                                 f"zero point (input {xs:g}/{xz}, output {ys:g}/{yz})")
    if x.dtype == "int16" and xz != 0:
        raise ctx.error(ND_INT16_ZERO_POINT, x, detail=f"int16 zero point {xz} must be 0")


# ---- NumPy forms (constant folding), TensorFlow's reshape / transpose definitions ----

def batch_to_space(x: np.ndarray, block, crop) -> np.ndarray:
    bh, bw = block
    top, left, bottom, right = crop
    n, h, w, c = x.shape
    y = x.reshape(bh, bw, n // (bh * bw), h, w, c).transpose(2, 3, 0, 4, 1, 5).reshape(n // (bh * bw), h * bh,
                                                                                       w * bw, c)
    return y[:, top:h * bh - bottom, left:w * bw - right, :]


def space_to_batch(x: np.ndarray, block, pad, value) -> np.ndarray:
    bh, bw = block
    top, left, bottom, right = pad
    x = np.pad(x, [(0, 0), (top, bottom), (left, right), (0, 0)], constant_values=value)
    n, h, w, c = x.shape
    return x.reshape(n, h // bh, bh, w // bw, bw, c).transpose(2, 4, 0, 1, 3, 5).reshape(bh * bw * n, h // bh,
                                                                                         w // bw, c)


def nearest_indices(in_size: int, out_size: int, align_corners: bool, half_pixel_centers: bool) -> list[int]:
    """TFLite's GetNearestNeighbor for every output index, in float32 as it computes: (index + offset) *
    scale, floored, or rounded half away from zero with align_corners; at most in_size - 1 (at least 0
    with half-pixel centres). The scaled value is never negative."""
    f32 = np.float32
    if align_corners and out_size > 1:
        scale = f32(in_size - 1) / f32(out_size - 1)
    else:
        scale = f32(in_size) / f32(out_size)
    offset = f32(0.5) if half_pixel_centers else f32(0.0)
    result = []
    for i in range(out_size):
        scaled = float((f32(i) + offset) * scale)
        value = int(np.floor(scaled))
        if align_corners and scaled - value >= 0.5:
            value += 1
        value = min(value, in_size - 1)
        result.append(max(value, 0) if half_pixel_centers else value)
    return result


def c_div(a: int, b: int) -> int:
    """C's integer division (truncates toward zero)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def bilinear_axis_int(in_size: int, out_size: int, align_corners: bool, half_pixel_centers: bool):
    """LiteRT's integer RESIZE_BILINEAR sampling along one axis (ComputeInterpolationValuesInteger): the
    scale in 10 fractional bits, rounded; per output index (lower, upper, position - 1024 * lower)."""
    if align_corners and out_size > 1:
        scale = c_div(1024 * (in_size - 1) + (out_size - 1) // 2, out_size - 1)
    else:
        scale = c_div(1024 * in_size + out_size // 2, out_size)
    result = []
    for i in range(out_size):
        scaled = i * scale + c_div(scale, 2) - 512 if half_pixel_centers else i * scale
        lower = max(c_div(scaled, 1024), 0)
        upper = min(c_div(scaled + 1023, 1024), in_size - 1)
        result.append((lower, upper, scaled - 1024 * lower))
    return scale, result


def bilinear_axis_float(in_size: int, out_size: int, align_corners: bool, half_pixel_centers: bool):
    """LiteRT's float RESIZE_BILINEAR sampling along one axis, in float32 as it computes: per output index
    (lower, upper, 1 - (position - lower), position - lower)."""
    f32 = np.float32
    if align_corners and out_size > 1:
        scale = f32(in_size - 1) / f32(out_size - 1)
    else:
        scale = f32(in_size) / f32(out_size)
    result = []
    for i in range(out_size):
        scaled = (f32(i) + f32(0.5)) * scale - f32(0.5) if half_pixel_centers else f32(i) * scale
        lower = max(int(np.floor(scaled)), 0)
        upper = min(int(np.ceil(scaled)), in_size - 1)
        frac = f32(scaled - f32(lower))
        result.append((lower, upper, f32(f32(1.0) - frac), frac))
    return result

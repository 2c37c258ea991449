# SPDX-License-Identifier: Apache-2.0
"""RESIZE_BILINEAR, int8, int16 and float32, 4-D NHWC, align_corners or half_pixel_centers: inline C (no
ns-cmsis-nn entry) computing what LiteRT's reference kernels compute. int8 / int16: ResizeBilinearInteger,
source positions in 10 fractional bits, the four codes weighted in int64 and divided by 2^20 rounding
half away from zero; codes are interpolated whatever the output's quantization says, as LiteRT does.
float32: ResizeBilinear's float expression, term by term in its order. Sampling positions and weights
are computed at conversion (they depend on the sizes only) with LiteRT's arithmetic. The size input
must be constant (the output shape depends on it)."""

from __future__ import annotations

import numpy as np

from helia_aot.emit.c_syntax import c_type
from helia_aot.ops.base import ConstArray, Lowered, OpContext, OpLowering, Rule, Variant, both, helia_limit, register
from helia_aot.ops.shared.checks import OUTPUT_SHAPE_RULE
from helia_aot.ops.shared.indexing import NOT_EMPTY
from helia_aot.ops.shared.operands import fp32
from helia_aot.ops.shared.shaping import data
from helia_aot.ops.shared.spatial import (INPUT_4D, RESIZE_SIZE, bilinear_axis_float, bilinear_axis_int, check_shape,
                                          const_int32, require_4d, resize_size)

FLAGS = Rule("not both align_corners and half_pixel_centers", both(
    "resize_bilinear.cc Prepare (LiteRT and micro)", "\"If half_pixel_centers is True, align_corners must be False.\""))
IN_BOUNDS = Rule("no sampling position past the input, no int32 overflow of the 10-bit positions", helia_limit(
    "LiteRT's integer kernel (ResizeBilinearInteger) rounds its scale to 10 bits, which for some sizes puts the last "
    "sample past the input; it reads outside the tensor there, helia-aot refuses rather than copy that",
    "clamping the sample as TensorFlow's float kernel does (a result LiteRT does not compute)"))
_RULES = (INPUT_4D, RESIZE_SIZE, FLAGS, NOT_EMPTY, OUTPUT_SHAPE_RULE)
_INT_RULES = _RULES + (IN_BOUNDS,)
INT32_MAX = (1 << 31) - 1


@register
class ResizeBilinear(OpLowering):
    op_types = ("RESIZE_BILINEAR",)
    options_table = "ResizeBilinearOptions"
    variants = (
        Variant("int8", inputs=(data("int8"), const_int32("size")), outputs=(data("int8", "output"),),
                template="resize_bilinear.c.j2", rules=_INT_RULES),
        Variant("int16", inputs=(data("int16"), const_int32("size")), outputs=(data("int16", "output"),),
                template="resize_bilinear.c.j2", rules=_INT_RULES),
        Variant("float32", inputs=(fp32(), const_int32("size")), outputs=(fp32("output"),),
                template="resize_bilinear_f32.c.j2", lower="lower_float32", rules=_RULES + (IN_BOUNDS,)),
    )

    def _geometry(self, ctx: OpContext):
        n, h, w, c = require_4d(ctx)
        out_h, out_w = resize_size(ctx)
        align, half = bool(ctx.options("align_corners", False)), bool(ctx.options("half_pixel_centers", False))
        if align and half:
            raise ctx.error(FLAGS, detail="align_corners and half_pixel_centers are both set; LiteRT takes at most one")
        return (n, h, w, c), (n, out_h, out_w, c), align, half

    def _int_axes(self, ctx: OpContext):
        (_, h, w, _), (_, out_h, out_w, _), align, half = self._geometry(ctx)
        axes = []
        for name, in_size, out_size in (("height", h, out_h), ("width", w, out_w)):
            scale, samples = bilinear_axis_int(in_size, out_size, align, half)
            if out_size * scale > INT32_MAX:
                raise ctx.error(IN_BOUNDS, ctx.inp(1), detail=f"output {name} {out_size} times the 10-bit scale {scale} "
                                                              f"overflows LiteRT's int32 position arithmetic")
            if max(s[0] for s in samples) > in_size - 1:
                raise ctx.error(IN_BOUNDS, ctx.inp(1), detail=f"resizing {name} {in_size} to {out_size}: LiteRT's 10-bit "
                                                              f"scale {scale} puts the last sample past the input (its "
                                                              f"kernel reads outside the tensor)")
            axes.append(samples)
        return axes

    def validate(self, ctx: OpContext) -> None:
        check_shape(ctx, ctx.out(0), self._geometry(ctx)[1], NOT_EMPTY)
        if ctx.inp(0).dtype != "float32":
            self._int_axes(ctx)

    def lower(self, ctx: OpContext) -> Lowered:
        """int8 / int16: per output row and column the two source offsets and the 10-bit fraction."""
        x, y = ctx.inp(0), ctx.out(0)
        (n, h, w, c), out_dims, _, _ = self._geometry(ctx)
        rows, cols = self._int_axes(ctx)
        row_table = np.asarray([[lo * w * c, hi * w * c, frac] for lo, hi, frac in rows], dtype=np.int64)
        col_table = np.asarray([[lo * c, hi * c, frac] for lo, hi, frac in cols], dtype=np.int64)
        return Lowered(entry=None, fixed={"implementation": "inline"},
                       macs=4 * int(np.prod(out_dims)),
                       constants=[ConstArray("rows", "int32_t", row_table.reshape(-1),
                                             "per output row: upper and lower source row offsets, 10-bit fraction"),
                                  ConstArray("cols", "int32_t", col_table.reshape(-1),
                                             "per output column: left and right source offsets, 10-bit fraction")],
                       params=dict(input=x.index, output=y.index, input_dims=(n, h, w, c), output_dims=out_dims,
                                   ctype=c_type(y.dtype)))

    def lower_float32(self, ctx: OpContext) -> Lowered:
        """float32: per output row and column the two source offsets and LiteRT's two float weights."""
        x, y = ctx.inp(0), ctx.out(0)
        (n, h, w, c), out_dims, align, half = self._geometry(ctx)
        rows = bilinear_axis_float(h, out_dims[1], align, half)
        cols = bilinear_axis_float(w, out_dims[2], align, half)
        if max(r[0] for r in rows) > h - 1 or max(r[0] for r in cols) > w - 1:
            raise ctx.error(IN_BOUNDS, ctx.inp(1), detail="a sampling position falls past the input")
        return Lowered(entry=None, fixed={"implementation": "inline"},
                       macs=4 * int(np.prod(out_dims)),
                       constants=[
                           ConstArray("row_offsets", "int32_t",
                                      np.asarray([[lo * w * c, hi * w * c] for lo, hi, _, _ in rows]).reshape(-1),
                                      "per output row: upper and lower source row offsets"),
                           ConstArray("row_weights", "float",
                                      np.asarray([[a, b] for _, _, a, b in rows], dtype=np.float32).reshape(-1),
                                      "per output row: 1 - (y - y0), y - y0"),
                           ConstArray("col_offsets", "int32_t",
                                      np.asarray([[lo * c, hi * c] for lo, hi, _, _ in cols]).reshape(-1),
                                      "per output column: left and right source offsets"),
                           ConstArray("col_weights", "float",
                                      np.asarray([[a, b] for _, _, a, b in cols], dtype=np.float32).reshape(-1),
                                      "per output column: 1 - (x - x0), x - x0")],
                       params=dict(input=x.index, output=y.index, input_dims=(n, h, w, c), output_dims=out_dims,
                                   ctype=c_type(y.dtype)))

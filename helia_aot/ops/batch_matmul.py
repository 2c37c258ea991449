# SPDX-License-Identifier: Apache-2.0
"""BATCH_MATMUL: out[..., i, j] = sum_k lhs[..., i, k] x rhs[..., k, j] (adj_x / adj_y read the operand
transposed), batch dimensions broadcast (NumPy rules), ranks 2 to 5 as LiteRT.

int8 on arm_batch_matmul_s8 and int16 on arm_batch_matmul_s16: LiteRT's arithmetic (int32 / int64 sums of
offset products, one requantization per output with input scale x rhs scale / output scale formed in
float32; the int16 path reduces the multiplier to 16 bits, as both do). The entries take the LHS as rows x
inner and the RHS transposed (columns x inner) with at most two batch axes (n, h): batch dimensions are
merged, a constant RHS is transposed at conversion, a run-time one (adj_y false) and an adj_x LHS are
transposed into scratch by inline C before the call. LiteRT's int16 x int8 form (constant int8 RHS) is
widened to int16 at conversion. Broadcasts needing three merged batch axes are refused for the integer
variants. float32 is inline C with LiteRT's summation order (k ascending, float accumulator)."""

from __future__ import annotations

import numpy as np

from helia_aot.ir.quant import f32, quantize_multiplier
from helia_aot.ops.base import (ConstArray, Lowered, OpContext, OpLowering, Operand, Rule, Variant, both, helia_limit,
                                kernel_limit, litert, register)
from helia_aot.ops.shared.accumulator import S64_SHIFT_RULE
from helia_aot.ops.shared.broadcast import broadcast_groups, broadcast_shape
from helia_aot.ops.shared.checks import OUTPUT_SHAPE_RULE
from helia_aot.ops.shared.operands import fp32, int8_act, int16_act

_RULES = ("ranks 2 to 5; batch dimensions broadcast; inner dimensions agree (after adj_x / adj_y)",)
_INT_RULES = _RULES + ("at most two merged batch dimensions", "no fused activation (LiteRT has none)")
_CTYPE = {"int8": "int8_t", "int16": "int16_t", "float32": "float"}

RANK = Rule("lhs and rhs rank 2 to 5", both("batch_matmul.cc Prepare / micro batch_matmul.cc BatchMatMulPrepare",
                                            "TF_LITE_ENSURE(rank >= 2) and TF_LITE_ENSURE(rank <= 5) for each input"))
BROADCAST = Rule("batch dimensions broadcast (equal, or 1 on one side)", both(
    "batch_matmul.cc Prepare / micro batch_matmul.cc BatchMatMulPrepare",
    "for differing batch dimensions, TF_LITE_ENSURE_EQ(rhs_dim, 1) where the lhs's is not 1"))
INNER = Rule("inner dimensions agree (after adj_x / adj_y)", both(
    "batch_matmul.cc Prepare / micro batch_matmul.cc BatchMatMulPrepare", "TF_LITE_ENSURE_EQ(accum_dim_lhs, "
    "accum_dim_rhs)"))
TWO_BATCH_AXES = Rule("at most two merged batch dimensions (after merging neighbours that broadcast alike)",
                      kernel_limit("arm_batch_matmul_s8 / arm_batch_matmul_s16", "take the batch as two dimensions "
                                   "(n, h) of their dims structs", "an inline-C loop over a third batch axis calling "
                                   "the entry once per slice"))
# LiteRT's 16x8 form: TFLM and LiteRT read an int16 RHS's and int8 RHS's zero point as 0 in the int16 path.
INT16_RHS_ZERO_POINT = litert("batch_matmul.cc Prepare", "for an int16 lhs, TF_LITE_ENSURE_EQ(rhs zero point, 0)")
WIDENED_RHS = helia_limit("the int8 RHS is widened to int16 at conversion (arm_batch_matmul_s16 reads int16)",
                          "inline C widening a run-time int8 RHS into scratch before the call")
_FLOAT_RULES = (RANK, BROADCAST, INNER, OUTPUT_SHAPE_RULE)
_INT8_RULES = _FLOAT_RULES + (TWO_BATCH_AXES,)
_INT16_RULES = _INT8_RULES + (S64_SHIFT_RULE,)


def _mve_sums(build: str, rhs_dims) -> int:
    """arm_batch_matmul_s8_get_buffer_size: one int32 kernel sum per RHS row on the Helium build."""
    return int(rhs_dims[2]) * 4 if build == "mve" else 0


def _align4(n: int) -> int:
    return (n + 3) // 4 * 4


class _Geometry:
    """The operands' logical matrices and merged batch axes."""

    def __init__(self, ctx: OpContext):
        lhs, rhs = ctx.inp(0), ctx.inp(1)
        self.adj_x = bool(ctx.options("adj_x", False))
        self.adj_y = bool(ctx.options("adj_y", False))
        ls, rs = [int(d) for d in lhs.shape], [int(d) for d in rhs.shape]
        self.lhs_shape, self.rhs_shape = ls, rs
        self.rows, self.inner = (ls[-1], ls[-2]) if self.adj_x else (ls[-2], ls[-1])
        self.inner_rhs, self.cols = (rs[-1], rs[-2]) if self.adj_y else (rs[-2], rs[-1])
        self.lhs_batch, self.rhs_batch = ls[:-2], rs[:-2]
        self.batch = broadcast_shape(self.lhs_batch, self.rhs_batch)
        self.groups = broadcast_groups(self.lhs_batch, self.rhs_batch) if self.batch is not None else []
        self.lhs_matrices = int(np.prod(self.lhs_batch)) if self.lhs_batch else 1
        self.rhs_matrices = int(np.prod(self.rhs_batch)) if self.rhs_batch else 1


@register
class BatchMatMul(OpLowering):
    op_types = ("BATCH_MATMUL",)
    options_table = "BatchMatMulOptions"
    variants = (
        Variant("int8", inputs=(int8_act("lhs"), int8_act("rhs")), outputs=(int8_act("output"),),
                entries=("arm_batch_matmul_s8",), template="batch_matmul.c.j2", notes=_INT_RULES,
                rules=_INT8_RULES),
        Variant("int16", inputs=(int16_act("lhs"), int16_act("rhs")), outputs=(int16_act("output"),),
                entries=("arm_batch_matmul_s16",), template="batch_matmul.c.j2", notes=_INT_RULES,
                rules=_INT16_RULES),
        Variant("a16w8", inputs=(int16_act("lhs"), Operand("rhs", ("int8",), constant=True, quantized=True,
                                                            symmetric=True,
                                                            sources=(("constant", WIDENED_RHS),
                                                                     ("zero point 0", INT16_RHS_ZERO_POINT)))),
                outputs=(int16_act("output"),), entries=("arm_batch_matmul_s16",), template="batch_matmul.c.j2",
                notes=_INT_RULES + ("int8 RHS (LiteRT's 16x8 form) stored widened to int16",), rules=_INT16_RULES),
        Variant("float32", inputs=(fp32("lhs"), fp32("rhs")), outputs=(fp32("output"),),
                template="batch_matmul_f32.c.j2", lower="lower_float32", notes=_RULES + ("inline C",),
                rules=_FLOAT_RULES),
    )

    def validate(self, ctx: OpContext) -> None:
        lhs, rhs, y = ctx.inp(0), ctx.inp(1), ctx.out(0)
        for t, role in ((lhs, "lhs"), (rhs, "rhs")):
            if not 2 <= len(t.shape) <= 5:
                raise ctx.error(RANK, t, detail=f"{role} must have rank 2 to 5, has rank {len(t.shape)}")
        g = _Geometry(ctx)
        if g.batch is None:
            raise ctx.error(BROADCAST, rhs, detail=f"batch dimensions {g.lhs_batch} and {g.rhs_batch} do not broadcast")
        if g.inner != g.inner_rhs:
            raise ctx.error(INNER, rhs, detail=f"inner dimensions differ: lhs {g.inner} (adj_x {g.adj_x}), rhs "
                                               f"{g.inner_rhs} (adj_y {g.adj_y})")
        want = tuple(g.batch) + (g.rows, g.cols)
        if tuple(y.shape) != want:
            raise ctx.error(OUTPUT_SHAPE_RULE, y, detail=f"output shape {list(y.shape)} does not match the product's "
                                                         f"{list(want)}")
        if ctx.variant.name == "float32":
            return
        if len(g.groups) > 2:
            raise ctx.error(TWO_BATCH_AXES, y, detail=f"batch broadcast of {g.lhs_batch} with {g.rhs_batch} needs "
                                                      "three merged batch dimensions; the integer kernels take at most two")
        _, shift = self._multiplier(ctx)
        if ctx.variant.name != "int8" and shift > 14:
            raise ctx.error(S64_SHIFT_RULE, y, detail=f"the requantization multiplier needs a left shift of {shift}; the "
                                                      "int16 kernel takes at most 14 (input scale x rhs scale / output "
                                                      "scale below 2^14)")

    @staticmethod
    def _multiplier(ctx: OpContext) -> tuple[int, int]:
        """GetQuantizedConvolutionMultipler: the scale product in float32, divided in double."""
        lhs, rhs, y = ctx.inp(0), ctx.inp(1), ctx.out(0)
        return quantize_multiplier(f32(f32(lhs.quant.scale) * f32(rhs.quant.scale)) / f32(y.quant.scale))

    def lower(self, ctx: OpContext) -> Lowered:
        lhs, rhs, y = ctx.inp(0), ctx.inp(1), ctx.out(0)
        g = _Geometry(ctx)
        mult, shift = self._multiplier(ctx)
        groups = [(1, 1)] * (2 - len(g.groups)) + list(g.groups)
        lhs_dims = (groups[0][0], groups[1][0], g.rows, g.inner)
        rhs_dims = (groups[0][1], groups[1][1], g.cols, g.inner)
        out_dims = (max(groups[0]), max(groups[1]), g.rows, g.cols)
        is8 = lhs.dtype == "int8"
        ctype = "int8_t" if is8 else "int16_t"
        elem = 1 if is8 else 2
        constants = []
        # The RHS as the entry reads it: (matrices, cols, inner).
        rhs_source = "tensor"
        if rhs.is_constant and (not g.adj_y or rhs.dtype != lhs.dtype):
            values = np.asarray(rhs.data).reshape(g.rhs_matrices, *g.rhs_shape[-2:])
            if not g.adj_y:
                values = np.transpose(values, (0, 2, 1))
            constants.append(ConstArray("rhs_t", ctype, values.astype(np.int64).reshape(-1),
                                        "RHS as (batch, columns, inner) for the entry"
                                        + (", widened to int16" if rhs.dtype != lhs.dtype else "")))
            rhs_source = "const"
        elif not g.adj_y:
            rhs_source = "scratch"
        sums = ctx.kernels.scratch(_mve_sums, rhs_dims) if is8 else 0
        lhs_offset = _align4(sums)
        lhs_bytes = g.lhs_matrices * g.rows * g.inner * elem if g.adj_x else 0
        rhs_offset = _align4(lhs_offset + lhs_bytes)
        rhs_bytes = g.rhs_matrices * g.cols * g.inner * elem if rhs_source == "scratch" else 0
        scratch = rhs_offset + rhs_bytes if (lhs_bytes or rhs_bytes) else sums
        in_offset = -lhs.quant.zero_point if is8 else 0
        filter_offset = -rhs.quant.zero_point if is8 else 0
        lo, hi = (-128, 127) if is8 else (-32768, 32767)
        return Lowered(
            entry=ctx.variant.entries[0], scratch_bytes=scratch, constants=constants,
            macs=int(np.prod(out_dims)) * g.inner,
            params=dict(lhs=lhs.index, rhs=rhs.index, output=y.index, ctype=ctype, adj_x=g.adj_x, adj_y=g.adj_y,
                        lhs_dims=lhs_dims, rhs_dims=rhs_dims, output_dims=out_dims,
                        rows=g.rows, cols=g.cols, inner=g.inner, lhs_matrices=g.lhs_matrices,
                        rhs_matrices=g.rhs_matrices, rhs_source=rhs_source, sums_bytes=sums,
                        lhs_scratch=lhs_offset if lhs_bytes else None,
                        rhs_scratch=rhs_offset if rhs_bytes else None,
                        input_offset=in_offset, filter_offset=filter_offset, output_offset=y.quant.zero_point,
                        mult=mult, shift=shift, act_min=lo, act_max=hi))

    def lower_float32(self, ctx: OpContext) -> Lowered:
        lhs, rhs, y = ctx.inp(0), ctx.inp(1), ctx.out(0)
        g = _Geometry(ctx)
        groups = g.groups or [(1, 1)]
        dims = [max(a, b) for a, b in groups]
        lhs_strides, rhs_strides = [0] * len(groups), [0] * len(groups)
        sl, sr = g.rows * g.inner, g.inner * g.cols
        for k in range(len(groups) - 1, -1, -1):
            a, b = groups[k]
            lhs_strides[k] = sl if a != 1 else 0
            rhs_strides[k] = sr if b != 1 else 0
            sl *= a
            sr *= b

        def offset(strides):
            terms = [f"b{k} * {s}" for k, s in enumerate(strides) if s]
            return " + ".join(terms) or "0"
        # Element (i, k) of the LHS and (k, j) of the RHS in their stored layouts.
        lhs_index = "k * %d + i" % g.rows if g.adj_x else "i * %d + k" % g.inner
        rhs_index = "j * %d + k" % g.inner if g.adj_y else "k * %d + j" % g.cols
        return Lowered(entry=None, macs=int(np.prod(y.shape)) * g.inner, fixed={"implementation": "inline"},
                       params=dict(lhs=lhs.index, rhs=rhs.index, output=y.index, dims=dims,
                                   lhs_offset=offset(lhs_strides), rhs_offset=offset(rhs_strides),
                                   rows=g.rows, cols=g.cols, inner=g.inner, lhs_index=lhs_index,
                                   rhs_index=rhs_index))

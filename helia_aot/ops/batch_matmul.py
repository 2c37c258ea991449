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
from helia_aot.ops.base import ConstArray, Lowered, OpContext, OpLowering, Operand, Variant, register
from helia_aot.ops.shared.broadcast import broadcast_groups, broadcast_shape
from helia_aot.ops.shared.operands import fp32, int8_act, int16_act

_RULES = ("ranks 2 to 5; batch dimensions broadcast; inner dimensions agree (after adj_x / adj_y)",)
_INT_RULES = _RULES + ("at most two merged batch dimensions", "no fused activation (LiteRT has none)")
_CTYPE = {"int8": "int8_t", "int16": "int16_t", "float32": "float"}


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
                entries=("arm_batch_matmul_s8",), template="batch_matmul.c.j2", notes=_INT_RULES),
        Variant("int16", inputs=(int16_act("lhs"), int16_act("rhs")), outputs=(int16_act("output"),),
                entries=("arm_batch_matmul_s16",), template="batch_matmul.c.j2", notes=_INT_RULES),
        Variant("a16w8", inputs=(int16_act("lhs"), Operand("rhs", ("int8",), constant=True, quantized=True,
                                                            symmetric=True)),
                outputs=(int16_act("output"),), entries=("arm_batch_matmul_s16",), template="batch_matmul.c.j2",
                notes=_INT_RULES + ("int8 RHS (LiteRT's 16x8 form) stored widened to int16",)),
        Variant("float32", inputs=(fp32("lhs"), fp32("rhs")), outputs=(fp32("output"),),
                template="batch_matmul_f32.c.j2", lower="lower_float32", notes=_RULES + ("inline C",)),
    )

    def validate(self, ctx: OpContext) -> None:
        lhs, rhs, y = ctx.inp(0), ctx.inp(1), ctx.out(0)
        for t, role in ((lhs, "lhs"), (rhs, "rhs")):
            if not 2 <= len(t.shape) <= 5:
                raise ctx.error(f"{role} must have rank 2 to 5, has rank {len(t.shape)}", t)
        g = _Geometry(ctx)
        if g.batch is None:
            raise ctx.error(f"batch dimensions {g.lhs_batch} and {g.rhs_batch} do not broadcast", rhs)
        if g.inner != g.inner_rhs:
            raise ctx.error(f"inner dimensions differ: lhs {g.inner} (adj_x {g.adj_x}), rhs {g.inner_rhs} "
                            f"(adj_y {g.adj_y})", rhs)
        want = tuple(g.batch) + (g.rows, g.cols)
        if tuple(y.shape) != want:
            raise ctx.error(f"output shape {list(y.shape)} does not match the product's {list(want)}", y)
        if ctx.variant.name == "float32":
            return
        if len(g.groups) > 2:
            raise ctx.error(f"batch broadcast of {g.lhs_batch} with {g.rhs_batch} needs three merged batch "
                            "dimensions; the integer kernels take at most two", y)
        _, shift = self._multiplier(ctx)
        if ctx.variant.name != "int8" and shift > 14:
            raise ctx.error(f"the requantization multiplier needs a left shift of {shift}; the int16 kernel takes at "
                            "most 14 (input scale x rhs scale / output scale below 2^14)", y)

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

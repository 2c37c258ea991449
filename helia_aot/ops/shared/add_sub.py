# SPDX-License-Identifier: Apache-2.0
"""ADD and SUB's int8 and int16 parameters: LiteRT's rescaling of both inputs, and the dims of the
element-wise or broadcasting kernel entry."""

from __future__ import annotations

from helia_aot.ir.quant import quantize_multiplier
from helia_aot.ops.base import OpContext
from helia_aot.ops.shared.broadcast import kernel_broadcast_dims
from helia_aot.ops.shared.fused_activation import fused_activation
from helia_aot.ops.shared.int16_arithmetic import Q31_HALF, checked_log2


def add_sub_params(ctx: OpContext) -> dict:
    """TFLite's int8 ADD/SUB rescaling: both inputs to twice the larger scale, 20 bits of headroom."""
    a, b, y = ctx.inp(0), ctx.inp(1), ctx.out(0)
    left_shift = 20
    twice_max = 2.0 * max(float(a.quant.scale), float(b.quant.scale))
    m1, s1 = quantize_multiplier(float(a.quant.scale) / twice_max)
    m2, s2 = quantize_multiplier(float(b.quant.scale) / twice_max)
    mo, so = quantize_multiplier(twice_max / ((1 << left_shift) * float(y.quant.scale)))
    act_min, act_max = fused_activation(ctx, y)
    dims_a, dims_b, dims_out = kernel_broadcast_dims(a.shape, b.shape)
    return dict(
        input1=a.index, input2=b.index, output=y.index,
        input1_dims=dims_a, input2_dims=dims_b, output_dims=dims_out,
        broadcast=dims_a != dims_b, size=y.num_elements,
        input1_offset=-a.quant.zero_point, input1_mult=m1, input1_shift=s1,
        input2_offset=-b.quant.zero_point, input2_mult=m2, input2_shift=s2,
        left_shift=left_shift, out_offset=y.quant.zero_point, out_mult=mo, out_shift=so,
        act_min=act_min, act_max=act_max,
    )


def add_sub_s16_params(ctx: OpContext) -> dict:
    """ADD/SUB int16 parameters for arm_elementwise_{add,sub}_s16 / arm_{add,sub}_s16.

    General scales (the converter writes pot_scale_int16 false): TFLite's rescaling with a left shift
    of 15, both inputs to twice the larger scale. pot_scale_int16 true with power-of-two scales selects
    LiteRT's narrow path instead: the input with the smaller scale is rounding-shifted right, added to
    the other as is, and the sum saturated. The s16 kernels compute that exactly with left shift 1 and
    multipliers 0.5 (shift -k for a right shift by k) on the inputs, 1.0 on the sum."""
    a, b, y = ctx.inp(0), ctx.inp(1), ctx.out(0)
    op = ctx.op.op_type
    act_min, act_max = fused_activation(ctx, y)
    dims_a, dims_b, dims_out = kernel_broadcast_dims(a.shape, b.shape)
    p = dict(input1=a.index, input2=b.index, output=y.index,
             input1_dims=dims_a, input2_dims=dims_b, output_dims=dims_out,
             broadcast=dims_a != dims_b, size=y.num_elements, act_min=act_min, act_max=act_max)
    logs = [checked_log2(t.quant.scale) for t in (a, b, y)]
    if ctx.options("pot_scale_int16", False) is True and all(pot for pot, _ in logs):
        shifts = [logs[0][1] - logs[2][1], logs[1][1] - logs[2][1]]
        if 0 not in shifts or max(shifts) > 0 or min(shifts) < -31:
            raise ctx.error(f"pot_scale_int16 with power-of-two scales: one input must share the output scale and "
                            f"the other be no coarser (input scales 2^{logs[0][1]}, 2^{logs[1][1]}, output "
                            f"2^{logs[2][1]})", y, "Export with pot_scale_int16 false (general int16 scales)")
        if op == "ADD" and tuple(a.shape) != tuple(b.shape):
            raise ctx.error("pot_scale_int16 with power-of-two scales takes LiteRT's same-shape path, which does "
                            "not broadcast", b, "Export with pot_scale_int16 false (general int16 scales)")
        return dict(p, pot_scale=True, left_shift=1, input1_mult=Q31_HALF, input1_shift=shifts[0],
                    input2_mult=Q31_HALF, input2_shift=shifts[1], out_mult=Q31_HALF, out_shift=1)
    left_shift = 15
    twice_max = 2.0 * max(float(a.quant.scale), float(b.quant.scale))
    real_out = twice_max / ((1 << left_shift) * float(y.quant.scale))
    if op == "ADD" and real_out >= 1.0:
        raise ctx.error(f"output scale {y.quant.scale:g} is too fine for LiteRT's int16 ADD: twice the larger input "
                        f"scale over 2^15 x output scale must be below 1 (is {real_out:g})", y)
    m1, s1 = quantize_multiplier(float(a.quant.scale) / twice_max)
    m2, s2 = quantize_multiplier(float(b.quant.scale) / twice_max)
    mo, so = quantize_multiplier(real_out)
    return dict(p, pot_scale=False, left_shift=left_shift, input1_mult=m1, input1_shift=s1,
                input2_mult=m2, input2_shift=s2, out_mult=mo, out_shift=so)

# SPDX-License-Identifier: Apache-2.0
"""PRELU: int8 on arm_prelu_s8, int16 on arm_prelu_s16, float32 on arm_prelu_f32 (inline C, the same loop,
where the library lacks it), alpha broadcast onto the input (NumPy rules; the output keeps the input's shape, as LiteRT requires), passed as the broadcast's
merged (n, h, w, c) dims.

Quantized: TFLite's rule, x - input zero point requantized by input scale / output scale when >= 0, else
times (alpha - alpha zero point) and requantized by input scale x alpha scale / output scale (both formed
in float32, as LiteRT's Prepare). LiteRT's int16 PRELU takes int8 alpha (it reads the alpha tensor as
int8); the int16 entry reads int16, so alpha must be constant and is stored widened to int16. A broadcast
of more than four merged dimensions (rank 5+ alternating) is refused."""

from __future__ import annotations

import numpy as np

from helia_aot.ir.quant import f32, quantize_multiplier
from helia_aot.ops.base import (ConstArray, Lowered, OpContext, OpLowering, Operand, Rule, Variant, kernel_limit,
                                litert, register)
from helia_aot.ops.shared.broadcast import (TFLM_UNCHECKED_BROADCAST, broadcast_shape, broadcast_strides,
                                            kernel_broadcast_dims)
from helia_aot.ops.shared.operands import fp32, int8_act, int16_act
from helia_aot.ops.shared.unary_math import fits_left_shift, left_shift_rule

ALPHA_BROADCAST = Rule("alpha broadcasts onto the input (NumPy rules); output shape equals the input's", litert(
    "activations.cc PreluPrepare", "CalculateShapeForBroadcast(input, alpha), then HaveSameShapes(input, output)",
    TFLM_UNCHECKED_BROADCAST))
MERGED_DIMS = Rule("at most four merged broadcast dimensions", kernel_limit(
    "arm_prelu_s8 / arm_prelu_s16 / arm_prelu_f32", "take 4-D (n, h, w, c) dimensions (LiteRT's BroadcastPrelu4DSlow "
    "extends both shapes to 4-D as well)", "an inline loop over the broadcast's own rank"))
SHIFT = left_shift_rule("arm_prelu_s8 / _s16", "|x - zero point| (times |alpha - zero point|)")
# arm_prelu_s16 reads int16 alpha; LiteRT's int16 PRELU reads the alpha tensor as int8.
ALPHA_CONSTANT = kernel_limit("arm_prelu_s16", "reads an int16 alpha; LiteRT's int16 PRELU reads alpha as int8, which "
                              "is widened to int16 at conversion time (so it must be constant)",
                              "an inline-C int16 PRELU reading the int8 alpha at run time")
_RULES = (ALPHA_BROADCAST, MERGED_DIMS)


@register
class Prelu(OpLowering):
    op_types = ("PRELU",)
    options_table = None
    variants = (
        Variant("int8", inputs=(int8_act(), int8_act("alpha")), outputs=(int8_act("output"),),
                entries=("arm_prelu_s8",), template="prelu.c.j2", rules=_RULES + (SHIFT,)),
        Variant("int16", inputs=(int16_act(), Operand("alpha", ("int8",), constant=True, quantized=True,
                                                      sources=(("constant", ALPHA_CONSTANT),))),
                outputs=(int16_act("output"),), entries=("arm_prelu_s16",), template="prelu.c.j2",
                rules=_RULES + (SHIFT,),
                notes=("int8 alpha, as LiteRT's int16 kernel reads it; stored widened to int16",)),
        Variant("float32", inputs=(fp32(), fp32("alpha")), outputs=(fp32("output"),), entries=("arm_prelu_f32",),
                template="prelu.c.j2", lower="lower_float32", rules=_RULES, fallbacks=(("arm_prelu_f32", None),)),
    )

    def validate(self, ctx: OpContext) -> None:
        x, alpha, y = ctx.inp(0), ctx.inp(1), ctx.out(0)
        shape = broadcast_shape(x.shape, alpha.shape)
        if shape is None or shape != tuple(x.shape):
            raise ctx.error(ALPHA_BROADCAST, alpha, detail=f"alpha shape {list(alpha.shape)} does not broadcast onto "
                                                           f"the input shape {list(x.shape)}")
        if tuple(y.shape) != tuple(x.shape):
            raise ctx.error(ALPHA_BROADCAST, y, detail=f"output shape {list(y.shape)} differs from the input shape "
                                                       f"{list(x.shape)}")
        if kernel_broadcast_dims(x.shape, alpha.shape) is None:
            raise ctx.error(MERGED_DIMS, alpha, detail=f"broadcasting alpha {list(alpha.shape)} onto {list(x.shape)} "
                                                       "needs more than four merged dimensions; at most four are "
                                                       "supported")
        if ctx.variant.name == "float32":
            return
        (_, s1), (_, s2) = self._multipliers(ctx)
        # LiteRT's BroadcastPrelu4DSlow shifts x - zp left where it is >= 0, and (x - zp) x (alpha - zp) where
        # x - zp < 0: each over every code the tensors can hold (a constant alpha: its own codes) must stay an int32.
        low, high = (-128, 127) if x.dtype == "int8" else (-32768, 32767)
        xs = (low - x.quant.zero_point, min(-1, high - x.quant.zero_point))
        codes = np.asarray(alpha.data).reshape(-1) if alpha.is_constant else np.asarray([-128, 127])
        alphas = (int(codes.min()) - alpha.quant.zero_point, int(codes.max()) - alpha.quant.zero_point)
        products = [a * b for a in xs for b in alphas] if xs[0] < 0 else [0]  # no code below the zero point
        for (lo, hi), shift, what in (((0, high - x.quant.zero_point), s1, "input / output"),
                                      ((min(products), max(products)), s2, "input x alpha / output")):
            if not fits_left_shift(lo, hi, shift):
                raise ctx.error(SHIFT, y, detail=f"the {what} scale ratio needs a left shift of {shift}, which "
                                                 f"overflows int32 for values in [{lo}, {hi}]")

    @staticmethod
    def _multipliers(ctx: OpContext):
        x, alpha, y = ctx.inp(0), ctx.inp(1), ctx.out(0)
        identity = quantize_multiplier(f32(f32(x.quant.scale) / f32(y.quant.scale)))
        with_alpha = quantize_multiplier(f32(f32(f32(x.quant.scale) * f32(alpha.quant.scale)) / f32(y.quant.scale)))
        return identity, with_alpha

    def lower(self, ctx: OpContext) -> Lowered:
        x, alpha, y = ctx.inp(0), ctx.inp(1), ctx.out(0)
        (mi, si), (ma, sa) = self._multipliers(ctx)
        dims_x, dims_alpha, _ = kernel_broadcast_dims(x.shape, alpha.shape)
        widened = x.dtype == "int16"
        constants = []
        if widened:
            constants.append(ConstArray("alpha16", "int16_t", np.asarray(alpha.data, dtype=np.int64).reshape(-1),
                                        "int8 alpha widened to int16 for arm_prelu_s16"))
        return Lowered(entry=ctx.variant.entries[0], constants=constants,
                       params=dict(float=False, input=x.index, alpha=alpha.index, output=y.index,
                                   input_dims=dims_x, alpha_dims=dims_alpha, alpha_widened=widened,
                                   input_offset=-x.quant.zero_point, alpha_offset=-alpha.quant.zero_point,
                                   output_offset=y.quant.zero_point, mult_identity=mi, shift_identity=si,
                                   mult_alpha=ma, shift_alpha=sa))

    def lower_float32(self, ctx: OpContext) -> Lowered:
        x, alpha, y = ctx.inp(0), ctx.inp(1), ctx.out(0)
        dims_x, dims_alpha, _ = kernel_broadcast_dims(x.shape, alpha.shape)
        params = dict(float=True, input=x.index, alpha=alpha.index, output=y.index, input_dims=dims_x,
                      alpha_dims=dims_alpha)
        entry = ctx.library_entry(ctx.variant.entries[0])
        if entry is None:  # the entry's loop inline: x >= 0 ? x : x * alpha, alpha read at its broadcast strides
            why = f"{ctx.kernels.description} has no {ctx.variant.entries[0]}"
            return Lowered(entry=None, params=dict(params, alpha_strides=broadcast_strides(dims_alpha, dims_x), why=why),
                           fixed={"implementation": "inline", "why": why})
        return Lowered(entry=entry, params=params)

    def fold(self, ctx: OpContext):
        x, alpha = ctx.inp(0), ctx.inp(1)
        if x.dtype != "float32":
            return None
        xs, a = np.asarray(x.data, np.float32), np.asarray(alpha.data, np.float32)
        return [np.where(xs >= 0, xs, xs * a).astype(np.float32)]

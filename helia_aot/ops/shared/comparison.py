# SPDX-License-Identifier: Apache-2.0
"""What EQUAL, NOT_EQUAL, GREATER, GREATER_EQUAL, LESS and LESS_EQUAL share: their variants, the rules LiteRT's
reference kernels apply, and the two lowerings (no @register here; one module per operator).

LiteRT's comparisons (int8, quantized int16 EQUAL / NOT_EQUAL) rescale both inputs before comparing:
((code - zero_point) << 8) times the input's own scale as a Q31 multiplier and shift (QuantizeMultiplier of
the scale, not of a ratio), so codes closer than 1/256 of a scale step can compare equal. ns-cmsis-nn's
arm_<op>_s8 / _s16 take exactly those parameters. LiteRT compares int16 LESS, LESS_EQUAL, GREATER and
GREATER_EQUAL, and unquantized int16 EQUAL, on the raw codes whatever the scales: the _s16 entries get an
identity rescaling then (offset 0, multiplier 2^30 with shift 1, left shift 0). float32, int32, int64 and bool
compare the values in inline C. Broadcasting follows LiteRT: any shapes NumPy broadcasts, up to rank 4 when
they differ (its 4-D broadcast walk); equal shapes at any rank."""

from __future__ import annotations

from helia_aot.ir.quant import quantize_multiplier
from helia_aot.ops.base import Lowered, OpContext, OpLowering, Operand, Variant
from helia_aot.ops.shared.broadcast import broadcast_shape, broadcast_strides, kernel_broadcast_dims

# op type -> (entry name part, C operator, ns-cmsis-nn's arm_nn_compare_operation)
COMPARISONS = {
    "EQUAL": ("equal", "=="),
    "NOT_EQUAL": ("not_equal", "!="),
    "GREATER": ("greater", ">"),
    "GREATER_EQUAL": ("greater_equal", ">="),
    "LESS": ("less", "<"),
    "LESS_EQUAL": ("less_equal", "<="),
}
LEFT_SHIFT = 8  # LiteRT's ComparisonQuantized
IDENTITY = (0, 1 << 30, 1)  # offset, multiplier, shift: (2x * 2^30) / 2^31 = x exactly
_RULES = ("input shapes broadcast (NumPy rules); rank up to 4 when they differ, any rank when equal",)
_CTYPES = {"float32": "float", "int32": "int32_t", "int64": "int64_t", "bool": "uint8_t"}


def _out() -> Operand:
    return Operand("output", ("bool",))


def comparison_variants(op_type: str) -> tuple[Variant, ...]:
    name = COMPARISONS[op_type][0]
    scaled = op_type in ("EQUAL", "NOT_EQUAL")
    variants = [
        Variant("int8", inputs=(Operand("input1", ("int8",), quantized=True),
                                Operand("input2", ("int8",), quantized=True)),
                outputs=(_out(),), entries=(f"arm_{name}_s8",), template="comparison.c.j2",
                notes=_RULES + ("input scales below 1 (LiteRT rescales each input by its scale)",)),
        Variant("int16", inputs=(Operand("input1", ("int16",)), Operand("input2", ("int16",))),
                outputs=(_out(),), entries=(f"arm_{name}_s16",), template="comparison.c.j2",
                notes=_RULES + (("quantized: rescaled as int8, scales below 1; unquantized: raw codes"
                                 + (" (NOT_EQUAL: quantized only)" if op_type == "NOT_EQUAL" else ""))
                                if scaled else "raw codes compared, whatever the scales (as LiteRT)",)),
    ]
    for dtype in ("float32", "int32", "int64") + (("bool",) if scaled else ()):
        variants.append(Variant(dtype, inputs=(Operand("input1", (dtype,)), Operand("input2", (dtype,))),
                                outputs=(_out(),), template="comparison_inline.c.j2", lower="lower_inline",
                                notes=_RULES + ("inline C",)))
    return tuple(variants)


def _scaled_int16(ctx: OpContext) -> bool:
    return ctx.op.op_type in ("EQUAL", "NOT_EQUAL") and ctx.inp(0).quant is not None


class ComparisonLowering(OpLowering):
    """One comparison operator; subclasses set op_types, options_table and variants."""

    def validate(self, ctx: OpContext) -> None:
        a, b, y = ctx.inp(0), ctx.inp(1), ctx.out(0)
        shape = broadcast_shape(a.shape, b.shape)
        if shape is None:
            raise ctx.error(f"input shapes {list(a.shape)} and {list(b.shape)} do not broadcast", b)
        if tuple(a.shape) != tuple(b.shape) and len(shape) > 4:
            raise ctx.error(f"broadcasting is supported up to rank 4 (LiteRT's limit), got rank {len(shape)}", y)
        if tuple(y.shape) != shape:
            raise ctx.error(f"output shape {list(y.shape)} does not match the broadcast shape {list(shape)}", y)
        name = ctx.variant.name
        if name == "int16" and ctx.op.op_type in ("EQUAL", "NOT_EQUAL") and (a.quant is None) != (b.quant is None):
            raise ctx.error("int16 inputs must both be quantized or both not", a if a.quant is None else b)
        if name == "int16" and ctx.op.op_type == "NOT_EQUAL" and a.quant is None:
            raise ctx.error("unquantized int16 NOT_EQUAL is not computed by LiteRT (it leaves the output unwritten); "
                            "quantize the inputs", a)
        if name == "int8" or (name == "int16" and _scaled_int16(ctx)):
            for t in (a, b):
                if t.quant.per_channel:
                    raise ctx.error("input must be quantized per tensor", t)
                if not 0.0 < float(t.quant.scale) < 1.0:
                    raise ctx.error(f"input scale {t.quant.scale:g} must be below 1 (LiteRT's comparison rescales "
                                    "each input by its scale as a multiplier smaller than one)", t)

    def lower(self, ctx: OpContext) -> Lowered:
        """int8 / int16: the ns-cmsis-nn entry, dims merged so its broadcast walk stays on the rows it handles."""
        a, b, y = ctx.inp(0), ctx.inp(1), ctx.out(0)
        dims_a, dims_b, dims_out = kernel_broadcast_dims(a.shape, b.shape)
        if ctx.variant.name == "int8" or _scaled_int16(ctx):
            q = []
            for t in (a, b):
                mult, shift = quantize_multiplier(float(t.quant.scale))
                q.append((-int(t.quant.zero_point), mult, shift))
            left_shift, kind = LEFT_SHIFT, "rescaled"
        else:
            q, left_shift, kind = [IDENTITY, IDENTITY], 0, "raw_codes"
        return Lowered(entry=ctx.variant.entries[0], fixed={"comparison": kind},
                       params=dict(input1=a.index, input2=b.index, output=y.index, input1_dims=dims_a,
                                   input2_dims=dims_b, output_dims=dims_out, q1=q[0], q2=q[1], left_shift=left_shift))

    def lower_inline(self, ctx: OpContext) -> Lowered:
        a, b, y = ctx.inp(0), ctx.inp(1), ctx.out(0)
        broadcast = tuple(a.shape) != tuple(b.shape)
        out = [1] * (4 - len(y.shape)) + [int(d) for d in y.shape] if broadcast else None
        return Lowered(entry=None, fixed={"implementation": "inline"},
                       params=dict(input1=a.index, input2=b.index, output=y.index, size=y.num_elements,
                                   ctype=_CTYPES[a.dtype], operator=COMPARISONS[ctx.op.op_type][1],
                                   broadcast=broadcast, output_dims=out,
                                   strides1=broadcast_strides(a.shape, y.shape) if broadcast else None,
                                   strides2=broadcast_strides(b.shape, y.shape) if broadcast else None))

# SPDX-License-Identifier: Apache-2.0
"""What EQUAL, NOT_EQUAL, GREATER, GREATER_EQUAL, LESS and LESS_EQUAL share: their variants, the rules LiteRT's
reference kernels apply, and the two lowerings (no @register here; one module per operator).

LiteRT's comparisons (int8, quantized int16 EQUAL / NOT_EQUAL) rescale both inputs before comparing:
((code - zero_point) << 8) times the input's own scale as a Q31 multiplier and shift (QuantizeMultiplier of
the scale, not of a ratio), so codes closer than 1/256 of a scale step can compare equal. ns-cmsis-nn's
arm_<op>_s8 / _s16 take exactly those parameters. LiteRT compares int16 LESS, LESS_EQUAL, GREATER and
GREATER_EQUAL, and unquantized int16 EQUAL, on the raw codes whatever the scales: the _s16 entries get an
identity rescaling then (offset 0, multiplier 2^30 with shift 1, left shift 0). float32, int32, int64 and bool
compare the values in inline C. Broadcasting follows LiteRT: any shapes NumPy broadcasts, at any rank (the
entries take four merged dimensions; past them the inline loop rescales and compares the same way)."""

from __future__ import annotations

from helia_aot.ir.quant import quantize_multiplier
from helia_aot.ops.base import Lowered, OpContext, OpLowering, Operand, Rule, Variant, helia_limit, litert, undefined
from helia_aot.ops.shared.binary_arith import PAST_FOUR_GROUPS, inline_broadcast_lowered, inline_params
from helia_aot.ops.shared.broadcast import BROADCAST_RULE, broadcast_shape, entry_dims
from helia_aot.ops.shared.fixed_point import multiply_by_quantized_multiplier_c
from helia_aot.ops.shared.checks import OUTPUT_SHAPE_RULE

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
SCALE_PER_TENSOR = Rule("quantized inputs per tensor, scale above 0", litert(
    "comparisons.cc ComparisonQuantized", "reads params.scale and params.zero_point (one per tensor) and "
    "QuantizeMultiplier(scale), which needs a positive scale"))
INT16_QUANT_PAIR = Rule("int16 EQUAL / NOT_EQUAL inputs both quantized or both not", helia_limit(
    "LiteRT picks the rescaled or the raw-code comparison from the first input alone; the module asks both to agree"))
NOT_EQUAL_RAW = Rule("NOT_EQUAL: quantized only (int16)", undefined(
    "comparisons.cc NotEqualEval", "has no unquantized int16 path and leaves the output unwritten: there is no result "
    "to match"))
# Any rank, as LiteRT (measured to rank 7): the entries take four merged dimensions, the inline loop the rest.
_RULES = (BROADCAST_RULE, OUTPUT_SHAPE_RULE)
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
                rules=_RULES + (SCALE_PER_TENSOR,)),
        Variant("int16", inputs=(Operand("input1", ("int16",)), Operand("input2", ("int16",))),
                outputs=(_out(),), entries=(f"arm_{name}_s16",), template="comparison.c.j2",
                rules=_RULES + ((SCALE_PER_TENSOR, INT16_QUANT_PAIR) + ((NOT_EQUAL_RAW,) if op_type == "NOT_EQUAL" else ())
                                if scaled else ()),
                notes=("quantized: rescaled as int8; unquantized: raw codes",) if scaled
                else ("raw codes compared, whatever the scales (as LiteRT)",)),
    ]
    for dtype in ("float32", "int32", "int64") + (("bool",) if scaled else ()):
        variants.append(Variant(dtype, inputs=(Operand("input1", (dtype,)), Operand("input2", (dtype,))),
                                outputs=(_out(),), template="binary_broadcast.c.j2", lower="lower_inline",
                                rules=_RULES, notes=("inline C",)))
    return tuple(variants)


def _scaled_int16(ctx: OpContext) -> bool:
    return ctx.op.op_type in ("EQUAL", "NOT_EQUAL") and ctx.inp(0).quant is not None


class ComparisonLowering(OpLowering):
    """One comparison operator; subclasses set op_types, options_table and variants."""

    def validate(self, ctx: OpContext) -> None:
        a, b, y = ctx.inp(0), ctx.inp(1), ctx.out(0)
        shape = broadcast_shape(a.shape, b.shape)
        if shape is None:
            raise ctx.error(BROADCAST_RULE, b, detail=f"input shapes {list(a.shape)} and {list(b.shape)} do not "
                                                      "broadcast")
        if tuple(y.shape) != shape:
            raise ctx.error(OUTPUT_SHAPE_RULE, y, detail=f"output shape {list(y.shape)} does not match the broadcast "
                                                         f"shape {list(shape)}")
        name = ctx.variant.name
        if name == "int16" and ctx.op.op_type in ("EQUAL", "NOT_EQUAL") and (a.quant is None) != (b.quant is None):
            raise ctx.error(INT16_QUANT_PAIR, a if a.quant is None else b,
                            detail="int16 inputs must both be quantized or both not")
        if name == "int16" and ctx.op.op_type == "NOT_EQUAL" and a.quant is None:
            raise ctx.error(NOT_EQUAL_RAW, a, detail="unquantized int16 NOT_EQUAL is not computed by LiteRT (it leaves "
                                                     "the output unwritten); quantize the inputs")
        if name == "int8" or (name == "int16" and _scaled_int16(ctx)):
            for t in (a, b):
                if t.quant.per_channel:
                    raise ctx.error(SCALE_PER_TENSOR, t, detail="input must be quantized per tensor")
                # LiteRT rescales each input by its own scale as a Q31 multiplier and shift; a scale of 1 or
                # more is a left shift, which it runs (measured) and the kernels take.
                if not 0.0 < float(t.quant.scale):
                    raise ctx.error(SCALE_PER_TENSOR, t, detail=f"input scale {t.quant.scale:g} must be above 0")

    def lower(self, ctx: OpContext) -> Lowered:
        """int8 / int16: the ns-cmsis-nn entry, dims merged so its broadcast walk stays on the rows it handles;
        past four merged dimensions the inline loop, with the same rescaling (LiteRT's ComparisonWithScaling)."""
        a, b, y = ctx.inp(0), ctx.inp(1), ctx.out(0)
        dims = entry_dims(a, b)
        if ctx.variant.name == "int8" or _scaled_int16(ctx):
            q = []
            for t in (a, b):
                mult, shift = quantize_multiplier(float(t.quant.scale))
                q.append((-int(t.quant.zero_point), mult, shift))
            left_shift, kind = LEFT_SHIFT, "rescaled"
        else:
            q, left_shift, kind = [IDENTITY, IDENTITY], 0, "raw_codes"
        if dims["input1_dims"] is None:
            operator, ctype = COMPARISONS[ctx.op.op_type][1], "int8_t" if a.dtype == "int8" else "int16_t"
            body = [line for k, (offset, mult, shift) in enumerate(q, 1) for line in (
                f"const int32_t shifted{k} = ((int32_t){'ab'[k - 1]} + ({offset})) * (1 << {left_shift});",
                *multiply_by_quantized_multiplier_c(f"scaled{k}", f"shifted{k}", mult, shift))]
            body.append(f"*out++ = (uint8_t)(scaled1 {operator} scaled2);")
            lowered = inline_broadcast_lowered(ctx, body, ctype, "uint8_t", f"{ctx.op.op_type} {a.dtype}: "
                                               f"{PAST_FOUR_GROUPS}", PAST_FOUR_GROUPS)
            lowered.fixed["comparison"] = kind
            return lowered
        return Lowered(entry=ctx.variant.entries[0], fixed={"comparison": kind},
                       params=dict(input1=a.index, input2=b.index, output=y.index, input1_dims=dims["input1_dims"],
                                   input2_dims=dims["input2_dims"], output_dims=dims["output_dims"], q1=q[0], q2=q[1],
                                   left_shift=left_shift))

    def lower_inline(self, ctx: OpContext) -> Lowered:
        """Plain values (float32, int32, int64, bool) compared in the inline loop, at any rank: out = a OP b
        as 0 / 1 bytes."""
        ctype = _CTYPES[ctx.inp(0).dtype]
        body = [f"*out++ = (uint8_t)(a {COMPARISONS[ctx.op.op_type][1]} b);"]
        return Lowered(entry=None, fixed={"implementation": "inline"},
                       params=inline_params(ctx, body, ctype, "uint8_t", f"LiteRT's comparison of plain values: "
                                            f"out = in1 {COMPARISONS[ctx.op.op_type][1]} in2 as 0 / 1 bytes (bool)"))

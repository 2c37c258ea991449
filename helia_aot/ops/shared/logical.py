# SPDX-License-Identifier: Apache-2.0
"""What LOGICAL_AND, LOGICAL_OR and LOGICAL_NOT share (no @register here; one module per operator): bool in,
bool out, inline C (ns-cmsis-nn has no logical entries). AND / OR broadcast with NumPy rules at any rank, as LiteRT
does (a rank-5 broadcast runs there, measured): a 4-D walk up to rank 4, the merged-dimension loop
(binary_broadcast.c.j2) beyond."""

from __future__ import annotations

from helia_aot.ops.base import Lowered, OpContext, OpLowering, Operand, Rule, Variant, litert
from helia_aot.ops.shared.binary_arith import inline_params
from helia_aot.ops.shared.broadcast import TFLM_UNCHECKED_BROADCAST, broadcast_shape, broadcast_strides
from helia_aot.ops.shared.checks import OUTPUT_SIZE_RULE

LOGICAL = {"LOGICAL_AND": "&&", "LOGICAL_OR": "||", "LOGICAL_NOT": "!"}
BROADCAST = Rule("input shapes broadcast (NumPy rules) to the output's shape", litert(
    "logical.cc Prepare", "CalculateShapeForBroadcast fails on shapes that do not broadcast; the output is resized to "
    "the broadcast shape", TFLM_UNCHECKED_BROADCAST))
BOOL_ONLY = Rule("bool inputs and output", litert(
    "logical.cc LogicalImpl / elementwise.cc GenericPrepare (NOT)", "\"Logical ops only support bool type\"",
    "logical_common.cc reads other types as bool, undefined in C++ for a byte other than 0 or 1"))


def logical_variants(op_type: str) -> tuple[Variant, ...]:
    if op_type == "LOGICAL_NOT":
        return (Variant("bool", inputs=(Operand("input", ("bool",)),), outputs=(Operand("output", ("bool",)),),
                        template="logical.c.j2", rules=(BOOL_ONLY, OUTPUT_SIZE_RULE), notes=("inline C",)),)
    return (Variant("bool", inputs=(Operand("input1", ("bool",)), Operand("input2", ("bool",))),
                    outputs=(Operand("output", ("bool",)),), template="logical.c.j2",
                    rules=(BOOL_ONLY, BROADCAST), notes=("inline C", "broadcasts at any rank")),)


class LogicalLowering(OpLowering):
    """One logical operator; subclasses set op_types, options_table and variants."""

    def select(self, ctx: OpContext) -> Variant:
        tensors = [t for t in (*ctx.inputs(), *ctx.outputs()) if t is not None]
        wrong = next((t for t in tensors if t.dtype != "bool"), None)
        if wrong is not None:
            raise ctx.error(BOOL_ONLY, wrong, "Cast the operands to bool", detail=f"{ctx.op.op_type} takes bool "
                            f"tensors, tensor '{wrong.name}' is {wrong.dtype}")
        return super().select(ctx)

    def validate(self, ctx: OpContext) -> None:
        y = ctx.out(0)
        shapes = [t.shape for t in ctx.inputs()]
        shape = tuple(shapes[0]) if len(shapes) == 1 else broadcast_shape(*shapes)
        if shape is None:
            raise ctx.error(BROADCAST, ctx.inp(1), detail=f"input shapes {list(shapes[0])} and {list(shapes[1])} do "
                                                          "not broadcast")
        if len(shapes) == 1 and y.num_elements != ctx.inp(0).num_elements:
            raise ctx.error(OUTPUT_SIZE_RULE, y, detail=f"output shape {list(y.shape)} holds {y.num_elements} elements, "
                                                        f"the input {list(shape)} {ctx.inp(0).num_elements}")
        if len(shapes) == 2 and tuple(y.shape) != shape:
            raise ctx.error(BROADCAST, y, detail=f"output shape {list(y.shape)} does not match {list(shape)}")

    def lower(self, ctx: OpContext) -> Lowered:
        y = ctx.out(0)
        ins = ctx.inputs()
        broadcast = len(ins) == 2 and tuple(ins[0].shape) != tuple(ins[1].shape)
        if broadcast and len(y.shape) > 4:  # past the 4-D walk: the loop over the merged broadcast dimensions
            operator = LOGICAL[ctx.op.op_type]
            body = [f"*out++ = (uint8_t)(a {operator} b);"]
            return Lowered(entry=None, template="binary_broadcast.c.j2", fixed={"implementation": "inline"},
                           params=inline_params(ctx, body, "uint8_t", "uint8_t",
                                                f"{ctx.op.op_type}: a {operator} b on 0 / 1 bytes (bool)"))
        return Lowered(entry=None, fixed={"implementation": "inline"},
                       params=dict(inputs=[t.index for t in ins], output=y.index, size=y.num_elements,
                                   operator=LOGICAL[ctx.op.op_type], broadcast=broadcast,
                                   output_dims=[1] * (4 - len(y.shape)) + [int(d) for d in y.shape],
                                   strides=[broadcast_strides(t.shape, y.shape) for t in ins] if broadcast else None))

    def fold(self, ctx: OpContext):
        import numpy as np
        values = [np.asarray(t.data).astype(bool) for t in ctx.inputs()]
        op = ctx.op.op_type
        if op == "LOGICAL_NOT":
            return [np.logical_not(values[0])]
        return [(np.logical_and if op == "LOGICAL_AND" else np.logical_or)(values[0], values[1])]

# SPDX-License-Identifier: Apache-2.0
"""VAR_HANDLE: names a resource variable by (container, shared_name). Resolved before the verifier
by the resources stage (helia_aot/frontend/resources.py): each variable becomes one variable tensor in the
persistent arena and its handles disappear, so no VAR_HANDLE is ever lowered."""

from __future__ import annotations

from helia_aot.ops.base import Lowered, OpContext, OpLowering, Operand, Variant, register


@register
class VarHandle(OpLowering):
    op_types = ("VAR_HANDLE",)
    options_table = "VarHandleOptions"
    variants = (
        Variant("resource", inputs=(), outputs=(Operand("handle", ("resource",)),),
                notes=("resolved at conversion: the variable it names becomes a variable tensor",)),
    )

    def lower(self, ctx: OpContext) -> Lowered:
        raise ctx.error("a resource handle left after the resources stage; every handle must be read or "
                        "assigned by READ_VARIABLE or ASSIGN_VARIABLE")

# SPDX-License-Identifier: Apache-2.0
"""VAR_HANDLE: names a resource variable by (container, shared_name). Resolved before the verifier
by the resources stage (helia_aot/frontend/resources.py): each variable becomes one variable tensor in the
persistent arena and its handles disappear, so no VAR_HANDLE is ever lowered."""

from __future__ import annotations

from helia_aot.ops.base import Lowered, OpContext, OpLowering, Operand, Rule, Variant, helia_limit, register

HANDLE_RESOLVED = Rule("every handle is read or assigned by READ_VARIABLE or ASSIGN_VARIABLE", helia_limit(
    "handles are resolved at conversion into one variable tensor each (the resources stage); a handle used "
    "otherwise (passed to another subgraph, an output) has no run-time representation in a module"))


@register
class VarHandle(OpLowering):
    op_types = ("VAR_HANDLE",)
    options_table = "VarHandleOptions"
    variants = (
        Variant("resource", inputs=(), outputs=(Operand("handle", ("resource",)),),
                rules=(HANDLE_RESOLVED,),
                notes=("resolved at conversion: the variable it names becomes a variable tensor",)),
    )

    def lower(self, ctx: OpContext) -> Lowered:
        raise ctx.error(HANDLE_RESOLVED, detail="a resource handle left after the resources stage; every handle must "
                                                "be read or assigned by READ_VARIABLE or ASSIGN_VARIABLE")

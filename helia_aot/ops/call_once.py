# SPDX-License-Identifier: Apache-2.0
"""CALL_ONCE: runs its initialisation subgraph on the first invoke. The resources stage
(helia_aot/frontend/resources.py) evaluates that subgraph at conversion when it only assigns constants to
resource variables, and the values become the variables' initial state (what <prefix>_model_reset
restores); any other initialisation is refused there. So no CALL_ONCE is ever lowered."""

from __future__ import annotations

from helia_aot.ops.base import Lowered, OpContext, OpLowering, Variant, register


@register
class CallOnce(OpLowering):
    op_types = ("CALL_ONCE",)
    options_table = "CallOnceOptions"
    variants = (
        Variant("init", inputs=(), outputs=(),
                notes=("evaluated at conversion: its subgraph may only assign constants to resource variables",)),
    )

    def lower(self, ctx: OpContext) -> Lowered:
        raise ctx.error("an initialisation left after the resources stage")

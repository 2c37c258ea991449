# SPDX-License-Identifier: Apache-2.0
"""CALL_ONCE: runs its initialisation subgraph on the first invoke. The resources stage
(helia_aot/frontend/resources.py) evaluates that subgraph at conversion when every value it assigns to a
resource variable is a constant or computed from constants by operators the compiler folds (the main graph's
constant folding; a variable it reads is the value it assigned before, or the reset value, as TFLM reads it),
and the values become the variables' initial state (what <prefix>_model_reset restores);
any other initialisation is refused there. So no CALL_ONCE is ever lowered."""

from __future__ import annotations

from helia_aot.ops.base import Lowered, OpContext, OpLowering, Rule, Variant, helia_limit, register

# LiteRT and TFLM run the initialisation subgraph on the first invoke, whatever it computes.
CONSTANT_INIT = Rule("the initialisation subgraph assigns resource variables constants, or values computed from "
                     "constants and the variables' values by operators helia_aot folds", helia_limit(
    "the initialisation is evaluated at conversion (the resources stage, helia_aot/frontend/resources.py) with the "
    "constant folding the main graph gets, and its values become the variables' initial state; a module has no "
    "first-invoke path for an operator that does not fold",
    "a first-run flag in <prefix>_model_run running the lowered initialisation subgraph once"))


@register
class CallOnce(OpLowering):
    op_types = ("CALL_ONCE",)
    options_table = "CallOnceOptions"
    variants = (
        Variant("init", inputs=(), outputs=(),
                rules=(CONSTANT_INIT,)),
    )

    def lower(self, ctx: OpContext) -> Lowered:
        raise ctx.error(CONSTANT_INIT, detail="an initialisation left after the resources stage")

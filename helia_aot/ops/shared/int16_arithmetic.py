# SPDX-License-Identifier: Apache-2.0
"""LiteRT's int16 Prepare arithmetic: CheckedLog2 (which decides its power-of-two paths), the input
rescaling of LOGISTIC / TANH, and their Q0.15 output rule. ADD / SUB's int16 parameters are in add_sub,
SOFTMAX's and the table-driven operators' tables in lookup_tables."""

from __future__ import annotations

import numpy as np

from helia_aot.ops.base import OpContext, Rule, kernel_limit
from helia_aot.ops.shared.fixed_point import round_half_away

Q31_HALF = 1 << 30  # the fixed-point multiplier of 0.5 (or of 1.0 with shift 1)


def checked_log2(x: float) -> tuple[bool, int]:
    """TFLite's CheckedLog2, in float32 as it computes: (log2 of x rounds to an integer within 1e-3,
    that integer). Decides LiteRT's power-of-two ("POT") int16 paths."""
    x_log2 = np.float32(np.log(np.float32(x))) * (np.float32(1.0) / np.float32(np.log(np.float32(2.0))))
    rounded = np.float32(round_half_away(float(x_log2)))
    return bool(abs(np.float32(x_log2 - rounded)) < np.float32(1e-3)), int(rounded)


# LiteRT runs such a scale (measured by tests/e2e/test_differential.py) with the same int32 product, which
# overflows there too: no defined reference output.
SIGMOID_INPUT_SCALE = Rule("int16 input scale below 5.33 (the rescaled input fits int32)", kernel_limit(
    "arm_logistic_s16 / arm_tanh_s16", "multiply the input by a multiplier below 65536 in int32; LiteRT's "
    "reference computes the same product, which overflows (undefined) for a coarser scale"))


def sigmoid_s16_input_scaling(ctx: OpContext, pot_left_shifts: tuple[int, ...]) -> tuple[int, int]:
    """LOGISTIC/TANH int16 input rescaling as LiteRT's Prepare computes it, for arm_logistic_s16 /
    arm_tanh_s16 (input_multiplier, input_left_shift). A power-of-two input scale whose shift
    12 + log2(scale) is in `pot_left_shifts` gives multiplier 0 (the kernel then uses 3 << shift);
    any other scale is brought to 1/(3 * 4096) with a multiplier in (16383.5, 32767] and a right shift."""
    x = ctx.inp(0)
    pot, log2 = checked_log2(x.quant.scale)
    if pot and 12 + log2 in pot_left_shifts:
        return 0, 12 + log2
    multiplier = float(x.quant.scale) * 4096.0 * 3.0
    shift = 0
    while multiplier <= 32767.0 / 2.0 and shift <= 30:
        shift += 1
        multiplier *= 2.0
    if multiplier >= 65536.0:
        # input * multiplier would overflow int32 in LiteRT's kernel and ours.
        raise ctx.error(SIGMOID_INPUT_SCALE, x, detail=f"int16 input scale {x.quant.scale:g} is too coarse: LiteRT's "
                                                       f"rescaling needs it below {65536.0 / 12288.0:g}")
    return int(multiplier), shift


def q15_output_rule(ctx: OpContext, exact: bool, rule: "Rule | str" = "") -> None:
    """int16 LOGISTIC/TANH outputs are Q0.15: scale 2^-15 (LOGISTIC: exactly 1/32768; TANH: within
    CheckedLog2's tolerance), zero point 0 (checked by the operand rules)."""
    y = ctx.out(0)
    pot, log2 = checked_log2(y.quant.scale)
    if (exact and y.quant.scale != 1.0 / 32768) or not pot or log2 != -15:
        raise ctx.error(rule or f"int16 output must have scale 1/32768 (has {y.quant.scale:g})", y,
                        detail=f"int16 output must have scale 1/32768 (has {y.quant.scale:g})")

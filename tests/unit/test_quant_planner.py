# SPDX-License-Identifier: Apache-2.0
"""TFLite's QuantizeMultiplier and the arena planner on hand-checked cases."""

from __future__ import annotations

from helia_aot.memory import arena_planner as planner
from helia_aot.ir.quant import quantize_multiplier, softmax_params


def test_quantize_multiplier_hand_values():
    assert quantize_multiplier(0.0) == (0, 0)
    assert quantize_multiplier(1.0) == (1 << 30, 1)
    assert quantize_multiplier(0.5) == (1 << 30, 0)
    assert quantize_multiplier(0.75) == (3 << 29, 0)
    # q * 2^31 rounds up to 2^31: halve and bump the shift, as TFLite does.
    assert quantize_multiplier(1.0 - 2.0 ** -40) == (1 << 30, 1)
    # Shifts below -31 zero the multiplier.
    assert quantize_multiplier(2.0 ** -40) == (0, 0)
    assert quantize_multiplier(-0.5) == (-(1 << 30), 0)


def test_softmax_params():
    mult, shift, diff_min = softmax_params(1.0, 1.0 / 64)
    assert (mult, shift) == (1 << 30, 21)  # 2^-6 * 2^26 = 2^20
    assert diff_min == -(31 * 2 ** 26 // 2 ** 21)


def test_planner_reuses_dead_buffers_and_hits_lower_bound():
    bufs = [planner.Buffer("a", 100, 0, 1, "tensor", 0), planner.Buffer("b", 50, 1, 2, "tensor", 1),
            planner.Buffer("c", 100, 2, 3, "tensor", 2), planner.Buffer("s", 30, 1, 1, "scratch", op_position=1)]
    plan = planner.plan(bufs, 4, alignment=1)
    assert plan.lower_bound == 180 and plan.arena_bytes == 180
    by = {b.name: b for b in plan.buffers}
    assert by["c"].offset + 100 <= 180
    # a and c never live together, so they may share bytes; a, b and s must not overlap.
    spans = sorted((by[n].offset, by[n].offset + by[n].size) for n in ("a", "b", "s"))
    assert spans[0][1] <= spans[1][0] and spans[1][1] <= spans[2][0]


def test_planner_alignment_rounds_offsets():
    bufs = [planner.Buffer("a", 10, 0, 1, "tensor", 0), planner.Buffer("b", 10, 0, 1, "tensor", 1)]
    plan = planner.plan(bufs, 2, alignment=16)
    assert sorted(b.offset for b in plan.buffers) == [0, 16] and plan.arena_bytes == 32

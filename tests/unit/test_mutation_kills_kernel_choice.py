# SPDX-License-Identifier: Apache-2.0
"""The whole-graph kernel choice's greedy step (helia_aot/lowering/kernel_choice.py) on hand-made options,
for the cases mutants showed untested (tests/MUTATION.md, 2026-12-02): an upgrade that would break the
budget is skipped, and the smaller upgrades after it are still taken."""

from __future__ import annotations

from helia_aot.lowering.kernel_choice import Option, _greedy


class _MaxArena:
    """A planned arena of one buffer per step: the tensor bytes live there plus the step's scratch."""

    def __init__(self, live: list[int]):
        self.live = live
        self.calls = 0

    def __call__(self, choice: dict[int, Option]) -> int:
        self.calls += 1
        return max(self.live[p] + (choice[p].scratch if p in choice else 0) for p in range(len(self.live)))


SLOW_0, FAST_0 = Option("slow_0", 0, 1000), Option("fast_0", 100, 100)  # saves 900, needs 100 B more
SLOW_1, FAST_1 = Option("slow_1", 0, 1000), Option("fast_1", 40, 900)  # saves 100, needs 40 B more


def test_an_upgrade_over_the_budget_does_not_stop_smaller_ones_that_fit():
    arena = _MaxArena([100, 100])
    chosen = _greedy({0: [SLOW_0, FAST_0], 1: [SLOW_1, FAST_1]}, arena, budget=150)
    assert chosen == {0: SLOW_0, 1: FAST_1}
    assert arena(chosen) == 140 <= 150


def test_without_a_budget_every_operator_takes_its_fastest_entry():
    chosen = _greedy({0: [SLOW_0, FAST_0], 1: [SLOW_1, FAST_1]}, _MaxArena([100, 100]), budget=None)
    assert chosen == {0: FAST_0, 1: FAST_1}


def test_a_fixed_operator_keeps_its_option_and_its_scratch_counts_against_the_budget():
    """Operator 0 forced to its fast entry (arena 200): operator 1's upgrade to 140 B still fits the
    budget of 200, one to 240 B would not."""
    big_1 = Option("big_1", 140, 800)
    chosen = _greedy({1: [SLOW_1, FAST_1, big_1]}, _MaxArena([100, 100]), budget=200, fixed={0: FAST_0})
    assert chosen == {0: FAST_0, 1: FAST_1}


class _SeparateScratchArena(_MaxArena):
    """A planned arena where every scratch block gets bytes of its own after the largest live set: a
    choice can break the budget although each step alone fits it."""

    def __call__(self, choice: dict[int, Option]) -> int:
        self.calls += 1
        return max(self.live) + sum(o.scratch for o in choice.values())


def test_an_upgrade_is_taken_only_when_the_planned_arena_fits_the_budget():
    """Both upgrades fit their own step (100 + 40 <= 150); the planned arena of both is 180 B: only the
    larger saving is taken."""
    fast_0 = Option("fast_0", 40, 100)
    arena = _SeparateScratchArena([100, 100])
    chosen = _greedy({0: [SLOW_0, fast_0], 1: [SLOW_1, FAST_1]}, arena, budget=150)
    assert chosen == {0: fast_0, 1: SLOW_1}
    assert arena(chosen) == 140

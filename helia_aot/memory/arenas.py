# SPDX-License-Identifier: Apache-2.0
"""The one arena planning of a conversion. Kernel choice weighs each candidate's scratch with it and
the final layout is made by it, with the same inputs (placement rules, in-place sharing, alignment),
so the budget a choice is weighed against is the arena that is built."""

from __future__ import annotations

from dataclasses import replace

from helia_aot.memory import arena_planner
from helia_aot.memory.placement import Placer


def placer_for(graph, steps, options) -> Placer | None:
    """The placement rules applied to this graph, None when the configuration has none."""
    placement = options.placement
    return Placer(graph, steps, options) if placement is not None and placement.active else None


def plan_arenas(graph, steps, options, placer: Placer | None = None) -> arena_planner.MemoryLayout:
    """Where every activation, scratch block and variable tensor of `steps` lives. `placer` is the
    conversion's own (it remembers which rules matched); without one, the rules are applied afresh."""
    if placer is None:
        placer = placer_for(graph, steps, options)
    layout = arena_planner.plan_memory(graph, steps, options.target.arena_alignment,
                                       placer.memory_for if placer is not None else None,
                                       options.optimization.rewrites)
    persistent = placer.persistent_memory() if placer is not None else options.persistent_memory
    return replace(layout, persistent_memory=persistent)

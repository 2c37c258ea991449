# SPDX-License-Identifier: Apache-2.0
"""The one arena planning of a conversion. Kernel choice weighs each candidate's scratch with it and
the final layout is made by it, with the same inputs (placement rules, in-place sharing, alignment),
so the budget a choice is weighed against is the arena that is built."""

from __future__ import annotations

from dataclasses import replace

from helia_aot.errors import UnsupportedModelError
from helia_aot.memory import arena_planner
from helia_aot.memory.placement import Placer

# The generated C holds offsets and sizes in int32_t (ns-cmsis-nn's buffer sizes are int32_t too), and a
# Cortex-M addresses 4 GiB: no block the module declares may be larger.
LARGEST_BLOCK = (1 << 31) - 1


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


def check_addressable(layout: arena_planner.MemoryLayout, constant_bytes: int, options) -> None:
    """Every arena, and the constants, within LARGEST_BLOCK; the first that is not is an
    UnsupportedModelError naming it and its size (a memory merely too small for it is a warning of the
    report: a larger part of the same family may have it)."""
    target = options.target
    blocks = [("scratch arena", target.scratch_memory, layout.arena.arena_bytes),
              *(("activation arena", memory, arena.arena_bytes) for memory, arena in layout.extra),
              ("persistent arena", layout.persistent_memory, layout.persistent_bytes),
              ("constants", target.constant_memory, constant_bytes)]
    for what, memory, size in blocks:
        if size > LARGEST_BLOCK:
            raise UnsupportedModelError(f"{what} in {memory} would be {size} B, more than {LARGEST_BLOCK} B, the "
                                        "largest block a module addresses (offsets are int32_t)",
                                        "Check the model's tensor shapes; no Cortex-M memory holds it")

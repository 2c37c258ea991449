# SPDX-License-Identifier: Apache-2.0
"""Memory planner: lifetimes from the schedule, offsets in one scratch arena, a lower bound."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Buffer:
    """A block that must live in the arena from step ``first`` to ``last`` inclusive."""

    name: str
    size: int
    first: int
    last: int
    kind: str  # "tensor" or "scratch"
    tensor: int | None = None  # root tensor index for kind == "tensor"
    op_position: int | None = None  # operator position for kind == "scratch"
    offset: int = -1


@dataclass
class ArenaPlan:
    buffers: list[Buffer]
    arena_bytes: int
    lower_bound: int
    alignment: int
    strategy: str
    peak_step: int

    def offset_of_tensor(self, root: int) -> int:
        for b in self.buffers:
            if b.kind == "tensor" and b.tensor == root:
                return b.offset
        raise KeyError(root)

    def scratch_offset(self, position: int) -> int | None:
        for b in self.buffers:
            if b.kind == "scratch" and b.op_position == position:
                return b.offset
        return None


def _align(n: int, a: int) -> int:
    return (n + a - 1) // a * a


def _overlaps(a: Buffer, b: Buffer) -> bool:
    return a.first <= b.last and b.first <= a.last


def _place(order: list[Buffer], alignment: int) -> int:
    """First fit in offset order against every already placed buffer whose lifetime meets this one."""
    placed: list[Buffer] = []
    arena = 0
    for buf in order:
        size = _align(buf.size, alignment)
        conflicts = sorted((p for p in placed if _overlaps(p, buf)), key=lambda p: p.offset)
        offset = 0
        for p in conflicts:
            if offset + size <= p.offset:
                break
            offset = max(offset, _align(p.offset + _align(p.size, alignment), alignment))
        buf.offset = offset
        placed.append(buf)
        arena = max(arena, offset + size)
    return arena


_ORDERINGS = {
    # TFLM's greedy planner order: largest first, then earliest.
    "size_desc": lambda b: (-b.size, b.first, b.name),
    "area_desc": lambda b: (-b.size * (b.last - b.first + 1), b.first, b.name),
    "lifetime_desc": lambda b: (-(b.last - b.first), -b.size, b.name),
    "first_use": lambda b: (b.first, -b.size, b.name),
    "peak_first": None,  # filled in per call: buffers live at the peak step first, largest first
}


def lower_bound(buffers: list[Buffer], steps: int) -> tuple[int, int]:
    """Largest sum of sizes live at one step: no placement can use less arena."""
    best, best_step = 0, 0
    for s in range(steps):
        total = sum(b.size for b in buffers if b.first <= s <= b.last)
        if total > best:
            best, best_step = total, s
    return best, best_step


def plan(buffers: list[Buffer], steps: int, alignment: int) -> ArenaPlan:
    """Try several greedy orderings and keep the smallest arena (ties: first ordering listed)."""
    bound, peak = lower_bound(buffers, steps)
    best: tuple[int, str, dict[str, int]] | None = None
    for name, key in _ORDERINGS.items():
        if key is None:
            order = sorted(buffers, key=lambda b: (not (b.first <= peak <= b.last), -b.size, b.first, b.name))
        else:
            order = sorted(buffers, key=key)
        for b in buffers:
            b.offset = -1
        arena = _place(order, alignment)
        if best is None or arena < best[0]:
            best = (arena, name, {b.name: b.offset for b in buffers})
        if arena == _align(bound, alignment) and arena == bound:
            break
    arena, strategy, offsets = best
    for b in buffers:
        b.offset = offsets[b.name]
    return ArenaPlan(buffers, arena, bound, alignment, strategy, peak)

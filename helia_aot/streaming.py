# SPDX-License-Identifier: Apache-2.0
"""The transfer schedule of streamed constants: which constants each unit copies into the stream
pool, where, and when.

A unit is the streamed constants an operator is the first to read, laid out as one span (each
constant at the next multiple of its alignment), copied in one transfer from the span's place in
its source memory's stream arena into the pool just before that operator (issue_after: the
operator before it). A unit is live from its issue point to the end of its last reader, and the
pool is shared first-fit between units whose live ranges do not meet. A unit that does not fit
drops its largest constant (which stays direct) until it does.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Candidate:
    """A constant whose rules permit streaming, with the positions of the operators reading it."""

    id: str
    symbol: str
    bytes: int
    alignment: int
    memory: str  # where its cold copy is stored
    readers: tuple[int, ...]


@dataclass
class Unit:
    id: int
    tensors: list[Candidate]
    offsets: list[int]  # each constant's offset in the span
    bytes: int
    alignment: int  # the span's: the largest alignment of its constants
    issue_position: int  # the operator after whose run the copy is issued; -1: the start of the run
    wait_before: int
    last_reader: int
    engine: str
    pool_offset: int = 0
    source_memory: str = ""
    source_offset: int = 0

    @property
    def live(self) -> tuple[int, int]:
        return self.issue_position + 1, self.last_reader


@dataclass
class Schedule:
    units: list[Unit] = field(default_factory=list)
    dropped: list[tuple[Candidate, str]] = field(default_factory=list)  # stayed direct, and why
    sources: dict[str, int] = field(default_factory=dict)  # source memory -> bytes of its stream arena

    def unit_of(self, symbol: str) -> tuple[Unit, int] | None:
        """The unit streaming `symbol` and the constant's offset in the pool."""
        for u in self.units:
            for c, off in zip(u.tensors, u.offsets):
                if c.symbol == symbol:
                    return u, u.pool_offset + off
        return None


def _align(n: int, a: int) -> int:
    return (n + a - 1) // a * a


def span(tensors: list[Candidate]) -> tuple[list[int], int, int]:
    """Offsets of the constants in one span, its bytes and its alignment."""
    offsets, end = [], 0
    for c in tensors:
        start = _align(end, c.alignment)
        offsets.append(start)
        end = start + c.bytes
    return offsets, end, max((c.alignment for c in tensors), default=1)


def _fit(unit: Unit, placed: list[Unit], pool_bytes: int) -> int | None:
    """First-fit offset of `unit` in the pool against the placed units live at the same time."""
    lo, hi = unit.live
    conflicts = sorted((p for p in placed if p.live[0] <= hi and lo <= p.live[1]), key=lambda p: p.pool_offset)
    offset = 0
    for p in conflicts:
        if offset + unit.bytes <= p.pool_offset:
            break
        offset = max(offset, _align(p.pool_offset + p.bytes, unit.alignment))
    return offset if offset + unit.bytes <= pool_bytes else None


def compute(candidates: list[Candidate], pool_bytes: int, engine: str) -> Schedule:
    """Units, pool offsets and source offsets for `candidates` (in the plan's tensors[] order)."""
    schedule = Schedule()
    groups: dict[int, list[Candidate]] = {}
    for c in candidates:
        groups.setdefault(min(c.readers), []).append(c)
    placed: list[Unit] = []
    for first in sorted(groups):
        members = list(groups[first])
        while members:
            offsets, size, alignment = span(members)
            unit = Unit(id=len(placed), tensors=members, offsets=offsets, bytes=size, alignment=alignment,
                        issue_position=first - 1, wait_before=first,
                        last_reader=max(r for c in members for r in c.readers), engine=engine)
            offset = _fit(unit, placed, pool_bytes)
            if offset is not None:
                unit.pool_offset = offset
                placed.append(unit)
                break
            largest = max(members, key=lambda c: (c.bytes, -members.index(c)))
            reason = ("larger than the stream pool" if largest.bytes > pool_bytes else
                      "no room in the stream pool while its unit is live")
            schedule.dropped.append((largest, reason))
            members = [c for c in members if c is not largest]
    # Issue order: by issue point, then by id (already so: units are made in reader order).
    for u in placed:
        source = u.tensors[0].memory
        if any(c.memory != source for c in u.tensors):
            # One transfer reads one memory: split by memory is not needed while rules give a unit's
            # constants one cold memory; keep the first memory's constants, the rest stay direct.
            keep = [c for c in u.tensors if c.memory == source]
            for c in u.tensors:
                if c.memory != source:
                    schedule.dropped.append((c, f"stored in {c.memory}, not {source} like its unit"))
            u.tensors = keep
            u.offsets, u.bytes, u.alignment = span(keep)
        u.source_memory = source
        u.source_offset = _align(schedule.sources.get(source, 0), u.alignment)
        schedule.sources[source] = u.source_offset + u.bytes
    schedule.units = placed
    return schedule


def pool_high_water(schedule: Schedule) -> int:
    """Bytes of the pool the schedule uses."""
    return max((u.pool_offset + u.bytes for u in schedule.units), default=0)

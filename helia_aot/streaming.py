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
    source: str = "compiler"  # "plan" when read from optimization.plan (apply)

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


@dataclass(frozen=True)
class GivenUnit:
    """A unit as a plan states it (schedule.units[]): the input fields only."""

    tensors: tuple[str, ...]
    pool_offset: int
    issue_after: str | None
    engine: str


MAX_UNITS = 65535


def apply(given: list[GivenUnit], candidates: list[Candidate], pool_bytes: int, positions: dict[str, int]
          ) -> Schedule:
    """A schedule read from a plan, checked and with its derived fields: `candidates` are the
    constants whose rules permit stream (by id), `positions` maps operator ids to positions. Every
    violation is an InvalidConfigError naming the unit or tensor."""
    from .errors import InvalidConfigError

    def fail(message):
        raise InvalidConfigError(f"optimization.plan schedule: {message}", "Fix the unit or convert without it")

    if len(given) > MAX_UNITS:
        fail(f"{len(given)} units, more than {MAX_UNITS}")
    by_id = {c.id: c for c in candidates}
    order = {c.id: i for i, c in enumerate(candidates)}
    seen: dict[str, int] = {}
    schedule = Schedule(source="plan")
    for i, g in enumerate(given):
        where = f"units[{i}]"
        if g.engine not in ("cpu", "dma"):
            fail(f"{where}.engine {g.engine!r} is not offered (cpu or dma)")
        members = []
        for name in g.tensors:
            if name not in by_id:
                fail(f"{where} streams '{name}', which is not a constant whose rules permit stream")
            if name in seen:
                fail(f"{where} streams '{name}', already in units[{seen[name]}]")
            seen[name] = i
            members.append(by_id[name])
        if not members:
            fail(f"{where} names no tensor")
        members.sort(key=lambda c: order[c.id])
        if len({c.memory for c in members}) > 1:
            fail(f"{where} holds constants stored in {sorted({c.memory for c in members})}, not one memory")
        if g.issue_after is not None and g.issue_after not in positions:
            fail(f"{where}.issue_after {g.issue_after!r} is not an operator id")
        issue = positions[g.issue_after] if g.issue_after is not None else -1
        first = min(r for c in members for r in c.readers)
        if issue >= first:
            fail(f"{where} is issued after operator {issue}, not before its first reader {first}")
        offsets, size, alignment = span(members)
        if g.pool_offset < 0 or g.pool_offset % alignment:
            fail(f"{where}.pool_offset {g.pool_offset} is not a multiple of its span alignment {alignment}")
        if g.pool_offset + size > pool_bytes:
            fail(f"{where} ({size} B at {g.pool_offset}) does not fit the {pool_bytes} B pool")
        unit = Unit(id=i, tensors=members, offsets=offsets, bytes=size, alignment=alignment, issue_position=issue,
                    wait_before=first, last_reader=max(r for c in members for r in c.readers), engine=g.engine,
                    pool_offset=g.pool_offset)
        lo, hi = unit.live
        for other in schedule.units:
            meets = other.live[0] <= hi and lo <= other.live[1]
            if meets and other.pool_offset < unit.pool_offset + unit.bytes and \
                    unit.pool_offset < other.pool_offset + other.bytes:
                fail(f"{where} overlaps units[{other.id}] in the pool while both are live")
        schedule.units.append(unit)
    for u in schedule.units:
        source = u.tensors[0].memory
        u.source_memory = source
        u.source_offset = _align(schedule.sources.get(source, 0), u.alignment)
        schedule.sources[source] = u.source_offset + u.bytes
    return schedule

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

from helia_aot.errors import InvalidConfigError


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
    source: str = "compiler"  # the plan's schedule.source: compiler, or what a plan read as input said
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
            # The unit now ends with its own constants' last reader, as from_plan derives it when the plan is
            # read back (the pool bytes it was fitted to, for the longer range, stay its own).
            u.last_reader = max(r for c in keep for r in c.readers)
        u.source_memory = source
        u.source_offset = _align(schedule.sources.get(source, 0), u.alignment)
        schedule.sources[source] = u.source_offset + u.bytes
    schedule.units = placed
    return schedule


def pool_high_water(schedule: Schedule) -> int:
    """Bytes of the pool the schedule uses."""
    return max((u.pool_offset + u.bytes for u in schedule.units), default=0)


# -- a schedule read from a plan (optimization.plan) -------------------------------------------------------

MAX_UNITS = 65535


def _refuse(what: str, hint: str = "Fix the plan's schedule, or remove its units to let the compiler compute one"):
    return InvalidConfigError(f"optimization.plan schedule: {what}", hint)


def from_plan(given, candidates: list[Candidate], pool, op_ids: list[str], not_staged: dict[str, str],
              reasons: dict[str, str]) -> Schedule:
    """The units a plan's schedule (plan.Schedule) states, checked against this conversion: the
    constants that may stream (`candidates`, in tensors[] order), the pool, and the operators (`op_ids`
    by position). `not_staged` names constants whose rules permit stream but that cannot be staged,
    with the reason. Each problem is an error naming the unit or the constant."""
    schedule = Schedule(source=given.source)
    pool_bytes = pool.bytes
    if given.pool is not None:
        for name in ("memory", "bytes", "alignment"):
            stated, derived = getattr(given.pool, name), getattr(pool, name)
            if stated != derived:
                raise _refuse(f"pool.{name} is stated as {stated!r}; memory.stream_pool gives {derived!r}",
                              "Configure memory.stream_pool as the plan states, or remove schedule.pool")
    if len(given.units) > MAX_UNITS:
        raise _refuse(f"{len(given.units)} units, at most {MAX_UNITS}")
    by_id = {c.id: c for c in candidates}
    order = {c.id: i for i, c in enumerate(candidates)}
    position = {op_id: i for i, op_id in enumerate(op_ids)}
    owner: dict[str, int] = {}
    last_issue = -1
    for i, u in enumerate(given.units):
        where = f"units[{i}]"
        if u.id != i:
            raise _refuse(f"{where}.id is {u.id}; a unit's id is its position in the list, {i}")
        if u.engine != pool.engine:
            raise _refuse(f"{where}.engine is {u.engine!r}; memory.stream_pool.engine offers {pool.engine!r}",
                          f"Set engine: {pool.engine}, or configure memory.stream_pool.engine: {u.engine}")
        if not u.tensors:
            raise _refuse(f"{where} copies no constant", "Remove the unit or name its constants")
        members = []
        for name in u.tensors:
            if name in owner:
                raise _refuse(f"constant '{name}' is in units[{owner[name]}] and {where}; each streamed constant "
                              "is in exactly one unit")
            if name not in by_id:
                why = not_staged.get(name, "its memory.tensors rules do not permit stream")
                raise _refuse(f"{where} streams constant '{name}', which cannot stream: {why}")
            owner[name] = i
            members.append(by_id[name])
        if [order[c.id] for c in members] != sorted(order[c.id] for c in members):
            raise _refuse(f"{where} lists its constants out of the plan's tensors[] order",
                          f"List them as tensors[] does: {sorted(u.tensors, key=order.get)}")
        memories = sorted({c.memory for c in members})
        if len(memories) > 1:
            raise _refuse(f"{where} copies constants stored in {' and '.join(memories)}; a unit reads one memory")
        if u.issue_after is None:
            issue = -1
        elif u.issue_after in position:
            issue = position[u.issue_after]
        else:
            raise _refuse(f"{where}.issue_after {u.issue_after!r} is not an operator of this conversion")
        first = min(r for c in members for r in c.readers)
        last = max(r for c in members for r in c.readers)
        if issue >= first:
            raise _refuse(f"{where} is issued after {op_ids[issue]} (position {issue}), not before its first reader "
                          f"{op_ids[first]} (position {first})")
        if issue < last_issue:
            raise _refuse(f"{where} is issued before units[{i - 1}]; units are listed in issue order")
        last_issue = issue
        offsets, size, alignment = span(members)
        if u.pool_offset < 0 or u.pool_offset % alignment:
            raise _refuse(f"{where}.pool_offset {u.pool_offset} is not a multiple of its span alignment {alignment}")
        if u.pool_offset + size > pool_bytes:
            raise _refuse(f"{where} ends at pool byte {u.pool_offset + size}, past the stream pool's {pool_bytes} B")
        unit = Unit(id=i, tensors=members, offsets=offsets, bytes=size, alignment=alignment, issue_position=issue,
                    wait_before=first, last_reader=last, engine=u.engine, pool_offset=u.pool_offset,
                    source_memory=memories[0])
        for other in schedule.units:
            meet = other.live[0] <= unit.live[1] and unit.live[0] <= other.live[1]
            if meet and other.pool_offset < unit.pool_offset + unit.bytes \
                    and unit.pool_offset < other.pool_offset + other.bytes:
                raise _refuse(f"{where} and units[{other.id}] are live at once and overlap in pool bytes")
        for field_name, derived in (("bytes", size), ("source_memory", memories[0]),
                                    ("wait_before", op_ids[first]), ("last_reader", op_ids[last])):
            stated = getattr(u, field_name)
            if stated is not None and stated != derived:
                raise _refuse(f"{where}.{field_name} is stated as {stated!r}; this conversion derives {derived!r}",
                              "Remove the derived field or state it as derived")
        schedule.units.append(unit)
    for u in schedule.units:  # source offsets: one span per unit, in unit order, per memory (a stated one is ignored)
        u.source_offset = _align(schedule.sources.get(u.source_memory, 0), u.alignment)
        schedule.sources[u.source_memory] = u.source_offset + u.bytes
    for c in candidates:
        if c.id not in owner:
            schedule.dropped.append((c, reasons.get(c.id, "no unit of the plan's schedule names it")))
    return schedule

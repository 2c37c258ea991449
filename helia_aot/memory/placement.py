# SPDX-License-Identifier: Apache-2.0
"""Memory placement: the memory.tensors rules (checked by helia_aot/config/memory_rules.py) applied to
one graph, budgets (memory.constraints), constant staging and the stream pool.

`Placer.memory_for` tells the arena planner which arena each activation goes to and
`Placer.persistent_memory` where the persistent arena lives; `Placer.place_constants` decides every
constant's residency (direct, pin, stream; helia_aot/memory/streaming.py lays out the pool) and
`check_budgets` enforces memory.constraints. `expressions` gives the C expressions operator bodies read
a staged or streamed constant through. With no rules, no stream pool and no sections, nothing here
changes the module.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from helia_aot.config.memory_rules import PlacementOptions, Rule, fail as _fail
from helia_aot.emit import symbols
from helia_aot.errors import warning
from helia_aot.memory import streaming



# --------------------------------------------------------------------------- matching


@dataclass
class Merged:
    """The attributes the rules give one tensor, with the rule that set each."""

    values: dict[str, str] = field(default_factory=dict)
    by: dict[str, Rule] = field(default_factory=dict)
    matched: bool = False


def _matches(rule: Rule, kind: str, tensor_id: str, operator_ids: set[str]) -> bool:
    if rule.type is not None and rule.type != kind:
        return False
    if rule.id is not None and rule.id != tensor_id:
        return False
    return rule.operator is None or rule.operator in operator_ids


def merge(rules, kind: str, tensor_id: str, operator_ids: set[str], into: Merged | None = None) -> Merged:
    """Every matching rule's attributes, in order; two rules giving one attribute different values
    is an InvalidConfigError naming both."""
    merged = into or Merged()
    for rule in rules:
        if not _matches(rule, kind, tensor_id, operator_ids):
            continue
        merged.matched = True
        for key, value in rule.attributes:
            if key != "memory" and kind != "constant":
                _fail(f"{rule.where} sets {key} on {kind} '{tensor_id}'; {key} applies to constants",
                      "Add type: constant to the rule")
            if key in merged.values and merged.values[key].lower() != value.lower():
                first = merged.by[key]
                _fail(f"{first.where} and {rule.where} both match {kind} '{tensor_id}' and set {key} to "
                      f"{merged.values[key]!r} and {value!r}", "Make the rules disjoint or give them one value")
            merged.values.setdefault(key, value)
            merged.by.setdefault(key, rule)
    values = merged.values
    stream_or_direct = values.get("residency") in ("direct", "stream")
    if stream_or_direct and "constant_destination_memory" in values:
        a, b = merged.by["residency"], merged.by["constant_destination_memory"]
        _fail(f"{a.where} and {b.where} both match {kind} '{tensor_id}' and set residency "
              f"{values['residency']} and constant_destination_memory {values['constant_destination_memory']} "
              "(a staged copy is residency pin)", "Make the rules disjoint")
    if values.get("residency") == "pin" and "constant_destination_memory" not in values:
        _fail(f"{merged.by['residency'].where} sets residency pin for constant '{tensor_id}' but no rule gives it "
              "a constant_destination_memory", "Add constant_destination_memory: DTCM")
    return merged


def check_rules_matched(rules, seen: set[int]) -> None:
    """A rule naming an id or an operator that matched no tensor is a typo."""
    for rule in rules:
        if rule.index not in seen and (rule.id is not None or rule.operator is not None):
            what = " and ".join(f"{k} {v!r}" for k, v in (("type", rule.type), ("id", rule.id),
                                                          ("operator", rule.operator)) if v is not None)
            _fail(f"{rule.where} ({what}) matches no tensor of the model",
                  "Check the name against the plan's tensors[].id and operators[].id")


def matching_rules(rules, kind, tensor_id, operator_ids) -> set[int]:
    return {r.index for r in rules if _matches(r, kind, tensor_id, operator_ids)}


# --------------------------------------------------------------------------- the placement stage


@dataclass(frozen=True)
class PlacedConstant:
    symbol: str
    id: str
    requested: str | None
    residency: str  # direct, pin or stream
    memory: str  # where its bytes are stored
    destination: str | None  # pin: the memory of the runtime copy the kernels read
    readers: tuple[int, ...]
    unit: int | None = None
    pool_offset: int | None = None


@dataclass
class ConstantPlacement:
    constants: dict[str, PlacedConstant]  # symbol -> placement
    schedule: object | None  # streaming.Schedule when a stream pool is configured
    warnings: list[str]


def _operator_ids(step) -> set[str]:
    return {step.op_id, f"n{step.op.index}"}


class Placer:
    """Applies the rules to one graph, stage by stage, remembering which rules matched something."""

    def __init__(self, graph, steps, options):
        self.graph, self.steps, self.options = graph, steps, options
        self.placement: PlacementOptions = options.placement or PlacementOptions()
        self.rules = self.placement.rules
        self.seen: set[int] = set()
        self.touching: dict[int, set[str]] = {}  # tensor -> ids of the operators reading or writing it
        for s in steps:
            for t in [*s.op.inputs, *s.op.outputs]:
                if t >= 0:
                    self.touching.setdefault(t, set()).update(_operator_ids(s))

    def _merge(self, kind: str, tensor_id: str, operators: set[str], into: Merged | None = None) -> Merged:
        self.seen |= matching_rules(self.rules, kind, tensor_id, operators)
        return merge(self.rules, kind, tensor_id, operators, into)

    def _kind(self, t: int) -> str:
        if t in self.graph.inputs:
            return "input"
        if t in self.graph.outputs:
            return "output"
        return "activation"

    def memory_for(self, root: int, members: list[int]):
        """The planner's callback: the memory of the arena holding `root` (None: the scratch arena)."""
        merged = Merged()
        for t in members:
            self._merge(self._kind(t), self.graph.tensors[t].name, self.touching.get(t, set()), merged)
        memory = merged.values.get("memory")
        target = self.options.target
        if memory is None or memory.lower() == target.scratch_memory.lower():
            return None
        rule = merged.by["memory"]
        name = self.graph.tensors[root].name
        if not target.memory(memory).writable:
            _fail(f"{rule.where} places {self._kind(root)} '{name}' in {memory}, which is read-only on target "
                  f"{target.name}", "Give the rule type: constant, or name a writable memory")
        if self.options.arena == "caller":
            _fail(f"{rule.where} places {self._kind(root)} '{name}' in {memory}, but module.arena caller binds one "
                  f"scratch arena (in {target.scratch_memory})", "Use module.arena static with activation rules")
        return target.memory(memory).name

    def persistent_memory(self) -> str:
        """The persistent arena's memory: what type persistent rules give every variable tensor."""
        chosen: Merged | None = None
        for t in sorted({t for op in self.graph.operators for t in op.inputs
                         if t >= 0 and self.graph.tensors[t].is_variable}):
            merged = self._merge("persistent", self.graph.tensors[t].name, self.touching.get(t, set()))
            memory = merged.values.get("memory")
            if memory is None:
                continue
            if chosen is not None and chosen.values["memory"].lower() != memory.lower():
                _fail(f"{chosen.by['memory'].where} and {merged.by['memory'].where} put variable tensors in "
                      f"{chosen.values['memory']} and {memory}; the persistent arena is one block",
                      "Give every persistent tensor one memory")
            if not self.options.target.memory(memory).writable:
                _fail(f"{merged.by['memory'].where} places persistent tensor '{self.graph.tensors[t].name}' in "
                      f"read-only {memory}", "Name a writable memory")
            chosen = chosen or merged
        return self.options.target.memory(chosen.values["memory"]).name if chosen else self.options.persistent_memory

    def place_constants(self, table, code, given_schedule=None) -> ConstantPlacement:
        """Constants into their memories, staged copies and the stream pool; `given_schedule`, the
        schedule of a plan read as input (optimization.plan), replaces the one the compiler computes."""
        prefix, target = self.options.prefix, self.options.target
        readers: dict[str, list[int]] = {}
        for s, c in zip(self.steps, code):
            for d in s.lowering.constants:
                readers.setdefault(symbols.derived_symbol(prefix, s.position, d.suffix), []).append(s.position)
            for t in c.tensor_constants:
                readers.setdefault(symbols.tensor_symbol(prefix, t), []).append(s.position)
        placed: dict[str, PlacedConstant] = {}
        candidates, warnings = [], []
        by_position = {s.position: s for s in self.steps}
        for c in table.constants:
            positions = tuple(readers.get(c.symbol, ()))
            operators = set().union(*(_operator_ids(by_position[p]) for p in positions)) if positions else set()
            merged = self._merge("constant", c.id, operators)
            values = merged.values
            memory = target.memory(values["memory"]).name if "memory" in values else target.constant_memory
            destination = values.get("constant_destination_memory")
            requested = values.get("residency") or ("pin" if destination else ("direct" if merged.matched else None))
            if destination and not positions:
                warnings.append(warning(f"constant '{c.id}' is read at initialisation, not by an operator, so it is "
                                        f"not staged into {destination}",
                                        "remove constant_destination_memory from the memory.tensors rules "
                                        "matching it"))
                destination = None
            residency = "pin" if destination else "direct"
            placed[c.symbol] = PlacedConstant(c.symbol, c.id, requested, residency, memory,
                                              target.memory(destination).name if destination else None, positions)
            if requested == "stream":
                if not positions:
                    warnings.append(warning(f"constant '{c.id}' may stream but is read at initialisation, not by "
                                            "an operator, so it stays direct",
                                            "remove residency stream from the memory.tensors rules matching it"))
                else:
                    candidates.append(streaming.Candidate(c.id, c.symbol, c.bytes, c.alignment, memory, positions))
        schedule = None
        pool = self.placement.stream_pool
        given = given_schedule
        if pool is not None:
            if given is not None:
                not_staged = {c.id: "it is read at initialisation, not by an operator"
                              for c in table.constants if placed[c.symbol].requested == "stream"
                              and not placed[c.symbol].readers}
                computed = streaming.compute(candidates, pool.bytes, pool.engine)
                schedule = streaming.from_plan(given, candidates, pool, [s.op_id for s in self.steps], not_staged,
                                               {c.id: reason for c, reason in computed.dropped})
            else:
                schedule = streaming.compute(candidates, pool.bytes, pool.engine)
            for cand, reason in schedule.dropped:
                warnings.append(warning(f"constant '{cand.id}' ({cand.bytes} B) could stream but stays direct: "
                                        f"{reason} ({pool.bytes} B)",
                                        "enlarge memory.stream_pool.bytes to stream it, or drop residency stream "
                                        "from its rules to keep it direct"))
            for u in schedule.units:
                for cand, off in zip(u.tensors, u.offsets):
                    old = placed[cand.symbol]
                    placed[cand.symbol] = PlacedConstant(old.symbol, old.id, old.requested, "stream", old.memory,
                                                         None, old.readers, u.id, u.pool_offset + off)
        check_rules_matched(self.rules, self.seen)
        return ConstantPlacement(placed, schedule, warnings)


def expressions(prefix: str, table, placed: ConstantPlacement) -> dict[str, str]:
    """symbol -> the C expression operator bodies read a pinned or streamed constant through. Both
    keep the array's type, so sizeof() in a template still gives its bytes."""
    out = {}
    for c in table.constants:
        p = placed.constants[c.symbol]
        count = max(int(c.values.size), 1)
        if p.residency == "pin":
            out[c.symbol] = symbols.staged_symbol(c.symbol)
        elif p.residency == "stream":
            pool = symbols.stream_pool_symbol(prefix)
            out[c.symbol] = f"(*(const {c.ctype} (*)[{count}])(const void *)({pool} + {p.pool_offset}))"
    return out


# --------------------------------------------------------------------------- budgets


def memory_use(options, layout, table, placed: ConstantPlacement | None, persistent_memory: str
               ) -> dict[str, list[tuple[str, int]]]:
    """memory -> (what, bytes) of everything the module puts there."""
    use: dict[str, list[tuple[str, int]]] = {}

    def add(memory, what, n):
        if n:
            use.setdefault(options.target.memory(memory).name, []).append((what, n))

    add(options.target.scratch_memory, "scratch arena", layout.arena.arena_bytes)
    for memory, arena in layout.extra:
        add(memory, "activation arena", arena.arena_bytes)
    add(persistent_memory, "persistent arena", layout.persistent_bytes)
    const_bytes: dict[str, int] = {}
    staged: dict[str, int] = {}
    if placed is None:
        const_bytes[options.target.constant_memory] = table.total_bytes
    for c in (table.constants if placed is not None else ()):
        p = placed.constants[c.symbol]
        if p.residency != "stream":
            const_bytes[p.memory] = const_bytes.get(p.memory, 0) + c.bytes
        if p.destination:
            staged[p.destination] = staged.get(p.destination, 0) + c.bytes
    for memory, n in const_bytes.items():
        add(memory, "constants", n)
    if placed is not None and placed.schedule is not None:
        for memory, n in placed.schedule.sources.items():
            add(memory, "streamed constants", n)
    for memory, n in staged.items():
        add(memory, "staged constants", n)
    pool = options.placement.stream_pool if getattr(options, "placement", None) else None
    if pool is not None:
        add(pool.memory, "stream pool", pool.bytes)
    return use


def check_budgets(options, use: dict[str, list[tuple[str, int]]]) -> None:
    """memory.constraints: the first memory over its budget is an InvalidConfigError naming it,
    the budget and what it holds."""
    for memory, budget in (options.placement.constraints if getattr(options, "placement", None) else ()):
        parts = use.get(memory, [])
        total = sum(n for _, n in parts)
        if total > budget:
            held = ", ".join(f"{what} {n} B" for what, n in parts)
            _fail(f"memory.constraints: {memory} budget {budget} B exceeded by {total - budget} B "
                  f"({total} B: {held})", f"Raise the budget or move tensors out of {memory} with memory.tensors")

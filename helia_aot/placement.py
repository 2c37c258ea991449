# SPDX-License-Identifier: Apache-2.0
"""Memory placement: memory.tensors rules, budgets (memory.constraints), constant staging and the
stream pool, and the linker sections arrays carry.

`parse` checks the configuration against the target once (options stage). `activation_memory`
tells the planner which arena each activation goes to. `place_constants` decides every constant's
residency (direct, pin, stream; streaming.schedule lays out the pool) and `check_budgets` enforces
memory.constraints. With no rules, no stream pool and no sections, nothing here changes the module.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .config import rename_hint
from .errors import InvalidConfigError

TENSOR_TYPES = ("constant", "activation", "input", "output", "persistent")
RESIDENCIES = ("direct", "pin", "stream")
ENGINES = ("cpu", "dma")
_RULE_KEYS = ("type", "id", "operator", "attributes")
_ATTRIBUTES = ("memory", "residency", "constant_destination_memory")
# The alignment a stream pool has at least: a constant's own (codegen.CONSTANT_ALIGNMENT).
POOL_ALIGNMENT = 16
# Targets whose toolchains place nothing by section name: no default sections.
_NO_SECTIONS = ("host",)


@dataclass(frozen=True)
class Rule:
    index: int
    type: str | None
    id: str | None
    operator: str | None
    attributes: tuple[tuple[str, str], ...]

    @property
    def where(self) -> str:
        return f"memory.tensors[{self.index}]"


@dataclass(frozen=True)
class StreamPool:
    memory: str
    bytes: int
    engine: str = "cpu"
    alignment: int = POOL_ALIGNMENT


@dataclass(frozen=True)
class PlacementOptions:
    rules: tuple[Rule, ...] = ()
    constraints: tuple[tuple[str, int], ...] = ()
    stream_pool: StreamPool | None = None
    # memory -> (section of constants stored there, section of writable buffers there); a memory
    # missing here gets no section attribute.
    sections: tuple[tuple[str, str | None, str | None], ...] = ()
    emit_sections: bool = False  # rules, a stream pool or sections are configured

    @property
    def active(self) -> bool:
        return bool(self.rules or self.stream_pool is not None or self.emit_sections)

    def section(self, memory: str, kind: str) -> str | None:
        """The section of a `kind` ("constants" or "buffers") array in `memory`, when emitted."""
        if not self.emit_sections:
            return None
        for name, constants, buffers in self.sections:
            if name.lower() == memory.lower():
                return constants if kind == "constants" else buffers
        return None


def _fail(message: str, hint: str):
    raise InvalidConfigError(message, hint)


def _memory_name(target, value, where: str, *, writable: bool = False) -> str:
    names = [m.name for m in target.memories]
    if not isinstance(value, str) or target.memory(value) is None:
        _fail(f"{where} {value!r} is not a memory of target {target.name} ({names})",
              rename_hint(value, names, "Name one of the target's memories"))
    memory = target.memory(value)
    if writable and not memory.writable:
        _fail(f"{where} {memory.name!r} is read-only on target {target.name}", "Name a writable memory")
    return memory.name


def _parse_rule(index: int, spec, target) -> Rule:
    where = f"memory.tensors[{index}]"
    if not isinstance(spec, dict):
        _fail(f"{where} must be a mapping with type, id, operator and attributes, got {type(spec).__name__}",
              "Write each rule as a mapping")
    for key in spec:
        if key not in _RULE_KEYS:
            _fail(f"{where}: unknown key {key!r} (allowed: {list(_RULE_KEYS)})",
                  rename_hint(key, _RULE_KEYS, "Remove or rename the key"))
    kind = spec.get("type")
    if kind is not None and kind not in TENSOR_TYPES:
        _fail(f"{where}.type is {kind!r}, allowed values are {list(TENSOR_TYPES)}",
              rename_hint(kind, TENSOR_TYPES, f"Use one of {list(TENSOR_TYPES)}"))
    for key in ("id", "operator"):
        if key in spec and not isinstance(spec[key], str):
            _fail(f"{where}.{key} must be a string, got {type(spec[key]).__name__} {spec[key]!r}", "Quote it")
    attributes = spec.get("attributes")
    if not isinstance(attributes, dict) or not attributes:
        _fail(f"{where} has no attributes (set memory, residency or constant_destination_memory)",
              "Add attributes: {memory: ...}")
    out = []
    for key, value in attributes.items():
        if key not in _ATTRIBUTES:
            _fail(f"{where}.attributes: unknown attribute {key!r} (allowed: {list(_ATTRIBUTES)})",
                  rename_hint(key, _ATTRIBUTES, "Remove or rename the attribute"))
        if key == "residency":
            if value not in RESIDENCIES:
                _fail(f"{where}.attributes.residency is {value!r}, allowed values are {list(RESIDENCIES)}",
                      rename_hint(value, RESIDENCIES, f"Use one of {list(RESIDENCIES)}"))
        else:
            writable = key == "constant_destination_memory" or (key == "memory" and kind not in (None, "constant"))
            value = _memory_name(target, value, f"{where}.attributes.{key}", writable=writable)
        if key != "memory" and kind not in (None, "constant"):
            _fail(f"{where} sets {key} on type {kind}; {key} applies to constants", "Use type: constant")
        out.append((key, value))
    attrs = dict(out)
    if attrs.get("residency") in ("direct", "stream") and "constant_destination_memory" in attrs:
        _fail(f"{where} sets residency {attrs['residency']} and constant_destination_memory (a staged copy is "
              "residency pin)", "Drop one of them")
    return Rule(index, kind, spec.get("id"), spec.get("operator"), tuple(out))


def _parse_pool(spec, target) -> StreamPool:
    where = "memory.stream_pool"
    if not isinstance(spec, dict):
        _fail(f"{where} must be a mapping {{memory, bytes}}, got {type(spec).__name__}", "Give memory and bytes")
    for key in spec:
        if key not in ("memory", "bytes", "engine"):
            _fail(f"{where}: unknown key {key!r} (allowed: ['bytes', 'engine', 'memory'])",
                  rename_hint(key, ("memory", "bytes", "engine"), "Remove or rename the key"))
    memory = _memory_name(target, spec.get("memory"), f"{where}.memory", writable=True)
    size = spec.get("bytes")
    if not isinstance(size, int) or isinstance(size, bool) or not 0 < size <= target.memory(memory).size:
        _fail(f"{where}.bytes must be a number of bytes from 1 to the size of {memory} "
              f"({target.memory(memory).size}), got {size!r}", "Give the pool's size in bytes")
    engine = spec.get("engine", "cpu")
    if engine not in ENGINES:
        _fail(f"{where}.engine is {engine!r}, allowed values are {list(ENGINES)}",
              rename_hint(engine, ENGINES, "Use cpu or dma"))
    return StreamPool(memory, size, engine, max(POOL_ALIGNMENT, target.arena_alignment))


def _section_name(value, where: str) -> str:
    if not isinstance(value, str) or not re.match(r"^[A-Za-z0-9_.$]{1,64}$", value):
        _fail(f"{where} must be a section name of letters, digits, '_', '.' or '$', got {value!r}",
              "e.g. .helia.const.dtcm")
    return value


def _default_sections(target) -> dict[str, tuple[str | None, str | None]]:
    if target.name in _NO_SECTIONS:
        return {}
    return {m.name: (f".helia.const.{_slug(m.name)}", f".bss.helia.{_slug(m.name)}") for m in target.memories}


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9_]", "_", name.lower())


def parse(memory: dict, target, arena_mode: str) -> PlacementOptions:
    """memory.tensors, memory.constraints, memory.stream_pool and memory.sections checked against
    the target; InvalidConfigError names the key."""
    rules_spec, constraints_spec = memory.get("tensors"), memory.get("constraints")
    pool_spec, sections_spec = memory.get("stream_pool"), memory.get("sections")
    rules = tuple(_parse_rule(i, r, target) for i, r in enumerate(rules_spec or []))
    constraints = []
    for name, budget in (constraints_spec or {}).items():
        name = _memory_name(target, name, "memory.constraints names memory")
        if not isinstance(budget, int) or isinstance(budget, bool) or budget < 0:
            _fail(f"memory.constraints.{name} must be a number of bytes, got {budget!r}", "Give the budget in bytes")
        constraints.append((name, budget))
    pool = _parse_pool(pool_spec, target) if pool_spec is not None else None
    for rule in rules:
        if dict(rule.attributes).get("residency") == "stream" and pool is None:
            _fail(f"{rule.where} sets residency stream but memory.stream_pool is not configured",
                  "Add memory.stream_pool: {memory: DTCM, bytes: ...}")
    sections = _default_sections(target)
    for name, spec in (sections_spec or {}).items():
        name = _memory_name(target, name, "memory.sections names memory")
        if not isinstance(spec, dict) or any(k not in ("constants", "buffers") for k in spec):
            _fail(f"memory.sections.{name} must be a mapping with constants and/or buffers, got {spec!r}",
                  "e.g. {constants: .helia.const.dtcm, buffers: .bss.helia.dtcm}")
        old = sections.get(name, (None, None))
        sections[name] = (_section_name(spec["constants"], f"memory.sections.{name}.constants")
                          if "constants" in spec else old[0],
                          _section_name(spec["buffers"], f"memory.sections.{name}.buffers")
                          if "buffers" in spec else old[1])
    emit = bool(rules or pool is not None or sections_spec)
    return PlacementOptions(rules, tuple(constraints), pool, tuple((k, *v) for k, v in sections.items()), emit)


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

    def place_constants(self, table, code) -> ConstantPlacement:
        """Constants into their memories, staged copies and the stream pool; a plan's schedule
        (optimization.plan) replaces the one the compiler computes."""
        from . import emit, streaming
        prefix, target = self.options.prefix, self.options.target
        readers: dict[str, list[int]] = {}
        for s, c in zip(self.steps, code):
            for d in s.lowering.constants:
                readers.setdefault(emit.derived_symbol(prefix, s.position, d.suffix), []).append(s.position)
            for t in c.tensor_constants:
                readers.setdefault(emit.tensor_symbol(prefix, t), []).append(s.position)
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
                warnings.append(f"constant '{c.id}' is read at initialisation, not by an operator; it is not staged "
                                f"into {destination}")
                destination = None
            residency = "pin" if destination else "direct"
            placed[c.symbol] = PlacedConstant(c.symbol, c.id, requested, residency, memory,
                                              target.memory(destination).name if destination else None, positions)
            if requested == "stream":
                if not positions:
                    warnings.append(f"constant '{c.id}' may stream but is read at initialisation, not by an "
                                    "operator; it stays direct")
                else:
                    candidates.append(streaming.Candidate(c.id, c.symbol, c.bytes, c.alignment, memory, positions))
        schedule = None
        pool = self.placement.stream_pool
        given = getattr(self.options, "plan_schedule", None)  # optimization.plan's schedule (plan_input.py)
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
                warnings.append(f"constant '{cand.id}' ({cand.bytes} B) could stream but stays direct: {reason} "
                                f"({pool.bytes} B)")
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
            out[c.symbol] = staged_symbol(c.symbol)
        elif p.residency == "stream":
            out[c.symbol] = f"(*(const {c.ctype} (*)[{count}])(const void *)({prefix}_stream_pool + {p.pool_offset}))"
    return out


def staged_symbol(symbol: str) -> str:
    return f"{symbol}_staged"


def arena_symbol(prefix: str, memory: str) -> str:
    return f"{prefix}_arena_{_slug(memory)}"


def stream_source_symbol(prefix: str, memory: str) -> str:
    return f"{prefix}_stream_{_slug(memory)}"


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


def plan_and_place(graph, steps, options):
    """The memory, operator code and constant stages under the placement rules: returns the
    options (persistent memory resolved), layout, operator code, constant table, the constants'
    placement (None without rules or a stream pool) and its warnings. Budgets are checked here."""
    from dataclasses import replace

    from . import emit, planner
    given = getattr(options, "plan_schedule", None)
    if given is not None and given.units and (options.placement is None or options.placement.stream_pool is None):
        raise InvalidConfigError(f"optimization.plan schedule: {len(given.units)} units, but memory.stream_pool is "
                                 "not configured", "Configure memory.stream_pool as the conversion that wrote the "
                                                   "plan did")
    placer = Placer(graph, steps, options) if options.placement is not None and options.placement.active else None
    layout = planner.plan_memory(graph, steps, options.target.arena_alignment,
                                 placer.memory_for if placer is not None else None, options.optimization.rewrites)
    code = emit.render_operators(graph, steps, layout, options)
    table = emit.constant_table(graph, steps, code, options.prefix, layout.persistent)
    placed = None
    if placer is not None:
        options = replace(options, persistent_memory=placer.persistent_memory())
        placed = placer.place_constants(table, code)
        symbols = expressions(options.prefix, table, placed)
        if symbols:
            code = emit.render_operators(graph, steps, layout, options, symbols)
    check_budgets(options, memory_use(options, layout, table, placed, options.persistent_memory))
    return options, layout, code, table, placed, (placed.warnings if placed is not None else [])

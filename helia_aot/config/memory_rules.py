# SPDX-License-Identifier: Apache-2.0
"""The configuration's memory section beyond the arena keys: memory.tensors rules, memory.constraints,
memory.stream_pool and memory.sections, checked against the target once (the options stage). The
placement stage (helia_aot/memory/placement.py) applies them."""

from __future__ import annotations

import re
from dataclasses import dataclass

from helia_aot.emit.symbols import slug
from helia_aot.errors import InvalidConfigError, brief, rename_hint

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


def fail(message: str, hint: str):
    raise InvalidConfigError(message, hint)


def _memory_name(target, value, where: str, *, writable: bool = False) -> str:
    names = [m.name for m in target.memories]
    if not isinstance(value, str) or target.memory(value) is None:
        fail(f"{where} {brief(value)} is not a memory of target {target.name} ({names})",
              rename_hint(value, names, "Name one of the target's memories"))
    memory = target.memory(value)
    if writable and not memory.writable:
        fail(f"{where} {brief(memory.name)} is read-only on target {target.name}", "Name a writable memory")
    return memory.name


def _parse_rule(index: int, spec, target) -> Rule:
    where = f"memory.tensors[{index}]"
    if not isinstance(spec, dict):
        fail(f"{where} must be a mapping with type, id, operator and attributes, got {type(spec).__name__}",
              "Write each rule as a mapping")
    for key in spec:
        if key not in _RULE_KEYS:
            fail(f"{where}: unknown key {brief(key)} (allowed: {list(_RULE_KEYS)})",
                  rename_hint(key, _RULE_KEYS, "Remove or rename the key"))
    kind = spec.get("type")
    if kind is not None and kind not in TENSOR_TYPES:
        fail(f"{where}.type is {brief(kind)}, allowed values are {list(TENSOR_TYPES)}",
              rename_hint(kind, TENSOR_TYPES, f"Use one of {list(TENSOR_TYPES)}"))
    for key in ("id", "operator"):
        if key in spec and not isinstance(spec[key], str):
            fail(f"{where}.{key} must be a string, got {type(spec[key]).__name__} {brief(spec[key])}", "Quote it")
    attributes = spec.get("attributes")
    if not isinstance(attributes, dict) or not attributes:
        fail(f"{where} has no attributes (set memory, residency or constant_destination_memory)",
              "Add attributes: {memory: ...}")
    out = []
    for key, value in attributes.items():
        if key not in _ATTRIBUTES:
            fail(f"{where}.attributes: unknown attribute {brief(key)} (allowed: {list(_ATTRIBUTES)})",
                  rename_hint(key, _ATTRIBUTES, "Remove or rename the attribute"))
        if key == "residency":
            if value not in RESIDENCIES:
                fail(f"{where}.attributes.residency is {brief(value)}, allowed values are {list(RESIDENCIES)}",
                      rename_hint(value, RESIDENCIES, f"Use one of {list(RESIDENCIES)}"))
        else:
            writable = key == "constant_destination_memory" or (key == "memory" and kind not in (None, "constant"))
            value = _memory_name(target, value, f"{where}.attributes.{key}", writable=writable)
        if key != "memory" and kind not in (None, "constant"):
            fail(f"{where} sets {key} on type {kind}; {key} applies to constants", "Use type: constant")
        out.append((key, value))
    attrs = dict(out)
    if attrs.get("residency") in ("direct", "stream") and "constant_destination_memory" in attrs:
        fail(f"{where} sets residency {attrs['residency']} and constant_destination_memory (a staged copy is "
              "residency pin)", "Drop one of them")
    return Rule(index, kind, spec.get("id"), spec.get("operator"), tuple(out))


def _parse_pool(spec, target) -> StreamPool:
    where = "memory.stream_pool"
    if not isinstance(spec, dict):
        fail(f"{where} must be a mapping {{memory, bytes}}, got {type(spec).__name__}", "Give memory and bytes")
    for key in spec:
        if key not in ("memory", "bytes", "engine"):
            fail(f"{where}: unknown key {brief(key)} (allowed: ['bytes', 'engine', 'memory'])",
                  rename_hint(key, ("memory", "bytes", "engine"), "Remove or rename the key"))
    memory = _memory_name(target, spec.get("memory"), f"{where}.memory", writable=True)
    size = spec.get("bytes")
    if not isinstance(size, int) or isinstance(size, bool) or not 0 < size <= target.memory(memory).size:
        fail(f"{where}.bytes must be a number of bytes from 1 to the size of {memory} "
              f"({target.memory(memory).size}), got {brief(size)}", "Give the pool's size in bytes")
    engine = spec.get("engine", "cpu")
    if engine not in ENGINES:
        fail(f"{where}.engine is {brief(engine)}, allowed values are {list(ENGINES)}",
              rename_hint(engine, ENGINES, "Use cpu or dma"))
    return StreamPool(memory, size, engine, max(POOL_ALIGNMENT, target.arena_alignment))


def _section_name(value, where: str) -> str:
    if not isinstance(value, str) or not re.fullmatch(r"[A-Za-z0-9_.$]{1,64}", value):
        fail(f"{where} must be a section name of letters, digits, '_', '.' or '$', got {brief(value)}",
              "e.g. .helia.const.dtcm")
    return value


def _default_sections(target) -> dict[str, tuple[str | None, str | None]]:
    if target.name in _NO_SECTIONS:
        return {}
    return {m.name: (f".helia.const.{slug(m.name)}", f".bss.helia.{slug(m.name)}") for m in target.memories}


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
            fail(f"memory.constraints.{name} must be a number of bytes, got {brief(budget)}", "Give the budget in bytes")
        constraints.append((name, budget))
    pool = _parse_pool(pool_spec, target) if pool_spec is not None else None
    for rule in rules:
        if dict(rule.attributes).get("residency") == "stream" and pool is None:
            fail(f"{rule.where} sets residency stream but memory.stream_pool is not configured",
                  "Add memory.stream_pool: {memory: DTCM, bytes: ...}")
    sections = _default_sections(target)
    for name, spec in (sections_spec or {}).items():
        name = _memory_name(target, name, "memory.sections names memory")
        if not isinstance(spec, dict) or any(k not in ("constants", "buffers") for k in spec):
            fail(f"memory.sections.{name} must be a mapping with constants and/or buffers, got {brief(spec)}",
                  "e.g. {constants: .helia.const.dtcm, buffers: .bss.helia.dtcm}")
        old = sections.get(name, (None, None))
        sections[name] = (_section_name(spec["constants"], f"memory.sections.{name}.constants")
                          if "constants" in spec else old[0],
                          _section_name(spec["buffers"], f"memory.sections.{name}.buffers")
                          if "buffers" in spec else old[1])
    emit = bool(rules or pool is not None or sections_spec)
    return PlacementOptions(rules, tuple(constraints), pool, tuple((k, *v) for k, v in sections.items()), emit)

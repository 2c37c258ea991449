# SPDX-License-Identifier: Apache-2.0
"""Per-operator rules: the configuration's `operators` list.

Each entry selects operators by `id` (the stable id or the node id) and/or `type`, and sets knobs
(`optimization`, the per-layer keys of the optimization section) and `attributes` (the ones the
operator type declares) for them. Entries apply in order, so a later entry wins a knob or an
attribute an earlier one also set; the plan records the winning entry. An entry that selects no
operator of the converted subgraph is an error: it is a typo or a rule for another model.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

from helia_aot import ops
from helia_aot.config.spec import SPEC, check_value
from helia_aot.errors import InvalidConfigError, brief, operator_hint, rename_hint, warning

# The optimization keys an operator entry may set: the ones that choose something per layer.
KNOBS = ("kernel",)
_MODEL_LEVEL = ("goal", "allow_approximate", "plan")


@dataclass(frozen=True)
class Rule:
    """Which operators entry won, as the plan records it."""

    position: int
    type: str | None
    id: str | None


@dataclass(frozen=True)
class Settings:
    """What the operators entries set for one operator: name -> (value as given, winning rule)."""

    knobs: dict[str, tuple[object, Rule]] = field(default_factory=dict)
    attributes: dict[str, tuple[object, Rule]] = field(default_factory=dict)


def _describe(entry: dict) -> str:
    parts = [f"{k} {brief(entry[k])}" for k in ("type", "id") if entry.get(k) is not None]
    return ", ".join(parts)


def _hint(name, choices, otherwise: str) -> str:
    return rename_hint(name, choices, otherwise)


def _check_attributes(attributes: dict, op_type: str, where: str) -> None:
    """Attribute names and values against what `op_type`'s module declares."""
    declared = ops.get(op_type).attributes
    for name, value in attributes.items():
        if name not in declared:
            takes = f"it takes {sorted(declared)}" if declared else "it takes none"
            raise InvalidConfigError(f"{where}: unknown attribute {brief(name)} for {op_type} ({takes})",
                                     _hint(name, declared, "Remove the attribute"))
        allowed = declared[name]
        if value not in allowed or isinstance(value, bool) != isinstance(allowed[0], bool):
            raise InvalidConfigError(f"{where}: attribute {name} of {op_type} is {brief(value)}, allowed values are "
                                     f"{list(allowed)}", f"Use one of {list(allowed)}")


def check_entries(body, where: str) -> list[dict]:
    """The `operators` list, checked entry by entry (keys, knob names and values, the type, and the
    attributes of a typed entry); every problem names the entry."""
    if not isinstance(body, list):
        raise InvalidConfigError(f"{where}: operators must be a list of entries, got {type(body).__name__}",
                                 "Write each entry as `- type: CONV_2D` or `- id: ...` with its settings under it")
    allowed_keys = SPEC["operators"]
    checked = []
    for i, entry in enumerate(body):
        at = f"{where}: operators[{i}]"
        if not isinstance(entry, dict):
            raise InvalidConfigError(f"{at} must be a mapping, got {type(entry).__name__}",
                                     f"Give it keys among {list(allowed_keys)}")
        unknown = [k for k in entry if k not in allowed_keys]
        if unknown:
            raise InvalidConfigError(f"{at}: unknown key(s) {unknown} (allowed: {list(allowed_keys)})",
                                     _hint(unknown[0], allowed_keys, "Remove or rename the key"))
        for key, value in entry.items():
            types = allowed_keys[key][0]
            if value is not None and (not isinstance(value, types) or isinstance(value, bool)):
                raise InvalidConfigError(f"{at}: {key} must be {' or '.join(t.__name__ for t in types)}, got "
                                         f"{type(value).__name__} {brief(value)}", f"Fix operators[{i}].{key}")
        if entry.get("id") is None and entry.get("type") is None:
            raise InvalidConfigError(f"{at} selects no operator: it has neither id nor type",
                                     "Add `type: <OPERATOR TYPE>` or `id: <operator id>` (the plan's operators[].id)")
        op_type = entry.get("type")
        if op_type is not None and ops.get(op_type) is None:
            raise InvalidConfigError(f"{at}: type {brief(op_type)} is not an operator type helia_aot lowers",
                                     operator_hint(op_type, ops.supported_operators(),
                                                   "Run `helia-aot operators` for the types it lowers"))
        knobs = entry.get("optimization") or {}
        for key, value in knobs.items():
            if key in _MODEL_LEVEL:
                raise InvalidConfigError(f"{at}: optimization.{key} is set for the whole model, not per operator",
                                         f"Set it in the optimization section; per operator: {list(KNOBS)}")
            if key not in KNOBS:
                raise InvalidConfigError(f"{at}: unknown knob optimization.{key} (per-operator knobs: {list(KNOBS)})",
                                         _hint(key, KNOBS, "Remove or rename the knob"))
            if value is None:
                raise InvalidConfigError(f"{at}: optimization.{key} has no value", "Give it a value or remove it")
            check_value("optimization", key, value, at)
        attributes = entry.get("attributes") or {}
        for name in attributes:
            if name in KNOBS or name in SPEC["optimization"]:
                raise InvalidConfigError(f"{at}: {name} is a knob, not an attribute",
                                         f"Set it under operators[{i}].optimization")
        if op_type is not None:
            _check_attributes(attributes, op_type, at)
        checked.append({"id": entry.get("id"), "type": op_type, "optimization": dict(knobs),
                        "attributes": copy.deepcopy(attributes)})
    return checked


def match(entries, graph, op_ids: list[tuple[str, str]]) -> list[Settings]:
    """Each operator's settings (by position) from `entries` (check_entries' output), in order."""
    settings = [Settings() for _ in graph.operators]
    for i, entry in enumerate(entries):
        rule = Rule(position=i, type=entry["type"], id=entry["id"])
        matched = []
        for pos, (op, (op_id, _)) in enumerate(zip(graph.operators, op_ids)):
            if entry["type"] is not None and op.op_type != entry["type"]:
                continue
            if entry["id"] is not None and entry["id"] not in (op_id, f"n{op.index}"):
                continue
            matched.append(pos)
        if not matched:
            names = [op_id for op_id, _ in op_ids] + [f"n{op.index}" for op in graph.operators]
            types = sorted({op.op_type for op in graph.operators})
            if entry["id"] is not None and entry["id"] not in names:
                hint = _hint(entry["id"], names, "Copy the id from the plan's operators[].id")
            elif entry["id"] is not None:
                hint = "The id and the type name different operators: drop one or fix the other"
            else:
                hint = f"The subgraph's operator types are {types}"
            raise InvalidConfigError(f"operators[{i}] ({_describe(entry)}) matches no operator of subgraph "
                                     f"'{graph.name}'", hint)
        for pos in matched:
            if entry["type"] is None:
                _check_attributes(entry["attributes"], graph.operators[pos].op_type,
                                  f"operators[{i}] ({_describe(entry)})")
            knobs = {**settings[pos].knobs, **{k: (v, rule) for k, v in entry["optimization"].items()}}
            attributes = {**settings[pos].attributes, **{k: (v, rule) for k, v in entry["attributes"].items()}}
            settings[pos] = Settings(knobs, attributes)
    return settings


def no_effect_warnings(steps) -> list[str]:
    """A rule that sets the kernel knob on an operator with one entry to call changes nothing: say so,
    one line per rule, naming the operators."""
    idle: dict[Rule, list[str]] = {}
    for s in steps:
        setting = s.settings.knobs.get("kernel") if s.settings is not None else None
        if setting is not None and s.knob is None:
            idle.setdefault(setting[1], []).append(s.op_id)
    return [warning(f"operators[{rule.position}] ({_describe({'type': rule.type, 'id': rule.id})}) sets "
                    f"optimization.kernel where it has no effect, on {', '.join(ids)}: those operators have a single "
                    "kernel entry", "remove the rule, or narrow it (id, type) to operators with a choice")
            for rule, ids in sorted(idle.items(), key=lambda item: item[0].position)]

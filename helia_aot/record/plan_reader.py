# SPDX-License-Identifier: Apache-2.0
"""Reading a plan as input (optimization.plan, --plan).

The plan's `schedule` is applied, so it is read strictly into plan.Schedule: a field this release does
not know under it is an error naming it (a later release adds fields there only when it applies them).
Every other section must describe the conversion the configuration produces; the first field that
differs is an error naming it with both values. The interface (the model's inputs and outputs) is
derived from the model, so a plan may leave it out; a stated one that differs means the plan was made
from another model (or a release that read it differently) and is refused like a different sha256,
naming the field. Not compared: generator, module_prefix, interface.api_version (the C API of the
release, not a fact of the model), the
optimization section, operators' id, id_source and kernel, constants' unit and pool_offset, derived
memory facts (buffers, arena sizes), and fields this release does not know outside `schedule`.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import types
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints

from helia_aot import user_files
from helia_aot.errors import InvalidConfigError
from helia_aot.record.plan_model import SCHEMA_VERSION, Schedule, plan_schema
from helia_aot.record.schema import validate

_NEWER_HINT = ("The field comes from a later helia-aot release or a planner written for one: convert with that "
               "release, or remove the field")


@dataclass(frozen=True)
class PlanInput:
    path: str
    doc: dict
    schedule: Schedule


def _fail(path: str, what: str, hint: str) -> InvalidConfigError:
    return InvalidConfigError(f"optimization.plan {path}: {what}", hint)


def load(path: str) -> PlanInput:
    """The plan at `path`, its schema version checked and its schedule parsed strictly."""
    raw = user_files.read_bytes(path, "optimization.plan", user_files.PLAN_LIMIT, InvalidConfigError,
                                "Check optimization.plan or --plan")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise _fail(path, "is not UTF-8 text", "Pass the <prefix>_plan.json a conversion wrote") from None
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise _fail(path, f"is not JSON (line {exc.lineno}: {exc.msg})",
                    "Pass the <prefix>_plan.json a conversion wrote") from None
    except RecursionError:
        raise _fail(path, "nests too deeply to be a plan", "Pass the <prefix>_plan.json a conversion wrote") from None
    if not isinstance(doc, dict):
        raise _fail(path, f"is a JSON {type(doc).__name__}, not a plan object",
                    "Pass the <prefix>_plan.json a conversion wrote")
    version = doc.get("schema_version")
    if type(version) is not int or version != SCHEMA_VERSION:  # true == 1 in Python, not in a plan
        raise _fail(path, f"schema_version is {version!r}, this release reads {SCHEMA_VERSION}",
                    "Convert with the helia-aot release that wrote the plan")
    if "schedule" not in doc:
        raise _fail(path, "has no schedule section", "Write `\"schedule\": {\"source\": \"none\", \"units\": []}` "
                                                     "when nothing streams")
    schedule = _parse(Schedule, doc["schedule"], "schedule", path)
    if schedule.source != "none" and not schedule.units:
        raise _fail(path, f"schedule.source is {schedule.source!r} with no units",
                    "A schedule without units has source 'none'")
    if schedule.source == "none" and schedule.units:
        count = len(schedule.units)
        raise _fail(path, f"schedule.units lists {count} unit{'s' if count > 1 else ''} with source 'none'",
                    "A schedule with units has source 'plan'; 'none' has no units")
    return PlanInput(path=str(path), doc=doc, schedule=schedule)


# Fields of the schedule the conversion derives: a plan may leave them out (the conversion checks a
# stated one against what it derives, and ignores a stated source_offset).
_DERIVED = {"Schedule": ("pool", ),
            "ScheduleUnit": ("bytes", "source_memory", "source_offset", "wait_before", "last_reader")}


# -- the schedule, strictly ------------------------------------------------------------------------------

def _type_name(tp) -> str:
    origin = get_origin(tp)
    if tp is type(None):
        return "null"
    if origin is Literal:
        return " or ".join(repr(a) for a in get_args(tp))
    if origin in (Union, types.UnionType):
        return " or ".join(_type_name(a) for a in get_args(tp))
    if origin is list:
        return "a list"
    if dataclasses.is_dataclass(tp):
        return "an object"
    return getattr(tp, "__name__", str(tp))


def _value(tp, value, where: str, path: str):
    """`value` as type `tp` (a plan dataclass field's type), or an error naming `where`."""
    origin = get_origin(tp)
    if tp is Any:
        return value
    if dataclasses.is_dataclass(tp):
        return _parse(tp, value, where, path)
    if origin in (Union, types.UnionType):
        options = [a for a in get_args(tp) if a is not type(None)]
        if value is None and len(options) < len(get_args(tp)):
            return None
        if len(options) == 1:  # Optional[X]: X's own error names the field at fault
            return _value(options[0], value, where, path)
        for option in options:
            try:
                return _value(option, value, where, path)
            except InvalidConfigError:
                continue
    elif origin is Literal:
        if value in get_args(tp) and not isinstance(value, bool):
            return value
    elif origin is list:
        if isinstance(value, list):
            (item,) = get_args(tp) or (Any,)
            return [_value(item, v, f"{where}[{i}]", path) for i, v in enumerate(value)]
    elif origin is dict:
        if isinstance(value, dict):
            _, item = get_args(tp)
            return {k: _value(item, v, f"{where}.{k}", path) for k, v in value.items()}
    elif tp is type(None):
        if value is None:
            return None
    elif isinstance(value, tp) and not (isinstance(value, bool) and tp is not bool):
        return value
    raise _fail(path, f"{where} is {value!r}, which must be {_type_name(tp)}",
                "Fix the schedule (the plan's schedule section is applied as written)")


def _parse(cls, value, where: str, path: str):
    """A plan dataclass from JSON: every field it has, none it does not (naming them)."""
    if not isinstance(value, dict):
        raise _fail(path, f"{where} is {type(value).__name__} {value!r}, which must be an object",
                    "Fix the schedule (the plan's schedule section is applied as written)")
    known = {f.name: f for f in dataclasses.fields(cls)}
    unknown = [k for k in value if k not in known]
    if unknown:
        raise InvalidConfigError(f"optimization.plan {path} is not a plan this release can apply: {where}: unknown "
                                 f"field(s) {unknown} under schedule, which the conversion applies", _NEWER_HINT)
    hints = get_type_hints(cls)
    kwargs = {}
    for name, f in known.items():
        if name not in value:
            optional = type(None) in get_args(hints[name]) or name in _DERIVED.get(cls.__name__, ())
            if f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING:
                continue
            if not optional:
                raise _fail(path, f"{where}.{name} is missing", "Give every field the plan's schedule schema "
                                                                "requires")
            kwargs[name] = None
            continue
        kwargs[name] = _value(hints[name], value[name], f"{where}.{name}", path)
    return cls(**kwargs)


# -- every other section, compared -----------------------------------------------------------------------

class _Said(str):
    """A description standing in for a value where one side has none (shown without quotes)."""

    def __repr__(self) -> str:
        return str(self)


class _Mismatch(Exception):
    def __init__(self, field: str, planned, current, hint: str):
        super().__init__(field)
        self.field, self.planned, self.current, self.hint = field, planned, current, hint


_OTHER_MODEL = "The plan was made from another model or subgraph: convert that one, or write a new plan with convert"
_OTHER_TARGET = "The plan was made for another target: convert for that target, or write a new plan with convert"
_OTHER_SETTINGS = ("The plan was made with other settings or by another release: convert with those, or write a "
                   "new plan with convert")


def _same(field: str, planned, current, hint: str = _OTHER_SETTINGS, fold_case: bool = False) -> None:
    a, b = planned, current
    if fold_case and isinstance(a, str) and isinstance(b, str):
        a, b = a.casefold(), b.casefold()
    if a != b or type(a) is not type(b):
        raise _Mismatch(field, planned, current, hint)


def _section(doc: dict, key: str, kind: type, where: str):
    value = doc.get(key)
    if not isinstance(value, kind):
        raise _Mismatch(where, value, _Said("an object" if kind is dict else "a list"), _OTHER_SETTINGS)
    return value


def _compare_model(plan: dict, now: dict) -> None:
    model = _section(plan, "model", dict, "model")
    if model.get("sha256") is None:
        raise _Mismatch("model.sha256", None, now["model"]["sha256"],
                        "A plan without the model's sha256 cannot be checked: write it with convert")
    _same("model.sha256", model.get("sha256"), now["model"]["sha256"], _OTHER_MODEL)
    _same("model.subgraph", model.get("subgraph"), now["model"]["subgraph"], _OTHER_MODEL)


_INTERFACE_FIELDS = ("name", "tensor", "dtype", "shape", "elements", "bytes", "quantization")


def _compare_interface(plan: dict, now: dict) -> None:
    if "interface" not in plan:  # derived from the model: a plan may leave it out
        return
    interface = _section(plan, "interface", dict, "interface")
    for side in ("inputs", "outputs"):
        planned, current = _section(interface, side, list, f"interface.{side}"), now["interface"][side]
        if len(planned) != len(current):
            raise _Mismatch(f"interface.{side}", _Said(f"{len(planned)} entries"), _Said(f"{len(current)} entries"),
                            _OTHER_MODEL)
        for i, (a, b) in enumerate(zip(planned, current)):
            if not isinstance(a, dict):
                raise _Mismatch(f"interface.{side}[{i}]", a, _Said("an object"), _OTHER_SETTINGS)
            for key in _INTERFACE_FIELDS:
                _same(f"interface.{side}[{i}].{key}", a.get(key), b[key], _OTHER_MODEL)


def _compare_platform(plan: dict, now: dict) -> None:
    _same("platform.name", _section(plan, "platform", dict, "platform").get("name"), now["platform"]["name"],
          _OTHER_TARGET)


def _compare_kernel_library(plan: dict, now: dict) -> None:
    if "kernel_library" in plan:  # a plan may leave it out; it names the library the plan's entries are for
        library = _section(plan, "kernel_library", dict, "kernel_library")
        _same("kernel_library.name", library.get("name"), now["kernel_library"]["name"])


def _compare_named(where: str, planned: dict, current: dict, field: str | None) -> None:
    """Entries both sides name (knobs by their `field` value, fixed choices, attributes)."""
    for name in current:
        if name not in planned:
            continue
        a, b = planned[name], current[name]
        if field is not None:
            if not isinstance(a, dict):
                raise _Mismatch(f"{where}.{name}", a, _Said("an object with a value"), _OTHER_SETTINGS)
            a, b = a.get(field), b[field]
        _same(f"{where}.{name}" + (f".{field}" if field else ""), a, b)


def _compare_operators(plan: dict, now: dict) -> None:
    planned, current = _section(plan, "operators", list, "operators"), now["operators"]
    for i, (a, b) in enumerate(zip(planned, current)):
        where = f"operators[{i}]"
        if not isinstance(a, dict):
            raise _Mismatch(where, a, _Said("an object"), _OTHER_SETTINGS)
        _same(f"{where}.node_id", a.get("node_id"), b["node_id"], _OTHER_MODEL)
        _same(f"{where}.op_type", a.get("op_type"), b["op_type"], _OTHER_MODEL)
        for key, field in (("knobs", "value"), ("fixed", None), ("attributes", None)):
            if key in a:
                _compare_named(f"{where}.{key}", _section(a, key, dict, f"{where}.{key}"), b[key], field)
    if len(planned) != len(current):
        raise _Mismatch("operators", _Said(f"{len(planned)} entries"), _Said(f"{len(current)} entries"), _OTHER_MODEL)


def _tensor_key(entry: dict) -> tuple:
    return entry.get("id"), entry.get("storage_id", entry.get("id"))


def _tensor_name(key: tuple) -> str:
    return f"tensors[{key[0]!r}]" if key[0] == key[1] else f"tensors[{key[0]!r} stored as {key[1]!r}]"


def _compare_tensors(plan: dict, now: dict) -> None:
    listed = plan.get("tensors")
    if not listed:
        return  # older plans list no constants: nothing to compare
    listed = _section(plan, "tensors", list, "tensors")
    planned: dict[tuple, dict] = {}
    for i, entry in enumerate(listed):
        if not isinstance(entry, dict):
            raise _Mismatch(f"tensors[{i}]", entry, _Said("an object"), _OTHER_SETTINGS)
        key = _tensor_key(entry)
        if key in planned:
            raise _Mismatch(_tensor_name(key), _Said("listed twice"), _Said("one constant"),
                               "List each constant once")
        planned[key] = entry
    current = {_tensor_key(c): c for c in now["tensors"]}
    for key, b in current.items():
        where = _tensor_name(key)
        if key not in planned:
            raise _Mismatch(where, _Said("absent"), _Said("a constant"), _OTHER_MODEL)
        a = planned[key]
        _same(f"{where}.requested", a.get("requested"), b["requested"])
        # A constant whose rules permit streaming is direct or stream as the schedule decides.
        streamable = b["requested"] == "stream" and {a.get("residency"), b["residency"]} <= {"direct", "stream"}
        if not streamable:
            _same(f"{where}.residency", a.get("residency"), b["residency"])
        if a.get("memory") is not None:
            _same(f"{where}.memory", a.get("memory"), b["memory"], fold_case=True)
        _same(f"{where}.destination_memory", a.get("destination_memory"), b["destination_memory"], fold_case=True)
        _same(f"{where}.bytes", a.get("bytes"), b["bytes"])
        _same(f"{where}.alignment", a.get("alignment"), b["alignment"])
    for key in planned:
        if key not in current:
            raise _Mismatch(_tensor_name(key), _Said("a constant"), _Said("absent"), _OTHER_MODEL)


# The memory section's choices (the rest of it, buffers and sizes, is derived); compared when the plan has them.
_MEMORY_CHOICES = (("scratch_memory", True), ("constant_memory", True), ("persistent_memory", True),
                   ("arena", False), ("arena_alignment", False))


def _compare_memory(plan: dict, now: dict) -> None:
    if "memory" not in plan:
        return
    memory = _section(plan, "memory", dict, "memory")
    for key, is_memory_name in _MEMORY_CHOICES:
        if key in memory and key in now["memory"]:
            _same(f"memory.{key}", memory[key], now["memory"][key], fold_case=is_memory_name)


def _compare_patches(plan: dict, now: dict) -> None:
    """Patch chains are chosen from the model and the configuration: a plan stating them must state this
    conversion's (a plan without the section predates patch-based execution)."""
    if "patches" not in plan:
        return
    planned, current = _section(plan, "patches", list, "patches"), now["patches"]
    if len(planned) != len(current):
        raise _Mismatch("patches", _Said(f"{len(planned)} chains"), _Said(f"{len(current)} chains"), _OTHER_SETTINGS)
    for i, (a, b) in enumerate(zip(planned, current)):
        if not isinstance(a, dict):
            raise _Mismatch(f"patches[{i}]", a, _Said("an object"), _OTHER_SETTINGS)
        for key in ("operators", "patches", "band_rows", "halo", "output", "inputs", "bands"):
            _same(f"patches[{i}].{key}", a.get(key), b[key])


_COMPARE = {"patches": _compare_patches, "model": _compare_model, "interface": _compare_interface, "platform": _compare_platform, "kernel_library": _compare_kernel_library,
            "operators": _compare_operators, "tensors": _compare_tensors, "memory": _compare_memory}
# What can be compared once the operators are lowered, and what needs the finished plan.
LOWERED = ("model", "interface", "platform", "kernel_library", "operators")
PLANNED = ("tensors", "memory", "patches")


@functools.lru_cache(maxsize=None)
def _schema() -> dict:
    return plan_schema()


def _schema_error(plan_input: PlanInput, section: str) -> InvalidConfigError | None:
    """The first field of `section` whose JSON type is not its schema's, as the refusal naming it."""
    problems = validate({section: plan_input.doc.get(section)}, _schema(), require=False)
    if not problems:
        return None
    more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
    return _fail(plan_input.path, f"does not match the plan schema: {problems[0]}{more}",
                 "Pass the <prefix>_plan.json a conversion wrote, edited only where its values allow")


def compare(plan_input: PlanInput, current: dict, sections: tuple[str, ...]) -> None:
    """Refuse the plan at the first field of `sections` where it differs from `current` (this
    conversion's plan as JSON, or the part of it known so far), naming the field and both values.
    Each section's fields must also have their schema's types, those it does not compare included (an
    operator's kernel record is not taken on trust)."""
    for section in sections:
        try:
            _COMPARE[section](plan_input.doc, current)
        except (TypeError, AttributeError, KeyError, ValueError, IndexError):
            # A field of the wrong JSON type (a list where an id belongs): the schema names it.
            raise (_schema_error(plan_input, section)
                   or _fail(plan_input.path, f"does not match the plan schema: {section} is not what this release "
                            "writes", "Pass the <prefix>_plan.json a conversion wrote")) from None
        except _Mismatch as m:
            raise InvalidConfigError(f"optimization.plan {plan_input.path} does not describe this conversion: "
                                     f"{m.field}: {m.planned!r} in the plan, {m.current!r} in this conversion", m.hint) from None
        error = _schema_error(plan_input, section)
        if error is not None:
            raise error

# SPDX-License-Identifier: Apache-2.0
"""JSON Schema from the plan/report dataclasses, plus a small validator for the subset we emit."""

from __future__ import annotations

import dataclasses
import types
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints

from helia_aot.errors import brief

_SCALARS = {str: "string", int: "integer", float: "number", bool: "boolean"}


def schema_for_type(tp, defs: dict) -> dict:
    origin = get_origin(tp)
    if tp is type(None):
        return {"type": "null"}
    if tp is Any:
        return {}
    if tp in _SCALARS:
        return {"type": _SCALARS[tp]}
    if origin is Literal:
        return {"enum": list(get_args(tp))}
    if origin in (Union, types.UnionType):
        return {"anyOf": [schema_for_type(a, defs) for a in get_args(tp)]}
    if origin in (list, tuple):
        args = get_args(tp)
        return {"type": "array", "items": schema_for_type(args[0], defs) if args else {}}
    if origin is dict:
        return {"type": "object", "additionalProperties": schema_for_type(get_args(tp)[1], defs)}
    if dataclasses.is_dataclass(tp):
        name = tp.__name__
        if name not in defs:
            defs[name] = {}  # reserve against recursion
            hints = get_type_hints(tp)
            props = {}
            required = []
            for f in dataclasses.fields(tp):
                sub = schema_for_type(hints[f.name], defs)
                doc = f.metadata.get("doc") if f.metadata else None
                if doc:
                    sub = {**sub, "description": doc}
                props[f.name] = sub
                required.append(f.name)
            defs[name] = {"type": "object", "properties": props, "required": required,
                          "additionalProperties": False}
            if tp.__doc__:
                defs[name]["description"] = " ".join(tp.__doc__.split())
        return {"$ref": f"#/$defs/{name}"}
    raise TypeError(f"no JSON schema for {tp!r}")


def json_schema(cls, title: str) -> dict:
    defs: dict = {}
    root = schema_for_type(cls, defs)
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": title, **root,
            "$defs": {k: defs[k] for k in sorted(defs)}}


def to_json(obj):
    if dataclasses.is_dataclass(obj):
        return {f.name: to_json(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
    if isinstance(obj, (list, tuple)):
        return [to_json(v) for v in obj]
    if isinstance(obj, dict):
        return {str(k): to_json(v) for k, v in obj.items()}
    return obj


def validate(instance, schema: dict, root: dict | None = None, path: str = "$", require: bool = True) -> list[str]:
    """Errors of ``instance`` against the subset of JSON Schema json_schema() writes. ``require=False``
    checks only the types of the fields present and not null (a plan read as input may leave derived
    fields out, null them, or carry notes of its own)."""
    root = root or schema
    if not require and instance is None:
        return []
    if "$ref" in schema:
        return validate(instance, root["$defs"][schema["$ref"].split("/")[-1]], root, path, require)
    if "anyOf" in schema:
        for sub in schema["anyOf"]:
            if not validate(instance, sub, root, path, require):
                return []
        return [f"{path}: {brief(instance)} matches none of the allowed forms"]
    if "enum" in schema:
        return [] if instance in schema["enum"] and not isinstance(instance, bool) else [
            f"{path}: {brief(instance)} not in {schema['enum']}"]
    kind = schema.get("type")
    checks = {
        "null": lambda v: v is None,
        "string": lambda v: isinstance(v, str),
        "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
        "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
        "boolean": lambda v: isinstance(v, bool),
        "array": lambda v: isinstance(v, list),
        "object": lambda v: isinstance(v, dict),
    }
    if kind is not None and not checks[kind](instance):
        return [f"{path}: expected {kind}, got {type(instance).__name__}"]
    errors: list[str] = []
    if kind == "array":
        for i, item in enumerate(instance):
            errors += validate(item, schema.get("items", {}), root, f"{path}[{i}]", require)
    if kind == "object":
        props = schema.get("properties", {})
        for key in (schema.get("required", []) if require else ()):
            if key not in instance:
                errors.append(f"{path}: missing required field {key!r}")
        for key, value in instance.items():
            if key in props:
                errors += validate(value, props[key], root, f"{path}.{key}", require)
            else:
                extra = schema.get("additionalProperties", True) if require else True
                if extra is False:
                    errors.append(f"{path}: unknown field {key!r}")
                elif isinstance(extra, dict):
                    errors += validate(value, extra, root, f"{path}.{key}", require)
    return errors

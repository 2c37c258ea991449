# SPDX-License-Identifier: Apache-2.0
"""Conversion configuration: YAML/dict sections, validated key by key."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from .errors import InvalidConfigError

# section -> key -> (accepted Python types, allowed values or None, default)
_SPEC: dict[str, dict[str, tuple[tuple[type, ...], tuple | None, Any]]] = {
    "model": {
        "subgraph": ((int, str), None, 0),
    },
    "module": {
        "prefix": ((str,), None, "model"),
        # static: the module owns its arenas; caller: <prefix>_model_bind_arena() supplies it.
        "arena": ((str,), ("static", "caller"), "static"),
        # The kernel library the module links: scratch sizes and entry choice follow it.
        "kernel_library": ((str,), ("ns_cmsis_nn", "portable"), "ns_cmsis_nn"),
    },
    "target": {
        "name": ((str,), None, "host"),
        "custom": ((dict,), None, None),
        "file": ((str,), None, None),
    },
    "memory": {
        "scratch_memory": ((str,), None, None),
        "constant_memory": ((str,), None, None),
        "arena_alignment": ((int,), None, None),
    },
    "optimization": {
        "goal": ((str,), ("latency", "balanced", "size", "accuracy"), "balanced"),
        "allow_approximate": ((bool,), None, False),
        "kernel": ((str,), ("auto", "specialized", "generic"), "auto"),
    },
    "test": {
        "tolerance": ((int,), None, 1),
        "num_samples": ((int,), None, 3),
        "seed": ((int,), None, 0),
    },
}


@dataclass
class Config:
    values: dict[str, dict[str, Any]] = field(default_factory=dict)
    base_dir: Path | None = None  # directory relative paths in the file resolve against

    def get(self, section: str, key: str):
        return self.values[section][key]

    def set(self, section: str, key: str, value) -> None:
        check_value(section, key, value, "override")
        self.values[section][key] = value

    def as_dict(self) -> dict:
        return copy.deepcopy(self.values)


def check_value(section: str, key: str, value, where: str) -> None:
    types, allowed, _ = _SPEC[section][key]
    if value is None:
        return
    ok = isinstance(value, types) and not (bool not in types and isinstance(value, bool))
    if not ok:
        names = " or ".join(t.__name__ for t in types)
        raise InvalidConfigError(f"{where}: {section}.{key} must be {names}, got {type(value).__name__} "
                                 f"{value!r}", f"Set {section}.{key} to a {names}")
    if allowed is not None and value not in allowed:
        raise InvalidConfigError(f"{where}: {section}.{key} is {value!r}, allowed values are {list(allowed)}",
                                 f"Use one of {list(allowed)}")
    if section == "test" and isinstance(value, int) and value < 0:
        raise InvalidConfigError(f"{where}: {section}.{key} must be >= 0, got {value}", "Use a non-negative value")
    if section == "test" and key == "num_samples" and value < 1:
        raise InvalidConfigError(f"{where}: test.num_samples must be >= 1, got {value}", "Use at least 1 sample")


def defaults() -> Config:
    return Config({s: {k: v[2] for k, v in keys.items()} for s, keys in _SPEC.items()})


def from_mapping(doc, where: str = "config", base_dir: Path | None = None) -> Config:
    cfg = defaults()
    cfg.base_dir = base_dir
    if doc is None:
        return cfg
    if not isinstance(doc, dict):
        raise InvalidConfigError(f"{where} must be a mapping of sections, got {type(doc).__name__}",
                                 f"Use sections {sorted(_SPEC)}")
    for section, body in doc.items():
        if section not in _SPEC:
            raise InvalidConfigError(f"{where}: unknown section {section!r} (allowed: {sorted(_SPEC)})",
                                     "Remove or rename the section")
        if body is None:
            continue
        if not isinstance(body, dict):
            raise InvalidConfigError(f"{where}: section {section!r} must be a mapping", "Indent its keys under it")
        for key, value in body.items():
            if key not in _SPEC[section]:
                raise InvalidConfigError(
                    f"{where}: unknown key {section}.{key} (allowed in {section}: {sorted(_SPEC[section])})",
                    "Remove or rename the key")
            check_value(section, key, value, where)
            cfg.values[section][key] = value
    return cfg


def load(config) -> Config:
    """Accept None, a dict, a Config or a path to a YAML file."""
    if config is None:
        return defaults()
    if isinstance(config, Config):
        return config
    if isinstance(config, dict):
        return from_mapping(config, "config")
    path = Path(config)
    try:
        text = path.read_text()
    except OSError as exc:
        raise InvalidConfigError(f"cannot read config file {path}: {exc.strerror}",
                                 "Check the --config path") from None
    try:
        doc = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        at = f" at line {mark.line + 1}" if mark is not None else ""
        raise InvalidConfigError(f"config file {path} is not valid YAML{at}", "Fix the YAML syntax") from None
    return from_mapping(doc, str(path), path.parent)


def schema_summary() -> dict[str, list[str]]:
    return {s: sorted(keys) for s, keys in _SPEC.items()}

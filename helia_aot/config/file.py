# SPDX-License-Identifier: Apache-2.0
"""Conversion configuration: YAML/dict sections, validated key by key."""

from __future__ import annotations

import copy
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from helia_aot.config import operator_rules
from helia_aot.config.spec import LIST_SECTIONS, SPEC, check_value
from helia_aot.config.yaml_file import read_yaml
from helia_aot.errors import InvalidConfigError, brief, rename_hint


@dataclass
class Config:
    values: dict[str, dict[str, Any]] = field(default_factory=dict)
    base_dir: Path | None = None  # directory relative paths in the file resolve against

    def get(self, section: str, key: str):
        return self.values[section][key]

    def set(self, section: str, key: str, value) -> None:
        check_value(section, key, value, "override")
        if (section, key) == ("optimization", "plan") and value is not None:
            value = plan_path(value, "override")
        self.values[section][key] = value

    def as_dict(self) -> dict:
        return copy.deepcopy(self.values)


def defaults() -> Config:
    return Config({s: [] if s in LIST_SECTIONS else {k: v[2] for k, v in keys.items()} for s, keys in SPEC.items()})


def plan_path(path, where: str, base_dir: Path | None = None) -> str:
    """optimization.plan made absolute: relative to the configuration file (base_dir), else the working
    directory (a dict configuration, the --plan flag)."""
    if isinstance(path, os.PathLike):
        path = os.fspath(path)
    check_value("optimization", "plan", path, where)
    if not path.strip():
        raise InvalidConfigError(f"{where}: optimization.plan is empty", "Give the path of a <prefix>_plan.json")
    p = Path(path).expanduser()
    if not p.is_absolute():
        p = (base_dir if base_dir is not None else Path.cwd()) / p
    return str(Path(os.path.abspath(p)))


def from_mapping(doc, where: str = "config", base_dir: Path | None = None) -> Config:
    cfg = defaults()
    cfg.base_dir = base_dir
    if doc is None:
        return cfg
    if not isinstance(doc, dict):
        raise InvalidConfigError(f"{where} must be a mapping of sections, got {type(doc).__name__}",
                                 f"Use sections {sorted(SPEC)}")
    for section, body in doc.items():
        if section not in SPEC:
            raise InvalidConfigError(f"{where}: unknown section {brief(section)} (allowed: {sorted(SPEC)})",
                                     rename_hint(section, SPEC, "Remove or rename the section"))
        if body is None:
            continue
        if section in LIST_SECTIONS:
            cfg.values[section] = operator_rules.check_entries(body, where)
            continue
        if not isinstance(body, dict):
            raise InvalidConfigError(f"{where}: section {brief(section)} must be a mapping", "Indent its keys under it")
        for key, value in body.items():
            if key not in SPEC[section]:
                home = [s for s in SPEC if key in SPEC[s]]
                hint = (f"{key} belongs in section {home[0]}: write it as {home[0]}.{key}" if home else
                        rename_hint(key, SPEC[section], "Remove or rename the key", f"{section}."))
                raise InvalidConfigError(
                    f"{where}: unknown key {section}.{key} (allowed in {section}: {sorted(SPEC[section])})", hint)
            check_value(section, key, value, where)
            if (section, key) == ("optimization", "plan") and value is not None:
                value = plan_path(value, where, base_dir)
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
    if not isinstance(config, (str, Path)) or not str(config):
        raise InvalidConfigError(f"config must be a mapping, a Config or the path of a YAML file, got "
                                 f"{type(config).__name__} {brief(config)}", "Pass the path of the YAML file")
    path = Path(config)
    return from_mapping(read_yaml(path, "config file", "Check the --config path"), str(path), path.parent)



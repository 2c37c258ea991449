# SPDX-License-Identifier: Apache-2.0
"""Conversion configuration: YAML/dict sections, validated key by key."""

from __future__ import annotations

import copy
import difflib
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from .errors import InvalidConfigError

# section -> key -> (accepted Python types, allowed values or None, default, what it means). The one
# table the loader checks against and `helia-aot config --schema` prints.
_SPEC: dict[str, dict[str, tuple[tuple[type, ...], tuple | None, Any, str]]] = {
    "model": {
        "subgraph": ((int, str), None, 0, "the subgraph to convert: its index or its name"),
    },
    "module": {
        "prefix": ((str,), None, "model", "C symbol and file prefix: <prefix>_model_init(), <prefix>_model.h"),
        "arena": ((str,), ("static", "caller"), "static",
                  "static: the module owns its arenas; caller: <prefix>_model_bind_arena() supplies them"),
        "kernel_library": ((str,), ("ns_cmsis_nn", "portable"), "ns_cmsis_nn",
                           "the kernel library the module links; scratch sizes and entry choice follow it"),
        "type": ((str,), ("c", "cmake"), "c",
                 "c: headers and sources; cmake: also a CMakeLists.txt defining the <prefix>_model library"),
    },
    "target": {
        "name": ((str,), None, "host", "the target (see `helia-aot targets`)"),
        "custom": ((dict,), None, None, "a target defined inline: name, cpu, capabilities, memories, ..."),
        "file": ((str,), None, None, "a YAML file of target definitions (relative to this file)"),
    },
    "memory": {
        "scratch_memory": ((str,), None, None,
                           "the target memory holding the scratch arena (default: the target's)"),
        "constant_memory": ((str,), None, None, "the target memory holding the constants (default: the target's)"),
        "persistent_memory": ((str,), None, None,
                              "the target memory holding the persistent arena, the state kept across runs "
                              "(default: the scratch memory)"),
        "arena_alignment": ((int,), None, None,
                            "alignment of the arena in bytes, a power of two (default: the target's, 16)"),
        # Placement (issue 16): rules, budgets, the stream pool and linker sections; see helia_aot/placement.py.
        "tensors": ((list,), None, None,
                    "placement rules, merged in order: each matches tensors by type (constant, activation, input, "
                    "output, persistent), id (the tensor's name; <operator id>/<what> for a derived constant) and "
                    "operator (stable or node id: the tensors it reads or writes), all optional, and sets "
                    "attributes: memory (where the tensor is stored: an activation's arena, a constant's cold "
                    "copy), residency (constants: direct, pin or stream) and constant_destination_memory (a "
                    "runtime copy <prefix>_model_init fills, read by the kernels; implies pin). Two rules setting "
                    "one attribute of one tensor to different values are an error"),
        "constraints": ((dict,), None, None,
                        "byte budget per memory, e.g. {DTCM: 131072}: arenas, staged copies, the stream pool and "
                        "constants stored there must fit, or the conversion fails naming what overflowed"),
        "stream_pool": ((dict,), None, None,
                        "{memory, bytes[, engine]}: a pool constants whose rules permit residency stream are "
                        "copied into just before their readers, by a schedule the compiler computes (plan: "
                        "schedule). engine cpu (memcpy, the default) or dma (calls <prefix>_stream_issue/_wait, "
                        "weak functions a firmware with a DMA engine overrides)"),
        "sections": ((dict,), None, None,
                     "linker section names per memory, {MEMORY: {constants: NAME, buffers: NAME}} (default: "
                     "the target's, .helia.const.<memory> and .bss.helia.<memory>; the host target has none). "
                     "Emitted only when tensors, stream_pool or sections is set"),
    },
    "optimization": {
        "goal": ((str,), ("latency", "balanced", "size", "accuracy"), "balanced",
                 "what kernel choices favour over the whole graph: latency the fewest instructions, size the "
                 "smallest arena, balanced the fewest instructions within 5 % of the smallest arena (accuracy: "
                 "as balanced, every kernel being bit-identical)"),
        "allow_approximate": ((bool,), None, False, "allow kernels whose results differ from LiteRT's"),
        "kernel": ((str,), ("auto", "specialized", "generic"), "auto",
                   "auto: each layer's entry by the measured cost tables and optimization.goal; specialized or "
                   "generic to force one kind"),
        # -- plans as input (helia_aot/plan_input.py) --
        "plan": ((str,), None, None,
                 "a <prefix>_plan.json to convert by: its schedule is applied (read strictly), every other section "
                 "must describe this conversion (model sha256 and subgraph, target, operators by position, "
                 "constants by id), else the first difference is an error. Relative to this file; --plan: to the "
                 "working directory"),
        "rewrites": ((bool,), None, True,
                     "whole-graph rewrites that remove work and change no output bit: PAD folded into the "
                     "next convolution or max pool, RELU / RELU6 / clamps into their producer's activation "
                     "range, identity QUANTIZE / PAD removed, int8 element-wise operators in place over an input "
                     "that dies there when that shrinks the arena (plan.json \"rewrites\" lists each); false: "
                     "none"),
    },
    # -- per-operator rules (helia_aot/overrides.py): a list, each entry with these keys --
    "operators": {
        "id": ((str,), None, None, "the operator's stable id (<subgraph>:<output name>, as the plan's "
                                   "operators[].id) or its node id (n<model operator index>)"),
        "type": ((str,), None, None, "the operator type, e.g. CONV_2D; with id too, both must match"),
        "optimization": ((dict,), None, None, "knobs for the matching operators, overriding the optimization "
                                              "section's: kernel (later entries win)"),
        "attributes": ((dict,), None, None, "per-operator attributes the operator type declares "
                                            "(`helia-aot operators` lists them)"),
    },
    "test": {
        "tolerance": ((int,), None, 1, "largest |difference| in output codes the golden test accepts"),
        "num_samples": ((int,), None, 3, "random inputs in the golden data (--test)"),
        "seed": ((int,), None, 0, "seed of the golden inputs"),
        "iterations": ((int,), None, 1, "invocations per golden sample: a sequence run in one LiteRT interpreter "
                                        "(state carried) and, for a stateful module, from a reset; each compared"),
        "reference": ((str,), ("litert", "tflm"), "litert",
                      "where golden data comes from: LiteRT's reference kernels (falling back to TensorFlow Lite "
                      "Micro when LiteRT cannot load the model) or TensorFlow Lite Micro"),
    },
}


# Accepted range of the integer keys. Beyond it a value is a typo or a unit mix-up: 10,000 golden
# samples already make megabytes of C arrays, a tolerance or seed past 32 bits fits neither the
# harness's integers nor Bazel's attributes, and no memory needs an arena aligned past 64 KiB.
MAX_ARENA_ALIGNMENT = 1 << 16
_RANGES: dict[tuple[str, str], tuple[int, int]] = {
    ("test", "num_samples"): (1, 10_000),
    ("test", "tolerance"): (0, 2**31 - 1),
    ("test", "seed"): (0, 2**32 - 1),
    ("test", "iterations"): (1, 10_000),
    ("memory", "arena_alignment"): (1, MAX_ARENA_ALIGNMENT),
}


def closest(name, choices) -> str | None:
    """The choice a misspelt ``name`` most likely meant, if any is close."""
    found = difflib.get_close_matches(str(name), [str(c) for c in choices], n=1, cutoff=0.6)
    return found[0] if found else None


def rename_hint(name, choices, otherwise: str, qualify: str = "") -> str:
    best = closest(name, choices)
    return f"Did you mean {qualify}{best}?" if best is not None else otherwise


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


def check_value(section: str, key: str, value, where: str) -> None:
    types, allowed, _, _ = _SPEC[section][key]
    if value is None:
        return
    ok = isinstance(value, types) and not (bool not in types and isinstance(value, bool))
    if not ok:
        names = " or ".join(t.__name__ for t in types)
        article = "an" if names[0] in "aeiou" else "a"
        raise InvalidConfigError(f"{where}: {section}.{key} must be {names}, got {type(value).__name__} "
                                 f"{value!r}", f"Set {section}.{key} to {article} {names}")
    if allowed is not None and value not in allowed:
        raise InvalidConfigError(f"{where}: {section}.{key} is {value!r}, allowed values are {list(allowed)}",
                                 rename_hint(value, allowed, f"Use one of {list(allowed)}"))
    if (section, key) in _RANGES:
        low, high = _RANGES[(section, key)]
        if not low <= value <= high:
            raise InvalidConfigError(f"{where}: {section}.{key} must be between {low} and {high}, got {value}",
                                     f"Set {section}.{key} within that range")
    if (section, key) == ("memory", "arena_alignment") and value & (value - 1):
        raise InvalidConfigError(f"{where}: memory.arena_alignment {value} is not a power of two", "Use 4, 8 or 16")


# Sections that are a list of entries, each entry a mapping of that section's keys.
LIST_SECTIONS = ("operators",)


def defaults() -> Config:
    return Config({s: [] if s in LIST_SECTIONS else {k: v[2] for k, v in keys.items()} for s, keys in _SPEC.items()})


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
                                 f"Use sections {sorted(_SPEC)}")
    for section, body in doc.items():
        if section not in _SPEC:
            raise InvalidConfigError(f"{where}: unknown section {section!r} (allowed: {sorted(_SPEC)})",
                                     rename_hint(section, _SPEC, "Remove or rename the section"))
        if body is None:
            continue
        if section in LIST_SECTIONS:
            from . import overrides
            cfg.values[section] = overrides.check_entries(body, where)
            continue
        if not isinstance(body, dict):
            raise InvalidConfigError(f"{where}: section {section!r} must be a mapping", "Indent its keys under it")
        for key, value in body.items():
            if key not in _SPEC[section]:
                home = [s for s in _SPEC if key in _SPEC[s]]
                hint = (f"{key} belongs in section {home[0]}: write it as {home[0]}.{key}" if home else
                        rename_hint(key, _SPEC[section], "Remove or rename the key", f"{section}."))
                raise InvalidConfigError(
                    f"{where}: unknown key {section}.{key} (allowed in {section}: {sorted(_SPEC[section])})", hint)
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
                                 f"{type(config).__name__} {config!r}", "Pass the path of the YAML file")
    path = Path(config)
    return from_mapping(read_yaml(path, "config file", "Check the --config path"), str(path), path.parent)


class _StrictLoader(yaml.SafeLoader):
    """YAML's safe loader, refusing a key given twice in one mapping (the plain loader keeps the
    last one silently, so a repeated section would drop the first one's keys)."""

    def construct_mapping(self, node, deep=False):
        first: dict = {}
        for key_node, _ in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                continue
            key = self.construct_object(key_node, deep=True)
            try:
                repeated = key in first
            except TypeError:
                continue  # unhashable: the base loader reports it
            if repeated:
                raise yaml.constructor.ConstructorError(
                    None, None, f"key {key!r} appears twice (first at line {first[key] + 1})", key_node.start_mark)
            first[key] = key_node.start_mark.line
        return super().construct_mapping(node, deep)


def read_yaml(path: Path, what: str, hint: str):
    """The document in a YAML file; any unreadable, non-UTF-8 or malformed file is an
    InvalidConfigError naming the file (and the line)."""
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise InvalidConfigError(f"cannot read {what} {path}: {exc.strerror}", hint) from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InvalidConfigError(f"{what} {path} is not UTF-8 text (byte 0x{raw[exc.start]:02x} at offset "
                                 f"{exc.start})", "Save it as UTF-8") from None
    try:
        return yaml.load(text, Loader=_StrictLoader)  # noqa: S506 (a SafeLoader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        at = f" at line {mark.line + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None)
        raise InvalidConfigError(f"{what} {path} is not valid YAML{at}" + (f": {problem}" if problem else ""),
                                 "Fix the YAML syntax") from None
    except RecursionError:
        raise InvalidConfigError(f"{what} {path} nests too deeply to be a configuration",
                                 "Fix the YAML structure") from None


def schema_summary() -> dict[str, list[str]]:
    return {s: sorted(keys) for s, keys in _SPEC.items()}


@dataclass(frozen=True)
class KeyInfo:
    """One configuration key as `helia-aot config --schema` prints it."""

    section: str
    key: str
    types: tuple[str, ...]
    allowed: tuple | None
    default: Any
    range: tuple[int, int] | None
    doc: str


def schema_keys() -> list[KeyInfo]:
    """Every key of every section, in the table's order."""
    return [KeyInfo(section, key, tuple(t.__name__ for t in types), allowed, default, _RANGES.get((section, key)),
                    doc)
            for section, keys in _SPEC.items() for key, (types, allowed, default, doc) in keys.items()]

# SPDX-License-Identifier: Apache-2.0
"""The configuration's keys: every section and key with its types, allowed values, default, range and
meaning. The one table the loader checks against and `helia-aot config --schema` prints."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from helia_aot.errors import InvalidConfigError, brief, rename_hint

# section -> key -> (accepted Python types, allowed values or None, default, what it means).
SPEC: dict[str, dict[str, tuple[tuple[type, ...], tuple | None, Any, str]]] = {
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
                              "(default: the target's, its scratch memory unless it names another)"),
        "arena_alignment": ((int,), None, None,
                            "alignment of the arena in bytes, a power of two (default: the target's, 16)"),
        # Placement (issue 16): rules, budgets, the stream pool and linker sections; see helia_aot/memory/placement.py.
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
                 "as balanced, every kernel being bit-identical); size, and balanced at most 10 % more estimated "
                 "instructions, may run a first chain of operators in row bands to lower the arena"),
        "allow_approximate": ((bool,), None, False, "allow kernels whose results differ from LiteRT's"),
        "kernel": ((str,), ("auto", "specialized", "generic"), "auto",
                   "auto: each layer's entry by the measured cost tables and optimization.goal; specialized or "
                   "generic to force one kind"),
        # -- plans as input (helia_aot/record/plan_reader.py) --
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
    # -- per-operator rules (helia_aot/config/operator_rules.py): a list, each entry with these keys --
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


def check_value(section: str, key: str, value, where: str) -> None:
    types, allowed, _, _ = SPEC[section][key]
    if value is None:
        return
    ok = isinstance(value, types) and not (bool not in types and isinstance(value, bool))
    if not ok and allowed is not None:
        # An enumerated key: the type alone does not say what to write, its values do.
        raise InvalidConfigError(f"{where}: {section}.{key} must be one of {list(allowed)}, got "
                                 f"{type(value).__name__} {brief(value)}",
                                 f"Set {section}.{key} to one of {', '.join(map(str, allowed))}")
    if not ok:
        names = " or ".join(t.__name__ for t in types)
        article = "an" if names[0] in "aeiou" else "a"
        raise InvalidConfigError(f"{where}: {section}.{key} must be {names}, got {type(value).__name__} "
                                 f"{brief(value)}", f"Set {section}.{key} to {article} {names}")
    if allowed is not None and value not in allowed:
        raise InvalidConfigError(f"{where}: {section}.{key} is {brief(value)}, allowed values are {list(allowed)}",
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


def schema_summary() -> dict[str, list[str]]:
    return {s: sorted(keys) for s, keys in SPEC.items()}


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
            for section, keys in SPEC.items() for key, (types, allowed, default, doc) in keys.items()]

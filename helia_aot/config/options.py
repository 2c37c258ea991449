# SPDX-License-Identifier: Apache-2.0
"""Conversion options: the configuration file and the caller's overrides, resolved once.

Every face of the compiler (Python API, CLI, Bazel action) passes what its user said and lets
`resolve` apply the precedence: an explicit argument wins over the configuration file, which wins
over the defaults. The result is frozen; no stage re-reads the configuration.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import Path

from helia_aot.config import file as config_mod
from helia_aot.library import kernel_library
from helia_aot.config.spec import check_value
from helia_aot.errors import InvalidConfigError, InvalidPrefixError, brief, rename_hint
from helia_aot.library.kernel_library import KernelLibrary
from helia_aot.config.memory_rules import PlacementOptions, parse as parse_placement
from helia_aot.config.targets import Target, check_distinct, get_target, load_custom_targets, target_from_dict

_C_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_C_KEYWORDS = {
    "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else", "enum", "extern",
    "float", "for", "goto", "if", "inline", "int", "long", "register", "restrict", "return", "short", "signed",
    "sizeof", "static", "struct", "switch", "typedef", "union", "unsigned", "void", "volatile", "while",
    "_Bool", "_Complex", "_Imaginary",
}


@dataclass(frozen=True)
class OptimizationOptions:
    goal: str
    allow_approximate: bool
    kernel: str
    rewrites: bool = True  # optimization.rewrites: the whole-graph rewrites (helia_aot.lowering.rewrites)


@dataclass(frozen=True)
class TestOptions:
    tolerance: int
    num_samples: int
    seed: int
    iterations: int = 1  # invocations per sample (a sequence; state carries within it)
    reference: str = "litert"  # test.reference: "litert" or "tflm"


@dataclass(frozen=True)
class ConversionOptions:
    prefix: str
    target: Target
    kernels: KernelLibrary
    subgraph: int | str
    arena: str  # "static" or "caller"
    module_type: str  # "c" or "cmake" (adds CMakeLists.txt)
    optimization: OptimizationOptions
    test: TestOptions
    # The memory the persistent arena (variable tensors) is placed in: memory.persistent_memory, else
    # the target's scratch memory.
    persistent_memory: str = ""
    # memory.tensors, constraints, stream_pool and sections, checked against the target (memory_rules.py).
    placement: PlacementOptions | None = None
    # The configuration's `operators` rules, checked (helia_aot/config/operator_rules.py), in order.
    operators: tuple = ()
    # optimization.plan (or --plan): the absolute path of a plan to convert by (helia_aot/record/plan_reader.py).
    plan: str | None = None
    # target.file as read (relative to the configuration): an input an OUTDIR must not hold.
    target_file: str | None = None


def check_prefix(prefix) -> str:
    if not isinstance(prefix, str) or not _C_IDENTIFIER.fullmatch(prefix) or prefix in _C_KEYWORDS:
        raise InvalidPrefixError(f"module prefix {brief(prefix)} is not a C identifier",
                                 "Use letters, digits and underscores, starting with a letter or underscore "
                                 "(and not a C keyword)")
    if len(prefix) > 40:
        raise InvalidPrefixError(f"module prefix {brief(prefix)} is {len(prefix)} characters long",
                                 "Use at most 40 characters so generated symbols stay portable")
    return prefix


def target_file(cfg: config_mod.Config) -> Path | None:
    """target.file, relative to the configuration's folder; None without one."""
    name = cfg.values["target"].get("file")
    if not name:
        return None
    path = Path(name)
    return cfg.base_dir / path if not path.is_absolute() and cfg.base_dir is not None else path


def custom_targets(cfg: config_mod.Config) -> list[Target]:
    """Targets the configuration defines (target.file and target.custom)."""
    section = cfg.values["target"]
    found: list[Target] = []
    path = target_file(cfg)
    if path is not None:
        found += load_custom_targets(path)
    if section.get("custom"):
        found.append(target_from_dict(section["custom"], "target.custom"))
    check_distinct(found, "the configuration (target.file and target.custom)")
    return found


def resolve_target(cfg: config_mod.Config, name: str | None = None) -> Target:
    """The target `name` (else target.name), with the configuration's memory overrides applied."""
    target = get_target(name if name is not None else cfg.values["target"]["name"], custom_targets(cfg))
    memory = cfg.values["memory"]
    overrides = {}
    for key in ("scratch_memory", "constant_memory"):
        if memory.get(key):
            if target.memory(memory[key]) is None:
                raise InvalidConfigError(
                    f"memory.{key} {brief(memory[key])} is not a memory of target {target.name} "
                    f"({[m.name for m in target.memories]})",
                    rename_hint(memory[key], [m.name for m in target.memories],
                                           "Name one of the target's memories"))
            if key == "scratch_memory" and not target.memory(memory[key]).writable:
                raise InvalidConfigError(f"memory.scratch_memory {brief(memory[key])} is read-only on target "
                                         f"{target.name}", "Put the arena in a writable memory")
            overrides[key] = target.memory(memory[key]).name
    alignment = memory.get("arena_alignment")  # a power of two (config.spec.check_value)
    if alignment:
        overrides["arena_alignment"] = max(alignment, 4)
    return replace(target, **overrides) if overrides else target


def resolve_persistent_memory(cfg: config_mod.Config, target: Target) -> str:
    """memory.persistent_memory checked against the target (a writable memory), else the target's default
    (its scratch memory unless it names another)."""
    name = cfg.values["memory"].get("persistent_memory")
    if not name:
        return target.persistent_memory
    memory = target.memory(name)
    if memory is None:
        raise InvalidConfigError(
            f"memory.persistent_memory {brief(name)} is not a memory of target {target.name} "
            f"({[m.name for m in target.memories]})",
            rename_hint(name, [m.name for m in target.memories], "Name one of the target's memories"))
    if not memory.writable:
        raise InvalidConfigError(f"memory.persistent_memory {brief(name)} is read-only on target {target.name}",
                                 "Put the persistent arena in a writable memory")
    return memory.name


def resolve(config=None, *, prefix: str | None = None, target: str | None = None,
            kernels: str | None = None, num_test_samples: int | None = None, seed: int | None = None,
            tolerance: int | None = None, iterations: int | None = None,
            module_type: str | None = None, reference: str | None = None,
            plan: str | None = None, goal: str | None = None) -> ConversionOptions:
    """Options from `config` (None, dict, Config or YAML path) and explicit overrides (None: not given).
    An explicit `plan` path is relative to the working directory."""
    cfg = config_mod.load(config)
    values = cfg.values
    resolved_target = resolve_target(cfg, target)
    test = values["test"]
    for key, value in (("num_samples", num_test_samples), ("seed", seed), ("tolerance", tolerance),
                       ("iterations", iterations), ("reference", reference)):
        if value is not None:
            check_value("test", key, value, "override")
    opt = values["optimization"]
    if goal is not None:
        check_value("optimization", "goal", goal, "override")
    if module_type is not None:
        check_value("module", "type", module_type, "override")
    return ConversionOptions(
        prefix=check_prefix(prefix if prefix is not None else values["module"]["prefix"]),
        target=resolved_target,
        kernels=kernel_library.resolve(kernels if kernels is not None
                                       else values["module"]["kernel_library"], resolved_target),
        subgraph=values["model"]["subgraph"],
        arena=values["module"]["arena"],
        module_type=module_type if module_type is not None else values["module"]["type"],
        optimization=OptimizationOptions(opt["goal"] if goal is None else goal, opt["allow_approximate"],
                                         opt["kernel"], rewrites=opt["rewrites"]),
        test=TestOptions(
            tolerance=test["tolerance"] if tolerance is None else int(tolerance),
            num_samples=test["num_samples"] if num_test_samples is None else int(num_test_samples),
            seed=test["seed"] if seed is None else int(seed),
            iterations=test["iterations"] if iterations is None else int(iterations),
            reference=test["reference"] if reference is None else reference,
        ),
        persistent_memory=resolve_persistent_memory(cfg, resolved_target),
        placement=parse_placement(values["memory"], resolved_target, values["module"]["arena"]),
        operators=tuple(values["operators"]),
        plan=config_mod.plan_path(plan, "override") if plan is not None else opt["plan"],
        target_file=str(target_file(cfg)) if target_file(cfg) is not None else None,
    )


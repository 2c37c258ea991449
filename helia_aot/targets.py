# SPDX-License-Identifier: Apache-2.0
"""Target registry: CPU, capabilities and named memories of each board the compiler knows."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import yaml

from .errors import InvalidConfigError, UnknownTargetError

KNOWN_CAPABILITIES = ("dsp", "mve", "fpu", "fp16")
KIB = 1024
MIB = 1024 * 1024


@dataclass(frozen=True)
class Memory:
    name: str
    size: int
    base: int | None = None
    writable: bool = True


@dataclass(frozen=True)
class Target:
    name: str
    cpu: str
    capabilities: tuple[str, ...]
    memories: tuple[Memory, ...]
    scratch_memory: str  # where the activation arena goes by default
    constant_memory: str  # where weights go by default
    description: str = ""
    arena_alignment: int = 16
    source: str = "builtin"

    def has(self, capability: str) -> bool:
        return capability in self.capabilities

    @property
    def kernel_build(self) -> str:
        """Which ns-cmsis-nn code paths a build for this target compiles: mve, dsp or plain C."""
        if self.has("mve"):
            return "mve"
        if self.has("dsp"):
            return "dsp"
        return "plain"

    @property
    def supports_fp16(self) -> bool:
        return self.has("fp16")

    def memory(self, name: str) -> Memory | None:
        for m in self.memories:
            if m.name.lower() == name.lower():
                return m
        return None


_BUILTIN: dict[str, Target] = {}


def _register(target: Target) -> None:
    _BUILTIN[target.name] = target


# Arm MPS3 AN547 (Corstone-300 FVP / FPGA) memory map, non-secure aliases.
_register(Target(
    name="corstone300",
    cpu="cortex-m55",
    capabilities=("dsp", "mve", "fpu", "fp16"),
    memories=(
        # The AN547 map as QEMU mps3-an547 models it (non-secure addresses; secure = +0x10000000),
        # matching toolchains/corstone300/corstone300.ld.
        Memory("ITCM", 512 * KIB, 0x00000000),
        Memory("SRAM", 2 * MIB, 0x01000000),
        Memory("DTCM", 512 * KIB, 0x20000000),
        Memory("ISRAM", 4 * MIB, 0x21000000),
        Memory("DDR", 256 * MIB, 0x60000000),
    ),
    scratch_memory="DTCM",
    constant_memory="SRAM",
    description="Arm Corstone-300 (MPS3 AN547 / FVP): Cortex-M55 with Helium",
))
# Ambiq Apollo510 EVB.
_register(Target(
    name="apollo510_evb",
    cpu="cortex-m55",
    capabilities=("dsp", "mve", "fpu", "fp16"),
    memories=(
        Memory("ITCM", 256 * KIB, 0x00000000),
        Memory("MRAM", 4 * MIB, 0x00410000, writable=False),
        Memory("DTCM", 512 * KIB, 0x20000000),
        Memory("SRAM", 3 * MIB, 0x20080000),
    ),
    scratch_memory="DTCM",
    constant_memory="MRAM",
    description="Ambiq Apollo510 evaluation board: Cortex-M55 with Helium",
))
# Ambiq Apollo4 Plus EVB.
_register(Target(
    name="apollo4p_evb",
    cpu="cortex-m4",
    capabilities=("dsp", "fpu"),
    memories=(
        Memory("MRAM", 2 * MIB, 0x00018000, writable=False),
        Memory("TCM", 384 * KIB, 0x10000000),
        Memory("SRAM", 1 * MIB, 0x10060000),
    ),
    scratch_memory="TCM",
    constant_memory="MRAM",
    description="Ambiq Apollo4 Plus evaluation board: Cortex-M4F with DSP extension, no Helium",
))
# Any machine, portable C: the plain-C kernels of ns-cmsis-nn or our portable library.
_register(Target(
    name="host",
    cpu="generic",
    capabilities=(),
    memories=(Memory("RAM", 1 << 30), Memory("ROM", 1 << 30, writable=False)),
    scratch_memory="RAM",
    constant_memory="ROM",
    description="Host build: portable C, no SIMD",
    arena_alignment=16,
))


def builtin_targets() -> list[Target]:
    return [_BUILTIN[n] for n in sorted(_BUILTIN)]


_TARGET_KEYS = {"name", "cpu", "capabilities", "memories", "scratch_memory", "constant_memory",
                "description", "arena_alignment", "base"}
_MEMORY_KEYS = {"name", "size", "base", "writable"}


def target_from_dict(spec: dict, where: str) -> Target:
    """Build a custom target from a YAML mapping; ``base`` copies a registered target first."""
    if not isinstance(spec, dict):
        raise InvalidConfigError(f"{where} must be a mapping", "See `helia-aot targets` for the fields")
    unknown = sorted(set(spec) - _TARGET_KEYS)
    if unknown:
        raise InvalidConfigError(f"{where}: unknown key {unknown[0]!r} (allowed: {sorted(_TARGET_KEYS)})",
                                 "Remove or rename the key")
    base = None
    if "base" in spec:
        base = get_target(spec["base"])
    name = spec.get("name")
    if not isinstance(name, str) or not name:
        raise InvalidConfigError(f"{where}.name must be a non-empty string", "Name the custom target")
    cpu = spec.get("cpu", base.cpu if base else None)
    if not isinstance(cpu, str):
        raise InvalidConfigError(f"{where}.cpu must be a string such as cortex-m55", "Set the CPU")
    caps = spec.get("capabilities", list(base.capabilities) if base else [])
    if not isinstance(caps, list) or any(c not in KNOWN_CAPABILITIES for c in caps):
        raise InvalidConfigError(f"{where}.capabilities must be a list drawn from {list(KNOWN_CAPABILITIES)}",
                                 "Fix the capability names")
    if "mve" in caps and "dsp" not in caps:
        raise InvalidConfigError(f"{where}.capabilities has mve without dsp (every Helium core has the DSP "
                                 "extension)", "Add dsp")
    mems_spec = spec.get("memories")
    if mems_spec is None:
        memories = base.memories if base else ()
    else:
        if not isinstance(mems_spec, list) or not mems_spec:
            raise InvalidConfigError(f"{where}.memories must be a non-empty list", "List the memories")
        mem_list = []
        for i, m in enumerate(mems_spec):
            mwhere = f"{where}.memories[{i}]"
            if not isinstance(m, dict):
                raise InvalidConfigError(f"{mwhere} must be a mapping", "Give name and size")
            bad = sorted(set(m) - _MEMORY_KEYS)
            if bad:
                raise InvalidConfigError(f"{mwhere}: unknown key {bad[0]!r} (allowed: {sorted(_MEMORY_KEYS)})",
                                         "Remove or rename the key")
            if not isinstance(m.get("name"), str) or not isinstance(m.get("size"), int) or m["size"] <= 0:
                raise InvalidConfigError(f"{mwhere} needs a string name and a positive integer size",
                                         "Fix the memory entry")
            mem_list.append(Memory(m["name"], m["size"], m.get("base"), bool(m.get("writable", True))))
        memories = tuple(mem_list)
    names = [m.name for m in memories]
    scratch = spec.get("scratch_memory", base.scratch_memory if base else (names[0] if names else None))
    const = spec.get("constant_memory", base.constant_memory if base else (names[0] if names else None))
    for key, value in (("scratch_memory", scratch), ("constant_memory", const)):
        if value not in names:
            raise InvalidConfigError(f"{where}.{key} {value!r} is not one of the memories {names}",
                                     "Name one of the target's memories")
    align = spec.get("arena_alignment", base.arena_alignment if base else 16)
    if not isinstance(align, int) or align <= 0 or align & (align - 1):
        raise InvalidConfigError(f"{where}.arena_alignment must be a power of two", "Use 4, 8 or 16")
    return Target(name, cpu, tuple(c for c in KNOWN_CAPABILITIES if c in caps), memories, scratch, const,
                  spec.get("description", ""), align, source="custom")


def load_custom_targets(path: str | Path) -> list[Target]:
    try:
        text = Path(path).read_text()
    except OSError as exc:
        raise InvalidConfigError(f"cannot read target file {path}: {exc.strerror}", "Check the path") from None
    try:
        doc = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise InvalidConfigError(f"target file {path} is not valid YAML ({exc.__class__.__name__})",
                                 "Fix the YAML syntax") from None
    items = doc.get("targets") if isinstance(doc, dict) else None
    if not isinstance(items, list):
        raise InvalidConfigError(f"target file {path} must hold a list under 'targets'", "Add a targets: list")
    return [target_from_dict(t, f"{path}:targets[{i}]") for i, t in enumerate(items)]


def get_target(name, custom: list[Target] | None = None) -> Target:
    if isinstance(name, Target):
        return name
    for t in custom or []:
        if t.name == name:
            return t
    if name in _BUILTIN:
        return _BUILTIN[name]
    known = sorted(_BUILTIN) + sorted(t.name for t in custom or [])
    raise UnknownTargetError(f"unknown target {name!r} (known targets: {', '.join(known)})",
                             "Pick one of those, or define it under target: in the config file")

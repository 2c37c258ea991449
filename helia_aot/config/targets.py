# SPDX-License-Identifier: Apache-2.0
"""Target registry: CPU, capabilities and named memories of each board the compiler knows."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from helia_aot.config.spec import MAX_ARENA_ALIGNMENT
from helia_aot.config.yaml_file import read_yaml
from helia_aot.emit.symbols import slug
from helia_aot.errors import InvalidConfigError, UnknownTargetError, brief, rename_hint

KNOWN_CAPABILITIES = ("dsp", "mve", "fpu", "fp16")
# The cpu of the host target: a build for the machine running it, not a Cortex-M core.
HOST_CPU = "generic"
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
        """Whether native half-precision operators may run here (the FP16 gate of every operator).

        A Cortex-M core needs MVE-FP, declared by the fp16 capability: without it ns-cmsis-nn's _f16
        kernels do not build or fall back to code the core cannot run well. The generic host is no
        Cortex-M core: its C compiler supplies the half type (_Float16) and the module runs on the
        plain-C or portable kernels, which is how FP16 modules are tested on x86."""
        return self.has("fp16") or self.cpu == HOST_CPU

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
    cpu=HOST_CPU,
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
# Names of targets, CPUs and memories: they appear in plans, Bazel attributes and command lines.
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.+-]{0,63}")
ADDRESS_SPACE = 1 << 32  # a Cortex-M core addresses 4 GiB


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_name(value, where: str, what: str) -> str:
    if not isinstance(value, str) or not _NAME.fullmatch(value):
        raise InvalidConfigError(f"{where} must be a name of at most 64 letters, digits, '_', '.', '+' or '-', "
                                 f"starting with a letter or digit; got {brief(value)}", f"Name the {what} that way")
    return value


def _check_keys(spec: dict, allowed: set[str], where: str) -> None:
    unknown = sorted((k for k in spec if k not in allowed), key=str)
    if unknown:
        raise InvalidConfigError(f"{where}: unknown key {brief(unknown[0])} (allowed: {sorted(allowed)})",
                                 rename_hint(unknown[0], allowed, "Remove or rename the key"))


def _memory_from_dict(m, where: str) -> Memory:
    if not isinstance(m, dict):
        raise InvalidConfigError(f"{where} must be a mapping with name and size", "Give name and size")
    _check_keys(m, _MEMORY_KEYS, where)
    name = _check_name(m.get("name"), f"{where}.name", "memory")
    size = m.get("size")
    if not _is_int(size) or not 0 < size <= ADDRESS_SPACE:
        raise InvalidConfigError(f"{where}.size must be a number of bytes from 1 to {ADDRESS_SPACE} (4 GiB), "
                                 f"got {brief(size)}", "Give the size in bytes, e.g. 524288 for 512 KiB")
    base = m.get("base")
    if base is not None and (not _is_int(base) or base < 0 or base + size > ADDRESS_SPACE):
        raise InvalidConfigError(f"{where}.base must be an address from 0 with base + size at most "
                                 f"{ADDRESS_SPACE:#x}, got {brief(base)}", "Give the memory's start address")
    writable = m.get("writable", True)
    if not isinstance(writable, bool):
        raise InvalidConfigError(f"{where}.writable must be true or false, got {brief(writable)}",
                                 "Write true or false")
    return Memory(name, size, base, writable)


def target_from_dict(spec: dict, where: str) -> Target:
    """Build a custom target from a YAML mapping; ``base`` copies a registered target first."""
    if not isinstance(spec, dict):
        raise InvalidConfigError(f"{where} must be a mapping", "See `helia-aot targets` for the fields")
    _check_keys(spec, _TARGET_KEYS, where)
    base = None
    if "base" in spec:
        base = get_target(_check_name(spec["base"], f"{where}.base", "base target"))
    name = _check_name(spec.get("name"), f"{where}.name", "custom target")
    cpu = _check_name(spec.get("cpu", base.cpu if base else None), f"{where}.cpu", "CPU (e.g. cortex-m55)")
    caps = spec.get("capabilities", list(base.capabilities) if base else [])
    if not isinstance(caps, list):
        raise InvalidConfigError(f"{where}.capabilities must be a list drawn from {list(KNOWN_CAPABILITIES)}, got "
                                 f"{brief(caps)}", "Write them as a list, e.g. [dsp, fpu]")
    for c in caps:
        if c not in KNOWN_CAPABILITIES:
            raise InvalidConfigError(f"{where}.capabilities has {brief(c)}, not one of {list(KNOWN_CAPABILITIES)}",
                                     rename_hint(c, KNOWN_CAPABILITIES, "Fix the capability names"))
    if "mve" in caps and "dsp" not in caps:
        raise InvalidConfigError(f"{where}.capabilities has mve without dsp (every Helium core has the DSP "
                                 "extension)", "Add dsp")
    if "fp16" in caps and "mve" not in caps:
        # fp16 names MVE-FP, the floating-point half of Helium; a core without MVE cannot have it.
        raise InvalidConfigError(f"{where}.capabilities has fp16 without mve (fp16 is Helium's half-precision "
                                 "vector floating point, MVE-FP)", "Add mve and dsp, or remove fp16")
    mems_spec = spec.get("memories")
    if mems_spec is None:
        memories = base.memories if base else ()
    else:
        if not isinstance(mems_spec, list) or not mems_spec:
            raise InvalidConfigError(f"{where}.memories must be a non-empty list", "List the memories")
        memories = tuple(_memory_from_dict(m, f"{where}.memories[{i}]") for i, m in enumerate(mems_spec))
    names = [m.name for m in memories]
    if not names:
        raise InvalidConfigError(f"{where} has no memories", "List them under memories, or name a base target")
    folded = [n.lower() for n in names]
    for n in names:
        if folded.count(n.lower()) > 1:
            raise InvalidConfigError(f"{where}.memories names {brief(n)} twice (names are compared ignoring case)",
                                     "Give every memory its own name")
    # A memory's name becomes part of C identifiers and section names (helia_aot/emit/symbols.py): two
    # names that mangle alike would give two arrays one name, which C merges silently.
    mangled: dict[str, str] = {}
    for n in names:
        other = mangled.setdefault(slug(n), n)
        if other != n:
            raise InvalidConfigError(f"{where}.memories {brief(other)} and {brief(n)} both become '{slug(n)}' in C "
                                     "names (arena and section names)", "Rename one of them")
    scratch = spec.get("scratch_memory", base.scratch_memory if base else names[0])
    const = spec.get("constant_memory", base.constant_memory if base else names[0])
    for key, value in (("scratch_memory", scratch), ("constant_memory", const)):
        if value not in names:
            raise InvalidConfigError(f"{where}.{key} {brief(value)} is not one of the memories {names}",
                                     rename_hint(value, names, "Name one of the target's memories"))
    if not memories[names.index(scratch)].writable:
        raise InvalidConfigError(f"{where}.scratch_memory {brief(scratch)} is read-only (writable: false)",
                                 "Put the arena in a writable memory")
    align = spec.get("arena_alignment", base.arena_alignment if base else 16)
    if not _is_int(align) or not 0 < align <= MAX_ARENA_ALIGNMENT or align & (align - 1):
        raise InvalidConfigError(f"{where}.arena_alignment must be a power of two from 1 to {MAX_ARENA_ALIGNMENT}, "
                                 f"got {brief(align)}", "Use 4, 8 or 16")
    description = spec.get("description", "")
    if not isinstance(description, str):
        raise InvalidConfigError(f"{where}.description must be a string, got {type(description).__name__}",
                                 "Quote the description")
    return Target(name, cpu, tuple(c for c in KNOWN_CAPABILITIES if c in caps), memories, scratch, const,
                  description, align, source="custom")


def load_custom_targets(path: str | Path) -> list[Target]:
    doc = read_yaml(Path(path), "target file", "Check the target.file path")
    if isinstance(doc, dict):
        _check_keys(doc, {"targets"}, f"target file {path}")
    if not isinstance(doc, dict) or not isinstance(doc.get("targets"), list) or not doc["targets"]:
        raise InvalidConfigError(f"target file {path} must hold a non-empty list under 'targets'",
                                 "Start the file with targets: and list the targets under it")
    targets = [target_from_dict(t, f"{path}:targets[{i}]") for i, t in enumerate(doc["targets"])]
    check_distinct(targets, f"target file {path}")
    return targets


def check_distinct(targets: list[Target], where: str) -> None:
    names = [t.name for t in targets]
    for n in names:
        if names.count(n) > 1:
            raise InvalidConfigError(f"{where} defines target {brief(n)} twice", "Give every target its own name")


def get_target(name, custom: list[Target] | None = None) -> Target:
    if isinstance(name, Target):
        return name
    if not isinstance(name, str):
        raise UnknownTargetError(f"a target is named by a string, got {type(name).__name__} {brief(name)}",
                                 "Pass the target's name, e.g. corstone300")
    for t in custom or []:
        if t.name == name:
            return t
    if name in _BUILTIN:
        return _BUILTIN[name]
    known = sorted(_BUILTIN) + sorted(t.name for t in custom or [])
    raise UnknownTargetError(f"unknown target {brief(name)} (known targets: {', '.join(known)})",
                             rename_hint(name, known, "Pick one of those, or define it under target: in the "
                                                      "config file"))

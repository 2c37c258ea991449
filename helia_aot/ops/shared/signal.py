# SPDX-License-Identifier: Apache-2.0
"""Shared rules of TensorFlow Lite Micro's Signal operators (custom operators "CUSTOM:Signal...").

Their attributes come in the operator's custom options, a FlexBuffer map decoded on first use into
`Operator.options`. TFLM's kernels read that map by POSITION (FlexbufferWrapper::ElementAs*(index), the
index a constant naming the attribute's place among the exporter's sorted keys), not by name: with another
set of keys TFLM reads whatever value sits at that place. `read_options` reads the same way, so a module
computes what TFLM computes for any key set, and refuses a map too short for a position (TFLM reads past
it) and any value outside the range the kernel's arithmetic is defined for.
No @register here.
"""

from __future__ import annotations

from dataclasses import dataclass

from helia_aot.ops.base import OpContext, Rule, tflm, undefined

INT32_MIN, INT32_MAX = -(1 << 31), (1 << 31) - 1

# The rules read_options enforces for every Signal operator. TFLM itself checks no key and no value: it reads
# whatever sits at each position.
OPTION_KEYS = Rule("custom options hold a value at each position the kernel reads (the value there is read, "
                   "whatever its key)", undefined(
                       "flatbuffer_utils.cc FlexbufferWrapper::ElementAs*", "reads data_ + index x byte_width with no "
                       "bound: a map with fewer values is read past its end"))
OPTION_RANGE = Rule("each custom option of its kind, within the range the kernel's arithmetic is defined for",
                    undefined("signal/src (the Signal kernels' arithmetic, called from each Eval)",
                              "outside it TFLM's C++ shifts past the word or indexes past a tensor"))


def prepare_rule(text: str, where: str, check: str) -> Rule:
    """A check of a Signal kernel's Init or Prepare in TFLM (signal/micro/kernels/<where>)."""
    return Rule(text, tflm(f"signal/micro/kernels/{where}", check))


def unchecked_rule(text: str, kernel: str) -> Rule:
    """A size relation TFLM's kernel assumes without checking it (it would read or write past a tensor)."""
    return Rule(text, undefined(f"signal/micro/kernels {kernel}", "relies on it unchecked and reads or writes past "
                                "a tensor otherwise"))


@dataclass(frozen=True)
class Attr:
    """One attribute a Signal kernel reads: its kind ("int" or "bool"), for an int the inclusive range the
    kernel computes correctly with (beyond it C shifts or indexes out of bounds), and whether TFLM looks it up
    by name (flexbuffers Map operator[]) rather than by its position among the sorted attribute names."""

    kind: str = "int"
    low: int = INT32_MIN
    high: int = INT32_MAX
    by_name: bool = False

    def check(self, value) -> bool:
        if self.kind == "bool":
            return isinstance(value, bool) or (isinstance(value, int) and value in (0, 1))
        return isinstance(value, int) and not isinstance(value, bool) and self.low <= value <= self.high

    def words(self) -> str:
        if self.kind == "bool":
            return "a bool"
        return f"an integer in {self.low}..{self.high}"


def read_options(ctx: OpContext, attrs: dict[str, Attr]) -> dict:
    """The operator's attributes as TFLM reads them: each by its position among the sorted names `attrs`
    lists (the value at that place in the sorted map, whatever its key), or by name where TFLM looks it up so;
    each checked for its kind and range. A bool comes back as a bool."""
    options = ctx.op.options
    keys, names = sorted(options), sorted(attrs)
    result = {}
    for position, name in enumerate(names):
        attr = attrs[name]
        key = name if attr.by_name else (keys[position] if position < len(keys) else None)
        if key is None:
            raise ctx.error(OPTION_KEYS, None,
                            "Export the operator with TFLM's Signal library (tflite_micro.python.tflite_micro.signal)",
                            detail=f"custom options {keys} have no value for '{name}' (TFLM reads it at position "
                                   f"{position}, past the map)")
        value = options.get(key, 0)  # a name the map lacks: flexbuffers' Map[] gives Null, which reads as 0
        shown = name if key == name else f"{name} (read from '{key}', at its position)"
        if not attr.check(value):
            raise ctx.error(OPTION_RANGE, None, detail=f"custom option {shown} = {value!r} must be {attr.words()}")
        result[name] = bool(value) if attr.kind == "bool" else int(value)
    return result


def flat_size(shape) -> int:
    n = 1
    for d in shape:
        n *= int(d)
    return n


def require_rank(ctx: OpContext, tensor, ranks: tuple[int, ...], role: str, rule: Rule) -> None:
    """TFLM's Prepare checks ranks (NumDimensions); the module refuses the same models (`rule`: the operator's
    declared rank rule, naming that Prepare)."""
    if len(tensor.shape) not in ranks:
        wanted = " or ".join(str(r) for r in ranks)
        raise ctx.error(rule, tensor, detail=f"{role} must have rank {wanted} (TFLM's kernel requires it), it has "
                                             f"shape {list(tensor.shape)}")

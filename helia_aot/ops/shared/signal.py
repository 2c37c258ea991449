# SPDX-License-Identifier: Apache-2.0
"""Shared rules of TensorFlow Lite Micro's Signal operators (custom operators "CUSTOM:Signal...").

Their attributes come in the operator's custom options, a FlexBuffer map decoded on first use into
`Operator.options`. TFLM's kernels read that map by POSITION (FlexbufferWrapper::ElementAs*(index)),
keys sorted alphabetically, never by name: a map with another set of keys would make TFLM read other
values than the names say. So a module states the exact keys its kernel reads and `read_options`
refuses any other set, and any value outside the range the kernel's arithmetic is defined for.
No @register here.
"""

from __future__ import annotations

from dataclasses import dataclass

from helia_aot.ops.base import OpContext, Rule, helia_limit, tflm, undefined

INT32_MIN, INT32_MAX = -(1 << 31), (1 << 31) - 1

# The rules read_options enforces for every Signal operator. TFLM itself checks no key and no value: it reads
# whatever sits at each position, so both are limits of ours, each with its reason.
OPTION_KEYS = Rule("custom options hold exactly the attributes the kernel reads", helia_limit(
    "TFLM's kernel reads the FlexBuffer map by position (FlexbufferWrapper::ElementAs*(index), keys sorted), never "
    "by name: with another set of keys it reads other values than the names say, which a module reading them by "
    "name would not reproduce"))
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
    """One attribute a Signal kernel reads: its kind ("int" or "bool") and, for an int, the inclusive
    range the kernel computes correctly with (beyond it C shifts or indexes out of bounds)."""

    kind: str = "int"
    low: int = INT32_MIN
    high: int = INT32_MAX

    def check(self, value) -> bool:
        if self.kind == "bool":
            return isinstance(value, bool) or (isinstance(value, int) and value in (0, 1))
        return isinstance(value, int) and not isinstance(value, bool) and self.low <= value <= self.high

    def words(self) -> str:
        if self.kind == "bool":
            return "a bool"
        return f"an integer in {self.low}..{self.high}"


def read_options(ctx: OpContext, attrs: dict[str, Attr]) -> dict:
    """The operator's attributes, checked: exactly the keys `attrs` names (TFLM reads them by their
    alphabetical position), each of its kind and range. A bool comes back as a bool."""
    options = ctx.op.options
    keys, wanted = sorted(options), sorted(attrs)
    if keys != wanted:
        missing = [k for k in wanted if k not in options]
        extra = [k for k in keys if k not in attrs]
        said = "; ".join(part for part in (f"missing {missing}" if missing else "",
                                          f"unexpected {extra}" if extra else "") if part)
        raise ctx.error(OPTION_KEYS, None,
                        "Export the operator with TFLM's Signal library (tflite_micro.python.tflite_micro.signal)",
                        detail=f"custom options must hold exactly the attributes {wanted} ({said}): TFLM's kernel "
                               "reads them by their position in the sorted map")
    result = {}
    for key, attr in attrs.items():
        value = options[key]
        if not attr.check(value):
            raise ctx.error(OPTION_RANGE, None, detail=f"custom option {key} = {value!r} must be {attr.words()}")
        result[key] = bool(value) if attr.kind == "bool" else int(value)
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

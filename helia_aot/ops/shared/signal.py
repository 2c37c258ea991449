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

from helia_aot.ops.base import OpContext

INT32_MIN, INT32_MAX = -(1 << 31), (1 << 31) - 1


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
        raise ctx.error(f"custom options must hold exactly the attributes {wanted} ({said}): TFLM's kernel reads "
                        "them by their position in the sorted map", None,
                        "Export the operator with TFLM's Signal library (tflite_micro.python.tflite_micro.signal)")
    result = {}
    for key, attr in attrs.items():
        value = options[key]
        if not attr.check(value):
            raise ctx.error(f"custom option {key} = {value!r} must be {attr.words()}", None)
        result[key] = bool(value) if attr.kind == "bool" else int(value)
    return result


def flat_size(shape) -> int:
    n = 1
    for d in shape:
        n *= int(d)
    return n


def require_rank(ctx: OpContext, tensor, ranks: tuple[int, ...], role: str) -> None:
    """TFLM's Prepare checks ranks (NumDimensions); the module refuses the same models."""
    if len(tensor.shape) not in ranks:
        wanted = " or ".join(str(r) for r in ranks)
        raise ctx.error(f"{role} must have rank {wanted} (TFLM's kernel requires it), it has shape "
                        f"{list(tensor.shape)}", tensor)


def require_shape(ctx: OpContext, tensor, shape: tuple[int, ...], role: str, why: str) -> None:
    if tuple(tensor.shape) != tuple(shape):
        raise ctx.error(f"{role} must have shape {list(shape)} ({why}), it has {list(tensor.shape)}", tensor)

# SPDX-License-Identifier: Apache-2.0
"""What GATHER, GATHER_ND, SCATTER_ND, DYNAMIC_UPDATE_SLICE, MIRROR_PAD, REVERSE_V2 and REVERSE_SEQUENCE share:
their data operands per variant, the shape arithmetic, and how index inputs reach the generated code.

These operators only move elements, so every variant is exact (tolerance 0). Codes are moved whatever the
quantization says, as LiteRT's kernels (gather.cc, gather_nd.cc, scatter_nd.cc, dynamic_update_slice.cc,
mirror_pad.cc, reverse.cc, reverse_sequence.cc) move them: they compare no scale or zero point, so neither do we
(an int16 tensor needs no zero point 0 either). int8 / int16 call ns-cmsis-nn's
`_s8` / `_s16` entry where it has one and the shape is within its limits, inline C otherwise; float32, int32,
int64 and bool (where LiteRT's reference kernel takes them) are inline C (byte moves, loops over dims fixed at
conversion).

Index inputs (indices, start indices, sequence lengths) may be int32 or int64, constant or computed at run
time. Constants are checked at conversion (an index LiteRT would reject is refused) and stored as int32.
Run-time ones are checked by the generated code before any element moves: a value LiteRT's reference kernel
rejects at invoke time makes the operator return ARM_CMSIS_NN_ARG_ERROR, so `model_run` returns its
KERNEL_ERROR status naming the operator, and nothing is read out of bounds. int64 ones are narrowed to int32
(the entries' type) in the operator's scratch after that check.
"""

from __future__ import annotations

import numpy as np

from helia_aot.emit.c_syntax import c_type
from helia_aot.ir.graph import Tensor
from helia_aot.ops.base import ConstArray, OpContext, Operand, Rule, Variant, helia_limit

ENTRY_SUFFIX = {"int8": "s8", "int16": "s16"}

NOT_EMPTY = Rule("no empty tensor", helia_limit(
    "the entries and inline loops assume at least one element; LiteRT's kernels run an empty tensor as a no-op",
    "an early return for empty tensors"))
NOT_SCALAR = Rule("data input of rank >= 1", helia_limit(
    "the loops index at least one axis; a rank-0 input has none to move along", "a scalar path"))


def data(variant: str, role: str = "input") -> Operand:
    """A data operand of the variant's dtype: codes or bits moved, no quantization rule."""
    return Operand(role, (variant,))


def data_variant(variant: str, inputs: tuple[Operand, ...], template: str, entry: str | None,
                 notes: tuple[str, ...], rules: tuple[Rule, ...]) -> Variant:
    """One variant: its data operands are of the variant's dtype, the output too."""
    return Variant(variant, inputs=inputs, outputs=(data(variant, "output"),),
                   entries=(entry,) if entry else (), template=template, notes=notes, rules=rules)


def check_not_empty(ctx: OpContext, *tensors: Tensor) -> None:
    for t in tensors:
        if t is not None and t.num_elements == 0:
            raise ctx.error(NOT_EMPTY, t, detail=f"empty tensor (shape {list(t.shape)}) is not supported")


def prod(values) -> int:
    n = 1
    for v in values:
        n *= int(v)
    return n


def dims4(shape) -> tuple[int, int, int, int]:
    """A shape of rank <= 4 as cmsis_nn_dims read axis by axis (n = axis 0), padded with 1s on the right."""
    dims = [int(d) for d in shape] + [1] * (4 - len(shape))
    return tuple(dims)  # type: ignore[return-value]


def entry_for(ctx: OpContext, base: str) -> str | None:
    """The ns-cmsis-nn entry of an int8 / int16 variant, None for the inline ones."""
    suffix = ENTRY_SUFFIX.get(ctx.variant.name)
    return f"{base}_{suffix}" if suffix else None


def ctype(ctx: OpContext) -> str:
    return c_type(ctx.out(0).dtype)


def index_input(ctx: OpContext, k: int, role: str, bounds: list[int], rule: Rule, mode: str = "range",
                name: str = "indices") -> tuple[dict, list[ConstArray], int]:
    """How input k (int32 / int64 values, read in groups of len(bounds)) reaches the template.

    mode "range": value j of a group must lie in [0, bounds[j]) (LiteRT's out-of-bounds error otherwise);
    mode "upper": at most bounds[j] (a sequence length; zero or below leaves the sequence as it is).
    `rule`: the operator's declared rule for a constant value out of range.
    Returns the template's description, the constants to store and the scratch bytes it needs."""
    t = ctx.inp(k)
    depth = len(bounds)
    if t.num_elements % depth:
        raise ctx.error(rule, t, detail=f"{role} holds {t.num_elements} values, not a whole number of {depth}-index "
                                        f"groups")
    if t.is_constant:
        values = np.asarray(t.data).astype(np.int64).reshape(-1, depth)
        limit = np.asarray(bounds, dtype=np.int64)
        bad = (values > limit) if mode == "upper" else ((values < 0) | (values >= limit))
        if bad.any():
            row, col = (int(v) for v in np.argwhere(bad)[0])
            what = f"at most {bounds[col]}" if mode == "upper" else f"in [0, {bounds[col]})"
            raise ctx.error(rule, t, detail=f"{role} value {int(values[row, col])} must be {what} (LiteRT fails on it "
                                            f"at invoke time)")
        if mode == "upper":
            values = np.maximum(values, -1)  # every length <= 0 means the same; keeps int64 ones in int32
        return (dict(kind="const", name=name, role=role),
                [ConstArray(name, "int32_t", values.reshape(-1), f"{role}, checked at conversion")], 0)
    return (dict(kind=t.dtype, name=name, role=role, tensor=t.index, count=t.num_elements, depth=depth,
                 bounds=list(bounds), mode=mode),
            [], 4 * t.num_elements if t.dtype == "int64" else 0)

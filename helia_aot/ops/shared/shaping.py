# SPDX-License-Identifier: Apache-2.0
"""What SLICE, SPLIT, SPLIT_V, PACK, UNPACK, TILE, BROADCAST_TO, FILL, ZEROS_LIKE, SHAPE and CAST share:
per-dtype variant declarations, axis rules and the parameters of the two inline byte movers.

These operators move values without arithmetic, so their integer variants copy codes whatever the
quantization says (LiteRT's reference kernels do the same); their inline C moves elements in their own C
type (loads and stores only, so float32 bits, NaNs included, arrive unchanged) or with memcpy.

- `copy_rows.c.j2`: copies of `outer` runs of `bytes` bytes with constant strides and offsets (SPLIT,
  PACK, UNPACK: each piece is one run per outer index).
- `gather_walk.c.j2`: one nested loop per output dimension; the input element at
  offset + sum over d of (i_d % wrap_d) * stride_d (SLICE, TILE, BROADCAST_TO: a broadcast dimension has
  stride 0, a tiled one wraps at the input's size).
"""

from __future__ import annotations

from helia_aot.emit.c_syntax import c_type
from helia_aot.ir.dtypes import DTYPE_BYTES
from helia_aot.ir.graph import Tensor
from helia_aot.ops.base import AXIS_RANGE_RULE, Lowered, OpContext, Operand, Rule, Variant
from helia_aot.ops.shared.checks import OUTPUT_SHAPE_RULE

# The dtypes LiteRT's reference data-movement kernels take (no float16 variants in this group).
MOVABLE = ("int8", "uint8", "int16", "int32", "int64", "float32", "bool")


def data(dtype: str, role: str = "input", **rules) -> Operand:
    """A tensor of one dtype whose codes or bits are moved (no quantization rule: codes are copied)."""
    return Operand(role, (dtype,), **rules)


def dtype_variants(dtypes, build, entries: dict[str, str] | None = None) -> tuple[Variant, ...]:
    """One variant per dtype: build(dtype, entry or None) -> Variant (entry: the ns-cmsis-nn entry that
    serves that dtype, else inline C)."""
    entries = entries or {}
    return tuple(build(d, entries.get(d)) for d in dtypes)


def normalized_axis(ctx: OpContext, axis: int, rank: int, tensor: Tensor | None, what: str = "axis") -> int:
    """A LiteRT axis in [-rank, rank) as a non-negative one; outside: refused naming the tensor."""
    if not -rank <= axis < rank:
        raise ctx.error(AXIS_RANGE_RULE, tensor, detail=f"{what} {axis} is outside [-{rank}, {rank}) for a rank-{rank} "
                                                        f"tensor")
    return axis + rank if axis < 0 else axis


def row_copy(src: int, dst: int, outer: int, src_stride: int, src_off: int, dst_stride: int, dst_off: int,
             nbytes: int) -> dict:
    """One copy_rows.c.j2 entry, in bytes: for k < outer, dst[k * dst_stride + dst_off ...] gets nbytes from
    src[k * src_stride + src_off ...]."""
    return dict(src=src, dst=dst, outer=outer, src_stride=src_stride, src_off=src_off, dst_stride=dst_stride,
                dst_off=dst_off, bytes=nbytes)


def split_copies(x: Tensor, outputs: list[Tensor], axis: int, sizes: list[int]) -> list[dict]:
    """SPLIT / SPLIT_V / UNPACK: piece s (sizes[s] positions of axis) of x goes to outputs[s]."""
    size = DTYPE_BYTES[x.dtype]
    outer = 1
    for d in x.shape[:axis]:
        outer *= int(d)
    inner = size
    for d in x.shape[axis + 1:]:
        inner *= int(d)
    row = int(x.shape[axis]) * inner
    copies, offset = [], 0
    for y, n in zip(outputs, sizes):
        if n * inner > 0 and outer > 0:
            copies.append(row_copy(x.index, y.index, outer, row, offset, n * inner, 0, n * inner))
        offset += n * inner
    return copies


def walk_params(x: Tensor, y: Tensor, offset: int, strides, wraps) -> dict:
    """gather_walk.c.j2 parameters: y's dims; per dimension the input stride (elements; 0: broadcast) and
    the wrap (None: none); offset in elements. Dimensions of size 1 are dropped (their index is always 0)."""
    sizes, terms = [], [str(int(offset))]
    for d, n in enumerate(y.shape):
        if int(n) == 1:
            continue
        var = f"i{len(sizes)}"
        sizes.append(int(n))
        if strides[d]:
            wrapped = f"({var} % {wraps[d]})" if wraps[d] is not None and wraps[d] < int(n) else var
            terms.append(f"{wrapped} * {int(strides[d])}")
    return dict(input=x.index, output=y.index, ctype=c_type(y.dtype), sizes=sizes, index=" + ".join(terms))


# ---- SPLIT / SPLIT_V ----

SPLITTABLE = ("int8", "uint8", "int16", "int32", "int64", "float32")  # LiteRT's split.cc / split_v.cc
SPLIT_ENTRIES = {"int8": "arm_split_s8", "int16": "arm_split_s16"}


def split_variant(inputs, dtype: str, entry: str | None, notes, rules: tuple[Rule, ...]) -> Variant:
    """A SPLIT / SPLIT_V variant: inputs(dtype) are its input operands, one or more outputs of dtype."""
    return Variant(dtype, inputs=inputs(dtype), outputs=(data(dtype, "output", repeated=True),),
                   entries=(entry,) if entry else (), template="split.c.j2" if entry else "copy_rows.c.j2",
                   notes=notes, rules=rules)


def check_split_outputs(ctx: OpContext, x: Tensor, axis: int, sizes: list[int]) -> None:
    """Each output has the input's shape with sizes[s] along axis (output count checked by the caller)."""
    for s, (y, n) in enumerate(zip(ctx.outputs(), sizes)):
        want = [int(d) for d in x.shape]
        want[axis] = n
        if list(y.shape) != want:
            raise ctx.error(OUTPUT_SHAPE_RULE, y, detail=f"output {s} shape {list(y.shape)} does not match the piece "
                                                         f"{want}")


def split_lowered(ctx: OpContext, x: Tensor, axis: int, sizes: list[int]) -> Lowered:
    """arm_split_s8 / _s16 for int8 / int16 (one call, every output), else inline row copies."""
    outputs = ctx.outputs()
    entry = ctx.variant.entries[0] if ctx.variant.entries else None
    if entry is None:
        return Lowered(params=dict(copies=split_copies(x, outputs, axis, sizes)))
    return Lowered(entry=entry, params=dict(input=x.index, outputs=[y.index for y in outputs], ctype=c_type(x.dtype),
                                            shape=[int(d) for d in x.shape], axis=axis, sizes=sizes))


def split_fold(x: Tensor, axis: int, sizes: list[int]) -> list:
    import numpy as np
    bounds = np.cumsum(sizes)[:-1]
    return list(np.split(np.asarray(x.data), bounds, axis=axis))

# SPDX-License-Identifier: Apache-2.0
"""STRIDED_SLICE, int8, int16, float32 and int32 up to rank 4 with positive strides, lowered to
arm_strided_slice_s8 / _s16 / _f32 / _s32 (int32: plain integers, e.g. TFLM's audio front end slicing its
energies). A slice copies elements whole, so float32 runs on _s32 (the same 4-byte copies) where the
library has no _f32 (FLOAT32_AS_WORDS). Codes are copied whatever the quantization says (LiteRT's
strided_slice.cc compares none), so the integer variants take any scale and zero point on either side.

Every mask LiteRT takes is resolved here, at conversion, into one plain (start, count, stride) per input
axis (`slice_axes`): ellipsis_mask, new_axis_mask, begin / end / strides shorter than the input's rank, and
offset, in the order strided_slice.cc's BuildStridedSliceParams and reference/strided_slice.h walk them."""

from __future__ import annotations

import dataclasses
import math

from helia_aot.ops.base import (Lowered, OpContext, OpLowering, Operand, Rule, Variant, both, kernel_limit, litert,
                                register, undefined)
from helia_aot.ops.shared.checks import OUTPUT_SHAPE_RULE, constant_ints
from helia_aot.ops.shared.float_variants import float16_variant
from helia_aot.ops.shared.operands import const_ints, f16, fp32
from helia_aot.ops.shared.shaping import data

ENTRIES = Rule("begin and end hold as many entries, at most 31", litert(
    "strided_slice.cc Prepare", "TF_LITE_ENSURE_EQ(NumElements(begin), NumElements(end)); NumElements(begin) <= 31 "
    "(\"StridedSlice op only supports up to 31 indices\")"))
READS_PAST = Rule("strides hold an entry for every begin entry read, and every slice axis maps to an input axis",
                  undefined("strided_slice.cc BuildStridedSliceParams", "reads strides (or the input's shape) past its "
                            "end: the walk's bounds are whatever lies there"))
NONZERO_STRIDE = Rule("no stride 0", both(
    "strided_slice.cc ResizeOutputTensor / micro strided_slice_common.cc CheckOutputSize",
    "TF_LITE_ENSURE_MSG(stride != 0, \"stride value has to be non-zero\")"))
STRIDE_RANGE = Rule("no stride INT32_MIN", litert(
    "strided_slice.cc ResizeOutputTensor", "TF_LITE_ENSURE_MSG(stride != INT32_MIN, \"stride value INT32_MIN is not "
    "supported\")"))
WRITES_OUTPUT = Rule("the walk writes exactly the output's elements", undefined(
    "strided_slice.cc ResizeOutputTensor / reference/strided_slice.h StridedSlice",
    "the output is sized from end alone under offset and a shrunk axis counts one element, while the walk visits "
    "start..end+start and nothing on a shrunk axis past the input or walked backwards: it writes past the output or "
    "leaves part of it unwritten"))
POSITIVE_STRIDE = Rule("positive strides", kernel_limit(
    "arm_strided_slice_s8 / _s16 / _s32 / _f32 / _f16", "walk forward only (LiteRT's strided_slice.cc takes "
    "negative strides)", "an inline-C backward walk"))
RANK = Rule("rank <= 4", kernel_limit(
    "arm_strided_slice_s8 / _s16 / _s32 / _f32 / _f16", "take 4-D dims; LiteRT's and TFLM's strided_slice take rank 5",
    "an inline-C slice over rank 5"))
_RULES = (ENTRIES, READS_PAST, NONZERO_STRIDE, STRIDE_RANGE, WRITES_OUTPUT, POSITIVE_STRIDE, RANK, OUTPUT_SHAPE_RULE)
_MAX_INDICES = 31


class SliceError(ValueError):
    """A slice the references refuse or cannot define: `rule` the refusing rule, `role` the input it names."""

    def __init__(self, rule: Rule, role: int, detail: str):
        super().__init__(detail)
        self.rule, self.role, self.detail = rule, role, detail


@dataclasses.dataclass(frozen=True)
class SliceAxis:
    """One axis of the walk: the input's axes with the length-1 axes new_axis_mask inserts. `start`, `count`
    and `stride` are the elements the walk visits; `length` the output dimension LiteRT sizes (None: the axis
    is shrunk away)."""

    start: int
    count: int
    stride: int
    length: int | None
    inserted: bool


def _bit(mask: int, i: int) -> bool:
    """Bit i of a 32-bit mask, as `uint32_t{1} << i & mask` reads it."""
    return 0 <= i < 32 and bool((mask & 0xFFFFFFFF) >> i & 1)


def _start(begin: int, n: int, stride: int, from_first: bool) -> int:
    """reference_ops::StartForAxis."""
    start = begin + n if begin < 0 else begin
    start = min(max(start, 0), n) if stride > 0 else min(max(start, -1), n - 1)
    return (0 if stride > 0 else n - 1) if from_first else start


def _stop(end: int, n: int, stride: int, start: int, to_last: bool, shrink: bool, offset: bool) -> int:
    """reference_ops::EndForAxis."""
    if shrink:
        return start if start >= n else start + 1
    stop = end + start if offset else end
    stop = stop + n if stop < 0 else stop
    stop = min(max(stop, 0), n) if stride > 0 else min(max(stop, -1), n - 1)
    return (n if stride > 0 else -1) if to_last else stop


def _visited(start: int, stop: int, stride: int) -> int:
    """How many indices `for (i = start; stride > 0 ? i < stop : i > stop; i += stride)` visits."""
    span = stop - start if stride > 0 else start - stop
    return max(0, -(-span // abs(stride)))


def _output_length(span: int, stride: int) -> int:
    """ResizeOutputTensor's dimension for a span (end - begin, or end alone under offset)."""
    if (span < 0) != (stride < 0):
        return 0
    return (span + 1) // stride + 1 if stride < 0 else (0 if span == 0 else (span - 1) // stride + 1)


def slice_axes(shape: list[int], begin: list[int], end: list[int], strides: list[int], *, begin_mask: int = 0,
               end_mask: int = 0, ellipsis_mask: int = 0, new_axis_mask: int = 0, shrink_axis_mask: int = 0,
               offset: bool = False) -> list[SliceAxis]:
    """The walk LiteRT's STRIDED_SLICE makes over an input of `shape` (strided_slice.cc
    BuildStridedSliceParams and ResizeOutputTensor, reference/strided_slice.h): one SliceAxis per axis after
    new_axis_mask's insertions, an ellipsis expanded over the axes begin / end / strides leave unnamed, the
    axes past their entries taken whole. Raises SliceError for a case LiteRT refuses or leaves undefined."""
    count, rank = len(begin), len(shape)
    if len(end) != count or count > _MAX_INDICES:
        raise SliceError(ENTRIES, 1, f"begin has {count} entries and end {len(end)} (LiteRT takes as many in each, "
                                     f"at most {_MAX_INDICES})")
    added = sum(1 for i in range(count) if not _bit(ellipsis_mask, i) and _bit(new_axis_mask, i))
    dims = rank + added
    ellipsis, inserted = set(), set()
    ellipsis_start, expanded, i = dims, 0, 0
    while i < dims:
        if _bit(ellipsis_mask, i):
            ellipsis_start = i
            ellipsis_end = max(i + 1, min(i + 1 + added + rank - count, dims))
            expanded = ellipsis_end - i - 1
            ellipsis.update(range(i, ellipsis_end))
            i = ellipsis_end
            continue
        if _bit(new_axis_mask, i - expanded):
            inserted.add(i)
        i += 1
    axes, added_ellipsis, added_axes = [], 0, 0
    for i in range(dims):
        # (begin, end, stride, begin_mask, end_mask, shrink) of effective axis i
        if i in ellipsis:
            added_ellipsis = max(0, i - ellipsis_start)
            entry = (0, 0, 1, True, True, False)
        elif i in inserted:
            entry = (0, 1, 1, False, False, False)
        elif i >= count + expanded:
            entry = (0, 0, 1, True, True, False)
        else:
            o = i - added_ellipsis
            if o >= len(strides) or o >= count:
                raise SliceError(READS_PAST, 3, f"axis {i} reads entry {o} of strides, which has {len(strides)}")
            entry = (begin[o], end[o], strides[o], _bit(begin_mask, o), _bit(end_mask, o), _bit(shrink_axis_mask, o))
        b, e, s, from_first, to_last, shrink = entry
        if i in inserted:
            n = 1
            added_axes += 1
        elif i - added_axes >= rank:
            raise SliceError(READS_PAST, 1, f"slice axis {i} has no input axis (the input has rank {rank})")
        else:
            n = int(shape[i - added_axes])
        if s == 0:
            raise SliceError(NONZERO_STRIDE, 3, f"stride 0 on axis {i}")
        if s == -2 ** 31:
            raise SliceError(STRIDE_RANGE, 3, f"stride INT32_MIN on axis {i}")
        start = _start(b, n, s, from_first)
        stop = _stop(e, n, s, start, to_last, shrink, offset)
        if shrink:
            length = None
        elif offset:
            if i >= count:
                raise SliceError(READS_PAST, 2, f"offset sizes axis {i} from end's entry {i}, which has {count}")
            length = _output_length(end[i], s)
        else:
            length = _output_length(stop - start, s)
        axes.append(SliceAxis(start, _visited(start, stop, s), s, length, i in inserted))
    walked = math.prod(a.count for a in axes)
    sized = math.prod(a.length for a in axes if a.length is not None)
    if walked != sized:
        raise SliceError(WRITES_OUTPUT, 0, f"the walk visits {walked} elements for an output of {sized}")
    return axes


def resolve(ctx: OpContext) -> list[SliceAxis]:
    """The slice's walk over the input (slice_axes) from the operator's constants and options."""
    masks = {k: int(ctx.options(k, 0) or 0) for k in ("begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask",
                                                      "shrink_axis_mask")}
    try:
        return slice_axes([int(d) for d in ctx.inp(0).shape], constant_ints(ctx, 1, "begin"),
                          constant_ints(ctx, 2, "end"), constant_ints(ctx, 3, "strides"),
                          offset=bool(ctx.options("offset", False)), **masks)
    except SliceError as e:
        raise ctx.error(e.rule, ctx.inp(e.role) if e.role else ctx.out(0), detail=e.detail) from None


def output_shape(axes: list[SliceAxis]) -> list[int]:
    return [a.length for a in axes if a.length is not None]


def kernel_axes(axes: list[SliceAxis]) -> list[SliceAxis]:
    """The input's own axes (inserted length-1 axes dropped: they move no element)."""
    return [a for a in axes if not a.inserted]


# Where the kernel library lacks arm_strided_slice_f32: float32 elements copied as the int32 words they are.
FLOAT32_AS_WORDS = (("arm_strided_slice_f32", "arm_strided_slice_s32"),)


def slice_params(ctx: OpContext, **params) -> Lowered:
    """The strided-slice entry the library provides for the variant and its arguments; `view` the element
    type the entry reads the tensors as, when that is not theirs (float32 copied as int32)."""
    entry = ctx.library_entry(ctx.variant.entries[0])
    if entry != ctx.variant.entries[0]:
        params.update(view="int32_t", instead=ctx.variant.entries[0], library=ctx.kernels.description)
    return Lowered(entry=entry, params=params)


@register
class StridedSlice(OpLowering):
    op_types = ("STRIDED_SLICE",)
    options_table = "StridedSliceOptions"
    variants = (
        Variant("int8", inputs=(data("int8"), const_ints("begin"), const_ints("end"), const_ints("strides")),
                outputs=(data("int8", "output"),), entries=("arm_strided_slice_s8",), template="strided_slice.c.j2",
                rules=_RULES),
        Variant("int16", inputs=(data("int16"), const_ints("begin"), const_ints("end"), const_ints("strides")),
                outputs=(data("int16", "output"),), entries=("arm_strided_slice_s16",), template="strided_slice.c.j2",
                rules=_RULES),
        Variant("float32", inputs=(fp32(), const_ints("begin"), const_ints("end"), const_ints("strides")),
                outputs=(fp32("output"),), entries=("arm_strided_slice_f32",), template="strided_slice.c.j2",
                rules=_RULES, fallbacks=FLOAT32_AS_WORDS),
        Variant("int32", inputs=(Operand("input", ("int32",)), const_ints("begin"), const_ints("end"),
                                 const_ints("strides")),
                outputs=(Operand("output", ("int32",)),), entries=("arm_strided_slice_s32",),
                template="strided_slice.c.j2", rules=_RULES, notes=("quantization ignored: values are copied",)),
        # -- float16 (native FP16) --
        float16_variant(inputs=(f16(), const_ints("begin"), const_ints("end"), const_ints("strides")),
                        outputs=(f16("output"),), entries=("arm_strided_slice_f16",), template="strided_slice.c.j2",
                        rules=_RULES),
    )

    def validate(self, ctx: OpContext) -> None:
        x, y = ctx.inp(0), ctx.out(0)
        axes = resolve(ctx)
        if len(x.shape) > 4:
            raise ctx.error(RANK, x, detail=f"rank {len(x.shape)} input is not supported (up to 4)")
        for d, a in enumerate(kernel_axes(axes)):
            if a.stride < 0 and a.count > 1:
                raise ctx.error(POSITIVE_STRIDE, ctx.inp(3), detail=f"stride {a.stride} on axis {d} is not supported "
                                                                    f"(positive strides only)")
        shape = output_shape(axes)
        if list(y.shape) != shape:
            raise ctx.error(OUTPUT_SHAPE_RULE, y,
                            detail=f"output shape {list(y.shape)} does not match the slice {shape}")

    def lower(self, ctx: OpContext) -> Lowered:
        x, y = ctx.inp(0), ctx.out(0)
        axes = kernel_axes(resolve(ctx))
        pad = 4 - len(axes)
        # An axis walked once reads only its start, whatever its stride's sign.
        return slice_params(ctx, input=x.index, output=y.index, input_dims=[1] * pad + [int(d) for d in x.shape],
                            begin=[0] * pad + [a.start for a in axes],
                            stride=[1] * pad + [a.stride if a.count > 1 else 1 for a in axes],
                            output_dims=[1] * pad + [a.count for a in axes])

    # -- float16 (native FP16) --

    def lower_float16(self, ctx: OpContext) -> Lowered:
        """arm_strided_slice_f16: the same arguments as the integer entries."""
        return self.lower(ctx)

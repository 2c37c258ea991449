# SPDX-License-Identifier: Apache-2.0
"""STRIDED_SLICE's masks resolved at conversion (helia_aot.ops.strided_slice.slice_axes) walk the elements
LiteRT's reference kernel walks: for random begin / end / strides and every mask (begin, end, ellipsis,
new_axis, shrink_axis, offset), fewer entries than the input's rank and negative strides, the output shape
and the elements are LiteRT's; a slice LiteRT refuses is refused by the rule that names its check. Cases
slice_axes calls reference undefined are not run (LiteRT reads past its tensors there)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from helia_aot.ops.strided_slice import SliceError, kernel_axes, output_shape, slice_axes
from tests.modelgen import ModelBuilder
from tests.modelgen.litert import make_interpreter

from . import property_profile  # noqa: F401


@st.composite
def slices(draw):
    rank = draw(st.integers(1, 4))
    shape = draw(st.lists(st.integers(1, 4), min_size=rank, max_size=rank))
    count = draw(st.integers(1, rank + 2))
    entries = st.lists(st.integers(-6, 6), min_size=count, max_size=count)
    masks = {k: draw(st.integers(0, (1 << count) - 1)) for k in ("begin_mask", "end_mask", "new_axis_mask",
                                                                  "shrink_axis_mask")}
    masks["ellipsis_mask"] = draw(st.sampled_from([0] + [1 << i for i in range(count)]))
    return dict(shape=shape, begin=draw(entries), end=draw(entries),
                strides=draw(st.lists(st.sampled_from([1, 2, 3, -1, -2]), min_size=count, max_size=count)),
                offset=draw(st.booleans()), **masks)


def _litert(case: dict, declared: list[int]) -> np.ndarray:
    b = ModelBuilder()
    x = b.input("x", case["shape"], "int32")
    y = b.tensor("y", declared, "int32")
    options = {k: v for k, v in case.items() if k.endswith("_mask") or k == "offset"}
    b.op("STRIDED_SLICE", [x] + [b.const(k, np.asarray(case[k], np.int32)) for k in ("begin", "end", "strides")], [y],
         options)
    b.output(y)
    interpreter = make_interpreter(b.build())
    interpreter.set_tensor(interpreter.get_input_details()[0]["index"], _input(case["shape"]))
    interpreter.invoke()
    return interpreter.get_tensor(interpreter.get_output_details()[0]["index"])


def _input(shape: list[int]) -> np.ndarray:
    return np.arange(100, 100 + int(np.prod(shape)), dtype=np.int32).reshape(shape)


@settings(max_examples=300)
@given(slices())
def test_resolved_slice_walks_what_litert_walks(case):
    arguments = {k: v for k, v in case.items() if k != "shape"}
    try:
        axes = slice_axes(case["shape"], **arguments)
    except SliceError as e:
        if e.rule.source.kind == "reference undefined":
            return
        with pytest.raises((RuntimeError, ValueError)):
            _litert(case, [1])
        return
    shape = output_shape(axes)
    walked = _input(case["shape"])[np.ix_(*[a.start + a.stride * np.arange(a.count) for a in kernel_axes(axes)])]
    reference = _litert(case, shape)
    assert list(reference.shape) == shape
    np.testing.assert_array_equal(reference, walked.reshape(shape))


@pytest.mark.parametrize("spec, shape, expected", [
    # x[1:3, ...] on 4x5x3: the ellipsis takes the two axes begin leaves unnamed.
    (dict(begin=[1, 0], end=[3, 0], strides=[1, 1], ellipsis_mask=2), [4, 5, 3], [2, 5, 3]),
    # x[:, None, 2]: a length-1 axis inserted, the last axis shrunk away.
    (dict(begin=[0, 0, 2], end=[0, 0, 3], strides=[1, 1, 1], begin_mask=1, end_mask=1, new_axis_mask=2,
          shrink_axis_mask=4), [4, 3], [4, 1]),
    # x[1:2] on 4x5: the axis past the entries taken whole.
    (dict(begin=[1], end=[2], strides=[1]), [4, 5], [1, 5]),
    # offset: end holds the length from begin.
    (dict(begin=[1, 2], end=[2, 3], strides=[1, 1], offset=True), [4, 5], [2, 3]),
])
def test_masks_resolve_to_the_shapes_tensorflow_gives(spec, shape, expected):
    assert output_shape(slice_axes(shape, **spec)) == expected


@pytest.mark.parametrize("spec, rule", [
    (dict(begin=[0, 0], end=[1], strides=[1, 1]), "begin and end hold as many entries"),
    (dict(begin=[0, 0], end=[1, 1], strides=[1]), "strides hold an entry for every begin entry read"),
    (dict(begin=[5, 0], end=[6, 1], strides=[1, 1], shrink_axis_mask=1), "the walk writes exactly"),
    (dict(begin=[1, 0], end=[2, 1], strides=[-1, 1], shrink_axis_mask=1), "the walk writes exactly"),
])
def test_slices_litert_refuses_or_leaves_undefined_name_their_rule(spec, rule):
    with pytest.raises(SliceError) as e:
        slice_axes([4, 5], **spec)
    assert e.value.rule.text.startswith(rule)

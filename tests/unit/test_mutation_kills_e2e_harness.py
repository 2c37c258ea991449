# SPDX-License-Identifier: Apache-2.0
"""The e2e harness's comparison against LiteRT, on hand-made outputs: every end-to-end verdict rests
on these few functions (differences, tolerances, arg-max agreement, the module's output stream), so a
bug in them would pass wrong modules. Found by mutation sampling of tests/e2e/harness.py."""

from __future__ import annotations

import numpy as np
import pytest

from tests.e2e import harness
from tests.e2e.harness import E2EError, OperatorDiff, TensorInfo


def _i8(*values: int) -> np.ndarray:
    return np.array(values, dtype=np.int8)


def test_max_abs_diff_widens_before_subtracting():
    # int8 -128 against 127 is 255 apart; in int8 arithmetic it would wrap to 1.
    assert harness.max_abs_diff(_i8(-128, 0, 5), _i8(127, 0, 3)) == 255.0
    assert harness.max_abs_diff(np.array([0.25, -1.0], np.float32), np.array([0.5, -1.0], np.float32)) == 0.25
    assert harness.max_abs_diff(np.zeros((0,), np.int8), np.zeros((0,), np.int8)) == 0.0


def test_max_abs_diff_refuses_another_shape_or_dtype():
    with pytest.raises(E2EError) as shape:
        harness.max_abs_diff(np.zeros((2, 3), np.int8), np.zeros((3, 2), np.int8))
    assert str(shape.value) == "output has shape (2, 3) int8, LiteRT's has (3, 2) int8"
    with pytest.raises(E2EError) as dtype:
        harness.max_abs_diff(np.zeros((2,), np.int16), np.zeros((2,), np.int8))
    assert str(dtype.value) == "output has shape (2,) int16, LiteRT's has (2,) int8"


def test_output_ranges_span_every_sample_of_each_output():
    outputs = [[_i8(-128, 3), np.array([0.5], np.float32)],
               [_i8(0, 127), np.array([-0.25], np.float32)],
               [_i8(1, 1), np.array([0.0], np.float32)]]
    assert harness.output_ranges(outputs) == [255.0, 0.75]


def test_per_output_max_diff_takes_the_worst_sample_per_output():
    want = [[_i8(0, 0), _i8(10)], [_i8(0, 0), _i8(10)]]
    got = [[_i8(1, 0), _i8(10)], [_i8(0, -3), _i8(12)]]
    assert harness.per_output_max_diff(got, want) == [3.0, 2.0]


def test_argmax_agreement_names_the_samples_that_disagree():
    want = [[_i8(0, 9), _i8(5, 1)], [_i8(9, 0), _i8(5, 1)], [_i8(0, 9), _i8(1, 5)]]
    got = [[_i8(0, 9), _i8(1, 5)], [_i8(0, 9), _i8(5, 1)], [_i8(9, 0), _i8(1, 5)]]
    assert harness.argmax_agreement(got, want) == [1, 2]
    assert harness.argmax_agreement(got, want, output=1) == [0]


def test_bit_differences_count_elements_and_the_worst_difference():
    want = [[_i8(0, 0, 0), _i8(7)], [_i8(0, 0, 0), _i8(7)]]
    got = [[_i8(0, 2, 0), _i8(7)], [_i8(-5, 1, 0), _i8(7)]]
    assert harness.bit_differences(got, want) == {0: "3 element(s) differ, max |diff| 5"}
    assert harness.bit_differences(want, want) == {}
    # The second output alone differing is reported under its own index.
    assert harness.bit_differences([[_i8(0, 0, 0), _i8(6)]], [[_i8(0, 0, 0), _i8(7)]]) == \
        {1: "1 element(s) differ, max |diff| 1"}


def test_reset_must_repeat_every_output_exactly():
    first = [_i8(1, 2), _i8(3)]
    harness.check_reset_repeats("m", first, [_i8(1, 2), _i8(3)])
    with pytest.raises(E2EError) as differs:
        harness.check_reset_repeats("m", first, [_i8(1, 2), _i8(4)])
    assert str(differs.value) == ("m: after e2e_model_reset, output 1 of the first sample does not repeat "
                                  "(1 element(s) differ)")
    with pytest.raises(E2EError) as missing:
        harness.check_reset_repeats("m", first, [None, _i8(3)])
    assert str(missing.value) == ("m: after e2e_model_reset, output 0 of the first sample does not repeat "
                                  "(missing)")


_IN = [TensorInfo("x", (2, 3), np.dtype(np.int8))]
_OUT = [TensorInfo("y", (2,), np.dtype(np.int16)), TensorInfo("z", (1,), np.dtype(np.float32))]


def _header(*words: int) -> bytes:
    return np.array(words, dtype=np.uint32).tobytes()


def test_header_gives_the_output_stream_and_the_stateful_flag():
    body = b"\x01\x02\x03"
    assert harness._check_header("m", _header(1, 2, 6, 4, 4, 1) + body, _IN, _OUT) == (body, True)
    assert harness._check_header("m", _header(1, 2, 6, 4, 4, 0), _IN, _OUT) == (b"", False)


@pytest.mark.parametrize("stream, message", [
    (b"\x01\x00\x00\x00", "m: the harness wrote no header"),
    (_header(1, 1, 6, 4, 0), "m: module has 1 input(s) and 1 output(s); the model has 1 and 2"),
    (_header(1, 2, 6, 4, 4), "m: the harness wrote a short header"),
    (_header(1, 2, 6, 4, 8, 0), "m: module I/O sizes (inputs then outputs, bytes) [6, 4, 8] differ from "
                                "the model's [6, 4, 4]"),
])
def test_header_refusals(stream, message):
    with pytest.raises(E2EError) as refused:
        harness._check_header("m", stream, _IN, _OUT)
    assert str(refused.value) == message


def test_output_stream_splits_into_samples_and_outputs():
    samples = [[np.array([1, -2], np.int16), np.array([0.5], np.float32)],
               [np.array([300, 4], np.int16), np.array([-8.0], np.float32)]]
    body = b"".join(a.tobytes() for row in samples for a in row)
    split = harness._split_outputs("m", body, _OUT, 2)
    assert len(split) == 2
    for got_row, want_row in zip(split, samples):
        assert [(a.dtype, a.shape, a.tolist()) for a in got_row] == [(a.dtype, a.shape, a.tolist()) for a in want_row]
    with pytest.raises(E2EError) as short:
        harness._split_outputs("m", body[:-1], _OUT, 2)
    assert str(short.value) == "m: expected 16 output bytes for 2 samples, got 15"


def test_first_divergence_is_the_first_operator_off_by_anything():
    diffs = [OperatorDiff(0, "CONV_2D", "a", 0.0), OperatorDiff(1, "ADD", "b", 0.5),
             OperatorDiff(2, "RELU", "c", 3.0)]
    assert harness.first_divergence(diffs) is diffs[1]
    assert harness.first_divergence(diffs[:1]) is None
    assert str(diffs[1]) == "#1 ADD (b): 0.5"


def _model(relative: float | None, reference, infos) -> harness.ModelUnderTest:
    model = harness.ModelUnderTest(name="m", kind="case", model_bytes=b"", seed=0, tolerance=2,
                                   relative_tolerance=relative)
    model.__dict__["reference"] = reference
    model.__dict__["output_infos"] = infos
    return model


def test_bounds_scale_float_outputs_by_their_range_and_keep_codes_for_integers():
    infos = [TensorInfo("f", (1,), np.dtype(np.float32)), TensorInfo("q", (1,), np.dtype(np.int8))]
    reference = [[np.array([-1.0], np.float32), _i8(100)], [np.array([3.0], np.float32), _i8(-100)]]
    assert _model(0.25, reference, infos).bounds() == [1.0, 2]
    assert _model(None, reference, infos).bounds() == [2, 2]

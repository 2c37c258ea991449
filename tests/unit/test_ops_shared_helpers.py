# SPDX-License-Identifier: Apache-2.0
"""The shared operator helpers (helia_aot/ops/shared: window, shapes, fixed_point, int16_arithmetic,
accumulator) against independent computations: window counts by enumeration, TFLite's padding on
hand-worked cases, rounding and log2 at their edges, the accumulator and window-extent limits at the exact
bound. Written to kill mutmut's survivors there."""

from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np
import pytest

from helia_aot.ir.graph import Quantization, Tensor
from helia_aot.ops.shared import accumulator, fixed_point, int16_arithmetic, shapes, window


class _Refused(Exception):
    pass


# OpContext.error's signature: a rule (its text, or a declared Rule with the values at fault in `detail`).
CTX = SimpleNamespace(error=lambda rule, *args, detail="", **kwargs: _Refused(detail or getattr(rule, "text", rule)))


def _windows(padding, in_size, filter_size, stride, dilation):
    """Output positions by enumeration: VALID counts the windows that fit; SAME one per stride step."""
    eff = (filter_size - 1) * dilation + 1
    if padding == "SAME":
        return len(range(0, in_size, stride))
    return len([p for p in range(0, in_size, stride) if p + eff <= in_size])


@pytest.mark.parametrize("padding", ["SAME", "VALID"])
def test_output_size_counts_the_windows(padding):
    for in_size in range(1, 12):
        for filter_size in range(1, 5):
            for stride in range(1, 4):
                for dilation in range(1, 3):
                    if padding == "VALID" and (filter_size - 1) * dilation + 1 > in_size:
                        continue
                    assert window.output_size(padding, in_size, filter_size, stride, dilation) == \
                        _windows(padding, in_size, filter_size, stride, dilation), (in_size, filter_size, stride, dilation)


@pytest.mark.parametrize("args,before", [
    (("SAME", 5, 3, 2, 1, 3), 1),   # total 2: 1 before, 1 after
    (("SAME", 4, 3, 2, 1, 2), 0),   # total 1: the smaller half (0) before
    (("SAME", 6, 4, 1, 1, 6), 1),   # total 3: 1 before, 2 after
    (("SAME", 5, 3, 1, 2, 5), 2),   # dilation 2: effective filter 5, total 4
    (("SAME", 8, 1, 3, 1, 3), 0),   # the windows end before the input does: no padding, not -1
    (("VALID", 5, 3, 1, 1, 3), 0),
])
def test_pad_before_is_the_smaller_half(args, before):
    assert window.pad_before(*args) == before


def test_nhwc_pads_on_the_left_and_refuses_rank_5():
    assert shapes.nhwc((3,)) == (1, 1, 1, 3)
    assert shapes.nhwc((2, 3)) == (1, 1, 2, 3)
    assert shapes.nhwc((5, 4, 3, 2)) == (5, 4, 3, 2)
    with pytest.raises(ValueError):
        shapes.nhwc((1, 1, 1, 1, 1))


def test_round_half_away_at_the_halves():
    cases = {0.5: 1.0, 1.5: 2.0, 2.5: 3.0, -0.5: -1.0, -2.5: -3.0, 2.4999999: 2.0, -2.4999999: -2.0, 0.0: 0.0,
             3.0: 3.0, -7.0: -7.0}
    assert {x: fixed_point.round_half_away(x) for x in cases} == cases


def test_checked_log2_tolerance():
    assert int16_arithmetic.checked_log2(0.25) == (True, -2)
    assert int16_arithmetic.checked_log2(2.0 ** -15) == (True, -15)
    assert int16_arithmetic.checked_log2(8.0) == (True, 3)
    # log2 within 1e-3 of an integer counts as a power of two; 2e-3 away does not.
    assert int16_arithmetic.checked_log2(2.0 ** -15 * 2.0 ** 0.0007) == (True, -15)
    assert int16_arithmetic.checked_log2(2.0 ** -15 * 2.0 ** -0.0007) == (True, -15)
    assert int16_arithmetic.checked_log2(2.0 ** -15 * 2.0 ** 0.002) == (False, -15)
    assert int16_arithmetic.checked_log2(0.3) == (False, round(math.log2(0.3)))


def test_check_window_extent_at_the_int32_limit():
    limit = (1 << 31) - 1
    window.check_window_extent(CTX, 2, limit, 1)  # (2 - 1) * 1 + (limit - 1) = limit
    with pytest.raises(_Refused):
        window.check_window_extent(CTX, 2, limit, 2)
    window.check_window_extent(CTX, 0, 1, 1 << 40)  # no output: max(0, 1) - 1 = 0 steps
    with pytest.raises(_Refused):
        window.check_window_extent(CTX, 1, 2, 1, 1 << 31)  # one tap at dilation 2^31
    window.check_window_extent(CTX, 1, 2, 1, limit)


def _t(name, dtype, data=None, shape=None):
    data = None if data is None else np.asarray(data)
    shape = tuple(shape if shape is not None else data.shape)
    return Tensor(index=0, name=name, shape=shape, dtype=dtype, quant=Quantization((1.0,), (0,)), data=data)


def test_check_accumulator_at_the_exact_bound():
    limit = (1 << 31) - 1
    x8 = _t("x", "int8", shape=(1, 1, 1, 1))
    # Channel 1 (axis 0 here): sum |w| = 10 -> 2550, bias fills up to the int32 limit.
    w = _t("w", "int8", [[1, 1], [-5, 5]])
    accumulator.check_accumulator(CTX, x8, w, _t("b", "int32", [0, limit - 2550]), 0)
    with pytest.raises(_Refused, match="output channel 1 can accumulate 2147483648"):
        accumulator.check_accumulator(CTX, x8, w, _t("b", "int32", [0, -(limit - 2550 + 1)]), 0)
    # The channel axis decides which weights sum: along axis 1 the channels are [1, -5] and [1, 5].
    with pytest.raises(_Refused, match="output channel 0 can accumulate"):
        accumulator.check_accumulator(CTX, x8, w, _t("b", "int32", [limit - 6 * 255 + 1, 0]), 1)
    # int16 input: span 2^15 and an int64 accumulator unless the bias is int32.
    x16 = _t("x", "int16", shape=(1, 1, 1, 1))
    w16 = _t("w", "int8", [[1 << 6] * 1024])  # sum 2^16 * span 2^15 = 2^31
    accumulator.check_accumulator(CTX, x16, w16, _t("b", "int64", [0]), 0)
    accumulator.check_accumulator(CTX, x16, w16, None, 0)
    with pytest.raises(_Refused, match="int32 accumulator"):
        accumulator.check_accumulator(CTX, x16, w16, _t("b", "int32", [0]), 0)
    # Float layers are not checked.
    accumulator.check_accumulator(CTX, _t("x", "float32", shape=(1,)), _t("w", "float32", [[1e30]]), None, 0)


def test_offset_weight_sums():
    sums = accumulator.offset_weight_sums(np.array([3, -2]), np.array([10, 20], np.int32), -7)
    assert sums.tolist() == [10 - 21, 20 + 14] and sums.dtype == np.int64
    assert accumulator.offset_weight_sums(np.array([3, -2]), None, 5).tolist() == [15, -10]


def test_check_s64_shifts_allows_14_refuses_15():
    y = _t("y", "int16", shape=(1,))
    accumulator.check_s64_shifts(CTX, [-3, 14, 2], y)
    with pytest.raises(_Refused, match="2\\^14 or more"):
        accumulator.check_s64_shifts(CTX, [0, 15], y)


def test_int64_bias_widens_only_an_int32_bias():
    assert accumulator.int64_bias(None) == []
    assert accumulator.int64_bias(_t("b", "int64", [1, 2])) == []
    (c,) = accumulator.int64_bias(_t("b", "int32", [[1, -2]]))
    assert c.ctype == "int64_t" and c.values.tolist() == [1, -2] and c.values.dtype == np.int64


def _sigmoid_ctx(scale):
    x = Tensor(index=0, name="x", shape=(4,), dtype="int16", quant=Quantization((scale,), (0,)))
    return SimpleNamespace(inp=lambda k: x, error=CTX.error)


def test_sigmoid_s16_input_scaling():
    # Power-of-two scale 2^-12 gives shift 0; taken only when that shift is listed.
    assert int16_arithmetic.sigmoid_s16_input_scaling(_sigmoid_ctx(2.0 ** -12), (0, 1)) == (0, 0)
    assert int16_arithmetic.sigmoid_s16_input_scaling(_sigmoid_ctx(2.0 ** -11), (0, 1)) == (0, 1)
    # Otherwise scale * 3 * 4096 is doubled while at most 16383.5 (1.0 -> 16384 after 14 doublings).
    # 3.0 doubled 13 times
    assert int16_arithmetic.sigmoid_s16_input_scaling(_sigmoid_ctx(2.0 ** -12), ()) == (24576, 13)
    assert int16_arithmetic.sigmoid_s16_input_scaling(_sigmoid_ctx(1.0 / 12288), ()) == (16384, 14)
    assert int16_arithmetic.sigmoid_s16_input_scaling(_sigmoid_ctx(16383.5 / 12288), ()) == (32767, 1)
    assert int16_arithmetic.sigmoid_s16_input_scaling(_sigmoid_ctx(16384.0 / 12288), ()) == (16384, 0)
    # Too coarse: scale * 12288 of 65536 and more is refused, just below is kept.
    assert int16_arithmetic.sigmoid_s16_input_scaling(_sigmoid_ctx(65535.0 / 12288), ()) == (65535, 0)
    with pytest.raises(_Refused, match="too coarse"):
        int16_arithmetic.sigmoid_s16_input_scaling(_sigmoid_ctx(65536.0 / 12288), ())


def test_q15_output_rule():
    def ctx(scale):
        y = Tensor(index=0, name="y", shape=(4,), dtype="int16", quant=Quantization((scale,), (0,)))
        return SimpleNamespace(out=lambda k: y, error=CTX.error)
    int16_arithmetic.q15_output_rule(ctx(1.0 / 32768), True)
    int16_arithmetic.q15_output_rule(ctx(1.0 / 32768 * 1.0001), False)  # within CheckedLog2's tolerance
    with pytest.raises(_Refused):
        int16_arithmetic.q15_output_rule(ctx(1.0 / 32768 * 1.0001), True)
    with pytest.raises(_Refused):
        int16_arithmetic.q15_output_rule(ctx(1.0 / 16384), False)
    with pytest.raises(_Refused):
        int16_arithmetic.q15_output_rule(ctx(0.3 / 32768), False)

# SPDX-License-Identifier: Apache-2.0
"""AVERAGE_POOL_2D and MAX_POOL_2D window sizes: windows up to LiteRT's limit (2^16 per dimension) convert,
however much larger than the input (the kernels walk only the in-bounds part); larger ones, and an integer
average pool whose window covers more elements than its int32 sum holds, are refused in one line."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import helia_aot
from helia_aot.errors import UnsupportedModelError
from helia_aot.ops.average_pool_2d import largest_window
from helia_aot.ops.shared.pooling import MAX_PADDING
from helia_aot.ops.shared.window import output_size, pad_before
from tests.modelgen import ModelBuilder
from tests.modelgen.litert import make_interpreter


def pool_model(op: str, dtype: str, in_hw, filter_hw, padding: str, out_hw, stride_w: int = 1) -> bytes:
    b = ModelBuilder()
    quant = {} if dtype == "float32" else {"scale": 0.5, "zero_point": 0}
    x = b.input("x", (1, *in_hw, 1), dtype=dtype, **quant)
    y = b.tensor("y", (1, *out_hw, 1), dtype=dtype, **quant)
    b.op(op, [x], [y], {"padding": padding, "stride_h": 1, "stride_w": stride_w, "filter_height": filter_hw[0],
                        "filter_width": filter_hw[1]})
    b.output(y)
    return b.build()


def litert_accepts(model: bytes) -> bool:
    try:
        make_interpreter(model).invoke()
    except RuntimeError:  # "failed to prepare"
        return False
    return True


@pytest.mark.parametrize("op", ["AVERAGE_POOL_2D", "MAX_POOL_2D"])
@pytest.mark.parametrize("dtype", ["int8", "int16", "float32"])
# (filter height, width, stride along the width, input width): LiteRT refuses exactly a SAME window whose leading
# padding is over int16 (measured); 65536 tall or 65537 wide at stride 2 still fit, 65537 wide at stride 1 does not.
@pytest.mark.parametrize("window", [(65536, 1, 1, 6), (65538, 1, 1, 1), (1, 65537, 1, 6), (1, 65537, 2, 6),
                                    (1, 70000, 2, 6)])
def test_windows_convert_exactly_when_litert_accepts_them(tmp_path, op, dtype, window):
    fh, fw, stride, width = window
    model = pool_model(op, dtype, (1, width), (fh, fw), "SAME", (1, -(-width // stride)), stride_w=stride)
    before = max((fh - 1) // 2, ((-(-width // stride) - 1) * stride + fw - width) // 2)
    if litert_accepts(model):
        assert before <= MAX_PADDING
        helia_aot.convert(model, tmp_path / "out", target="host")
        return
    assert before > MAX_PADDING
    with pytest.raises(UnsupportedModelError, match=rf"^[^\n]*{op}[^\n]*-wide window at stride \d+ pads {before} "
                                                    rf"\w+ elements before the input, over the {MAX_PADDING} LiteRT "
                                                    r"accepts"):
        helia_aot.convert(model, tmp_path / "out", target="host")
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("dtype, side, limit", [("int16", 256, 65535), ("int8", 4089, 16711935)])
def test_an_integer_average_pool_past_its_int32_sum_is_refused(tmp_path, dtype, side, limit):
    model = pool_model("AVERAGE_POOL_2D", dtype, (side, side), (side, side), "VALID", (1, 1))
    with pytest.raises(UnsupportedModelError) as caught:
        helia_aot.convert(model, tmp_path / "out", target="host")
    message = str(caught.value)
    assert "\n" not in message
    assert (f"AVERAGE_POOL_2D" in message and f"a {side}x{side} window covers up to {side * side} input elements"
            in message and f"{dtype} average pooling sums them in int32, which holds at most {limit}" in message)
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("op, dtype, in_hw", [("AVERAGE_POOL_2D", "int16", (255, 257)),
                                              ("MAX_POOL_2D", "int16", (300, 300)),
                                              ("AVERAGE_POOL_2D", "float32", (300, 300))])
def test_windows_within_the_sum_or_without_one_convert(tmp_path, op, dtype, in_hw):
    # 255 x 257 = 65535 int16 codes of -32768 less half their count is exactly -2^31; max pooling and float
    # pooling sum nothing in int32.
    helia_aot.convert(pool_model(op, dtype, in_hw, in_hw, "VALID", (1, 1)), tmp_path / "out", target="host")


def test_the_int16_limit_is_the_covered_part_of_the_window_not_its_size(tmp_path):
    # A 1000x1000 window over a 100x100 image covers 10^4 elements: converts.
    helia_aot.convert(pool_model("AVERAGE_POOL_2D", "int16", (100, 100), (1000, 1000), "SAME", (100, 100)),
                      tmp_path / "out", target="host")


@settings(max_examples=400, deadline=None)
@given(in_size=st.integers(1, 40), filter_size=st.integers(1, 60), stride=st.integers(1, 8),
       padding=st.sampled_from(["SAME", "VALID"]))
def test_largest_window_is_the_largest_count_over_every_output(in_size, filter_size, stride, padding):
    out = output_size(padding, in_size, filter_size, stride)
    if out < 1:
        return
    pad = pad_before(padding, in_size, filter_size, stride, 1, out)
    counts = [len(np.intersect1d(np.arange(o * stride - pad, o * stride - pad + filter_size), np.arange(in_size)))
              for o in range(out)]
    assert largest_window(in_size, filter_size, stride, pad, out) == max(counts)

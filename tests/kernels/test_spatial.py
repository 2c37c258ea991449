# SPDX-License-Identifier: Apache-2.0
"""BATCH_TO_SPACE_ND, SPACE_TO_BATCH_ND, DEPTH_TO_SPACE, SPACE_TO_DEPTH and RESIZE_NEAREST_NEIGHBOR kernels
(int8 / int16) against NumPy references written from TensorFlow's definitions, and bit-exact against
ns-cmsis-nn (HELIA_NS_CMSIS_NN_DIR) on the same seeded calls, argument errors included."""

from __future__ import annotations

import math

import numpy as np
import pytest

import kernel_build as kb
from conftest import Driver
from records import parse

DRIVER = kb.DRIVER_DIR / "spatial_driver.c"


@pytest.fixture(scope="module")
def spatial_portable(build_root, portable_library) -> Driver:
    return Driver(kb.link_program([DRIVER], [portable_library], [kb.PORTABLE_INCLUDE],
                                  build_root / "spatial_driver_portable", ["DRIVER_GIVES_SCRATCH=0"]))


@pytest.fixture(scope="module")
def spatial_ns(build_root, ns_dir, ns_library) -> Driver:
    return Driver(kb.link_program([DRIVER], [ns_library], [ns_dir / "Include"], build_root / "spatial_driver_ns",
                                  ["DRIVER_GIVES_SCRATCH=1"]))


def _ints(*values) -> str:
    return " ".join(str(int(v)) for v in values)


def _data(values: np.ndarray) -> str:
    flat = np.asarray(values).reshape(-1)
    return _ints(flat.size, *flat)


def _rand(rng, shape, bits: int) -> np.ndarray:
    lo, hi = (-128, 128) if bits == 8 else (-32768, 32768)
    return rng.integers(lo, hi, size=shape, dtype=np.int64)


# ---- NumPy references (TensorFlow's reshape / transpose definitions of the operators) -----------------

def ref_batch_to_space(x, bh, bw, crop):
    n, h, w, c = x.shape
    y = x.reshape(bh, bw, n // (bh * bw), h, w, c).transpose(2, 3, 0, 4, 1, 5)
    y = y.reshape(n // (bh * bw), h * bh, w * bw, c)
    top, left, bottom, right = crop
    return y[:, top:h * bh - bottom, left:w * bw - right, :]


def ref_space_to_batch(x, bh, bw, pad, value):
    top, left, bottom, right = pad
    x = np.pad(x, [(0, 0), (top, bottom), (left, right), (0, 0)], constant_values=value)
    n, h, w, c = x.shape
    y = x.reshape(n, h // bh, bh, w // bw, bw, c).transpose(2, 4, 0, 1, 3, 5)
    return y.reshape(bh * bw * n, h // bh, w // bw, c)


def ref_depth_to_space(x, b):
    n, h, w, c = x.shape
    return x.reshape(n, h, w, b, b, c // (b * b)).transpose(0, 1, 3, 2, 4, 5).reshape(n, h * b, w * b, c // (b * b))


def ref_space_to_depth(x, b):
    n, h, w, c = x.shape
    return x.reshape(n, h // b, b, w // b, b, c).transpose(0, 1, 3, 2, 4, 5).reshape(n, h // b, w // b, b * b * c)


def ref_nearest_index(i, in_size, out_size, align, half):
    """TFLite's GetNearestNeighbor, in float32 as it computes."""
    f32 = np.float32
    if align and out_size > 1:
        scale = f32(in_size - 1) / f32(out_size - 1)
    else:
        scale = f32(in_size) / f32(out_size)
    scaled = float((f32(i) + f32(0.5 if half else 0.0)) * scale)
    value = math.floor(scaled + 0.5) if align else math.floor(scaled)  # scaled >= 0: half away from zero
    value = min(value, in_size - 1)
    return max(value, 0) if half else value


def ref_resize_nearest(x, out_h, out_w, align, half):
    rows = [ref_nearest_index(i, x.shape[1], out_h, align, half) for i in range(out_h)]
    cols = [ref_nearest_index(i, x.shape[2], out_w, align, half) for i in range(out_w)]
    return x[:, rows][:, :, cols]


# ---- records ----------------------------------------------------------------------------------------

def b2s_record(t, x, bh, bw, crop, out_dims):
    return f"arm_batch_to_space_nd_{t} {_ints(*x.shape, bh, bw, *crop, *out_dims)} {_data(x)}"


def s2b_record(t, x, bh, bw, pad, out_dims, offset):
    return f"arm_space_to_batch_nd_{t} {_ints(*x.shape, bh, bw, *pad, *out_dims, offset)} {_data(x)}"


def d2s_record(name, x, b, out_dims):
    return f"{name} {_ints(*x.shape, b, *out_dims)} {_data(x)}"


def rnn_record(t, x, align, half, out_h, out_w, size_dims=(1, 1, 1, 2), out_dims=None):
    out_dims = out_dims or (x.shape[0], out_h, out_w, x.shape[3])
    return (f"arm_resize_nearest_neighbor_{t} {_ints(align, half, *x.shape, *size_dims, out_h, out_w, *out_dims)} "
            f"{_data(x)}")


def _b2s_case(rng, bits):
    bh, bw = (int(v) for v in rng.integers(1, 4, size=2))
    n = bh * bw * int(rng.integers(1, 3))
    h, w, c = (int(v) for v in rng.integers(1, 5, size=3))
    crop = [int(rng.integers(0, h * bh // 2 + 1)), int(rng.integers(0, w * bw // 2 + 1))]
    crop = [crop[0] // 2, crop[1] // 2, crop[0] - crop[0] // 2, crop[1] - crop[1] // 2]
    x = _rand(rng, (n, h, w, c), bits)
    return x, bh, bw, crop


def _s2b_case(rng, bits):
    bh, bw = (int(v) for v in rng.integers(1, 4, size=2))
    n, c = (int(v) for v in rng.integers(1, 4, size=2))
    h, w = (int(v) for v in rng.integers(1, 6, size=2))
    top, left = (int(v) for v in rng.integers(0, 3, size=2))
    bottom = (-(h + top)) % bh + bh * int(rng.integers(0, 2))
    right = (-(w + left)) % bw
    return _rand(rng, (n, h, w, c), bits), bh, bw, [top, left, bottom, right]


def _rnn_case(rng, bits):
    n, h, w, c = (int(v) for v in rng.integers(1, 6, size=4))
    out_h, out_w = (int(v) for v in rng.integers(1, 12, size=2))
    align, half = bool(rng.integers(0, 2)), bool(rng.integers(0, 2))
    return _rand(rng, (n, h, w, c), bits), align, half, out_h, out_w


@pytest.mark.parametrize("t", ["s8", "s16"])
def test_batch_to_space_matches_numpy(spatial_portable, t):
    rng = np.random.default_rng(11 if t == "s8" else 12)
    for _ in range(40):
        x, bh, bw, crop = _b2s_case(rng, 8 if t == "s8" else 16)
        want = ref_batch_to_space(x, bh, bw, crop)
        got = spatial_portable.one(b2s_record(t, x, bh, bw, crop, want.shape))
        assert got.status == 0
        np.testing.assert_array_equal(got.values, want.reshape(-1))


@pytest.mark.parametrize("t", ["s8", "s16"])
def test_space_to_batch_matches_numpy(spatial_portable, t):
    rng = np.random.default_rng(21 if t == "s8" else 22)
    for _ in range(40):
        x, bh, bw, pad = _s2b_case(rng, 8 if t == "s8" else 16)
        value = int(rng.integers(-128, 128)) if t == "s8" else 0
        want = ref_space_to_batch(x, bh, bw, pad, value)
        got = spatial_portable.one(s2b_record(t, x, bh, bw, pad, want.shape, value))
        assert got.status == 0
        np.testing.assert_array_equal(got.values, want.reshape(-1))


def test_depth_to_space_and_back(spatial_portable):
    rng = np.random.default_rng(31)
    for _ in range(30):
        b = int(rng.integers(1, 4))
        n, h, w, c = (int(v) for v in rng.integers(1, 4, size=4))
        x = _rand(rng, (n, h, w, c * b * b), 8)
        want = ref_depth_to_space(x, b)
        got = spatial_portable.one(d2s_record("arm_depth_to_space_s8", x, b, want.shape))
        assert got.status == 0
        np.testing.assert_array_equal(got.values, want.reshape(-1))
        back = spatial_portable.one(d2s_record("arm_space_to_depth_s8", want, b, x.shape))
        assert back.status == 0
        np.testing.assert_array_equal(back.values, x.reshape(-1))
        y = _rand(rng, (n, h * b, w * b, c), 8)
        got = spatial_portable.one(d2s_record("arm_space_to_depth_s8", y, b, ref_space_to_depth(y, b).shape))
        np.testing.assert_array_equal(got.values, ref_space_to_depth(y, b).reshape(-1))


@pytest.mark.parametrize("t", ["s8", "s16"])
def test_resize_nearest_matches_tflite_rule(spatial_portable, t):
    rng = np.random.default_rng(41 if t == "s8" else 42)
    for _ in range(60):
        x, align, half, out_h, out_w = _rnn_case(rng, 8 if t == "s8" else 16)
        got = spatial_portable.one(rnn_record(t, x, int(align), int(half), out_h, out_w))
        assert got.status == 0
        np.testing.assert_array_equal(got.values, ref_resize_nearest(x, out_h, out_w, align, half).reshape(-1))


def test_resize_nearest_rounds_half_away_with_align_corners(spatial_portable):
    # align_corners 3 -> 5: scale 0.5, output 1 sits at input 0.5 and takes input 1 (std::round), output 3 at 1.5 -> 2
    x = np.arange(3, dtype=np.int64).reshape(1, 1, 3, 1)
    got = spatial_portable.one(rnn_record("s8", x, 1, 0, 1, 5))
    assert got.values.tolist() == [0, 1, 1, 2, 2]


def _error_records() -> list[str]:
    x = np.zeros((4, 2, 2, 1), dtype=np.int64)
    return [
        b2s_record("s8", x, 0, 2, [0, 0, 0, 0], (2, 2, 4, 1)),       # zero block
        b2s_record("s8", x, 3, 1, [0, 0, 0, 0], (1, 6, 2, 1)),       # batch not a multiple of the block
        b2s_record("s16", x, 2, 2, [0, -1, 0, 0], (1, 4, 5, 1)),     # negative crop
        b2s_record("s8", x, 2, 2, [0, 0, 0, 0], (1, 4, 3, 1)),       # wrong output dims
        s2b_record("s8", x, 3, 2, [0, 0, 0, 0], (24, 1, 1, 1), 0),   # height not a multiple of the block
        s2b_record("s16", x, 2, 2, [0, 0, 0, 0], (16, 1, 1, 1), 3),  # int16 offset must be 0
        s2b_record("s8", x, 2, 2, [0, 0, 0, 0], (16, 1, 2, 1), 0),   # wrong output dims
        d2s_record("arm_depth_to_space_s8", x, 2, (4, 4, 4, 1)),     # channels not a multiple of 4
        d2s_record("arm_space_to_depth_s8", x, 0, (4, 2, 2, 1)),     # zero block
        d2s_record("arm_space_to_depth_s8", np.zeros((1, 3, 2, 1)), 2, (1, 1, 1, 4)),  # height not a multiple
        rnn_record("s8", x, 0, 0, 0, 3),                                               # zero output height
        rnn_record("s16", x, 0, 0, 3, 3, size_dims=(1, 1, 1, 3)),                      # size of 3 values
        rnn_record("s8", x, 0, 0, 3, 3, out_dims=(4, 3, 3, 2)),                        # depth differs
    ]


def test_argument_errors(spatial_portable):
    for record in _error_records():
        assert spatial_portable.one(record).status == -1, record


def _parity_records() -> list[str]:
    rng = np.random.default_rng(51)
    records = []
    for t, bits in (("s8", 8), ("s16", 16)):
        for _ in range(40):
            x, bh, bw, crop = _b2s_case(rng, bits)
            records.append(b2s_record(t, x, bh, bw, crop, ref_batch_to_space(x, bh, bw, crop).shape))
            x, bh, bw, pad = _s2b_case(rng, bits)
            value = int(rng.integers(-128, 128)) if t == "s8" else 0
            records.append(s2b_record(t, x, bh, bw, pad, ref_space_to_batch(x, bh, bw, pad, value).shape, value))
            x, align, half, out_h, out_w = _rnn_case(rng, bits)
            records.append(rnn_record(t, x, int(align), int(half), out_h, out_w))
    for _ in range(30):
        b = int(rng.integers(1, 4))
        x = _rand(rng, (2, 3, 2, 2 * b * b), 8)
        records.append(d2s_record("arm_depth_to_space_s8", x, b, ref_depth_to_space(x, b).shape))
        y = _rand(rng, (2, 2 * b, 3 * b, 3), 8)
        records.append(d2s_record("arm_space_to_depth_s8", y, b, ref_space_to_depth(y, b).shape))
    # Sizes where float rounding of the scale matters (align_corners, large ratios).
    for in_size, out_size in ((7, 13), (5, 101), (101, 5), (3, 45), (29, 87)):
        x = _rand(rng, (1, in_size, 2, 1), 8)
        for align in (0, 1):
            for half in (0, 1):
                records.append(rnn_record("s8", x, align, half, out_size, 3))
    return records + _error_records()


def test_bit_identical_to_ns_cmsis_nn(spatial_portable, spatial_ns):
    records = _parity_records()
    portable = parse(spatial_portable.run_text(records))
    reference = parse(spatial_ns.run_text(records))
    assert len(portable) == len(reference) == len(records)
    for record, a, b in zip(records, portable, reference):
        assert a.status == b.status and np.array_equal(a.values, b.values), record[:200]

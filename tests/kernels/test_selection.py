# SPDX-License-Identifier: Apache-2.0
"""Comparison (EQUAL ... LESS_EQUAL), REDUCE_MAX / REDUCE_MIN, ARG_MAX / ARG_MIN and SELECT_V2 kernels (int8,
int16): the portable kernels against Python references built from NumPy, and bit for bit against ns-cmsis-nn
(selection_driver.c)."""

from __future__ import annotations

import operator

import numpy as np
import pytest

import kernel_build as kb
import reference as ref
from helia_aot.ops.shared.broadcast import kernel_broadcast_dims

OPS = [operator.eq, operator.ne, operator.gt, operator.ge, operator.lt, operator.le]
DTYPES = {8: np.int8, 16: np.int16}


def run(program, records: list[str]) -> list[tuple[int, np.ndarray]]:
    lines = kb.run_program(program, "\n".join(records) + "\n").strip().splitlines()
    assert len(lines) == len(records)
    out = []
    for line in lines:
        values = [int(v) for v in line.split()]
        out.append((values[0], np.asarray(values[1:], dtype=np.int64)))
    return out


@pytest.fixture(scope="session")
def selection_portable(build_root, portable_library):
    return kb.link_program([kb.DRIVER_DIR / "selection_driver.c"], [portable_library], [kb.PORTABLE_INCLUDE],
                           build_root / "selection_driver_portable")


@pytest.fixture(scope="session")
def selection_ns(build_root, ns_dir, ns_library):
    return kb.link_program([kb.DRIVER_DIR / "selection_driver.c"], [ns_library], [ns_dir / "Include"],
                           build_root / "selection_driver_ns")


def text(values) -> str:
    return " ".join(str(int(v)) for v in np.asarray(values).reshape(-1))


# ---- comparisons ----------------------------------------------------------------------------------------

def broadcast_dims(rng, allow_any: bool):
    """Two broadcast-compatible (n, h, w, c) shapes and their broadcast shape."""
    out = [int(v) for v in rng.integers(1, 5, size=4)]
    a, b = list(out), list(out)
    for d in range(4):
        pick = int(rng.integers(0, 3 if allow_any else 2))
        if pick == 1:
            a[d] = 1
        elif pick == 2:
            b[d] = 1
    return tuple(a), tuple(b), tuple(max(x, y) for x, y in zip(a, b))


def random_scaling(rng, bits: int) -> tuple[int, int, int]:
    """(offset, multiplier, shift) as TFLite derives them from a scale below 1 (QuantizeMultiplier)."""
    scale = float(10 ** rng.uniform(-4.5, -0.1))
    mantissa, exponent = np.frexp(scale)
    mult = int(round(mantissa * 2**31))
    if mult == 2**31:
        mult, exponent = mult // 2, exponent + 1
    offset = int(rng.integers(-128, 128)) if bits == 8 else 0
    return offset, mult, int(exponent)


def comparison_case(rng, bits: int, allow_any: bool = True, merged: bool = False):
    d1, d2, dout = broadcast_dims(rng, allow_any)
    if merged:
        d1, d2, dout = kernel_broadcast_dims(d1, d2)
    info = np.iinfo(DTYPES[bits])
    a = rng.integers(info.min, info.max + 1, size=d1)
    b = rng.integers(info.min, info.max + 1, size=d2)
    if rng.integers(0, 2):  # many equal pairs: EQUAL must see them
        b = np.broadcast_to(a, dout)[tuple(slice(0, s) for s in d2)].copy()
    q1, q2 = random_scaling(rng, bits), random_scaling(rng, bits)
    left_shift = 8 if rng.integers(0, 3) else 0
    op = int(rng.integers(0, 6))
    named = int(rng.integers(0, 2))
    record = (f"cmp {bits} {op} {named} {text(d1)} {text(d2)} {text(dout)} {text(q1)} {text(q2)} {left_shift} "
              f"{text(a)} {text(b)}")
    return record, (a, b, q1, q2, left_shift, op, dout)


def comparison_reference(a, b, q1, q2, left_shift, op, dout) -> np.ndarray:
    def rescale(v, q):
        return ref.requantize((int(v) + q[0]) * (1 << left_shift), q[1], q[2])
    ra = np.vectorize(lambda v: rescale(v, q1))(np.broadcast_to(a, dout))
    rb = np.vectorize(lambda v: rescale(v, q2))(np.broadcast_to(b, dout))
    return OPS[op](ra, rb).astype(np.int64).reshape(-1)


@pytest.mark.parametrize("bits", [8, 16])
def test_comparison_matches_reference(selection_portable, bits):
    rng = np.random.default_rng(100 + bits)
    cases = [comparison_case(rng, bits) for _ in range(60)]
    for (status, got), (_, want) in zip(run(selection_portable, [r for r, _ in cases]), cases):
        assert status == 0
        np.testing.assert_array_equal(got, comparison_reference(*want))


def test_comparison_small_scale_collapses_neighbours(selection_portable):
    """A scale below 1/256 maps neighbouring codes to one rescaled value: TFLite's EQUAL calls them equal."""
    mantissa, exponent = np.frexp(0.001)
    q = f"0 {int(round(mantissa * 2**31))} {int(exponent)}"
    record = f"cmp 8 0 1 1 1 1 2 1 1 1 2 1 1 1 2 {q} {q} 8 10 20 11 100"
    status, got = run(selection_portable, [record])[0]
    assert status == 0 and got.tolist() == [1, 0]


def test_comparison_identity_scaling_compares_codes(selection_portable):
    """Offset 0, multiplier 2^30, shift 1, left shift 0 rescale nothing: the raw codes are compared."""
    rng = np.random.default_rng(7)
    a = rng.integers(-32768, 32768, size=64)
    b = np.where(rng.integers(0, 2, size=64) == 1, a, rng.integers(-32768, 32768, size=64))
    for op in range(6):
        record = f"cmp 16 {op} 1 1 1 1 64 1 1 1 64 1 1 1 64 0 {2**30} 1 0 {2**30} 1 0 {text(a)} {text(b)}"
        status, got = run(selection_portable, [record])[0]
        assert status == 0
        np.testing.assert_array_equal(got, OPS[op](a, b).astype(np.int64))


def test_comparison_rejects_bad_operation_and_shapes(selection_portable):
    q = f"0 {2**30} 0"
    bad_op = f"cmp 8 6 0 1 1 1 1 1 1 1 1 1 1 1 1 {q} {q} 8 1 2"
    bad_shape = f"cmp 8 0 0 1 1 1 2 1 1 1 3 1 1 1 3 {q} {q} 8 1 2 1 2 3"
    assert [s for s, _ in run(selection_portable, [bad_op, bad_shape])] == [-1, -1]


@pytest.mark.parametrize("bits", [8, 16])
def test_comparison_bit_identical_to_ns_cmsis_nn(selection_portable, selection_ns, bits):
    """The dims helia-aot passes: axes merged by kernel_broadcast_dims (ns-cmsis-nn's broadcast walk loses its
    place for some unmerged layouts, e.g. [1, 3, 1, 1] against [1, 3, 1, 4])."""
    rng = np.random.default_rng(200 + bits)
    records = [comparison_case(rng, bits, merged=True)[0] for _ in range(80)]
    mine, theirs = run(selection_portable, records), run(selection_ns, records)
    for record, (s1, v1), (s2, v2) in zip(records, mine, theirs):
        assert s1 == s2 == 0, record
        np.testing.assert_array_equal(v1, v2, err_msg=record)


# ---- REDUCE_MAX / REDUCE_MIN ------------------------------------------------------------------------------

def reduce_case(rng, bits: int):
    dims = tuple(int(v) for v in rng.integers(1, 5, size=4))
    axis = tuple(int(v) for v in rng.integers(0, 2, size=4))
    out = tuple(1 if ax else d for d, ax in zip(dims, axis))
    info = np.iinfo(DTYPES[bits])
    data = rng.integers(info.min, info.max + 1, size=dims)
    want_max = int(rng.integers(0, 2))
    record = f"reduce {bits} {want_max} {text(dims)} {text(axis)} {text(out)} {text(data)}"
    axes = tuple(d for d in range(4) if axis[d])
    want = (data.max if want_max else data.min)(axis=axes, keepdims=True) if axes else data
    return record, np.asarray(want).reshape(-1)


@pytest.mark.parametrize("bits", [8, 16])
def test_reduce_max_min_match_numpy(selection_portable, bits):
    rng = np.random.default_rng(300 + bits)
    cases = [reduce_case(rng, bits) for _ in range(60)]
    for (status, got), (_, want) in zip(run(selection_portable, [r for r, _ in cases]), cases):
        assert status == 0
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("bits", [8, 16])
def test_reduce_max_min_bit_identical_to_ns_cmsis_nn(selection_portable, selection_ns, bits):
    rng = np.random.default_rng(400 + bits)
    records = [reduce_case(rng, bits)[0] for _ in range(60)]
    for record, (s1, v1), (s2, v2) in zip(records, run(selection_portable, records), run(selection_ns, records)):
        assert s1 == s2 == 0, record
        np.testing.assert_array_equal(v1, v2, err_msg=record)


# ---- ARG_MAX / ARG_MIN (int8) -------------------------------------------------------------------------------

def arg_case(rng):
    dims = tuple(int(v) for v in rng.integers(1, 5, size=4))
    axis = int(rng.integers(0, 4))
    data = rng.integers(-3, 4, size=dims)  # few distinct values: ties are common
    want_max = int(rng.integers(0, 2))
    record = f"arg {want_max} {text(dims)} {axis} {text(data)}"
    # NumPy's argmax / argmin return the first index on ties, as TFLite does
    return record, (data.argmax if want_max else data.argmin)(axis=axis).reshape(-1)


def test_argmax_argmin_match_numpy(selection_portable):
    rng = np.random.default_rng(700)
    cases = [arg_case(rng) for _ in range(80)]
    for (status, got), (_, want) in zip(run(selection_portable, [r for r, _ in cases]), cases):
        assert status == 0
        np.testing.assert_array_equal(got, want)


def test_argmax_rejects_axis_out_of_range(selection_portable):
    assert run(selection_portable, ["arg 1 1 1 1 2 4 5 6"])[0][0] == -1


def test_argmax_argmin_bit_identical_to_ns_cmsis_nn(selection_portable, selection_ns):
    rng = np.random.default_rng(800)
    records = [arg_case(rng)[0] for _ in range(60)]
    for record, (s1, v1), (s2, v2) in zip(records, run(selection_portable, records), run(selection_ns, records)):
        assert s1 == s2 == 0, record
        np.testing.assert_array_equal(v1, v2, err_msg=record)


# ---- SELECT_V2 --------------------------------------------------------------------------------------------

def strides_for(shape, out_shape):
    strides, step = [0] * len(out_shape), 1
    for d in range(len(out_shape) - 1, -1, -1):
        strides[d] = step if shape[d] == out_shape[d] and shape[d] != 1 else 0
        step *= shape[d]
    return strides


def select_case(rng, bits: int):
    rank = int(rng.integers(1, 7))
    out = [int(v) for v in rng.integers(1, 4, size=rank)]
    shapes = [[d if rng.integers(0, 2) else 1 for d in out] for _ in range(3)]
    info = np.iinfo(DTYPES[bits])
    cond = rng.integers(0, 2, size=shapes[0])
    x = rng.integers(info.min, info.max + 1, size=shapes[1])
    y = rng.integers(info.min, info.max + 1, size=shapes[2])
    record = (f"select {bits} {rank} {text(out)} {text(strides_for(shapes[0], out))} "
              f"{text(strides_for(shapes[1], out))} {text(strides_for(shapes[2], out))} "
              f"{cond.size} {text(cond)} {x.size} {text(x)} {y.size} {text(y)}")
    return record, np.broadcast_to(np.where(cond.astype(bool), x, y), out).reshape(-1)


@pytest.mark.parametrize("bits", [8, 16])
def test_select_v2_matches_numpy_where(selection_portable, bits):
    rng = np.random.default_rng(500 + bits)
    cases = [select_case(rng, bits) for _ in range(60)]
    for (status, got), (_, want) in zip(run(selection_portable, [r for r, _ in cases]), cases):
        assert status == 0
        np.testing.assert_array_equal(got, want)


def test_select_v2_rejects_rank_above_8(selection_portable):
    record = "select 8 9 " + " ".join(["1"] * 36) + " 1 1 1 5 1 6"
    assert run(selection_portable, [record])[0][0] == -1


@pytest.mark.parametrize("bits", [8, 16])
def test_select_v2_bit_identical_to_ns_cmsis_nn(selection_portable, selection_ns, bits):
    rng = np.random.default_rng(600 + bits)
    records = [select_case(rng, bits)[0] for _ in range(60)]
    for record, (s1, v1), (s2, v2) in zip(records, run(selection_portable, records), run(selection_ns, records)):
        assert s1 == s2 == 0, record
        np.testing.assert_array_equal(v1, v2, err_msg=record)

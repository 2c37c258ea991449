# SPDX-License-Identifier: Apache-2.0
"""Helper C1's kernels (MAXIMUM / MINIMUM, ABS, SQUARED_DIFFERENCE, PRELU, BATCH_MATMUL): the portable
kernels against Python references, and bit-identical to ns-cmsis-nn's plain-C build on the same records
(parity, skipped when HELIA_NS_CMSIS_NN_DIR is unset). Driver: c/c1_arith_driver.c."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

import kernel_build as kb
from records import parse

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from helia_aot.ops.shared.broadcast import kernel_broadcast_dims

DEFINES = ["ARM_NN_ENABLE_F32=1"]


class Driver:
    def __init__(self, program: Path):
        self.program = program

    def run(self, records: list[str]):
        results = parse(kb.run_program(self.program, "\n".join(records) + "\n"))
        assert len(results) == len(records)
        return results


@pytest.fixture(scope="module")
def portable(build_root, portable_library) -> Driver:
    return Driver(kb.link_program([kb.DRIVER_DIR / "c1_arith_driver.c"], [portable_library], [kb.PORTABLE_INCLUDE],
                                  build_root / "c1_arith_driver_portable", [*DEFINES, "DRIVER_GIVES_SCRATCH=0"]))


@pytest.fixture(scope="module")
def ns(build_root, ns_dir, ns_float_library) -> Driver:
    # ns-cmsis-nn 7.29.2 has no arm_nn_abs_f32, arm_prelu_f32 or batch-matmul sizers: this build compiles
    # those calls out.
    return Driver(kb.link_program([kb.DRIVER_DIR / "c1_arith_driver.c"], [ns_float_library], [ns_dir / "Include"],
                                  build_root / "c1_arith_driver_ns",
                                  [*DEFINES, "DRIVER_GIVES_SCRATCH=1", *kb.ns_driver_defines(ns_dir)]))


def arr(values) -> str:
    values = np.asarray(values).reshape(-1)
    return " ".join([str(values.size)] + [str(int(v)) for v in values])


def f32_bits(values) -> np.ndarray:
    return np.asarray(values, dtype=np.float32).reshape(-1).view(np.int32)


def bits_f32(values) -> np.ndarray:
    return np.asarray(values, dtype=np.int64).astype(np.int32).view(np.float32)


def dims(d) -> str:
    return " ".join(str(int(v)) for v in d)


INT_RANGE = {"s8": (-128, 127), "s16": (-32768, 32767)}


# ---- MAXIMUM / MINIMUM -------------------------------------------------------------------------------

def random_broadcast_pair(rng):
    """Two NumPy-broadcastable shapes of rank 1..5 (either side may be broadcast on any axis)."""
    rank = int(rng.integers(1, 6))
    out = [int(v) for v in rng.integers(1, 5, size=rank)]
    a = [d if rng.random() < 0.6 else 1 for d in out]
    b = [d if rng.random() < 0.6 else 1 for d in out]
    a = a[int(rng.integers(0, rank)):] if rng.random() < 0.3 else a
    return a, b


def minmax_records(rng, t: str, n: int):
    """Records in the merged form the compiler emits, and the NumPy result for each."""
    records, wants = [], []
    lo, hi = INT_RANGE[t]
    while len(records) < n:
        sa, sb = random_broadcast_pair(rng)
        merged = kernel_broadcast_dims(sa, sb)
        if merged is None:
            continue
        da, db, do = merged
        a = rng.integers(lo, hi + 1, size=sa)
        b = rng.integers(lo, hi + 1, size=sb)
        which = "maximum" if rng.random() < 0.5 else "minimum"
        records.append(f"arm_{which}_{t} {dims(da)} {dims(db)} {dims(do)} {arr(a)} {arr(b)}")
        wants.append((np.maximum if which == "maximum" else np.minimum)(a, b).reshape(-1))
    return records, wants


@pytest.mark.parametrize("t", ["s8", "s16"])
def test_minmax_matches_numpy(portable, t):
    records, wants = minmax_records(np.random.default_rng(11 if t == "s8" else 12), t, 60)
    for result, want in zip(portable.run(records), wants):
        assert result.status == 0
        np.testing.assert_array_equal(result.values, want)


@pytest.mark.parametrize("t", ["s8", "s16"])
def test_minmax_every_nhwc_broadcast_matches_numpy(portable, t):
    # Not only the merged form: any 4-D pair that broadcasts, each axis equal or 1 on either side.
    rng = np.random.default_rng(13)
    lo, hi = INT_RANGE[t]
    records, wants = [], []
    for _ in range(40):
        out = [int(v) for v in rng.integers(1, 4, size=4)]
        da = [d if rng.random() < 0.5 else 1 for d in out]
        db = [d if rng.random() < 0.5 else 1 for d in out]
        do = [max(x, y) for x, y in zip(da, db)]
        a, b = rng.integers(lo, hi + 1, size=da), rng.integers(lo, hi + 1, size=db)
        records.append(f"arm_maximum_{t} {dims(da)} {dims(db)} {dims(do)} {arr(a)} {arr(b)}")
        wants.append(np.maximum(a, b).reshape(-1))
    for result, want in zip(portable.run(records), wants):
        np.testing.assert_array_equal(result.values, want)


def test_minmax_refuses_shapes_that_do_not_broadcast(portable):
    result = portable.run([f"arm_minimum_s8 1 1 2 3 1 1 4 3 1 1 4 3 {arr(range(6))} {arr(range(12))}"])[0]
    assert result.status == -1


@pytest.mark.parametrize("t", ["s8", "s16"])
def test_minmax_parity(portable, ns, t):
    records, _ = minmax_records(np.random.default_rng(21 if t == "s8" else 22), t, 80)
    for p, q, r in zip(portable.run(records), ns.run(records), records):
        assert p.status == q.status
        np.testing.assert_array_equal(p.values, q.values, err_msg=r[:120])


# ---- ABS -------------------------------------------------------------------------------------------

def requantize_ref(x: np.ndarray, mult: int, shift: int) -> np.ndarray:
    """TFLite's MultiplyByQuantizedMultiplier: left shift, rounding doubling high multiply, rounding
    right shift (ties away from zero in the first, ties up in the second)."""
    x = np.asarray(x, dtype=np.int64) * (1 << max(shift, 0))
    prod = x * mult
    nudge = np.where(prod >= 0, 1 << 30, 1 - (1 << 30))
    high = (prod + nudge)
    high = np.where(high >= 0, high >> 31, -((-high) >> 31))  # C division truncates toward zero
    right = max(-shift, 0)
    if right == 0:
        return high
    mask = (1 << right) - 1
    remainder = high & mask
    threshold = (mask >> 1) + (high < 0)
    return (high >> right) + (remainder > threshold)


def abs_case(rng, t: str):
    lo, hi = INT_RANGE[t]
    n = int(rng.integers(1, 200))
    x = rng.integers(lo, hi + 1, size=n)
    in_zp = int(rng.integers(-128, 128)) if t == "s8" else 0
    out_zp = int(rng.integers(-128, 128)) if t == "s8" else 0
    rescale = bool(rng.random() < 0.7)
    mult = int(rng.integers(1 << 30, (1 << 31) - 1)) if rescale else 0
    shift = int(rng.integers(-12, 3)) if rescale else 0
    act_min, act_max = (lo, hi) if rng.random() < 0.7 else (lo + 10, hi - 10)
    value = np.abs(x - in_zp)
    if rescale:
        value = requantize_ref(value, mult, shift)
    want = np.clip(value + out_zp, act_min, act_max)
    record = f"arm_abs_{t} {in_zp} {out_zp} {mult} {shift} {int(rescale)} {act_min} {act_max} {arr(x)}"
    return record, want


@pytest.mark.parametrize("t", ["s8", "s16"])
def test_abs_matches_reference(portable, t):
    rng = np.random.default_rng(31 if t == "s8" else 32)
    cases = [abs_case(rng, t) for _ in range(60)]
    for result, (record, want) in zip(portable.run([c[0] for c in cases]), cases):
        assert result.status == 0
        np.testing.assert_array_equal(result.values, want, err_msg=record[:100])


def test_abs_hand_worked(portable):
    # zero point 3: |-5 - 3| = 8, times 0.5 (2^30, shift 0) = 4, plus output zero point -1 = 3
    result = portable.run([f"arm_abs_s8 3 -1 {1 << 30} 0 1 -128 127 {arr([-5, 3, 127])}"])[0]
    assert result.values.tolist() == [3, -1, 61]


def test_abs_f32_clears_the_sign_bit(portable):
    x = np.array([-1.5, 2.0, -0.0, 0.0, -np.inf, np.nan, -3e-39], dtype=np.float32)
    x[5] = -x[5]
    result = portable.run([f"arm_nn_abs_f32 {arr(f32_bits(x))}"])[0]
    got = bits_f32(result.values)
    assert (got.view(np.int32) >= 0).all()
    np.testing.assert_array_equal(got[[0, 1, 2, 3, 4, 6]], np.abs(x[[0, 1, 2, 3, 4, 6]]))
    assert np.isnan(got[5])


@pytest.mark.parametrize("t", ["s8", "s16"])
def test_abs_parity(portable, ns, t):
    rng = np.random.default_rng(41 if t == "s8" else 42)
    records = [abs_case(rng, t)[0] for _ in range(80)]
    for p, q, r in zip(portable.run(records), ns.run(records), records):
        assert p.status == q.status
        np.testing.assert_array_equal(p.values, q.values, err_msg=r[:120])


def test_abs_f32_parity(portable, ns, ns_dir, ns_float_library):
    # Where ns-cmsis-nn has no arm_nn_abs_f32 there is nothing to compare: modules never call it there
    # (tests/unit/test_library_entries.py) and the portable kernel is checked against the reference above.
    if kb.check_ns_lacks(ns_dir, ns_float_library, "arm_nn_abs_f32"):
        return
    rng = np.random.default_rng(43)
    x = np.concatenate([rng.standard_normal(300).astype(np.float32) * 100,
                        np.array([-0.0, np.inf, -np.inf, np.nan, -np.nan], dtype=np.float32)])
    records = [f"arm_nn_abs_f32 {arr(f32_bits(x))}", "arm_nn_abs_f32 0"]
    for p, q in zip(portable.run(records), ns.run(records)):
        assert p.status == q.status
        np.testing.assert_array_equal(p.values, q.values)


# ---- SQUARED_DIFFERENCE ----------------------------------------------------------------------------

def sqdiff_quant(rng):
    """LiteRT's parameter space: scale / twice the larger scale is 1/2 (2^30, shift 0) for the larger input and
    at most 1/2 for the other (shift -1 or below); left shift 7; an output multiplier with a right shift."""
    larger = (1 << 30, 0)
    other = (int(rng.integers(1 << 30, (1 << 31) - 1)), int(rng.integers(-8, 0)))
    (m1, s1), (m2, s2) = (larger, other) if rng.random() < 0.5 else (other, larger)
    mo, so = int(rng.integers(1 << 30, (1 << 31) - 1)), int(rng.integers(-20, -8))
    lo, hi = (-128, 127) if rng.random() < 0.8 else (-100, 90)
    return [int(rng.integers(-127, 128)), m1, s1, int(rng.integers(-127, 128)), m2, s2, 7,
            int(rng.integers(-128, 128)), mo, so, lo, hi]


def sqdiff_ref(a, b, q):
    sa = requantize_ref((np.asarray(a, np.int64) + q[0]) * (1 << q[6]), q[1], q[2])
    sb = requantize_ref((np.asarray(b, np.int64) + q[3]) * (1 << q[6]), q[4], q[5])
    d = sa - sb
    return np.clip(requantize_ref(d * d, q[8], q[9]) + q[7], q[10], q[11])


def sqdiff_records(rng, n):
    records, wants = [], []
    while len(records) < n:
        q = sqdiff_quant(rng)
        qs = " ".join(map(str, q))
        form = rng.choice(["elementwise", "scalar", "broadcast"])
        if form == "broadcast":
            sa, sb = random_broadcast_pair(rng)
            merged = kernel_broadcast_dims(sa, sb)
            if merged is None:
                continue
            a, b = rng.integers(-128, 128, size=sa), rng.integers(-128, 128, size=sb)
            records.append(f"arm_squared_difference_s8 {dims(merged[0])} {dims(merged[1])} {dims(merged[2])} {qs} "
                           f"{arr(a)} {arr(b)}")
            wants.append(sqdiff_ref(np.broadcast_to(a, np.broadcast_shapes(a.shape, b.shape)), b, q).reshape(-1))
            continue
        n_el = int(rng.integers(1, 100))
        a = rng.integers(-128, 128, size=1 if form == "scalar" else n_el)
        b = rng.integers(-128, 128, size=n_el)
        name = "arm_squared_difference_scalar_s8" if form == "scalar" else "arm_elementwise_squared_difference_s8"
        records.append(f"{name} {qs} {arr(a)} {arr(b)}")
        wants.append(sqdiff_ref(a, b, q))
    return records, wants


def test_squared_difference_matches_reference(portable):
    records, wants = sqdiff_records(np.random.default_rng(51), 90)
    for result, want, record in zip(portable.run(records), wants, records):
        assert result.status == 0
        np.testing.assert_array_equal(result.values, want, err_msg=record[:100])


def test_squared_difference_hand_worked(portable):
    # offsets 0, multipliers 1/2 (2^30, shift 0), left shift 7: 3 -> 192, 1 -> 64; (192 - 64)^2 = 16384, times
    # 2^30 * 2^-31 * 2^-13 = 2^-14 -> 1, plus the output offset 5.
    record = f"arm_elementwise_squared_difference_s8 0 {1 << 30} 0 0 {1 << 30} 0 7 5 {1 << 30} -13 -128 127 " \
             f"{arr([3, 1])} {arr([1, 3])}"
    assert portable.run([record])[0].values.tolist() == [6, 6]


def test_squared_difference_parity(portable, ns):
    records, _ = sqdiff_records(np.random.default_rng(52), 120)
    for p, q, r in zip(portable.run(records), ns.run(records), records):
        assert p.status == q.status
        np.testing.assert_array_equal(p.values, q.values, err_msg=r[:120])


# ---- PRELU -------------------------------------------------------------------------------------------

def prelu_shapes(rng):
    """An input shape of rank 1..4 and an alpha shape that broadcasts onto it, in the merged form the
    compiler emits (alpha never larger than the input on any axis)."""
    while True:
        rank = int(rng.integers(1, 5))
        shape = [int(v) for v in rng.integers(1, 6, size=rank)]
        alpha = [d if rng.random() < 0.5 else 1 for d in shape]
        if rng.random() < 0.3:
            alpha = alpha[int(rng.integers(0, rank)):]
        merged = kernel_broadcast_dims(shape, alpha)
        if merged is not None:
            return shape, alpha, merged


def prelu_ref(x, a, q, t):
    x = np.asarray(x, np.int64) + q[0]
    a = np.asarray(a, np.int64) + q[1]
    pos = requantize_ref(np.maximum(x, 0), q[3], q[4])
    neg = requantize_ref(x * a, q[5], q[6])
    lo, hi = INT_RANGE[t]
    return np.clip(np.where(x >= 0, pos, neg) + q[2], lo, hi)


def prelu_records(rng, t: str, n: int):
    records, wants = [], []
    lo, hi = INT_RANGE.get(t, (0, 0))
    for _ in range(n):
        shape, alpha_shape, (dx, da, do) = prelu_shapes(rng)
        x = rng.integers(lo, hi + 1, size=shape)
        if t == "f32":
            xf = (rng.standard_normal(shape) * 3).astype(np.float32)
            af = rng.uniform(-1, 1, size=alpha_shape).astype(np.float32)
            records.append(f"arm_prelu_f32 {dims(dx)} {dims(da)} {dims(do)} {arr(f32_bits(xf))} {arr(f32_bits(af))}")
            wants.append(np.where(xf >= 0, xf, xf * af).astype(np.float32).reshape(-1))
            continue
        a = rng.integers(-128, 128, size=alpha_shape)  # int8 alpha values (LiteRT's int16 PRELU too)
        zp = (lambda: int(rng.integers(-128, 128))) if t == "s8" else (lambda: 0)
        q = [-zp(), -int(rng.integers(-128, 128)), zp(), int(rng.integers(1 << 30, (1 << 31) - 1)),
             int(rng.integers(-3, 2)), int(rng.integers(1 << 30, (1 << 31) - 1)), int(rng.integers(-12, -6))]
        records.append(f"arm_prelu_{t} {dims(dx)} {dims(da)} {dims(do)} {' '.join(map(str, q))} {arr(x)} {arr(a)}")
        wants.append(prelu_ref(x, np.broadcast_to(a, np.broadcast_shapes(a.shape, x.shape)), q, t).reshape(-1))
    return records, wants


@pytest.mark.parametrize("t", ["s8", "s16", "f32"])
def test_prelu_matches_reference(portable, t):
    records, wants = prelu_records(np.random.default_rng(61 + len(t)), t, 60)
    for result, want, record in zip(portable.run(records), wants, records):
        assert result.status == 0
        got = bits_f32(result.values) if t == "f32" else result.values
        np.testing.assert_array_equal(got, want, err_msg=record[:100])


def test_prelu_refuses_an_output_shape_unlike_the_input(portable):
    assert portable.run([f"arm_prelu_f32 1 1 2 2 1 1 1 2 1 1 4 2 {arr([0] * 4)} {arr([0] * 2)}"])[0].status == -1
    assert portable.run([f"arm_prelu_s8 1 1 1 4 1 1 1 2 1 1 1 4 0 0 0 1 0 1 0 {arr([0] * 4)} {arr([0] * 2)}"])[0] \
        .status == -1


@pytest.mark.parametrize("t", ["s8", "s16", "f32"])
def test_prelu_parity(portable, ns, ns_dir, ns_float_library, t):
    if t == "f32" and kb.check_ns_lacks(ns_dir, ns_float_library, "arm_prelu_f32"):
        return  # as test_abs_f32_parity: nothing to compare, the library truly lacks it
    records, _ = prelu_records(np.random.default_rng(71 + len(t)), t, 80)
    for p, q, r in zip(portable.run(records), ns.run(records), records):
        assert p.status == q.status
        np.testing.assert_array_equal(p.values, q.values, err_msg=r[:120])


# ---- BATCH_MATMUL ------------------------------------------------------------------------------------

def requantize_s64_ref(acc: np.ndarray, mult: int, shift: int) -> np.ndarray:
    """TFLite's int64 MultiplyByQuantizedMultiplier: the multiplier reduced to 16 bits, one rounding."""
    reduced = (mult + (1 << 15)) >> 16 if mult < 0x7FFF0000 else 0x7FFF
    total = 15 - shift
    return (np.asarray(acc, dtype=object) * reduced + (1 << (total - 1))) >> total


def bmm_case(rng, t: str):
    """Operands in the entry's layout: LHS (n, h, rows, inner), RHS transposed (n, h, cols, inner), each batch
    axis equal or 1 on one side."""
    rows, cols, inner = (int(v) for v in rng.integers(1, 9, size=3))
    n, h = (int(v) for v in rng.integers(1, 4, size=2))
    ln, rn = (n, 1) if rng.random() < 0.3 else ((1, n) if rng.random() < 0.3 else (n, n))
    lh, rh = (h, 1) if rng.random() < 0.3 else ((1, h) if rng.random() < 0.3 else (h, h))
    lo, hi = INT_RANGE[t]
    lhs = rng.integers(lo, hi + 1, size=(ln, lh, rows, inner))
    rhs = rng.integers(lo, hi + 1, size=(rn, rh, cols, inner))
    if t == "s8":
        in_off, f_off, out_off = (int(v) for v in rng.integers(-127, 128, size=3))
        mult, shift = int(rng.integers(1 << 30, (1 << 31) - 1)), int(rng.integers(-16, -8))
    else:
        in_off = f_off = out_off = 0
        mult, shift = int(rng.integers(1 << 30, (1 << 31) - 1)), int(rng.integers(-24, -14))
    act_min, act_max = (lo, hi) if rng.random() < 0.8 else (lo // 2, hi // 2)
    acc = np.einsum("nhik,nhjk->nhij", (lhs + in_off).astype(np.int64), (rhs + f_off).astype(np.int64))
    acc = acc if acc.shape[:2] == (max(ln, rn), max(lh, rh)) else acc
    value = requantize_ref(acc, mult, shift) if t == "s8" else requantize_s64_ref(acc, mult, shift)
    want = np.clip(np.asarray(value, dtype=np.int64) + out_off, act_min, act_max).reshape(-1)
    record = (f"arm_batch_matmul_{t} {dims((ln, lh, rows, inner))} {dims((rn, rh, cols, inner))} "
              f"{dims((max(ln, rn), max(lh, rh), rows, cols))} {in_off} {f_off} {out_off} {act_min} {act_max} "
              f"{mult} {shift} {arr(lhs)} {arr(rhs)}")
    return record, want


@pytest.mark.parametrize("t", ["s8", "s16"])
def test_batch_matmul_matches_reference(portable, t):
    rng = np.random.default_rng(81 if t == "s8" else 82)
    cases = [bmm_case(rng, t) for _ in range(60)]
    for result, (record, want) in zip(portable.run([c[0] for c in cases]), cases):
        assert result.status == 0
        np.testing.assert_array_equal(result.values, want, err_msg=record[:100])


def test_batch_matmul_hand_worked(portable):
    # [1 2; 3 4] x [5 6; 7 8] = [19 22; 43 50]; the RHS passed transposed ([5 7; 6 8]); multiplier 1 (2^30, shift 1).
    record = f"arm_batch_matmul_s8 1 1 2 2 1 1 2 2 1 1 2 2 0 0 0 -128 127 {1 << 30} 1 {arr([1, 2, 3, 4])} " \
             f"{arr([5, 7, 6, 8])}"
    assert portable.run([record])[0].values.tolist() == [19, 22, 43, 50]


def test_batch_matmul_refuses_mismatched_inner_dims(portable):
    record = f"arm_batch_matmul_s8 1 1 2 3 1 1 2 2 1 1 2 2 0 0 0 -128 127 {1 << 30} 1 {arr([0] * 6)} {arr([0] * 4)}"
    assert portable.run([record])[0].status == -1


@pytest.mark.parametrize("t", ["s8", "s16"])
def test_batch_matmul_parity(portable, ns, t):
    rng = np.random.default_rng(91 if t == "s8" else 92)
    records = [bmm_case(rng, t)[0] for _ in range(80)]
    for p, q, r in zip(portable.run(records), ns.run(records), records):
        assert p.status == q.status
        np.testing.assert_array_equal(p.values, q.values, err_msg=r[:120])


def test_batch_matmul_buffer_sizes_parity(portable, ns, ns_dir, ns_float_library):
    # ns-cmsis-nn 7.29.2 declares no batch-matmul sizer (the compiler sizes the MVE kernel sums itself,
    # helia_aot/ops/batch_matmul.py, as the portable _mve sizer does): compared where the library has one.
    sizers = [f"arm_batch_matmul_s8_get_buffer_size{s}" for s in ("", "_dsp", "_mve")]
    records = [f"{sizer} 1 2 {w} 9" for sizer in sizers for w in (1, 7, 64)]
    got = portable.run(records)
    assert [r.values[0] for r in got[-3:]] == [4, 28, 256]
    shared = [(r, g) for r, g in zip(records, got)
              if not kb.check_ns_lacks(ns_dir, ns_float_library, r.split(" ", 1)[0])]
    if shared:
        assert [g.values.tolist() for _, g in shared] == [q.values.tolist() for q in ns.run([r for r, _ in shared])]

# SPDX-License-Identifier: Apache-2.0
"""arm_sqrt_s8, arm_rsqrt_s16_per_op and arm_relu_generic_s8 (SQRT, RSQRT, RELU_N1_TO_1 / RELU_0_TO_1):
the portable kernels against Python references of the arithmetic (and LiteRT's, through the tables the
compiler builds), and bit for bit against ns-cmsis-nn (skipped unless HELIA_NS_CMSIS_NN_DIR is set)."""

from __future__ import annotations

import numpy as np
import pytest

import kernel_build as kb
import reference as ref
from helia_aot.ops.shared import lookup_tables, unary_math

ALL_INT8 = np.arange(-128, 128)


class UnaryMathDriver:
    def __init__(self, program):
        self.program = program

    def run(self, records: list[str]) -> list[tuple[int, np.ndarray]]:
        text = kb.run_program(self.program, "\n".join(records) + "\n")
        results = []
        for line in text.strip().splitlines():
            values = [int(v) for v in line.split()]
            results.append((values[0], np.asarray(values[1:], dtype=np.int64)))
        assert len(results) == len(records)
        return results


def _ints(values) -> str:
    return " ".join(str(int(v)) for v in np.asarray(values).reshape(-1))


def sqrt_record(lut, data) -> str:
    return f"sqrt_s8 {len(data)} {_ints(lut)} {_ints(data)}"


def rsqrt_record(in_off, out_off, lo, hi, lut, data) -> str:
    return f"rsqrt_s16 {in_off} {out_off} {lo} {hi} {len(data)} {_ints(lut)} {_ints(data)}"


def relu_record(in_off, out_off, mult, shift, lo, hi, data) -> str:
    return f"relu_generic_s8 {in_off} {out_off} {mult} {shift} {lo} {hi} {len(data)} {_ints(data)}"


@pytest.fixture(scope="module")
def portable(build_root, portable_library):
    return UnaryMathDriver(kb.link_program([kb.DRIVER_DIR / "unary_math_driver.c"], [portable_library],
                                           [kb.PORTABLE_INCLUDE], build_root / "unary_math_driver_portable"))


@pytest.fixture(scope="module")
def ns(build_root, ns_dir, ns_library):
    return UnaryMathDriver(kb.link_program([kb.DRIVER_DIR / "unary_math_driver.c"], [ns_library],
                                           [ns_dir / "Include"], build_root / "unary_math_driver_ns"))


def _rsqrt_reference(in_off, out_off, lo, hi, lut, data):
    """LiteRT's LUTLookup on the offset input, then the output offset and clamp."""
    values = np.minimum(np.asarray(data, dtype=np.int64) - in_off, 32767)
    assert (values >= 0).all()
    looked = lookup_tables.lut_int16_lookup(values, np.asarray(lut)).astype(np.int64) + out_off
    return np.maximum(np.minimum(looked, hi), lo)


def _relu_reference(in_off, out_off, mult, shift, lo, hi, data):
    out = [ref.requantize(int(v) - in_off, mult, shift) + out_off for v in data]
    return np.maximum(np.minimum(out, min(hi, 127)), max(lo, -128))


def _records(rng):
    """Tables as the compiler builds them (LiteRT's SQRT and RSQRT) plus random ones, random inputs."""
    sqrt_cases, rsqrt_cases, relu_cases = [], [], []
    for _ in range(6):
        in_scale, out_scale = float(rng.uniform(0.005, 0.2)), float(rng.uniform(0.005, 0.2))
        zp_in, zp_out = int(rng.integers(-128, 0)), int(rng.integers(-128, 100))
        lut = unary_math.sqrt_int8_table_u8(in_scale, zp_in, out_scale, zp_out)
        sqrt_cases.append((lut, rng.integers(-128, 128, size=int(rng.integers(1, 70)))))
    sqrt_cases.append((rng.integers(-128, 128, size=256), ALL_INT8))
    for _ in range(5):
        in_scale, out_scale = float(rng.uniform(1e-4, 1e-2)), float(rng.uniform(1e-4, 1e-2))
        lut = lookup_tables.lut_int16(unary_math.rsqrt_int16_transform(out_scale), in_scale, 0, out_scale, 0)
        data = rng.integers(0, 32768, size=int(rng.integers(1, 90)))
        data[:3] = [0, 1, 32767][:len(data[:3])]
        rsqrt_cases.append((0, 0, -32768, 32767, lut, data))
    # offsets and a narrower clamp, a random smooth table
    lut = np.cumsum(rng.integers(-60, 60, size=513)).clip(-32768, 32767)
    rsqrt_cases.append((-100, 7, -20000, 20000, lut, rng.integers(-100, 32768, size=64)))
    for _ in range(8):
        mult = int(rng.integers(1 << 30, 1 << 31))
        shift = int(rng.integers(-8, 3))
        in_off, out_off = int(rng.integers(-128, 128)), int(rng.integers(-128, 128))
        lo, hi = sorted(int(v) for v in rng.integers(-140, 140, size=2))
        relu_cases.append((in_off, out_off, mult, shift, lo, hi, ALL_INT8))
    return sqrt_cases, rsqrt_cases, relu_cases


def test_sqrt_s8_reads_the_table_at_uint8_code(portable):
    lut = np.arange(256) - 128  # entry k holds k - 128
    (status, got), = portable.run([sqrt_record(lut, [0, 1, 127, -128, -1])])
    assert status == 0
    assert got.tolist() == [-128, -127, -1, 0, 127]


def test_kernels_match_python_references(portable):
    sqrt_cases, rsqrt_cases, relu_cases = _records(np.random.default_rng(1212))
    records = [sqrt_record(lut, d) for lut, d in sqrt_cases] + [rsqrt_record(*c) for c in rsqrt_cases] + \
        [relu_record(*c) for c in relu_cases]
    results = portable.run(records)
    expected = [np.asarray(lut)[np.asarray(d).astype(np.int64) & 0xFF] for lut, d in sqrt_cases] + \
        [_rsqrt_reference(*c) for c in rsqrt_cases] + [_relu_reference(*c) for c in relu_cases]
    for record, (status, got), want in zip(records, results, expected):
        assert status == 0, record[:60]
        np.testing.assert_array_equal(got, want, err_msg=record[:60])


def test_rsqrt_s16_refuses_negative_input(portable):
    lut = np.full(513, 5)
    (status, got), = portable.run([rsqrt_record(0, 0, -32768, 32767, lut, [100, -1, 100])])
    assert status == -1  # ARM_CMSIS_NN_ARG_ERROR
    assert got[0] == 5


def test_relu_generic_s8_lower_bound_wins_empty_range(portable):
    (status, got), = portable.run([relu_record(0, 0, 1 << 30, 1, 10, 5, [-100, 7, 100])])
    assert status == 0 and got.tolist() == [10, 10, 10]


def test_bit_identical_to_ns_cmsis_nn(portable, ns):
    sqrt_cases, rsqrt_cases, relu_cases = _records(np.random.default_rng(77))
    records = [sqrt_record(lut, d) for lut, d in sqrt_cases] + [rsqrt_record(*c) for c in rsqrt_cases] + \
        [relu_record(*c) for c in relu_cases] + [relu_record(0, 0, 1 << 30, 1, 10, 5, [-100, 7, 100])]
    for record, (s1, a), (s2, b) in zip(records, portable.run(records), ns.run(records)):
        assert s1 == s2, record[:60]
        np.testing.assert_array_equal(a, b, err_msg=record[:60])

# SPDX-License-Identifier: Apache-2.0
"""Bit-exact parity of the portable float32 / float16 kernels with ns-cmsis-nn's plain-C build.

Needs HELIA_NS_CMSIS_NN_DIR (an ns-cmsis-nn v7.29.2 checkout); skipped otherwise. Both libraries are
built with ARM_NN_ENABLE_F32 / ARM_NN_ENABLE_F16 and the same code-generation flags, each linked into
its own copy of float_driver.c, and given the same seeded random records (flt_cases.py); ns-cmsis-nn
gets the scratch its get_buffer_size asks for, the portable kernels none. Outputs (as bit patterns),
status codes and buffer sizes must match exactly, for every entry both libraries have.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import flt_cases
import flt_records as F
import kernel_build as kb

CASES_PER_FUNCTION = 60
# ns-cmsis-nn's float32 element-wise entries clamp with comparisons that turn a NaN into the activation
# bound; the portable kernels keep the NaN, as LiteRT's reference (std::min / std::max with the NaN first).
# Compared bit for bit everywhere else; a NaN element must be NaN in the portable result.
NAN_CLAMPED_BY_NS = {"arm_elementwise_add_f32", "arm_elementwise_mul_f32"}


def _is_nan_f32(token: str) -> bool:
    bits = int(token) & 0xFFFFFFFF
    return bits & 0x7F800000 == 0x7F800000 and bits & 0x007FFFFF != 0


def equal_but_nan(portable: str, reference: str) -> bool:
    """Every line equal, except elements the portable kernel left NaN (status and count words too)."""
    for line_a, line_b in zip(portable.splitlines(), reference.splitlines(), strict=True):
        a, b = line_a.split(), line_b.split()
        if len(a) != len(b) or a[:2] != b[:2]:
            return False
        if any(x != y and not _is_nan_f32(x) for x, y in zip(a[2:], b[2:])):
            return False
    return True


def first_difference(a: str, b: str, records: list[str]) -> str:
    for index, (line_a, line_b) in enumerate(zip(a.splitlines(), b.splitlines())):
        if line_a != line_b:
            return (f"record {index}: {records[index][:300]}\n portable: {line_a[:300]}\n ns-cmsis-nn: "
                    f"{line_b[:300]}")
    return "different number of output lines"


@pytest.mark.parametrize("name", sorted(flt_cases.GENERATORS))
def test_bit_identical_to_ns_cmsis_nn(name, float_driver, ns_float_driver, ns_dir, ns_float_library):
    # An entry the release lacks (its recorded list; 7.29.2: arm_elementwise_sub_f32, arm_strided_slice_f32,
    # arm_reduce_sum_f32 / _f16) has nothing to compare: the check is that the library truly defines no such
    # function. Modules never call it there (tests/unit/test_library_entries.py); the portable kernel is
    # checked against the reference in test_float_elementwise.py.
    if kb.check_ns_lacks(ns_dir, ns_float_library, name):
        return
    seed = sum(map(ord, name)) + 7  # stable per function
    # Transposed convolutions keep to flt_cases.ns_transpose_conv_flt_ok (test_ns_float_transpose_conv_sweep).
    records = flt_cases.generate(name, seed, CASES_PER_FUNCTION, ns_parity=True)
    portable = float_driver.run_text(records)
    reference = ns_float_driver.run_text(records)
    assert len(portable.splitlines()) == len(records)
    if name in NAN_CLAMPED_BY_NS:
        assert equal_but_nan(portable, reference), first_difference(portable, reference, records)
        return
    assert portable == reference, first_difference(portable, reference, records)


def test_routes_are_all_exercised():
    # The parity records must reach every summation order; flt_cases picks shapes per route.
    assert set(flt_cases.CONV_KINDS) == {"1x1", "1xn", "row", "patch", "direct", "general"}
    assert set(flt_cases.DW_KINDS) == {"row3", "2x5", "3x3", "chmult1", "general"}


def _sweep_axes():
    """Every small axis geometry a module can give the float kernels: input size, filter size, stride and
    dilation, an output LiteRT accepts (SAME: (I - 1) * s + 1 .. I * s; VALID: the full extent and up to
    s - 1 rows of an exporter's output_padding), and the compiler's leading padding and offset for it."""
    for size, k, s, d in itertools.product((1, 2, 3), (1, 2, 3, 4), (1, 2, 3), (1, 2)):
        full = (size - 1) * s + (k - 1) * d + 1
        for out in range((size - 1) * s + 1, size * s + 1):
            total = max((size - 1) * s + (k - 1) * d + 1 - out, 0)
            yield size, k, s, d, out, total // 2, total % 2
        for out in range(full, full + s):
            yield size, k, s, d, out, 0, 0


def test_ns_float_transpose_conv_sweep(float_driver, ns_float_driver):
    # The parity records keep to flt_cases.ns_transpose_conv_flt_ok: here every small geometry (on H, with
    # W fixed, then on W, with H fixed), f32 and f16, called with the offset LiteRT's padding gives it and
    # with none. ns-cmsis-nn 7.29.2 must match the portable kernel (which matches the Python reference,
    # test_float_convolution.py) exactly on the calls the rule accepts and differ on all others (non-zero
    # inputs and filter, no clamp: an output shifted by the offset cannot coincide). Should a release fix
    # the offset, this fails: then widen the rule and let the compiler pass the offset again.
    rng = np.random.default_rng(2026)
    calls = []
    for t, (size, k, s, d, out, pad, offset), axis in itertools.product(flt_cases.T_NAMES, _sweep_axes(), (1, 2)):
        for passed in sorted({0, offset}):
            def pick(fixed, swept):
                return (swept, fixed) if axis == 1 else (fixed, swept)
            in_h, in_w = pick(2, size)
            kh, kw = pick(3, k)
            sh, sw = pick(1, s)
            dh, dw = pick(1, d)
            oh, ow = pick(2, out)  # 2x3 at stride 1, padding 1 (offset 0): the fixed axis is SAME
            ph, pw = pick(1, pad)
            fh, fw = pick(0, passed)
            data = flt_cases.values(rng, t, in_h * in_w * 2)
            data[data == 0] = 1
            weights = flt_cases.values(rng, t, 3 * kh * kw * 2, 0.5)
            weights[weights == 0] = 1
            calls.append(F.TransposeConv(t=t, input_dims=(1, in_h, in_w, 2), filter_dims=(3, kh, kw, 2),
                                         output_dims=(1, oh, ow, 3), input=data,
                                         filter=weights, bias=flt_cases.values(rng, t, 3, 0.5), stride=(sw, sh),
                                         padding=(pw, ph), padding_offsets=(fw, fh), dilation=(dw, dh)))
    records = [c.record(f"arm_transpose_conv_wrapper_{c.t}") for c in calls]
    portable = float_driver.run_text(records).splitlines()
    ns = ns_float_driver.run_text(records).splitlines()
    assert len(portable) == len(ns) == len(records)
    table: dict[tuple, list[int]] = {}
    for call, mine, theirs in zip(calls, portable, ns):
        right = mine == theirs
        assert right == flt_cases.ns_transpose_conv_flt_ok(call), (call.t, call.input_dims, call.filter_dims,
                                                                   call.output_dims, call.stride, call.padding,
                                                                   call.padding_offsets, call.dilation)
        key = (call.t, tuple(call.padding_offsets) != (0, 0), call.dilation != (1, 1))
        table.setdefault(key, [0, 0])[0 if right else 1] += 1
    print("\n(type, offset passed, dilated): [right, wrong]", table)

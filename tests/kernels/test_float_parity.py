# SPDX-License-Identifier: Apache-2.0
"""Bit-exact parity of the portable float32 / float16 kernels with ns-cmsis-nn's plain-C build.

Needs HELIA_NS_CMSIS_NN_DIR (an ns-cmsis-nn v7.29.2 checkout); skipped otherwise. Both libraries are
built with ARM_NN_ENABLE_F32 / ARM_NN_ENABLE_F16 and the same code-generation flags, each linked into
its own copy of float_driver.c, and given the same seeded random records (flt_cases.py); ns-cmsis-nn
gets the scratch its get_buffer_size asks for, the portable kernels none. Outputs (as bit patterns),
status codes and buffer sizes must match exactly.
"""

from __future__ import annotations

import pytest

import flt_cases

CASES_PER_FUNCTION = 60


def first_difference(a: str, b: str, records: list[str]) -> str:
    for index, (line_a, line_b) in enumerate(zip(a.splitlines(), b.splitlines())):
        if line_a != line_b:
            return (f"record {index}: {records[index][:300]}\n portable: {line_a[:300]}\n ns-cmsis-nn: "
                    f"{line_b[:300]}")
    return "different number of output lines"


@pytest.mark.parametrize("name", sorted(flt_cases.GENERATORS))
def test_bit_identical_to_ns_cmsis_nn(name, float_driver, ns_float_driver):
    seed = sum(map(ord, name)) + 7  # stable per function
    records = flt_cases.generate(name, seed, CASES_PER_FUNCTION)
    portable = float_driver.run_text(records)
    reference = ns_float_driver.run_text(records)
    assert len(portable.splitlines()) == len(records)
    assert portable == reference, first_difference(portable, reference, records)


def test_routes_are_all_exercised():
    # The parity records must reach every summation order; flt_cases picks shapes per route.
    assert set(flt_cases.CONV_KINDS) == {"1x1", "1xn", "row", "patch", "direct", "general"}
    assert set(flt_cases.DW_KINDS) == {"row3", "2x5", "3x3", "chmult1", "general"}

# SPDX-License-Identifier: Apache-2.0
"""Bit-exact parity of the portable kernels with ns-cmsis-nn's plain-C build, on seeded random calls.

Needs HELIA_NS_CMSIS_NN_DIR (an ns-cmsis-nn v7.29.2 checkout); skipped otherwise. The two libraries
export the same symbols, so each is linked into its own copy of the kernel driver and both get the
same records on stdin. Outputs, status codes and buffer sizes must match exactly.
"""

from __future__ import annotations

import pytest

import cases

# Calls per generator; the heavier convolution-like kernels get fewer.
CASES_PER_FUNCTION = {name: 60 for name in cases.GENERATORS}
CASES_PER_FUNCTION.update({"arm_reshape_s8": 20, "arm_relu6_q7": 30})

# Functions where the two libraries deliberately differ; they are checked against the Python
# reference instead (see tests/kernels/test_*.py and kernels/portable/README.md).
NOT_COMPARED = {
    "arm_convolve_weight_sum": "ns-cmsis-nn's plain-C build returns ARM_CMSIS_NN_NO_IMPL_ERROR and leaves the "
                               "buffer untouched; the portable library computes the sums (Helium semantics)",
    "arm_depthwise_convolve_weight_sum": "same as arm_convolve_weight_sum",
    "transpose conv buffer sizers": "ns-cmsis-nn's arm_transpose_conv_s8_get_buffer_size gives the reverse "
                                    "convolution's im2col size where that route is possible, which can be less "
                                    "than arm_transpose_conv_s8's own rolling window; the portable sizer gives the "
                                    "larger of the two (test_transpose_conv.py::test_buffer_sizes_hand_worked)",
}


def first_difference(a: str, b: str, records: list[str]) -> str:
    for index, (line_a, line_b) in enumerate(zip(a.splitlines(), b.splitlines())):
        if line_a != line_b:
            return (f"record {index}: {records[index][:300]}\n portable: {line_a[:300]}\n ns-cmsis-nn: "
                    f"{line_b[:300]}")
    return "different number of output lines"


@pytest.mark.parametrize("name", sorted(set(cases.GENERATORS) - set(NOT_COMPARED)))
def test_bit_identical_to_ns_cmsis_nn(name, portable_driver, ns_driver):
    seed = sum(map(ord, name))  # stable per function
    records = cases.generate(name, seed, CASES_PER_FUNCTION[name])
    portable = portable_driver.run_text(records)
    reference = ns_driver.run_text(records)
    assert len(portable.splitlines()) == len(records)
    assert portable == reference, first_difference(portable, reference, records)

# SPDX-License-Identifier: Apache-2.0
"""The library exports exactly the functions its header declares and its README lists, and no stray names."""

from __future__ import annotations

import re

import kernel_build as kb

README = kb.PORTABLE_DIR / "README.md"
HEADER = kb.PORTABLE_INCLUDE / "arm_nnfunctions.h"
# The float32 / float16 entry points, declared when the build sets ARM_NN_ENABLE_F32 / _F16 (the
# portable library of these tests is built with both).
FLOAT_HEADER = kb.PORTABLE_INCLUDE / "arm_nnfunctions_flt.h"
# helia-aot's own API beside ns-cmsis-nn's: the TFLM Signal operators' kernels (helia_signal_*).
SIGNAL_HEADER = kb.PORTABLE_INCLUDE / "helia_signal.h"
_PUBLIC = r"(arm_\w+|helia_signal_\w+)"


def readme_functions() -> set[str]:
    text = README.read_text()
    block = text.split("<!-- exports:begin -->", 1)[1].split("<!-- exports:end -->", 1)[0]
    return set(re.findall(rf"^- {_PUBLIC}\s*$", block, flags=re.M))


def header_functions() -> set[str]:
    names = set()
    for header in (HEADER, FLOAT_HEADER, SIGNAL_HEADER):
        text = re.sub(r"/\*.*?\*/", "", header.read_text(), flags=re.S)
        names |= set(re.findall(rf"\b{_PUBLIC}\s*\(", text))
    return names


def test_readme_lists_every_header_declaration():
    assert readme_functions() == header_functions()


def test_every_declaration_has_a_definition(portable_library):
    exported = kb.defined_functions([portable_library])
    missing = header_functions() - exported
    assert not missing, f"declared in arm_nnfunctions.h but not defined: {sorted(missing)}"


def test_no_undeclared_public_symbols(portable_library):
    exported = kb.defined_functions([portable_library])
    undeclared = {name for name in exported if name.startswith(("arm_", "helia_signal_"))} - header_functions()
    stray = {name for name in exported if not name.startswith(("arm_", "helia_"))}
    assert not undeclared, f"exported but not declared: {sorted(undeclared)}"
    assert not stray, f"exported without the arm_/helia_ prefix: {sorted(stray)}"


def test_contract_core_entries_are_present():
    # The entry points generated code calls for the MLPerf Tiny models; a typo in the header would hide them.
    for name in ("arm_convolve_wrapper_s8", "arm_depthwise_conv_wrapper_s8", "arm_fully_connected_s8",
                 "arm_avgpool_s8", "arm_softmax_s8", "arm_add_s8"):
        assert name in header_functions()


def test_float_entries_of_the_plan_are_present():
    # The float entries the compiler calls (FP32 and native FP16), for a typo in the float header.
    names = header_functions()
    for t in ("f32", "f16"):
        for base in ("convolve_wrapper", "depthwise_conv_wrapper", "fully_connected", "transpose_conv_wrapper",
                     "avg_pool", "max_pool", "softmax", "elementwise_add", "elementwise_sub", "elementwise_mul",
                     "nn_activation", "pad", "strided_slice", "transpose", "maximum", "minimum", "reduce_sum"):
            assert f"arm_{base}_{t}" in names
        for sizer in ("convolve_wrapper", "depthwise_conv_wrapper", "fully_connected", "transpose_conv"):
            assert f"arm_{sizer}_{t}_get_buffer_size" in names


def test_every_catalog_entry_is_a_portable_function():
    # Modules link either library, so every entry a variant declares must be here too.
    from helia_aot import ops
    declared = {entry for _, variant in ops.catalog() for entry in variant.entries}
    assert declared, "the catalog names no kernel entries"
    assert not declared - header_functions(), sorted(declared - header_functions())

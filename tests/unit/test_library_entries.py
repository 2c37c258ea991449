# SPDX-License-Identifier: Apache-2.0
"""Which entries a kernel library provides, and that a module never calls one its library lacks.

ns-cmsis-nn's entries are recorded per release (helia_aot/library/ns_cmsis_nn_entries/<version>.json),
generated from its public headers by tools/ns_cmsis_nn_entries.py; the portable kernels provide every
entry a variant declares (tests/kernels/test_exports.py). A variant whose entry a library lacks declares a
fallback (an entry with the same arguments, or its inline C); anything else is refused in one line.
"""

from __future__ import annotations

import re

import pytest

import helia_aot
from helia_aot import ops
from helia_aot.config.targets import get_target
from helia_aot.errors import UnsupportedModelError
from helia_aot.library import kernel_library
from helia_aot.version import ns_cmsis_nn_required_str
from tests.modelgen.cases import CASES_DIR, build_case_model, load_case
from tools import ns_cmsis_nn_entries as tool

from .helpers import REPO, ns_cmsis_nn_dir

NS = kernel_library.resolve("ns_cmsis_nn", get_target("host"))
PORTABLE = kernel_library.resolve("portable", get_target("host"))
_CALL = re.compile(r"\b(arm_\w+)\s*\(")
# The e2e cases of the operators whose float32 entry ns-cmsis-nn 7.29.2 lacks, and which call it (same shapes,
# rank <= 4), plus the cases whose broadcast / rank already made them inline.
FALLBACK_CASES = ("abs_float32_rank4", "prelu_float32_per_channel_alpha", "slice_float32_rank4",
                  "strided_slice_float32_hw_c", "sub_float32_same_shape_relu", "sum_float32_hw_keep")


def _module_calls(out) -> set[str]:
    return set(_CALL.findall((out / "src" / "m_model.c").read_text()))


# ---- the recorded list -------------------------------------------------------------------------------

def test_entry_list_of_the_required_release_is_recorded():
    entries = kernel_library.ns_cmsis_nn_entries(ns_cmsis_nn_required_str())
    # A list read wrongly (empty, or some other file's) would make every check below vacuous.
    assert len(entries) > 400 and {"arm_convolve_wrapper_s8", "arm_fully_connected_s8"} <= entries
    assert all(name.startswith("arm_") for name in entries)


def test_entry_list_equals_the_configured_checkouts_headers():
    ns = ns_cmsis_nn_dir()  # skips: "ns-cmsis-nn not configured"
    version = tool.release(ns)
    assert tool.data_file(version).is_file(), f"no entry list for the configured ns-cmsis-nn {version}"
    assert tool.render(version, tool.entries(ns)) == tool.data_file(version).read_text(encoding="utf-8"), \
        f"{tool.data_file(version).relative_to(REPO)} is stale: run tools/ns_cmsis_nn_entries.py --write {ns}"
    assert tool.main(["--check", str(ns)]) == 0


def test_header_reader_takes_file_scope_functions_only():
    header = """
    #ifdef __cplusplus
    extern "C" {
    #endif
    /* arm_in_a_comment(int x); */
    // arm_in_a_line_comment(void);
    #define arm_a_macro(x) arm_expanded(x)
    arm_cmsis_nn_status arm_declared(const int8_t *in,
                                     int32_t (*callback)(int32_t arm_parameter_name));
    __STATIC_FORCEINLINE int32_t *arm_inline_definition(int32_t x)
    {
        return arm_called_inside_a_body(x);
    }
    typedef void (*arm_function_pointer_type)(int);
    static const int arm_table[2] = { 1, arm_initializer_call(2) };
    ARM_DEPRECATED(arm_macro_argument(void)) int arm_after_a_macro(void);
    #ifdef __cplusplus
    }
    #endif
    """
    assert tool.file_scope_functions(header) == {"arm_declared", "arm_inline_definition", "arm_after_a_macro"}


def test_check_reports_a_stale_list(tmp_path, monkeypatch, capsys):
    include = tmp_path / "Include"
    include.mkdir()
    (include / "arm_nn_types.h").write_text("#define NS_CMSIS_NN_VERSION_MAJOR (7)\n#define NS_CMSIS_NN_VERSION_MINOR "
                                            "(29)\n#define NS_CMSIS_NN_VERSION_PATCH (2)\n")
    (include / "arm_nnfunctions.h").write_text("int arm_only_entry(void);\n")
    assert tool.main(["--check", str(tmp_path)]) == 1
    assert "missing ['arm_only_entry']" in capsys.readouterr().err
    monkeypatch.setattr(tool, "DATA_DIR", tmp_path / "lists")
    assert tool.main(["--write", str(tmp_path)]) == 0
    assert tool.main(["--check", str(tmp_path)]) == 0
    assert tool.main(["--check", str(tmp_path / "nowhere")]) == 2


# ---- every entry a variant declares ------------------------------------------------------------------

def test_every_variant_entry_is_provided_by_ns_cmsis_nn_or_has_a_fallback_it_provides():
    uncovered = []
    for op_type, variant in ops.catalog():
        fallbacks = dict(variant.fallbacks)
        assert set(fallbacks) <= set(variant.entries), f"{op_type} {variant.name}: fallback for an undeclared entry"
        for entry in variant.entries:
            if NS.provides(entry):
                continue
            if entry in fallbacks and (fallbacks[entry] is None or NS.provides(fallbacks[entry])):
                continue
            uncovered.append(f"{op_type} {variant.name}: {entry}")
    assert not uncovered, f"entries ns-cmsis-nn {NS.version} lacks, without a fallback it provides: {uncovered}"


def test_every_entry_a_template_names_is_provided_by_ns_cmsis_nn():
    # Templates that call a fixed entry (arm_clamp_s8, arm_softmax_s8, ...) rather than the lowering's choice.
    named = {name for path in (REPO / "helia_aot" / "ops" / "templates").glob("*.j2")
             for name in _CALL.findall(path.read_text())}
    assert named, "no template names an entry: the pattern is wrong"
    assert not {n for n in named if not NS.provides(n)}


def test_portable_kernels_provide_everything_and_own_kernels_are_always_provided():
    assert PORTABLE.entries is None and PORTABLE.provides("arm_strided_slice_f32")
    assert not NS.provides("arm_strided_slice_f32") and NS.provides("arm_strided_slice_s32")
    assert NS.provides("helia_signal_rfft_f32") and NS.provides("helia_mve_convolve_s8")


# ---- what a module calls -----------------------------------------------------------------------------

@pytest.mark.parametrize("case", FALLBACK_CASES)
def test_module_on_ns_cmsis_nn_calls_only_entries_it_provides(tmp_path, case):
    model = build_case_model(load_case(CASES_DIR / f"{case}.yaml"))
    result = helia_aot.convert(model, tmp_path / "ns", prefix="m", target="host", kernel_library="ns_cmsis_nn")
    # Checked against the recorded list itself, not KernelLibrary.provides (the code under test).
    recorded = kernel_library.ns_cmsis_nn_entries(ns_cmsis_nn_required_str())
    calls = _module_calls(tmp_path / "ns")
    assert calls - recorded == set(), calls
    planned = {o["kernel"]["entry"] for o in result.plan["operators"]} - {None}
    assert planned <= calls and planned <= recorded
    # The portable kernels keep the float32 entry itself.
    portable = helia_aot.convert(model, tmp_path / "p", prefix="m", target="host", kernel_library="portable")
    assert {o["kernel"]["entry"] for o in portable.plan["operators"]} & {
        "arm_nn_abs_f32", "arm_prelu_f32", "arm_strided_slice_f32", "arm_elementwise_sub_f32", "arm_reduce_sum_f32"}


def test_float32_strided_slice_copies_words_on_ns_cmsis_nn(tmp_path):
    model = build_case_model(load_case(CASES_DIR / "strided_slice_float32_hw_c.yaml"))
    result = helia_aot.convert(model, tmp_path, prefix="m", target="corstone300")
    assert [o["kernel"]["entry"] for o in result.plan["operators"]] == ["arm_strided_slice_s32"]
    assert "arm_strided_slice_s32((const int32_t *)" in (tmp_path / "src" / "m_model.c").read_text()


def _without(monkeypatch, *missing: str) -> None:
    """ns-cmsis-nn as if its release lacked `missing` too."""
    full = kernel_library.ns_cmsis_nn_entries(ns_cmsis_nn_required_str())
    monkeypatch.setattr(kernel_library, "ns_cmsis_nn_entries", lambda version: full - set(missing))


def test_an_entry_the_library_lacks_without_fallback_is_refused_in_one_line(tmp_path, monkeypatch):
    _without(monkeypatch, "arm_elementwise_add_f32")
    model = build_case_model(load_case(CASES_DIR / "add_float32_same_shape_relu.yaml"))
    # ADD declares its inline C as fallback: it runs inline.
    result = helia_aot.convert(model, tmp_path / "a", prefix="m", target="host")
    assert result.plan["operators"][0]["fixed"]["implementation"] == "inline"
    # An entry with a fallback entry the library lacks too, and one with none: refused.
    _without(monkeypatch, "arm_strided_slice_s32")
    model = build_case_model(load_case(CASES_DIR / "strided_slice_float32_hw_c.yaml"))
    with pytest.raises(UnsupportedModelError) as info:
        helia_aot.convert(model, tmp_path / "b", prefix="m", target="host")
    message = str(info.value)
    assert "\n" not in message
    assert re.search(r"operator \S+ \(STRIDED_SLICE, index 0\): float32 calls arm_strided_slice_f32, which "
                     rf"ns-cmsis-nn {re.escape(ns_cmsis_nn_required_str())}, plain build does not provide", message)
    assert "kernel_library portable" in message
    assert not (tmp_path / "b").exists()
    # The portable kernels are not affected.
    helia_aot.convert(model, tmp_path / "c", prefix="m", target="host", kernel_library="portable")


def test_a_lowering_that_ignores_the_library_is_refused(tmp_path, monkeypatch):
    # The guard behind every module: whatever entry a lowering returns, one the library lacks is refused.
    from helia_aot.ops.base import OpContext
    monkeypatch.setattr(OpContext, "library_entry", lambda self, entry: entry)
    model = build_case_model(load_case(CASES_DIR / "strided_slice_float32_hw_c.yaml"))
    with pytest.raises(UnsupportedModelError, match="calls arm_strided_slice_f32, which ns-cmsis-nn"):
        helia_aot.convert(model, tmp_path / "m", prefix="m", target="host")



@pytest.mark.parametrize("case, inline_on_ns", [("transpose_conv_int8_4x4_stride2_same", True),
                                                ("transpose_conv_int8_3x3_stride2_same", False)])
def test_int8_transpose_conv_keeps_off_ns_cmsis_nn_rows_it_gets_wrong(tmp_path, case, inline_on_ns):
    # ns-cmsis-nn 7.29.2's arm_transpose_conv_s8 is right only for a top padding that is a multiple of the
    # stride (and an output not cropped below I * s): a 4x4 filter at stride 2 SAME pads 1 row.
    model = build_case_model(load_case(CASES_DIR / f"{case}.yaml"))
    ns = helia_aot.convert(model, tmp_path / "ns", prefix="m", target="corstone300").plan["operators"][0]
    portable = helia_aot.convert(model, tmp_path / "p", prefix="m", target="corstone300",
                                 kernel_library="portable").plan["operators"][0]
    assert portable["kernel"]["entry"] == "arm_transpose_conv_s8"
    if inline_on_ns:
        assert ns["kernel"]["entry"] is None and "gets rows wrong" in ns["fixed"]["why"]
    else:
        assert ns["kernel"]["entry"] == "arm_transpose_conv_s8"

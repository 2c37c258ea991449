# SPDX-License-Identifier: Apache-2.0
"""Cases the fifth mutation run (a second sample of the 31 units, seed 20261203; tests/MUTATION.md) showed
untested: operators run on the host against LiteRT on paths the unit tests never lowered (float32 batch
broadcasting, int8 ADD, int16 ABS without quantization, int8 DEQUANTIZE and MEAN, a strided 1x1 convolution),
whole refusal messages of SELECT_V2, the LSTM and the configuration loader, the plan's stream pool and the
report's budgets, and the float 1 x N convolution buffer."""

from __future__ import annotations

import re
import subprocess
import sys

import numpy as np
import pytest

import helia_aot
from helia_aot import ops
from helia_aot.config import file as config_file
from helia_aot.config import options as options_mod
from helia_aot.config.spec import check_value
from helia_aot.config.targets import target_from_dict
from helia_aot.config.yaml_file import read_yaml
from helia_aot.errors import HeliaError, InvalidConfigError, UnsupportedModelError
from helia_aot.library import kernel_library
from helia_aot.library import ns_cmsis_nn_scratch as sizes
from helia_aot.library.ns_cmsis_nn_scratch import ConvGeometry
from helia_aot.record import plan_model, report_html, schema
from tests.modelgen import ModelBuilder
from tests.modelgen.cases import CASES_DIR, build_case_model, load_case
from tests.modelgen.litert import run_reference

from .helpers import REPO, build_host_module, portable_kernels_dir
from .test_ops_indexing import HOST_MAIN, run_host


# ---- operators run on the host against LiteRT ---------------------------------------------------------------

@pytest.fixture(scope="module")
def host_run(tmp_path_factory):
    """Converts a model for the host with the portable kernels, builds it with the kernel folders named and runs
    one set of inputs: output 0 as `out_dtype`."""
    root = tmp_path_factory.mktemp("fifth_host")
    count = [0]

    def run(builder: ModelBuilder, inputs: list[np.ndarray], out_dtype, folders=()):
        count[0] += 1
        out = root / f"m{count[0]}"
        result = helia_aot.convert(builder.build(), out, target="host", kernel_library="portable")
        exe = build_host_module(out, HOST_MAIN, folders, "-DARM_NN_ENABLE_F32=1", strict=False)
        status, _, got = run_host(exe, inputs, out_dtype)
        assert status == 0
        return result, got

    return run


def test_float32_batch_matmul_broadcasts_its_batches_like_litert(host_run):
    """Guards the batch offsets of the inline float32 BATCH_MATMUL: the LHS has two batches, the RHS one that
    broadcasts over them (stride 0), each batch a different product."""
    b = ModelBuilder()
    lhs, rhs = b.input("lhs", (2, 3, 4), "float32"), b.input("rhs", (1, 4, 5), "float32")
    y = b.tensor("y", (2, 3, 5), "float32")
    b.op("BATCH_MATMUL", [lhs, rhs], [y], {"adj_x": False, "adj_y": False})
    b.output(y)
    rng = np.random.default_rng(5)
    x = [rng.standard_normal((2, 3, 4)).astype(np.float32), rng.standard_normal((1, 4, 5)).astype(np.float32)]
    want = run_reference(b.build(), x)[0]
    _, got = host_run(b, x, np.float32)
    np.testing.assert_allclose(got.reshape(want.shape), want, rtol=1e-5, atol=1e-6)


def test_int8_add_with_broadcast_and_two_scales_matches_litert(host_run):
    """Guards the int8 ADD rescaling (both inputs to twice the larger scale, 20 bits of headroom) and its
    broadcast dims: inputs of different scales and zero points, the second a row broadcast over the first."""
    b = ModelBuilder()
    a = b.input("a", (4, 6), "int8", scale=0.05, zero_point=-3)
    c = b.input("c", (6,), "int8", scale=0.11, zero_point=7)
    y = b.tensor("y", (4, 6), "int8", scale=0.12, zero_point=2)
    b.op("ADD", [a, c], [y], {"fused_activation_function": "NONE"})
    b.output(y)
    rng = np.random.default_rng(6)
    x = [rng.integers(-128, 128, (4, 6)).astype(np.int8), rng.integers(-128, 128, (6,)).astype(np.int8)]
    want = run_reference(b.build(), x)[0]
    _, got = host_run(b, x, np.int8, ("elementwise", "basic_math"))
    np.testing.assert_array_equal(got.reshape(want.shape), want)


def test_int16_abs_without_quantization_matches_litert(host_run):
    """Guards the inline body of int16 ABS without quantization (|x|, INT16_MIN kept as LiteRT keeps it)."""
    b = ModelBuilder()
    x = b.input("x", (12,), "int16")
    y = b.tensor("y", (12,), "int16")
    b.op("ABS", [x], [y])
    b.output(y)
    values = np.array([-32768, -32767, -300, -1, 0, 1, 2, 299, 32767, -5, 5, -12345], np.int16)
    want = run_reference(b.build(), [values])[0]
    _, got = host_run(b, [values], np.int16)
    np.testing.assert_array_equal(got, want)


def test_int8_dequantize_matches_litert(host_run):
    """Guards the inline int8 DEQUANTIZE (scale x (q - zero point) into the float32 output)."""
    b = ModelBuilder()
    x = b.input("x", (2, 8), "int8", scale=0.037, zero_point=-9)
    y = b.tensor("y", (2, 8), "float32")
    b.op("DEQUANTIZE", [x], [y])
    b.output(y)
    values = np.arange(-128, 128, 16, dtype=np.int8).reshape(2, 8)
    want = run_reference(b.build(), [values])[0]
    _, got = host_run(b, [values], np.float32)
    np.testing.assert_array_equal(got.reshape(want.shape), want)


@pytest.mark.parametrize("axis", [0, 1, 2])
def test_int8_mean_of_a_rank_3_input_matches_litert(host_run, axis):
    """Guards how MEAN places the axes of an input of rank below 4 in the kernel's 4-D dims (padded in front):
    each axis of a rank-3 input reduced alone."""
    shape = (3, 4, 5)
    out_shape = tuple(d for k, d in enumerate(shape) if k != axis)
    b = ModelBuilder()
    x = b.input("x", shape, "int8", scale=0.1, zero_point=4)
    a = b.const("axis", np.array([axis], np.int32), "int32")
    y = b.tensor("y", out_shape, "int8", scale=0.07, zero_point=-2)
    b.op("MEAN", [x, a], [y], {"keep_dims": False})
    b.output(y)
    values = np.random.default_rng(axis).integers(-128, 128, shape).astype(np.int8)
    want = run_reference(b.build(), [values])[0]
    _, got = host_run(b, [values], np.int8, ("mean",))
    np.testing.assert_array_equal(got.reshape(want.shape), want)


@pytest.mark.parametrize("dtype", ["float32", "int32"])
def test_four_byte_concatenation_matches_litert(host_run, dtype):
    """Guards the element type of the inline CONCATENATION of 4-byte elements (float32 and int32 share it): its
    output pointer has the output's C type, or the int32 module does not compile (incompatible pointer types)."""
    b = ModelBuilder()
    p, q = b.input("p", (2, 3), dtype), b.input("q", (2, 2), dtype)
    y = b.tensor("y", (2, 5), dtype)
    b.op("CONCATENATION", [p, q], [y], {"axis": 1})
    b.output(y)
    x = [(np.arange(6).reshape(2, 3) * 3 - 7).astype(dtype), np.array([[2**20, -1], [7, -3]]).astype(dtype)]
    want = run_reference(b.build(), x)[0]
    _, got = host_run(b, x, np.dtype(dtype), ("concatenation",))
    np.testing.assert_array_equal(got.reshape(want.shape), want)


def test_a_strided_1x1_int8_convolution_calls_the_general_1x1_kernel(host_run, tmp_path):
    """Guards the 1x1 entry choice: arm_convolve_1x1_s8_fast is ns-cmsis-nn's stride-1 unpadded form (it reads
    the input as one matrix), so a stride-2 1x1 layer needs arm_convolve_1x1_s8; its outputs against LiteRT."""
    b = ModelBuilder()
    x = b.input("x", (1, 6, 6, 4), "int8", scale=0.05, zero_point=-1)
    w = b.const("w", np.random.default_rng(8).integers(-90, 90, (3, 1, 1, 4)).astype(np.int8), "int8",
                scale=[0.02, 0.03, 0.025], zero_point=[0, 0, 0], quantized_dimension=0)
    bias = b.const("b", np.array([10, -20, 30], np.int32), "int32", scale=[0.001, 0.0015, 0.00125],
                   zero_point=[0, 0, 0])
    y = b.tensor("y", (1, 3, 3, 3), "int8", scale=0.04, zero_point=3)
    b.op("CONV_2D", [x, w, bias], [y], {"padding": "VALID", "stride_w": 2, "stride_h": 2})
    b.output(y)
    values = np.random.default_rng(9).integers(-128, 128, (1, 6, 6, 4)).astype(np.int8)
    want = run_reference(b.build(), [values])[0]
    result, got = host_run(b, [values], np.int8, ("convolution", "fully_connected"))
    np.testing.assert_array_equal(got.reshape(want.shape), want)
    assert "arm_convolve_1x1_s8_fast" not in result.plan["operators"][0]["kernel"]["candidates"]
    # On the host ns-cmsis-nn has no cost table: the first candidate, the 1x1 kernel, is called.
    plan = helia_aot.convert(b.build(), tmp_path / "ns", target="host", kernel_library="ns_cmsis_nn").plan
    assert plan["operators"][0]["kernel"]["entry"] == "arm_convolve_1x1_s8"


@pytest.mark.parametrize("dtype", ["int8", "int16"])
def test_int8_and_int16_dynamic_update_slice_call_the_librarys_kernel(tmp_path, dtype):
    """Guards the library entries of DYNAMIC_UPDATE_SLICE: int8 and int16 call a kernel of the library (one the
    portable kernels define in src/dynamic_update_slice), not the inline copy the other dtypes get, and the
    operator catalog lists that kernel for the variant."""
    b = ModelBuilder()
    x = b.input("x", (4, 5), dtype, scale=0.5, zero_point=0)
    u = b.input("u", (2, 2), dtype, scale=0.5, zero_point=0)
    s = b.const("s", np.array([1, 2], np.int32), "int32")
    y = b.tensor("y", (4, 5), dtype, scale=0.5, zero_point=0)
    b.op("DYNAMIC_UPDATE_SLICE", [x, u, s], [y])
    b.output(y)
    result = helia_aot.convert(b.build(), tmp_path / "o", target="host", kernel_library="portable")
    entry = result.plan["operators"][0]["kernel"]["entry"]
    assert entry is not None
    defined = "".join(p.read_text() for p in (portable_kernels_dir() / "src" / "dynamic_update_slice").glob("*.c"))
    assert re.search(rf"^arm_cmsis_nn_status {entry}\(", defined, re.M), entry
    assert entry.endswith("_s8" if dtype == "int8" else "_s16")
    # The catalog (`helia-aot operators`, the library's entry checks) lists the kernel the variant calls.
    listed = [v.entries for op_type, v in ops.catalog() if op_type == "DYNAMIC_UPDATE_SLICE" and v.name == dtype]
    assert listed == [(entry,)]


def test_expand_dims_without_its_axis_input_is_answered_not_crashed_on(tmp_path):
    """Guards Axis.values with an omitted axis input: EXPAND_DIMS's axis operand is optional in the catalog (the
    alias variants it shares with RESHAPE), so the verifier lets a model omit it and the axis range check must
    read nothing rather than the absent tensor. Today the output shape places the axis and the output aliases
    the input; a refusal (LiteRT's expand_dims.cc wants two inputs) would do too, an internal error would not."""
    b = ModelBuilder()
    x = b.input("x", (2, 3), "float32")
    y = b.tensor("y", (2, 1, 3), "float32")
    b.op("EXPAND_DIMS", [x, None], [y])
    b.output(y)
    try:
        result = helia_aot.convert(b.build(), tmp_path / "o", target="host")
    except HeliaError as exc:  # a clean refusal naming the operator
        assert "EXPAND_DIMS" in str(exc)
    else:
        op = result.plan["operators"][0]
        assert op["op_type"] == "EXPAND_DIMS" and op["kernel"]["entry"] is None


# ---- whole refusal messages ------------------------------------------------------------------------------

def test_select_v2_operands_that_do_not_broadcast_are_named_with_their_shapes(tmp_path):
    """Guards the SELECT_V2 refusal's detail: the three shapes that do not broadcast, each named."""
    b = ModelBuilder()
    c, x = b.input("c", (2, 3), "bool"), b.input("x", (2, 4), "float32")
    z = b.input("z", (3, 3), "float32")
    y = b.tensor("y", (2, 3), "float32")
    b.op("SELECT_V2", [c, x, z], [y])
    b.output(y)
    with pytest.raises(UnsupportedModelError) as info:
        helia_aot.convert(b.build(), tmp_path / "o", target="host")
    assert str(info.value) == (
        "operator main:y (SELECT_V2, index 0), tensor 'z': condition [2, 3], x [2, 4] and y [3, 3] do not "
        "broadcast (LiteRT: select.cc SelectPrepare). Re-export the model so the operator meets this rule, or "
        "replace the operator")


def test_lstm_with_a_recurrent_input_gate_but_no_input_weights_is_refused(tmp_path):
    """Guards the LSTM's all-or-none rule for the input gate: recurrent_to_input_weights given while
    input_to_input_weights (and its bias) are omitted is refused naming the recurrent weights."""
    base = CASES_DIR / "unidirectional_sequence_lstm_float32_batch_major.yaml"
    text = base.read_text()
    for name in ("input_to_input_weights", "input_gate_bias"):
        text, n = re.subn(rf"  - \{{name: {name}, [^\n]*\}}", f"  - {{name: {name}, kind: omitted}}", text)
        assert n == 1
    folder = tmp_path / "cases"
    folder.mkdir()
    (folder / base.name).write_text(text)
    with pytest.raises(UnsupportedModelError) as info:
        helia_aot.convert(build_case_model(load_case(folder / base.name)), tmp_path / "o", target="host")
    message = str(info.value)
    assert re.search(r"tensor '[^']*recurrent_to_input[^']*': input_to_input_weights and recurrent_to_input_weights "
                     r"must be given together \(or neither: CIFG\)", message), message


def test_an_unknown_section_is_answered_with_the_nearest_one():
    """Guards the hint of the config loader's unknown-section refusal (the section it most likely meant)."""
    with pytest.raises(InvalidConfigError) as info:
        config_file.from_mapping({"memroy": {}}, "cfg.yaml")
    assert info.value.message == ("cfg.yaml: unknown section 'memroy' (allowed: ['memory', 'model', 'module', "
                                  "'operators', 'optimization', 'target', 'test'])")
    assert info.value.hint == "Did you mean memory?"


def test_a_bad_operators_entry_names_the_file_it_is_in():
    """Guards the place an operators entry's refusal names: the configuration file, then the entry."""
    with pytest.raises(InvalidConfigError) as info:
        config_file.from_mapping({"operators": [{"op": "CONV_2D"}]}, "cfg.yaml")
    assert info.value.message == ("cfg.yaml: operators[0]: unknown key(s) ['op'] (allowed: ['id', 'type', "
                                  "'optimization', 'attributes'])")


def test_an_enumerated_value_of_the_wrong_type_lists_the_values_to_write():
    """Guards the hint of an enumerated key given a value of another type: the allowed values, spelled out."""
    with pytest.raises(InvalidConfigError) as info:
        check_value("optimization", "goal", 3, "cfg.yaml")
    assert info.value.message == ("cfg.yaml: optimization.goal must be one of ['latency', 'balanced', 'size', "
                                  "'accuracy'], got int 3")
    assert info.value.hint == "Set optimization.goal to one of latency, balanced, size, accuracy"


def test_a_target_memory_that_is_not_a_mapping_is_named():
    """Guards the message of a custom target's memory entry that is not a mapping."""
    with pytest.raises(InvalidConfigError) as info:
        target_from_dict({"name": "t", "cpu": "cortex-m55", "memories": [5]}, "targets.t")
    assert (info.value.message, info.value.hint) == ("targets.t.memories[0] must be a mapping with name and size",
                                                     "Give name and size")


def test_a_missing_yaml_file_is_a_configuration_error(tmp_path):
    """Guards the error class read_yaml hands the file reader: a file that cannot be read is an
    InvalidConfigError naming it, with the caller's hint."""
    path = tmp_path / "missing.yaml"
    with pytest.raises(InvalidConfigError) as info:
        read_yaml(path, "configuration file", "Check the path")
    assert (info.value.message, info.value.hint) == (f"configuration file {path} does not exist", "Check the path")


def test_an_unknown_kernel_library_lists_the_known_ones():
    """Guards the unknown-library refusal's list of the libraries there are."""
    with pytest.raises(InvalidConfigError) as info:
        kernel_library.resolve("cmsis", None)
    assert (info.value.message, info.value.hint) == (
        "kernel library 'cmsis' is unknown (known: ns_cmsis_nn, portable)", "Use ns_cmsis_nn or portable")


def test_the_configuration_files_kernel_library_is_used_when_no_flag_names_one():
    """Guards module.kernel_library: without an explicit library the configuration's is resolved (not the
    default ns_cmsis_nn); an explicit one still wins."""
    assert options_mod.resolve({"module": {"kernel_library": "portable"}}).kernels.name == "portable"
    assert options_mod.resolve({"module": {"kernel_library": "portable"}}, kernels="ns_cmsis_nn").kernels.name == \
        "ns_cmsis_nn"
    assert options_mod.resolve(None).kernels.name == "ns_cmsis_nn"


def test_the_operators_catalog_separates_an_operands_rules_with_commas():
    """Guards the catalog line of an operand with several rules (`helia-aot operators`): the CONV_2D int8
    filter is constant, per-tensor or per-channel quantized and has zero point 0, listed in parentheses."""
    proc = subprocess.run([sys.executable, "-m", "helia_aot", "operators", "CONV_2D"], capture_output=True,
                          text=True, timeout=120, cwd=REPO)
    assert proc.returncode == 0, proc.stderr
    assert ("    in  filter           int8  (constant, per-tensor or per-channel (axis 0) quantized, zero point 0)"
            in proc.stdout.splitlines())


# ---- the plan and the report -----------------------------------------------------------------------------

def test_a_stream_pool_is_listed_among_the_reports_arenas(tmp_path):
    """Guards the kind the report's arena list gives the stream pool's block: one arena of kind stream_pool in the
    pool's memory, of the bytes the report's memory use says the pool takes there (the pool's configured size)."""
    from .test_placement import _fc_model
    result = helia_aot.convert(_fc_model(layers=3, width=32), tmp_path / "o", target="corstone300", config={
        "memory": {"tensors": [{"type": "constant", "attributes": {"residency": "stream"}}],
                   "stream_pool": {"memory": "DTCM", "bytes": 4096}}})
    pools = [a for a in result.report["arenas"] if a["kind"] == "stream_pool"]
    held = {m["memory"]: {h["what"]: h["bytes"] for h in m["holds"]} for m in result.report["memory_use"]}
    assert len(pools) == 1 and pools[0]["memory"] == "DTCM"
    assert pools[0]["bytes"] == held["DTCM"]["stream pool"] == 4096


def test_a_memory_with_a_budget_is_drawn_against_its_budget():
    """Guards the report's memory bars of a placed module: a memory with a memory.constraints budget is filled
    (and over) against the budget, not its size."""
    plan = {"memory": {"arenas": [{}, {}]}, "platform": {"name": "custom"}, "tensors": []}
    report = {"target_memories": [{"name": "DTCM", "bytes": 1000, "writable": True},
                                  {"name": "SRAM", "bytes": 1000, "writable": True}],
              "memory_use": [{"memory": "DTCM", "used": 300, "budget": 400, "holds": [{"what": "scratch arena",
                                                                                     "bytes": 300}]},
                             {"memory": "SRAM", "used": 300, "budget": None, "holds": []}],
              "stream_pool": None}
    rows = {r["name"]: r for r in report_html._memories(plan, report)}
    assert (rows["DTCM"]["percent"], rows["SRAM"]["percent"]) == ("75.0", "30.0")
    report["memory_use"][0]["budget"] = 200
    rows = {r["name"]: r for r in report_html._memories(plan, report)}
    assert rows["DTCM"]["over"] and rows["DTCM"]["percent"] == "150.0" and not rows["SRAM"]["over"]


def test_per_axis_zero_points_name_their_axis():
    """Guards the report's zero-point cell of a port quantized per axis with several zero points."""
    port = {"index": 0, "name": "x", "dtype": "int8", "shape": [1, 3], "elements": 3, "bytes": 3,
            "quantization": {"scale": [0.1, 0.2, 0.3], "zero_point": [1, 2, 3], "axis": 1}}
    row = report_html._port(port, "input", "m")
    assert (row["scale"], row["zero_point"]) == ("3 per axis 1", "3 per axis 1")


def test_the_plan_schema_refuses_a_value_outside_a_fixed_vocabulary(tmp_path):
    """Guards the schema of Literal fields (an "enum"): a plan naming a kernel library there is not fails
    validation against the plan schema, and only there."""
    b = ModelBuilder()
    x = b.input("x", (1, 4), "float32")
    y = b.tensor("y", (1, 4), "float32")
    b.op("RELU", [x], [y])
    b.output(y)
    plan = helia_aot.convert(b.build(), tmp_path / "o", target="host").plan
    assert schema.validate(plan, plan_model.plan_schema()) == []
    plan["kernel_library"]["name"] = "cmsis"
    errors = schema.validate(plan, plan_model.plan_schema())
    assert len(errors) == 1 and "'cmsis' not in ['ns_cmsis_nn', 'portable']" in errors[0], errors


# ---- the float 1 x N convolution buffer (ns_cmsis_nn_scratch) ------------------------------------------------

# (w, kw, cin, stride, pad_w): single-row layers; the float wrapper sends a filter 1 high and more than 1 wide to
# its 1 x N kernel unless it is the direct 1 x 3 / 1 x 5 stride-1 unpadded shape.
_F32_ROW_SHAPES = [(16, 4, 1, 1, 0), (16, 2, 1, 2, 0), (12, 3, 1, 2, 0), (16, 7, 1, 1, 1), (16, 4, 3, 1, 0)]


def test_float_1_x_n_layers_of_one_input_channel_buffer_one_window():
    """Guards which float layers the 1 x N route takes: a row filter wider than 1 over a single-row input, even
    of one input channel, packs one window (kw x channels values); a 1-wide filter padded in width is not 1 x N and
    packs the general tile of F32_CONV_TILE_ROWS patches of kh x kw x channels values."""
    for w, kw, cin, stride, pad in _F32_ROW_SHAPES:
        ow = (w + 2 * pad - kw) // stride + 1
        g = ConvGeometry(stride, 1, pad, 0)
        for elem, sizer in ((4, sizes.convolve_wrapper_f32), (2, sizes.convolve_wrapper_f16)):
            got = sizer("mve", g, (1, 1, w, cin), (6, 1, kw, cin), (1, 1, ow, 6))
            assert got == kw * cin * elem, (w, kw, cin, stride, pad, elem)
    g = ConvGeometry(1, 1, 1, 0)
    assert sizes.convolve_wrapper_f32("plain", g, (1, 1, 8, 3), (6, 1, 1, 3), (1, 1, 10, 6)) == \
        sizes.F32_CONV_TILE_ROWS * 1 * 1 * 3 * 4
    # The general tile of a 3 x 3 filter over 5 channels: kh x kw x channels values per patch.
    g = ConvGeometry(1, 1, 0, 0)
    assert sizes.convolve_wrapper_f32("plain", g, (1, 6, 6, 5), (2, 3, 3, 5), (1, 4, 4, 2)) == \
        sizes.F32_CONV_TILE_ROWS * 3 * 3 * 5 * 4


def test_float_1_x_n_sizes_match_ns_cmsis_nn(tmp_path):
    """The shapes above, and the 1-wide padded one, against ns-cmsis-nn's arm_convolve_wrapper_f32_get_buffer_size
    (the same on every build)."""
    from .test_scratch_sizes import run_f32_sizers
    # F32_PROGRAM's case rows: h, w, cin, kh, kw, cout, stride, pad, oh, ow (stride and pad on both axes).
    cases = [(1, w, cin, 1, kw, 6, stride, 0, 1, (w - kw) // stride + 1) for w, kw, cin, stride, pad in
             _F32_ROW_SHAPES if pad == 0]
    lines = run_f32_sizers(tmp_path, cases)
    for (h, w, cin, kh, kw, cout, stride, pad, oh, ow), line in zip(cases, lines):
        g = ConvGeometry(stride, stride, pad, pad)
        want = sizes.convolve_wrapper_f32("plain", g, (1, h, w, cin), (cout, kh, kw, cin), (1, oh, ow, cout))
        assert int(line.split()[0]) == want, (h, w, cin, kh, kw, stride)


# ---- signal energy ---------------------------------------------------------------------------------------

def test_signal_energy_may_end_at_the_last_bin(tmp_path):
    """Guards the upper bound of SignalEnergy's end_index: it is exclusive, so end_index equal to the bin count
    (and the output length) is TFLM's whole spectrum and converts; one past it is refused (the existing test).
    TFLM writes bins start_index..end_index - 1 only (the rest of its output is whatever the arena held)."""
    from helia_aot.golden import references
    from .test_ops_signal_window_energy_filter_bank import custom
    data = custom("SignalEnergy", [("x", (16,), "int16")], [("y", (8,), "uint32")],
                  {"end_index": 8, "start_index": 2})
    x = np.arange(-8, 8, dtype=np.int16)
    pairs = x.astype(np.int64).reshape(8, 2)
    want = references.TflmRunner(data).run([x])[0]
    assert want[2:].tolist() == (pairs[2:] ** 2).sum(axis=1).tolist()  # the last bin is written
    result = helia_aot.convert(data, tmp_path / "o", target="host")
    assert result.plan["operators"][0]["op_type"] == "CUSTOM:SignalEnergy"


# ---- resource variables (frontend/resources.py) -----------------------------------------------------------

def _two_containers() -> ModelBuilder:
    """out = x + a + b, where a and b are two resource variables of one shared_name in two containers, which
    CALL_ONCE initialises to 1 and 2: LiteRT keys a variable by (container, shared_name)."""
    b = ModelBuilder("two containers")
    init = b.subgraph("init")
    for container, value in (("first", 1.0), ("second", 2.0)):
        handle = init.resource(f"{container}_init")
        init.op("VAR_HANDLE", [], [handle], {"container": container, "shared_name": "v"})
        init.op("ASSIGN_VARIABLE", [handle, init.const(f"{container}_value", np.full((1, 4), value), "float32")], [])
    b.op("CALL_ONCE", [], [], {"init_subgraph_index": init.index})
    total = b.input("x", (1, 4), "float32")
    for container in ("first", "second"):
        handle = b.resource(f"{container}_handle")
        b.op("VAR_HANDLE", [], [handle], {"container": container, "shared_name": "v"})
        value = b.tensor(f"{container}_read", (1, 4), "float32")
        b.op("READ_VARIABLE", [handle], [value])
        summed = b.tensor(f"{container}_sum", (1, 4), "float32")
        b.op("ADD", [total, value], [summed])
        total = summed
    b.output(total)
    return b


def test_variables_of_one_name_in_two_containers_are_two_variables(host_run):
    """Guards the variable key of resource variables: (container, shared_name), as LiteRT's, so two containers'
    variables of one shared name keep their own initial values."""
    b = _two_containers()
    x = np.array([[0.5, -1.0, 4.0, 10.0]], np.float32)
    want = run_reference(b.build(), [x])[0]
    np.testing.assert_array_equal(want, x + 3.0)  # LiteRT: 1 and 2, not one variable twice
    _, got = host_run(b, [x], np.float32, ("elementwise", "basic_math"))
    np.testing.assert_array_equal(got.reshape(want.shape), want)

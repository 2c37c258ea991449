# SPDX-License-Identifier: Apache-2.0
"""SignalWindow, SignalFftAutoScale, SignalEnergy, SignalFilterBank, SignalFilterBankSquareRoot (TFLM's Signal
custom operators): the refusals (one line naming the operator, the tensor or attribute and the rule), custom
options that are no FlexBuffer map, and the conversion-time folds against TFLM on constant inputs."""

from __future__ import annotations

import numpy as np
import pytest

import helia_aot
from helia_aot import ops
from helia_aot.golden import references
from helia_aot.errors import InvalidModelError, UnsupportedModelError
from helia_aot.frontend import litert as frontend
from helia_aot.ops.base import OpContext
from tests.modelgen import ModelBuilder


def refusal(data: bytes, tmp_path) -> str:
    with pytest.raises(UnsupportedModelError) as info:
        helia_aot.convert(data, tmp_path / "out", target="host")
    message = str(info.value)
    assert "\n" not in message
    assert not (tmp_path / "out").exists()
    return message


def custom(code, inputs, outputs, options=None, raw_options=None) -> bytes:
    """One custom operator: inputs are (name, shape, dtype) run-time or (name, array, dtype, "const"); outputs
    (name, shape, dtype)."""
    b = ModelBuilder()
    refs = [b.const(s[0], np.asarray(s[1]), s[2]) if len(s) == 4 else b.input(*s) for s in inputs]
    outs = [b.tensor(*s) for s in outputs]
    b.custom_op(code, refs, outs, options, raw_options=raw_options)
    for o in outs:
        b.output(o)
    return b.build()


def window(shape=(1, 8), taps=8, shift=12, out_shape=None, options=None) -> bytes:
    return custom("SignalWindow", [("x", shape, "int16"), ("w", np.arange(taps), "int16", "const")],
                  [("y", out_shape or shape, "int16")], options if options is not None else {"shift": shift})


# ---- refusals ------------------------------------------------------------------------------------------


def test_window_shift_out_of_range(tmp_path):
    message = refusal(window(shift=32), tmp_path)
    assert "CUSTOM:SignalWindow" in message and "custom option shift = 32 must be an integer in 0..31" in message


def test_window_options_too_short_for_the_position_are_refused(tmp_path):
    # TFLM reads 'shift' at position 0 of the map's values: an empty map is read past its end.
    message = refusal(window(options={}), tmp_path)
    assert "custom options [] have no value for 'shift' (TFLM reads it at position 0, past the map)" in message
    assert "(reference undefined: flatbuffer_utils.cc FlexbufferWrapper::ElementAs*" in message


def test_window_reads_shift_at_its_position_whatever_the_key(tmp_path):
    # Sorted keys ['alpha', 'shift']: position 0 holds alpha's 40, which TFLM reads as shift (out of range here).
    message = refusal(window(options={"shift": 3, "alpha": 40}), tmp_path)
    assert "custom option shift (read from 'alpha', at its position) = 40 must be an integer in 0..31" in message


def test_window_input_not_whole_windows(tmp_path):
    message = refusal(window(shape=(1, 12), taps=8), tmp_path)
    assert "tensor 'w'" in message and "12 samples are not whole windows of 8" in message


def test_window_output_shape(tmp_path):
    assert "output shape [8] differs from the input shape [1, 8]" in refusal(window(out_shape=(8,)), tmp_path)


def test_window_float_input_matches_no_variant(tmp_path):
    data = custom("SignalWindow", [("x", (1, 8), "float32"), ("w", np.arange(8), "int16", "const")],
                  [("y", (1, 8), "float32")], {"shift": 1})
    assert "match no variant" in refusal(data, tmp_path)


def test_fft_auto_scale_needs_a_scalar_scale(tmp_path):
    data = custom("SignalFftAutoScale", [("x", (16,), "int16")], [("y", (16,), "int16"), ("s", (1,), "int32")], {})
    assert "scale_bits must have rank 0" in refusal(data, tmp_path)


def test_energy_end_index_beyond_the_bins(tmp_path):
    data = custom("SignalEnergy", [("x", (16,), "int16")], [("y", (8,), "uint32")], {"end_index": 9, "start_index": 0})
    message = refusal(data, tmp_path)
    assert "CUSTOM:SignalEnergy" in message and "end_index 9 is beyond the input's 8 complex bins" in message


def test_energy_negative_start(tmp_path):
    data = custom("SignalEnergy", [("x", (16,), "int16")], [("y", (8,), "uint32")], {"end_index": 4, "start_index": -1})
    assert "start_index = -1 must be an integer in 0..2147483647" in refusal(data, tmp_path)


def bank(widths=(2, 2, 2), starts=(0, 1, 2), firsts=(0, 2, 4), channels=2, out=2, weights=6) -> bytes:
    consts = [("w", np.ones(weights), "int16", "const"), ("uw", np.ones(weights), "int16", "const"),
              ("freq", np.asarray(starts), "int16", "const"), ("first", np.asarray(firsts), "int16", "const"),
              ("width", np.asarray(widths), "int16", "const")]
    return custom("SignalFilterBank", [("x", (5,), "uint32"), *consts], [("y", (out,), "uint64")],
                  {"num_channels": channels})


def test_filter_bank_output_must_hold_num_channels(tmp_path):
    assert "output has 3 elements, custom option num_channels is 2" in refusal(bank(out=3), tmp_path)


def test_filter_bank_band_outside_the_energies(tmp_path):
    message = refusal(bank(starts=(0, 1, 4)), tmp_path)
    assert "tensor 'width'" in message and "channel 2 covers energies 4..5" in message


def test_filter_bank_band_outside_the_weights(tmp_path):
    assert "channel 2 covers energies 2..3 with weights 5..6" in refusal(bank(firsts=(0, 2, 5)), tmp_path)


def test_filter_bank_short_channel_table(tmp_path):
    message = refusal(bank(widths=(2, 2), starts=(0, 1), firsts=(0, 2)), tmp_path)
    assert "channel_frequency_starts has 2 elements, num_channels + 1 = 3 are read" in message


def test_square_root_constant_shift_out_of_range(tmp_path):
    data = custom("SignalFilterBankSquareRoot", [("x", (4,), "uint64"), ("s", np.asarray(32).reshape(()), "int32",
                                                                          "const")], [("y", (4,), "uint32")], {})
    message = refusal(data, tmp_path)
    assert "tensor 's'" in message and "scale_bits is 32; a shift of a uint32 must be in 0..31" in message


def test_square_root_ignores_attributes_as_tflm_does(tmp_path):
    # TFLM's kernel reads no custom option: a stray one changes nothing.
    data = custom("SignalFilterBankSquareRoot", [("x", (4,), "uint64"), ("s", np.asarray(1).reshape(()), "int32",
                                                                          "const")], [("y", (4,), "uint32")],
                  {"shift": 1})
    result = helia_aot.convert(data, tmp_path / "out", target="host")
    assert result.plan["operators"][0]["op_type"] == "CUSTOM:SignalFilterBankSquareRoot"


def test_custom_options_that_are_no_flexbuffer_map_name_the_operator(tmp_path):
    data = custom("SignalWindow", [("x", (1, 8), "int16"), ("w", np.arange(8), "int16", "const")],
                  [("y", (1, 8), "int16")], raw_options=b"\xff\xff\xff\xff\xff")
    with pytest.raises(InvalidModelError) as info:
        helia_aot.convert(data, tmp_path / "out", target="host")
    message = str(info.value)
    assert "operator 0 (CUSTOM:SignalWindow) writing 'y'" in message and "not a FlexBuffer" in message


def test_the_catalog_lists_the_signal_operators():
    catalog = {(op, v.name) for op, v in ops.catalog()}
    assert {("CUSTOM:SignalWindow", "int16"), ("CUSTOM:SignalFftAutoScale", "int16"), ("CUSTOM:SignalEnergy", "int16"),
            ("CUSTOM:SignalFilterBank", "uint32"), ("CUSTOM:SignalFilterBankSquareRoot", "uint64")} <= catalog


# ---- folds: constant inputs computed at conversion time, as TFLM computes them ----------------------------


def fold_with(data: bytes, constants: list) -> list[np.ndarray]:
    """The module's fold of the model's operator, its run-time inputs given these constant values."""
    graph = frontend.load(data)
    op = graph.operators[0]
    for t, value in zip(op.inputs, constants):
        tensor = graph.tensors[t]
        tensor.data = np.asarray(value, dtype=tensor.dtype).reshape(tensor.shape)
    return [np.asarray(v) for v in ops.get(op.op_type).fold(OpContext(graph, op, "op", None, None, None))]


@pytest.mark.parametrize("code, inputs, outputs, options", [
    ("SignalWindow", [("x", [[-32768, 32767, 1000, -7, 5, 6]], "int16"), ("w", [32767, -32768, 3], "int16")],
     [("y", (1, 6), "int16")], {"shift": 3}),
    ("SignalFftAutoScale", [("x", [7, -32768, 100, -3], "int16")], [("y", (4,), "int16"), ("s", (), "int32")], {}),
    ("SignalFftAutoScale", [("x", [3, -20, 9], "int16")], [("y", (3,), "int16"), ("s", (), "int32")], {}),
    ("SignalEnergy", [("x", [-32768, -32768, 3, 4, 5, 6, 7, 8], "int16")], [("y", (4,), "uint32")],
     {"end_index": 4, "start_index": 0}),
    ("SignalFilterBank", [("x", [4294967295, 2, 3, 4, 5], "uint32"), ("w", [4096, -3, 7, 9, 1, 2], "int16"),
                          ("uw", [0, 4099, 1, 2, 3, 4], "int16"), ("freq", [0, 1, 3], "int16"),
                          ("first", [0, 2, 4], "int16"), ("width", [2, 2, 2], "int16")],
     [("y", (2,), "uint64")], {"num_channels": 2}),
    # Keys other than the kernel's: TFLM reads each attribute at its position in the sorted map, whatever the key
    # there (alpha's 5 as shift), and ignores the rest.
    ("SignalWindow", [("x", [[-32768, 32767, 1000, -7, 5, 6]], "int16"), ("w", [32767, -32768, 3], "int16")],
     [("y", (1, 6), "int16")], {"shift": 3, "alpha": 5}),
    ("SignalFftAutoScale", [("x", [7, -32768, 100, -3], "int16")], [("y", (4,), "int16"), ("s", (), "int32")],
     {"shift": 1}),
    ("SignalFilterBank", [("x", [4294967295, 2, 3, 4, 5], "uint32"), ("w", [4096, -3, 7, 9, 1, 2], "int16"),
                          ("uw", [0, 4099, 1, 2, 3, 4], "int16"), ("freq", [0, 1, 3], "int16"),
                          ("first", [0, 2, 4], "int16"), ("width", [2, 2, 2], "int16")],
     [("y", (2,), "uint64")], {"num_channels": 2, "zeta": 9}),
])
def test_fold_matches_tflm(code, inputs, outputs, options):
    data = custom(code, [(name, np.asarray(v).shape, dtype) for name, v, dtype in inputs], outputs, options)
    arrays = [np.asarray(v, dtype=dtype) for _, v, dtype in inputs]
    want = references.TflmRunner(data).run(arrays)
    got = fold_with(data, arrays)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.dtype == w.dtype and g.tolist() == w.reshape(g.shape).tolist()


def test_square_root_fold_matches_tflm():
    # TFLM's Python wrapper cannot set a scalar input: the shift stays a constant of the model.
    x = np.asarray([0, 3, 13, 4294967295, 4294967296, 18446744073709551615], dtype=np.uint64)
    data = custom("SignalFilterBankSquareRoot", [("x", (6,), "uint64"),
                                                 ("s", np.asarray(2, np.int32).reshape(()), "int32", "const")],
                  [("y", (6,), "uint32")], {})
    want = references.TflmRunner(data).run([x])[0]
    got = fold_with(data, [x])[0]
    assert got.dtype == np.uint32 and got.tolist() == want.tolist()


# ---- the int32 arithmetic around the front end (ADD, SUB, MUL inline C) ------------------------------------


def int32_binary(op, shape_a=(3, 4), shape_b=(4,), out=(3, 4), activation="NONE") -> bytes:
    b = ModelBuilder()
    x, z = b.input("x", shape_a, "int32"), b.input("z", shape_b, "int32")
    y = b.tensor("y", out, "int32")
    b.op(op, [x, z], [y], {"fused_activation_function": activation})
    b.output(y)
    return b.build()


def test_int32_arithmetic_refuses_shapes_that_do_not_broadcast(tmp_path):
    assert "input shapes [3, 4] and [3] do not broadcast" in refusal(int32_binary("ADD", shape_b=(3,)), tmp_path)


# TANH and SIGN_BIT: LiteRT's CalculateActivationRange<int32_t> leaves the whole range, so they clamp nothing.
@pytest.mark.parametrize("op, activation", [("ADD", "NONE"), ("SUB", "RELU"), ("MUL", "NONE"), ("MUL", "RELU6"),
                                            ("ADD", "TANH"), ("SUB", "SIGN_BIT"), ("MUL", "TANH")])
def test_int32_arithmetic_fold_matches_litert(op, activation):
    from tests.modelgen.litert import run_reference
    data = int32_binary(op, activation=activation)
    rng = np.random.default_rng(17)
    a = rng.integers(-2**31, 2**31, size=(3, 4)).astype(np.int32)
    b = rng.integers(-2**31, 2**31, size=(4,)).astype(np.int32)
    a[0, :2], b[:2] = [2**31 - 1, -2**31], [1, -1]  # overflow on both sides
    got = fold_with(data, [a, b])[0]
    want = run_reference(data, [a, b])[0]
    assert got.dtype == np.int32 and got.tolist() == want.tolist()

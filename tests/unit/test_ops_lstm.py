# SPDX-License-Identifier: Apache-2.0
"""UNIDIRECTIONAL_SEQUENCE_LSTM: what the int8 and float32 lowerings emit, and the one-line refusals."""

from __future__ import annotations

import re

import numpy as np
import pytest

import helia_aot
from helia_aot.errors import UnsupportedModelError
from helia_aot.frontend import litert
from tests.modelgen.cases import CASES_DIR, build_case_model, load_case
from tests.skip_policy import models_not_available

INT8_CASE = CASES_DIR / "unidirectional_sequence_lstm_batch_major.yaml"
FLOAT_CASE = CASES_DIR / "unidirectional_sequence_lstm_float32_batch_major.yaml"


def variant_model(tmp_path, base, edit) -> bytes:
    """The case model after `edit` (a function of the case file's text); the file keeps the case's name."""
    text = edit(base.read_text())
    folder = tmp_path / "cases"
    folder.mkdir(exist_ok=True)
    path = folder / base.name
    path.write_text(text)
    return build_case_model(load_case(path))


def refusal(tmp_path, data: bytes) -> str:
    with pytest.raises(UnsupportedModelError) as err:
        helia_aot.convert(data, tmp_path / "out", prefix="m", target="host")
    assert not (tmp_path / "out").exists()
    return str(err.value)


def test_int8_emits_litert_requantization(tmp_path):
    data = build_case_model(load_case(INT8_CASE))
    helia_aot.convert(data, tmp_path / "out", prefix="m", target="host")
    source = (tmp_path / "out" / "src" / "m_model.c").read_text()
    constants = (tmp_path / "out" / "src" / "m_constants.c").read_text()
    assert "arm_lstm_unidirectional_s8(" in source
    # f * c by 2^-15 and i * g by 2^-19 (cell scale 2^-11): multiplier 2^30 with shifts -14 and -18
    for field, value in (("forget_to_cell_multiplier", 2**30), ("forget_to_cell_shift", -14),
                         ("input_to_cell_multiplier", 2**30), ("input_to_cell_shift", -18),
                         ("cell_scale_power", -11), ("cell_clip", 0), ("time_major", 0), ("batch_size", 2),
                         ("time_steps", 4), ("input_size", 6), ("hidden_size", 5)):
        assert f".{field} = {value}," in source, field
    graph = litert.load(data)
    op = graph.operators[0]
    x, w, b, state = (graph.tensors[op.inputs[k]] for k in (0, 2, 13, 18))
    # the forget gate's input bias folds the input zero point in, as LiteRT's Prepare does
    want = b.data.astype(np.int64) - x.quant.zero_point * w.data.astype(np.int64).sum(axis=1)
    body = re.search(r"m_op0_forget_input_bias\[\d+\] = \{(.*?)\};", constants, re.S).group(1)
    assert [int(v) for v in re.findall(r"-?\d+", body)] == want.tolist()
    hidden = re.search(r"m_op0_forget_hidden_bias\[\d+\] = \{(.*?)\};", constants, re.S).group(1)
    r = graph.tensors[op.inputs[6]].data.astype(np.int64)
    assert [int(v) for v in re.findall(r"-?\d+", hidden)] == (-state.quant.zero_point * r.sum(axis=1)).tolist()
    # the output state and the cell state are the kernel's hidden_state and cell_state, in the persistent arena
    assert re.search(r"\.hidden_state = \(int8_t \*\)\(persistent \+ \d+\)", source)
    assert re.search(r"\.cell_state = \(int16_t \*\)\(persistent \+ \d+\)", source)


def test_float32_is_inline_and_stateful(tmp_path):
    helia_aot.convert(build_case_model(load_case(FLOAT_CASE)), tmp_path / "out", prefix="m", target="host")
    source = (tmp_path / "out" / "src" / "m_model.c").read_text()
    assert "arm_lstm_unidirectional_f32" not in source and "tanhf(" in source and "expf(" in source
    assert "#include <math.h>" in source
    assert "m_model_reset" in (tmp_path / "out" / "include" / "m_model.h").read_text()


def test_int8_projection_is_refused(tmp_path):
    data = variant_model(tmp_path, INT8_CASE, lambda t: t.replace(
        "  - {name: projection_weights, kind: omitted}",
        "  - {name: projection_weights, kind: weights, shape: [5, 5]}"))
    message = refusal(tmp_path, data)
    assert "projection_weights" in message and "int8 LSTM with projection" in message and "not supported" in message


def test_int8_cifg_is_refused(tmp_path):
    def cifg(text):
        for name in ("input_to_input_weights", "recurrent_to_input_weights", "input_gate_bias"):
            text = re.sub(rf"  - \{{name: {name}, [^\n]*\}}", f"  - {{name: {name}, kind: omitted}}", text)
        return text
    message = refusal(tmp_path, variant_model(tmp_path, INT8_CASE, cifg))
    assert "int8 CIFG (no input gate) is not supported" in message


def test_int8_needs_tanh(tmp_path):
    data = variant_model(tmp_path, INT8_CASE, lambda t: t.replace("fused_activation_function: TANH",
                                                                  "fused_activation_function: RELU"))
    assert "int8 LSTM needs fused activation TANH" in refusal(tmp_path, data)


def test_int8_cell_scale_must_be_a_power_of_two_in_the_kernel_range(tmp_path):
    # LiteRT runs 0.0005, but not as 2^-11 (91 codes apart, tests/e2e/differential_ops/other.py): the kernel's limit
    data = variant_model(tmp_path, INT8_CASE, lambda t: t.replace("scale: 0.00048828125", "scale: 0.0005"))
    message = refusal(tmp_path, data)
    assert "cell_state scale must be a power of two" in message and "'cell_state'" in message
    assert "(kernel limit: arm_lstm_unidirectional_s8)" in message
    data = variant_model(tmp_path, INT8_CASE, lambda t: t.replace("scale: 0.00048828125", "scale: 0.0001220703125"))
    message = refusal(tmp_path, data)
    assert "cell_state scale must be from 2^-12 to 2^2" in message and "has 2^-13" in message
    assert "'cell_state'" in message and "(arm_nn_activation_s16 of the cell state))" in message


def test_int8_needs_the_hidden_intermediate(tmp_path):
    data = variant_model(tmp_path, INT8_CASE, lambda t: t.split("intermediates:")[0]
                         + "tolerance" + t.split("tolerance", 1)[1] if "intermediates:" in t else t)
    assert "needs the 5 intermediate tensors" in refusal(tmp_path, data)


def test_float32_diagonal_weights_are_refused(tmp_path):
    data = variant_model(tmp_path, FLOAT_CASE, lambda t: t.replace("asymmetric_quantize_inputs: false",
                                                                   "asymmetric_quantize_inputs: false, "
                                                                   "diagonal_recurrent_tensors: true"))
    assert "diagonal_recurrent_tensors" in refusal(tmp_path, data)


def test_catalog_lists_both_variants():
    from helia_aot import ops
    names = {v.name for op, v in ops.catalog() if op == "UNIDIRECTIONAL_SEQUENCE_LSTM"}
    assert names == {"int8", "float32"}
    assert "UNIDIRECTIONAL_SEQUENCE_LSTM" in ops.stateful_operators()


@pytest.mark.parametrize("case", ["batch_major", "time_major_clip", "float32_time_major_peephole_projection",
                                  "float32_cifg_layer_norm"])
def test_lstm_golden_test_over_sequences(tmp_path, case):
    """The generated golden harness on LiteRT's sequences (5 samples of 6 invocations, the module reset
    before each), portable kernels, ASan/UBSan."""
    from tests.unit.test_golden_sequences import _run_harness
    out = tmp_path / "m"
    model = build_case_model(load_case(CASES_DIR / f"unidirectional_sequence_lstm_{case}.yaml"))
    helia_aot.convert(model, out, prefix="m", target="host", kernel_library="portable", with_test_data=True,
                      num_test_samples=5, iterations=6)
    lines = _run_harness(tmp_path, out, kernel_dirs=("lstm", "activation", "elementwise", "support")).splitlines()
    assert "sequences: 5 samples of 6 invocations each" in lines
    assert "reset: the first invocation repeats exactly" in lines
    assert lines[-1].startswith("PASS: 5 samples")


def test_micro_speech_lstm_golden_test_over_a_sequence(tmp_path):
    """TFLM's micro_speech_lstm through the generated golden harness: 2 samples of 10 invocations."""
    from tests.e2e.test_recurrent_models import MICRO_SPEECH_LSTM, tflm_models_dir
    from tests.unit.test_golden_sequences import _run_harness
    path = tflm_models_dir() / f"{MICRO_SPEECH_LSTM}.tflite"
    if not path.is_file():
        pytest.skip(models_not_available(f"TFLM model {path}", "HELIA_TFLM_MODELS_DIR"))
    out = tmp_path / "m"
    helia_aot.convert(path.read_bytes(), out, prefix="m", target="host", kernel_library="portable",
                      with_test_data=True, num_test_samples=2, iterations=10, config={"test": {"tolerance": 2}})
    lines = _run_harness(tmp_path, out, kernel_dirs=("lstm", "activation", "elementwise", "support",
                                                     "fully_connected", "softmax", "reshape")).splitlines()
    assert "sequences: 2 samples of 10 invocations each" in lines
    assert "reset: the first invocation repeats exactly" in lines
    assert lines[-1].startswith("PASS: 2 samples")


@pytest.mark.parametrize("state, says", [("output_state", "batch x outputs = 10 values, has 8"),
                                         ("cell_state", "batch x cells = 10 values, has 8")])
def test_a_state_of_the_wrong_size_says_which_size(tmp_path, state, says):
    data = variant_model(tmp_path, FLOAT_CASE, lambda t: t.replace(
        f"  - {{name: {state}, kind: variable, dtype: float32, shape: [2, 5]}}",
        f"  - {{name: {state}, kind: variable, dtype: float32, shape: [2, 4]}}"))
    message = refusal(tmp_path, data)
    assert f"tensor '{state}'" in message and says in message, message


def test_float32_macs_count_every_gate_of_every_step(tmp_path):
    result = helia_aot.convert(build_case_model(load_case(FLOAT_CASE)), tmp_path / "out", prefix="m", target="host")
    # batch 2 x steps 4 x 4 gates x 5 cells x (6 inputs + 5 recurrent outputs)
    assert result.report["operators"][0]["macs"] == 2 * 4 * 4 * 5 * (6 + 5)

# SPDX-License-Identifier: Apache-2.0
"""Recurrent models over sequences: TensorFlow Lite Micro's micro_speech_lstm (int8
UNIDIRECTIONAL_SEQUENCE_LSTM -> RESHAPE -> FULLY_CONNECTED -> SOFTMAX) run for 20 invocations in
one context, against LiteRT's reference kernels run for the same 20 in one interpreter (both carry
the LSTM's output and cell state from one invocation to the next); then `_model_reset` and the first
input again, which must give the first output exactly (the harness checks it for stateful modules). Host gcc with ASan/UBSan, portable kernels
and ns-cmsis-nn (when HELIA_NS_CMSIS_NN_DIR is set)."""

from __future__ import annotations

import os
import pathlib

import numpy as np
import pytest

from tests.e2e import harness
from tests.modelgen.litert import make_interpreter
from tests.skip_policy import models_not_available

# TensorFlow Lite Micro's example models, beside the MLPerf Tiny folder (../shared/models/tflm).
TFLM_MODELS_ENV = "HELIA_TFLM_MODELS_DIR"
MICRO_SPEECH_LSTM = "micro_speech_lstm"
# Every output within this many codes of LiteRT (the bound): the LSTM can differ by one code
# (ns-cmsis-nn's table sigmoid / tanh and doubly rounded f * c against LiteRT's gemmlowp functions
# and single shift), and a code can move through the FULLY_CONNECTED and SOFTMAX after it.
TOLERANCE = 2
SEED = 1101


def tflm_models_dir() -> pathlib.Path:
    return pathlib.Path(os.environ.get(TFLM_MODELS_ENV, harness.models_dir().parent / "tflm"))


# Input regimes: the whole int8 range (the classifier saturates: [127, -128, -128]) and codes near the
# zero point, where the probabilities move with the carried state (all zeros: [49, -128, -49], then
# [63, -128, -63], ...).
INPUT_RANGES = {"full_range": None, "near_zero": (-16, 16)}


def micro_speech_model(e2e, regime: str, exposed: bool) -> harness.ModelUnderTest:
    """The model on 20 seeded inputs of one regime; `exposed`: every operator's output made a model
    output (the LSTM's 1 x 49 x 80 sequence, the reshape, the logits, the probabilities)."""
    path = tflm_models_dir() / f"{MICRO_SPEECH_LSTM}.tflite"
    if not path.is_file():
        pytest.skip(models_not_available(f"TFLM model {path}", f"{TFLM_MODELS_ENV} to the folder holding TFLM's "
                                         "example models"))
    data = path.read_bytes()
    if exposed:
        data, _ = harness.expose_operator_outputs(data)
    name = f"{MICRO_SPEECH_LSTM}_{regime}" + ("_layers" if exposed else "")
    ranges = {} if INPUT_RANGES[regime] is None else {"serving_default_x:0": INPUT_RANGES[regime]}
    return e2e._once(("recurrent", name), lambda: harness.ModelUnderTest(
        name=name, kind="recurrent", model_bytes=data, seed=SEED, tolerance=TOLERANCE, classifier=True,
        integer_ranges=ranges))


@pytest.fixture(scope="module", params=sorted(INPUT_RANGES))
def micro_speech(e2e, request) -> harness.ModelUnderTest:
    return micro_speech_model(e2e, request.param, exposed=False)


def check_sequence(e2e, model, sequence, library_name: str) -> None:
    """The harness ran the 20 inputs in one context, then _model_reset and the first input again, and
    checked that the first outputs repeat exactly (harness.check_reset_repeats)."""
    reference = model.reference
    assert len(reference) == len(sequence) == harness.NUM_SAMPLES == 20
    per_output, differing = diff_figures(sequence, reference)
    argmax_differs = harness.argmax_agreement(sequence, reference)
    print(f"\n{model.name} ({library_name}): max |diff| {per_output}, differing elements {differing}, arg-max "
          f"differs at {argmax_differs}; outputs {[g[0][0].tolist() for g in sequence[:5]]}...")
    e2e.record("recurrent vs LiteRT", f"{model.name} {library_name}", max_abs_diff=per_output,
               differing_elements=differing, invocations=len(sequence))
    assert max(per_output) <= TOLERANCE, per_output
    assert not argmax_differs, f"arg-max differs at invocations {argmax_differs}"


def diff_figures(got, want) -> tuple[list[float], list[int]]:
    """Per output: max |diff| and the number of differing elements over the sequence."""
    per_output = harness.per_output_max_diff(got, want)
    differing = [sum(int(np.count_nonzero(g[o].astype(int) != w[o].astype(int))) for g, w in zip(got, want))
                 for o in range(len(want[0]))]
    return per_output, differing


def test_litert_reference_carries_state(micro_speech):
    """The golden data is a sequence: LiteRT's interpreter keeps the LSTM's output state from one
    invocation to the next (it starts at the zero point and changes with every invocation), so the
    comparison checks the module's carried state too."""
    from helia_aot.frontend import litert
    graph = litert.load(micro_speech.model_bytes)
    lstm = next(op for op in graph.operators if op.op_type == "UNIDIRECTIONAL_SEQUENCE_LSTM")
    state = graph.tensors[lstm.inputs[18]]
    interp = make_interpreter(micro_speech.model_bytes)
    detail = interp.get_input_details()[0]
    states = [interp.get_tensor(state.index).copy()]
    for _ in range(2):
        interp.set_tensor(detail["index"], micro_speech.samples[0][0])
        interp.invoke()
        states.append(interp.get_tensor(state.index).copy())
    assert (states[0] == state.quant.zero_point).all()
    assert (states[1] != states[0]).any() and (states[2] != states[1]).any()


def test_micro_speech_lstm_sequence_portable(e2e, micro_speech):
    outputs = e2e.host_outputs(micro_speech, e2e.portable_host_library())
    check_sequence(e2e, micro_speech, outputs, "portable")


def test_micro_speech_lstm_sequence_ns_cmsis_nn(e2e, micro_speech, ns_cmsis_nn_root):
    outputs = e2e.host_outputs(micro_speech, e2e.ns_cmsis_nn_host_library(ns_cmsis_nn_root))
    check_sequence(e2e, micro_speech, outputs, "ns-cmsis-nn")


@pytest.mark.parametrize("regime", sorted(INPUT_RANGES))
def test_micro_speech_lstm_layers(e2e, regime):
    """Every layer's output over the sequence (portable kernels): the logits and probabilities within
    the bound; the LSTM's own output sequence is measured and recorded, not bounded here: over 20
    invocations of 49 steps its one-code differences from LiteRT (table sigmoid / tanh against
    gemmlowp's) feed back through the recurrence and reach several codes, which the FULLY_CONNECTED
    over all 3920 values averages out."""
    model = micro_speech_model(e2e, regime, exposed=True)
    outputs = e2e.host_outputs(model, e2e.portable_host_library())
    per_output, differing = diff_figures(outputs, model.reference)
    print(f"\n{model.name}: max |diff| per layer (LSTM, reshape, logits, probabilities) {per_output}, "
          f"differing elements {differing} of {[int(w.size) * len(outputs) for w in model.reference[0]]}")
    e2e.record("recurrent layers vs LiteRT", model.name, max_abs_diff=per_output, differing_elements=differing)
    assert len(per_output) == 4
    assert per_output[0] == per_output[1]  # the reshape is the LSTM's bytes
    assert max(per_output[2:]) <= TOLERANCE


def test_micro_speech_lstm_plan_keeps_the_state(e2e, micro_speech):
    """The LSTM's output state (1 x 80 int8) and cell state (1 x 80 int16) live in the persistent arena."""
    import json
    module = e2e.module_dir(micro_speech, "host")
    plan = json.loads((module / f"{harness.PREFIX}_plan.json").read_text())
    memory = plan["memory"]
    assert memory["persistent_bytes"] >= 80 + 160
    assert sorted(b["bytes"] for b in memory["persistent_buffers"]) == [80, 160]


def test_micro_speech_lstm_sequence_qemu_portable(e2e, arm_tools, micro_speech):
    """The same sequence on the Cortex-M55 (QEMU mps3-an547), module converted for corstone300, portable
    kernels: within the bound of LiteRT with the same arg-max, and the reset check of the harness."""
    cc, ar, qemu = arm_tools
    run = e2e.qemu_run(micro_speech, e2e.portable_arm_library(cc, ar), cc, qemu)
    check_sequence(e2e, micro_speech, run.outputs, "corstone300 QEMU portable")


def test_micro_speech_lstm_sequence_qemu_ns_cmsis_nn_mve(e2e, arm_tools, ns_cmsis_nn_root, micro_speech):
    cc, ar, qemu = arm_tools
    run = e2e.qemu_run(micro_speech, e2e.ns_cmsis_nn_arm_library(ns_cmsis_nn_root, cc, ar), cc, qemu)
    check_sequence(e2e, micro_speech, run.outputs, "corstone300 QEMU ns-cmsis-nn MVE")

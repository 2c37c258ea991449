# SPDX-License-Identifier: Apache-2.0
"""Models keeping state across invocations (resource variables; tests/modelgen/stateful.py): the
samples run as one sequence, in one LiteRT interpreter and in one module context, and every
invocation's outputs are compared; the harness then checks that after e2e_model_reset the first
output repeats exactly. Host (portable kernels, ASan/UBSan), QEMU corstone300, ns-cmsis-nn."""

from __future__ import annotations

import numpy as np
import pytest

from tests.e2e import harness
from tests.modelgen import stateful

NAMES = list(stateful.NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_state_carries_across_invocations_in_litert(e2e, name):
    """The reference itself is a sequence: the same input twice gives two different outputs."""
    model = e2e.stateful(name)
    from tests.modelgen.litert import make_interpreter
    interp = make_interpreter(model.model_bytes)
    detail = interp.get_input_details()[0]
    first = []
    for _ in range(2):
        interp.set_tensor(detail["index"], model.samples[0][0])
        interp.invoke()
        first.append(interp.get_tensor(interp.get_output_details()[0]["index"]).copy())
    assert not np.array_equal(first[0], first[1])


@pytest.mark.parametrize("name", NAMES)
def test_stateful_model_matches_litert_over_a_sequence(e2e, name, record_property):
    model = e2e.stateful(name)
    outputs = e2e.host_outputs(model, e2e.portable_host_library())
    diffs = harness.per_output_max_diff(outputs, model.reference)
    bounds = model.bounds()
    print(f"\n{model.name}: max |diff| per output vs LiteRT over a sequence of {len(model.samples)} "
          f"invocations: {diffs} (bounds {bounds}); reset repeats the first output")
    record_property("max_abs_diff", diffs)
    e2e.record("stateful models vs LiteRT", model.name, max_abs_diff=diffs, samples=len(model.samples))
    assert all(d <= b for d, b in zip(diffs, bounds)), f"{model.name}: {diffs} exceeds {bounds}"


@pytest.mark.parametrize("name", NAMES)
def test_stateful_model_on_corstone300_matches_host(e2e, arm_tools, name):
    cc, ar, qemu = arm_tools
    model = e2e.stateful(name)
    host = e2e.host_outputs(model, e2e.portable_host_library())
    run = e2e.qemu_run(model, e2e.portable_arm_library(cc, ar), cc, qemu)
    differences = harness.bit_differences(run.outputs, host)
    assert not differences, f"{model.name}: Cortex-M55 outputs differ from the host run: {differences}"


@pytest.mark.parametrize("name", NAMES)
def test_stateful_model_portable_matches_ns_cmsis_nn(e2e, ns_cmsis_nn_root, name):
    model = e2e.stateful(name)
    portable = e2e.host_outputs(model, e2e.portable_host_library())
    reference = e2e.host_outputs(model, e2e.ns_cmsis_nn_host_library(ns_cmsis_nn_root))
    differences = harness.bit_differences(portable, reference)
    assert not differences, f"{model.name}: portable kernels and ns-cmsis-nn differ: {differences}"


# TFLM's int8 SVDF keyword models carry an int8 state whose zero point is not 0; 0 is arm_svdf_s8's form,
# the others run as inline C. 60 pushes projections past 127 so the clamp after the zero point matters.
SVDF8_STATE_ZERO_POINTS = (0, -7, 60)


@pytest.mark.parametrize("state_zero_point", SVDF8_STATE_ZERO_POINTS)
def test_svdf_int8_state_matches_its_reference_over_a_sequence(e2e, record_property, state_zero_point):
    """SVDF with an int8 state: LiteRT reads the state as int16 and cannot run it, so the references are
    TFLM and a Python model of TFLM's EvalIntegerSvdfReference; exact against both over 20 invocations,
    and the portable build bit-identical to ns-cmsis-nn when configured."""
    name = "svdf_int8_state" + (f"_zero_point_{state_zero_point}" if state_zero_point else "")
    model = harness.ModelUnderTest(name=name, kind="stateful",
                                   model_bytes=stateful.svdf_int8_state(state_zero_point),
                                   seed=stateful.SEED, tolerance=0)
    model.reference = stateful.svdf_int8_state_reference(model.model_bytes, model.samples, state_zero_point)
    outputs = e2e.host_outputs(model, e2e.portable_host_library())
    diffs = harness.per_output_max_diff(outputs, model.reference)
    against_tflm = harness.per_output_max_diff(outputs, model.tflm_reference)
    record_property("max_abs_diff", diffs)
    e2e.record("stateful models vs LiteRT", model.name, max_abs_diff=diffs, max_abs_diff_tflm=against_tflm,
               samples=len(model.samples))
    assert len({o[0].tobytes() for o in model.reference}) > 10  # the sequence moves the outputs
    assert diffs == [0.0], f"{model.name}: {diffs}"
    assert against_tflm == [0.0], f"{model.name} against TFLM: {against_tflm}"
    root = harness.ns_cmsis_nn_dir()
    if root is not None:
        reference = e2e.host_outputs(model, e2e.ns_cmsis_nn_host_library(root))
        assert not harness.bit_differences(outputs, reference)

# SPDX-License-Identifier: Apache-2.0
"""Golden data (helia_aot/golden/references.py, test_data.py): cases mutation sampling showed untested
(tests/MUTATION.md): `outputs` runs the reference asked for, a refusal while running names TFLM and
its reason, and that reason keeps TFLM's first two printed lines without their source paths; random
inputs cover the range each type documents."""

from __future__ import annotations

import numpy as np
import pytest

from helia_aot.golden import references
from helia_aot.golden.references import ReferenceRefused, TflmRunner

from .test_golden_reference import _case, _litert, _tflm


def test_outputs_runs_the_reference_asked_for():
    model = _case("fully_connected_per_tensor")
    rng = np.random.default_rng(7)
    inputs = [rng.integers(-128, 128, size=(1, 32), dtype=np.int8) for _ in range(8)]
    litert = [references.outputs("litert", model, [x])[0] for x in inputs]
    tflm = [references.outputs("tflm", model, [x])[0] for x in inputs]
    assert all(np.array_equal(got, _litert(model, x)) for got, x in zip(litert, inputs))
    assert all(np.array_equal(got, _tflm(model, x)) for got, x in zip(tflm, inputs))


def test_tflm_reason_keeps_its_first_two_lines_without_source_paths():
    printed = ["tensorflow/lite/micro/kernels/svdf.cc:120 bias missing", "micro_graph.h failed", "third"]
    assert references._tflm_reason(RuntimeError("Invoke failed"), printed) == \
        "bias missing failed (Invoke failed)"
    assert references._tflm_reason(RuntimeError("Invoke failed"), []) == "Invoke failed"


class _FailingInterpreter:
    """Stands in for a TFLM interpreter whose kernel fails at run time (no model at hand does that)."""

    def get_input_details(self, index):
        return {"shape": np.array([1, 2]), "dtype": np.int8}

    def set_input(self, value, index):
        pass

    def invoke(self):
        raise RuntimeError("Invoke failed")


def test_a_run_that_tflm_refuses_names_tflm_and_its_reason():
    runner = TflmRunner.__new__(TflmRunner)
    runner.interp, runner.num_inputs, runner.num_outputs = _FailingInterpreter(), 1, 1
    with pytest.raises(ReferenceRefused) as refused:
        runner.run([np.zeros((1, 2), np.int8)])
    assert str(refused.value) == "TensorFlow Lite Micro cannot run the model: Invoke failed"


@pytest.mark.parametrize("dtype, low, high", [
    ("int8", -128, 127), ("uint8", 0, 255), ("int32", -1000, 999), ("uint32", 0, 1999),
    ("bool", False, True), ("float32", -1.0, 1.0)])
def test_random_inputs_cover_their_documented_range(dtype, low, high):
    """Golden inputs: 8-bit integers over their whole range, wider ones in a small window, both
    truth values (a mutant drew only False), floats in [-1, 1)."""
    from helia_aot.golden.test_data import random_input

    values = random_input(np.random.default_rng(3), (20000,), dtype)
    assert values.dtype == np.dtype(dtype)
    if dtype == "float32":
        assert low <= values.min() < -0.99 and 0.99 < values.max() < high
    else:
        assert (values.min(), values.max()) == (low, high)

# SPDX-License-Identifier: Apache-2.0
"""Golden data from either reference: test.reference litert (the default, falling back to TensorFlow
Lite Micro with a report warning when LiteRT cannot load the model) or tflm. Expected outputs are
computed here straight from each interpreter's own Python API, not through helia_aot."""

from __future__ import annotations

import numpy as np
import pytest
from ai_edge_litert.interpreter import Interpreter, OpResolverType
from tflite_micro.python.tflite_micro import runtime

import helia_aot
from helia_aot.config import file as config
from helia_aot.errors import InvalidConfigError, UnsupportedModelError
from tests.modelgen.cases import all_case_paths, build_case_model, load_case

from .test_errors import relu_model
from .test_verifier import _depthwise


def _case(name: str) -> bytes:
    return build_case_model(load_case(next(p for p in all_case_paths() if p.stem == name)))


def _golden(out) -> dict[str, np.ndarray]:
    with np.load(out / "test" / "golden.npz") as data:
        return {k: data[k] for k in data.files}


def _litert(model: bytes, x: np.ndarray) -> np.ndarray:
    interp = Interpreter(model_content=model, experimental_op_resolver_type=OpResolverType.BUILTIN_REF)
    interp.allocate_tensors()
    interp.set_tensor(interp.get_input_details()[0]["index"], x)
    interp.invoke()
    return interp.get_tensor(interp.get_output_details()[0]["index"]).copy()


def _tflm(model: bytes, x: np.ndarray) -> np.ndarray:
    interp = runtime.Interpreter.from_bytes(model, arena_size=1 << 20)
    interp.set_input(x, 0)
    interp.invoke()
    return np.array(interp.get_output(0))


def _per_sample(fn, model: bytes, golden: dict) -> np.ndarray:
    return np.stack([fn(model, x) for x in golden["input_0"]])


@pytest.mark.parametrize("value,fragment", [
    ("tfml", "test.reference is 'tfml', allowed values are ['litert', 'tflm']. Did you mean tflm?"),
    ("LiteRT", "test.reference is 'LiteRT', allowed values are ['litert', 'tflm']"),
    (1, "test.reference must be one of ['litert', 'tflm'], got int 1. Set test.reference to one of litert, tflm"),
])
def test_config_key_is_validated_and_named(value, fragment):
    with pytest.raises(InvalidConfigError) as error:
        config.from_mapping({"test": {"reference": value}})
    assert fragment in str(error.value)


def test_override_is_validated_like_the_key(tmp_path):
    with pytest.raises(InvalidConfigError, match="override: test.reference is 'micro'"):
        helia_aot.convert(relu_model(), tmp_path / "out", with_test_data=True, reference="micro")
    assert not (tmp_path / "out").exists()


def test_default_is_litert_and_tflm_is_taken_when_asked(tmp_path):
    """A per-tensor int8 FULLY_CONNECTED: LiteRT's reference rounds once, TFLM twice, so the two golden
    sets differ, and each equals its own interpreter's outputs."""
    model = _case("fully_connected_per_tensor")
    by_default = helia_aot.convert(model, tmp_path / "default", with_test_data=True, num_test_samples=20)
    from_config = helia_aot.convert(model, tmp_path / "tflm", with_test_data=True, num_test_samples=20,
                                    config={"test": {"reference": "tflm"}})
    litert_golden, tflm_golden = _golden(tmp_path / "default"), _golden(tmp_path / "tflm")
    assert np.array_equal(litert_golden["input_0"], tflm_golden["input_0"])
    assert np.array_equal(litert_golden["output_0"], _per_sample(_litert, model, litert_golden))
    assert np.array_equal(tflm_golden["output_0"], _per_sample(_tflm, model, tflm_golden))
    assert not np.array_equal(litert_golden["output_0"], tflm_golden["output_0"])
    assert by_default.report["warnings"] == from_config.report["warnings"] == []
    assert "(LiteRT)" in (tmp_path / "default" / "test" / "model_test_main.c").read_text()
    assert "(TensorFlow Lite Micro)" in (tmp_path / "tflm" / "test" / "model_test_main.c").read_text()
    # The argument wins over the configuration.
    helia_aot.convert(model, tmp_path / "back", with_test_data=True, num_test_samples=20,
                      config={"test": {"reference": "tflm"}}, reference="litert")
    assert np.array_equal(_golden(tmp_path / "back")["output_0"], litert_golden["output_0"])


def test_litert_falls_back_to_tflm_on_a_model_it_cannot_load(tmp_path):
    """Rank-1 biases with their filter's quantized_dimension (TFLM's person_detect): LiteRT refuses the
    model, the verifier repairs it, and the golden data comes from TFLM with a warning saying so."""
    model = _depthwise(3)
    with pytest.raises(ValueError, match="quantized_dimension"):
        Interpreter(model_content=model, experimental_op_resolver_type=OpResolverType.BUILTIN_REF)
    result = helia_aot.convert(model, tmp_path / "out", with_test_data=True, num_test_samples=4)
    golden = _golden(tmp_path / "out")
    assert np.array_equal(golden["output_0"], _per_sample(_tflm, model, golden))
    warnings = result.report["warnings"]
    assert len(warnings) == 2 and "quantized_dimension 3" in warnings[0]
    assert warnings[1].startswith("golden data from TensorFlow Lite Micro (test.reference tflm) instead of "
                                  "LiteRT: LiteRT cannot load the model: quantized_dimension must be in range")
    assert warnings[1].endswith("; set test.reference tflm (or --reference tflm) to ask for it and drop this warning")
    assert "\n" not in warnings[1]
    # Without golden data nothing falls back, and nothing is reported.
    assert helia_aot.convert(model, tmp_path / "plain").report["warnings"] == warnings[:1]


def test_a_reference_that_cannot_run_the_model_is_a_typed_error(tmp_path):
    """TFLM has no hybrid kernels: asked for, it refuses in one line naming itself; LiteRT runs the model."""
    model = _case("fully_connected_hybrid_per_tensor")
    with pytest.raises(UnsupportedModelError) as error:
        helia_aot.convert(model, tmp_path / "out", with_test_data=True, reference="tflm")
    assert str(error.value).startswith("golden data: TensorFlow Lite Micro cannot load the model: Input type: "
                                       "FLOAT32 with filter type: INT8 not supported.")
    assert "Choose the other test.reference" in str(error.value)
    assert not (tmp_path / "out").exists()
    helia_aot.convert(model, tmp_path / "ok", with_test_data=True)


def test_cli_flag(tmp_path):
    import subprocess
    import sys
    model = tmp_path / "m.tflite"
    model.write_bytes(_case("fully_connected_per_tensor"))
    run = lambda *args: subprocess.run([sys.executable, "-m", "helia_aot", "convert", str(model), *args],
                                       capture_output=True, text=True)
    proc = run("-o", str(tmp_path / "out"), "--test", "--reference", "tflm")
    assert proc.returncode == 0, proc.stderr
    assert "(TensorFlow Lite Micro)" in (tmp_path / "out" / "test" / "model_test_main.c").read_text()
    proc = run("-o", str(tmp_path / "bad"), "--test", "--reference", "tfl")
    assert proc.returncode == 2 and "--reference" in proc.stderr and "Traceback" not in proc.stderr


def test_bazel_action_passes_the_reference(tmp_path):
    from .test_input_errors import action
    model = tmp_path / "m.tflite"
    model.write_bytes(_case("fully_connected_per_tensor"))
    common = ["golden", "--model", str(model), "--prefix", "m", "--target", "host", "--kernel-library", "portable",
              "--num-samples", "2", "--seed", "0", "--tolerance", "0", "--test-data", str(tmp_path / "d.c"),
              "--test-main", str(tmp_path / "m.c")]
    proc = action(*common, "--reference", "tflm")
    assert proc.returncode == 0, proc.stderr
    assert "(TensorFlow Lite Micro)" in (tmp_path / "m.c").read_text()
    proc = action(*common)
    assert proc.returncode == 0, proc.stderr
    assert "(LiteRT)" in (tmp_path / "m.c").read_text()
    proc = action(*common, "--reference", "micro")
    assert proc.returncode == 2 and "argument --reference: invalid choice: 'micro'" in proc.stderr

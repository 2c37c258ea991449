# SPDX-License-Identifier: Apache-2.0
"""TensorFlow Lite Micro as the e2e suite's second reference: its outputs for a model's samples, the
TFLM example models (../shared/models/tflm) as models under test, and per-operator divergence
against TFLM. TFLM runs in process (PyPI `tflite-micro`, reference kernels on x86)."""

from __future__ import annotations

import functools
import os
import pathlib

import numpy as np
import pytest

from helia_aot.golden import references
from tests.e2e import conftest, harness
from tests.modelgen import quant
from tests.skip_policy import models_not_available

# TFLM's example models under ../shared/models/tflm that helia_aot compiles: name -> classifier?
# person_detect: LiteRT refuses it (rank-1 biases with quantized_dimension 3), so its LiteRT
# reference falls back to TFLM, as helia_aot's golden data does.
TFLM_MODELS = {
    "person_detect": True,
    "micro_speech_quantized": True,
}
TFLM_MODELS_ENV = "HELIA_TFLM_MODELS_DIR"
# Models the bar applies to: int8 networks whose every operator TFLM's reference kernels compute with
# ns-cmsis-nn's arithmetic. Measured max |diff| 0 on every output.
BIT_IDENTICAL_MODELS = ("kws_ref_model", "vww_96_int8", "pretrainedResnet_quant", "ad01_int8",
                        "person_detect", "micro_speech_quantized")
# Fixed so every run draws the same inputs (as harness.MLPERF_SEED).
TFLM_MODELS_SEED = 20241


def models_dir() -> pathlib.Path:
    return pathlib.Path(os.environ.get(TFLM_MODELS_ENV, harness.REPO_ROOT.parent / "shared" / "models" / "tflm"))


def outputs(model_bytes: bytes, samples: list[list[np.ndarray]]) -> list[list[np.ndarray]]:
    """TFLM's outputs for every sample, one interpreter reused (variable tensors persist from sample to
    sample, as in harness.ModelUnderTest.reference and in the module's harness). Raises
    references.ReferenceRefused when TFLM cannot load or run the model."""
    runner = references.TflmRunner(model_bytes)
    return [runner.run(sample) for sample in samples]


def _infos(details: list[dict]) -> list[harness.TensorInfo]:
    return [harness.TensorInfo(f"{i}", tuple(int(x) for x in d["shape"]), np.dtype(d["dtype"]))
            for i, d in enumerate(details)]


class TflmModel(harness.ModelUnderTest):
    """A model whose tensors, inputs and (where LiteRT cannot load it) reference come from TFLM.
    `reference` is LiteRT's outputs when LiteRT loads the model, else TFLM's (the golden fallback);
    `litert_refusal` says which."""

    @functools.cached_property
    def _runner(self) -> references.TflmRunner:
        return references.TflmRunner(self.model_bytes)

    @functools.cached_property
    def input_infos(self) -> list[harness.TensorInfo]:
        return _infos(self._runner.input_details())

    @functools.cached_property
    def output_infos(self) -> list[harness.TensorInfo]:
        return _infos(self._runner.output_details())

    @functools.cached_property
    def samples(self) -> list[list[np.ndarray]]:
        """NUM_SAMPLES seeded inputs: integers over their whole range, floats in [-1, 1) (as
        tests/modelgen/litert.random_inputs draws them from LiteRT's input details)."""
        generator = quant.rng(self.seed)
        result = []
        for _ in range(harness.NUM_SAMPLES):
            row = []
            for info in self.input_infos:
                if info.dtype.kind in "iu":
                    limits = np.iinfo(info.dtype)
                    row.append(generator.integers(limits.min, limits.max, size=info.shape,
                                                  endpoint=True).astype(info.dtype))
                else:
                    row.append(generator.uniform(-1.0, 1.0, size=info.shape).astype(info.dtype))
            result.append(row)
        return result

    @functools.cached_property
    def litert_refusal(self) -> str | None:
        try:
            references.litert_interpreter(self.model_bytes)
        except references.ReferenceRefused as refusal:
            return str(refusal)
        return None

    @functools.cached_property
    def reference(self) -> list[list[np.ndarray]]:
        if self.litert_refusal is not None:
            return self.tflm_reference
        return super().reference


def tflm_model(name: str) -> TflmModel:
    path = models_dir() / f"{name}.tflite"
    return TflmModel(name=name, kind="tflm", model_bytes=path.read_bytes(), seed=TFLM_MODELS_SEED,
                     tolerance=0, classifier=TFLM_MODELS[name])


def shared_model_or_skip(e2e: harness.E2ESession, name: str) -> harness.ModelUnderTest:
    """An MLPerf Tiny model (harness.MLPERF_MODELS) or a TFLM example model (TFLM_MODELS); skipped
    when its file is not there, as conftest.mlperf_model_or_skip does."""
    if name not in TFLM_MODELS:
        return conftest.mlperf_model_or_skip(e2e, name)
    path = models_dir() / f"{name}.tflite"
    if not path.is_file():
        pytest.skip(models_not_available(f"TFLM model {path}", f"{TFLM_MODELS_ENV} to the folder holding TFLM's "
                                         "example models"))
    return e2e.tflm_model(name)


def operator_diffs(session: harness.E2ESession, model: harness.ModelUnderTest,
                   library: harness.KernelLibrary) -> list[harness.OperatorDiff]:
    """Every operator's max |diff| against TFLM on the model's samples (harness.operator_diffs with
    TFLM in LiteRT's place), to name the operator where a model first departs from TFLM."""
    exposed_bytes, infos = harness.expose_operator_outputs(model.model_bytes)
    exposed = TflmModel(name=f"{model.name}__all_operator_outputs", kind=model.kind,
                        model_bytes=exposed_bytes, seed=model.seed, tolerance=model.tolerance)
    exposed.__dict__["samples"] = model.samples   # the very same inputs
    diffs = harness.per_output_max_diff(session.host_outputs(exposed, library), exposed.tflm_reference)
    return [harness.OperatorDiff(index, op_type, tensor, diff)
            for (index, op_type, tensor), diff in zip(infos, diffs)]

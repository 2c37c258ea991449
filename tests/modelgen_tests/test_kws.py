# SPDX-License-Identifier: Apache-2.0
"""The generated KWS model: byte-for-byte reproducible, checked in unchanged, and
structurally the MLPerf Tiny KWS reference (ops, shapes, paddings, quant layout)."""

import hashlib
import os
import pathlib
import re

import numpy as np
import pytest
from ai_edge_litert import schema_py_generated as schema

from tests.modelgen import kws, quant
from tests.modelgen.litert import run_reference
from tests.skip_policy import models_not_available

REPO_ROOT = pathlib.Path(__file__).resolve().parents[2]
CHECKED_IN = REPO_ROOT / "models" / "kws.tflite"
MODELS_DIR = pathlib.Path(os.environ.get(
    "HELIA_MODELS_DIR", REPO_ROOT.parent / "shared" / "models" / "mlperf-tiny"))
REFERENCE = MODELS_DIR / "kws_ref_model.tflite"
OP_NAMES = {v: k for k, v in vars(schema.BuiltinOperator).items() if not k.startswith("_")}
OPTION_FIELDS = ("padding", "strideW", "strideH", "depthMultiplier", "filterWidth",
                 "filterHeight", "fusedActivationFunction", "dilationWFactor",
                 "dilationHFactor")


@pytest.fixture(scope="module")
def built() -> bytes:
    return kws.build_kws_model()


def test_build_is_deterministic(built):
    assert kws.build_kws_model() == built


def test_checked_in_model_matches_a_fresh_build(built):
    assert CHECKED_IN.read_bytes() == built, (
        "models/kws.tflite is stale: run `python -m tests.modelgen.kws --out "
        "models/kws.tflite` and update the sha256 in models/README.md")


def test_cli_writes_the_same_bytes(tmp_path, built, capsys):
    out = tmp_path / "kws.tflite"
    assert kws.main(["--out", str(out)]) == 0
    assert out.read_bytes() == built
    assert hashlib.sha256(built).hexdigest() in capsys.readouterr().out


def test_readme_names_the_checked_in_sha256():
    readme = (REPO_ROOT / "models" / "README.md").read_text()
    digest = hashlib.sha256(CHECKED_IN.read_bytes()).hexdigest()
    assert re.search(r"sha256: `([0-9a-f]{64})`", readme).group(1) == digest


def _describe(data: bytes) -> list[dict]:
    """Per operator: name, input/output shapes and dtypes, quantization layout of
    constant inputs, and the layout-relevant options."""
    model = schema.ModelT.InitFromPackedBuf(data, 0)
    graph = model.subgraphs[0]
    ops = []
    for op in graph.operators:
        code = model.operatorCodes[op.opcodeIndex]
        entry = {"op": OP_NAMES[max(code.builtinCode, code.deprecatedBuiltinCode)],
                 "inputs": [], "outputs": [], "options": {}}
        for key, indices in (("inputs", op.inputs), ("outputs", op.outputs)):
            for i in indices:
                t = graph.tensors[i]
                q = t.quantization
                n_scales = 0 if q is None or q.scale is None else len(q.scale)
                const = model.buffers[t.buffer].data is not None
                entry[key].append((tuple(int(d) for d in t.shape), int(t.type), const,
                                   n_scales, int(q.quantizedDimension) if n_scales > 1 else 0))
        if op.builtinOptions is not None:
            entry["options"] = {f: getattr(op.builtinOptions, f) for f in OPTION_FIELDS
                                if hasattr(op.builtinOptions, f)}
        ops.append(entry)
    return ops


@pytest.mark.skipif(not REFERENCE.exists(),
                    reason=models_not_available(f"MLPerf Tiny model {REFERENCE}", "HELIA_MODELS_DIR"))
def test_structure_matches_the_mlperf_tiny_reference(built):
    ours, ref = _describe(built), _describe(REFERENCE.read_bytes())
    assert [o["op"] for o in ours] == [o["op"] for o in ref]
    for index, (a, b) in enumerate(zip(ours, ref)):
        assert a["inputs"] == b["inputs"], f"operator {index} ({a['op']}) inputs"
        assert a["outputs"] == b["outputs"], f"operator {index} ({a['op']}) outputs"
        assert a["options"] == b["options"], \
            f"operator {index} ({a['op']}) options"


def test_bias_scale_is_input_scale_times_weight_scale(built):
    model = schema.ModelT.InitFromPackedBuf(built, 0)
    graph = model.subgraphs[0]
    checked = 0
    for op in graph.operators:
        if len(op.inputs) != 3:
            continue
        x, w, bias = (graph.tensors[i] for i in op.inputs)
        assert bias.type == schema.TensorType.INT32
        expected = np.float64(x.quantization.scale[0]) * w.quantization.scale.astype(np.float64)
        np.testing.assert_allclose(bias.quantization.scale, expected, rtol=1e-6)
        assert not np.any(bias.quantization.zeroPoint) and not np.any(w.quantization.zeroPoint)
        checked += 1
    assert checked == 10  # conv0, 4 x (depthwise, pointwise), fully connected


def test_int8_model_follows_the_float_network(built):
    """Realistic quantization: LiteRT's int8 outputs track the float64 numpy network
    the ranges were calibrated on (random weights, so the classes mean nothing)."""
    layers = kws.make_layers()
    scale, zero_point = quant.range_to_scale_zp(*kws.INPUT_RANGE)
    generator = quant.rng(12345)
    agree, worst = 0, 0.0
    for _ in range(20):
        q = quant.quantize(generator.uniform(*kws.INPUT_RANGE, size=kws.INPUT_SHAPE),
                           scale, zero_point)
        expected = kws.float_forward(layers, quant.dequantize(q, scale, zero_point))["softmax"]
        probs = (run_reference(built, [q])[0].astype(np.float64) + 128) / 256
        agree += int(np.argmax(probs) == np.argmax(expected))
        worst = max(worst, float(np.abs(probs - expected).max()))
    # Eleven requantized layers on random weights: a few top-two swaps are expected.
    assert agree >= 16
    assert worst < 0.25

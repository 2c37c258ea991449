# SPDX-License-Identifier: Apache-2.0
"""SVDF against the references over sequences of invocations (the state carries between them), on a host
build (portable kernels, ASan/UBSan): the weight zero points neither reference reads are ignored here too;
an int16 state with a nonzero zero point under an activation LiteRT refuses runs as TFLM computes it
(inline C); under RELU, where both references run it and disagree, it is refused."""

from __future__ import annotations

import subprocess

import numpy as np
import pytest

import helia_aot
from helia_aot.errors import UnsupportedModelError
from helia_aot.golden.references import TflmRunner, litert_interpreter
from tests.modelgen import ModelBuilder

from .helpers import build_host_module

N, I, U, R, T = 2, 6, 4, 2, 5  # batches, input size, units, rank, memory
F = U * R
STEPS = 12

# stdin: one input after another; stdout per run: the status, then the output bytes in hex.
SEQUENCE_MAIN = r"""
#include <stdio.h>
#include "model_model.h"

int main(void)
{
    model_model_context_t ctx;
    int32_t i, n;
    if (model_model_init(&ctx) != 0)
    {
        return 2;
    }
    n = model_model_input_bytes(0);
    while (fread(model_model_input(&ctx, 0), 1, (size_t)n, stdin) == (size_t)n)
    {
        printf("%d ", (int)model_model_run(&ctx));
        for (i = 0; i < model_model_output_bytes(0); i++)
        {
            printf("%02x", ((unsigned char *)model_model_output(&ctx, 0))[i]);
        }
        printf("\n");
    }
    return 0;
}
"""


def svdf_model(state: str, state_zero_point: int, act: str, weights_zero_points=(0, 0),
               state_scale: float = 0.0005, seed: int = 1) -> ModelBuilder:
    """The differential generator's integer SVDF: projections reach the int16 range at this state scale."""
    g = np.random.default_rng(seed)
    b = ModelBuilder()
    x = b.input("x", (N, I), "int8", 0.02, 5)
    wf = b.const("wf", g.integers(-127, 128, (F, I)), "int8", 0.004, weights_zero_points[0])
    wt = b.const("wt", g.integers(*((-3000, 3000) if state == "int16" else (-127, 128)), (F, T)), state, 0.0002,
                 weights_zero_points[1])
    bias = b.const("bias", g.integers(-3000, 3000, U), "int32", state_scale * 0.0002, 0)
    s = b.tensor("state", (N, F * T), state, state_scale, state_zero_point, variable=True)
    y = b.tensor("y", (N, U), "int8", 0.05, -3)
    b.op("SVDF", [x, wf, wt, bias, s], [y], {"rank": R, "fused_activation_function": act})
    b.output(y)
    return b


def samples(seed: int = 7) -> list[np.ndarray]:
    g = np.random.default_rng(seed)
    return [g.integers(-128, 128, (N, I), endpoint=False).astype(np.int8) for _ in range(STEPS)]


def tflm_sequence(model: bytes, xs) -> list[np.ndarray]:
    runner = TflmRunner(model)
    return [runner.run([x])[0].reshape(N, U) for x in xs]


def litert_sequence(model: bytes, xs) -> list[np.ndarray]:
    interp = litert_interpreter(model)
    interp.allocate_tensors()
    out = []
    for x in xs:
        interp.set_tensor(interp.get_input_details()[0]["index"], x)
        interp.invoke()
        out.append(interp.get_tensor(interp.get_output_details()[0]["index"]).copy().reshape(N, U))
    return out


@pytest.fixture(scope="module")
def host_sequence(tmp_path_factory):
    root = tmp_path_factory.mktemp("svdf_host")
    count = [0]

    def run(builder: ModelBuilder, xs) -> tuple[dict, list[np.ndarray]]:
        count[0] += 1
        out = root / f"m{count[0]}"
        result = helia_aot.convert(builder.build(), out, target="host", kernel_library="portable")
        exe = build_host_module(out, SEQUENCE_MAIN, ("svdf",))
        ran = subprocess.run([str(exe)], input=b"".join(x.tobytes() for x in xs), capture_output=True, check=False)
        assert ran.returncode == 0 and not ran.stderr, ran.stderr.decode()[-3000:]
        outputs = []
        for line in ran.stdout.decode().splitlines():
            status, data = line.split()
            assert status == "0"
            outputs.append(np.frombuffer(bytes.fromhex(data), np.int8).reshape(N, U))
        assert len(outputs) == len(xs)
        return result.plan["operators"][0], outputs

    return run


def _assert_sequences_equal(got, want, who):
    for step, (g, w) in enumerate(zip(got, want)):
        np.testing.assert_array_equal(g, w, err_msg=f"invocation {step} against {who}")


@pytest.mark.parametrize("state_zero_point, act, state_scale", [
    (2, "TANH", 0.0005), (2, "NONE", 0.0005),
    # projections saturate and clamp + zero point wraps past int16: TFLM's order (clamp, add, narrow) matters
    (30000, "NONE", 0.0005), (-30000, "RELU6", 0.0005), (20000, "SIGN_BIT", 0.0001)])
def test_int16_state_zero_point_only_tflm_runs_matches_tflm(host_sequence, state_zero_point, act, state_scale):
    """LiteRT's integer SVDF refuses any activation but RELU (svdf.cc Eval), TFLM's runs it and applies none,
    using the int16 state's zero point (EvalIntegerSvdfReference): inline C, exact over the sequence."""
    builder = svdf_model("int16", state_zero_point, act, state_scale=state_scale)
    model, xs = builder.build(), samples()
    with pytest.raises(Exception, match="activation"):
        litert_sequence(model, xs[:1])
    want = tflm_sequence(model, xs)
    assert len({w.tobytes() for w in want}) > STEPS // 2  # the sequence moves the outputs
    op, got = host_sequence(builder, xs)
    assert (op["variant"], op["kernel"]["entry"], op["fixed"]["implementation"]) == ("int8", None, "inline")
    _assert_sequences_equal(got, want, "TFLM")
    if abs(state_zero_point) >= 20000:
        # the zero point changes TFLM's outputs (a kernel assuming 0 would not match)
        zero = svdf_model("int16", 0, act, state_scale=state_scale).build()
        assert any(not np.array_equal(a, b) for a, b in zip(want, tflm_sequence(zero, xs)))


@pytest.mark.parametrize("weights_zero_points", [(1, 0), (-7, 0), (3, 5)])
def test_int16_state_weight_zero_points_are_ignored_as_both_references_do(host_sequence, weights_zero_points):
    """Neither LiteRT's EvalIntegerSVDF nor TFLM's EvalIntegerSvdfReference (or either Prepare) reads a weight
    zero point: both compute as if 0, and so does the module (arm_svdf_state_s16_s8)."""
    builder = svdf_model("int16", 0, "RELU", weights_zero_points)
    model, xs = builder.build(), samples(11)
    litert, tflm = litert_sequence(model, xs), tflm_sequence(model, xs)
    _assert_sequences_equal(tflm, litert, "LiteRT (TFLM)")
    _assert_sequences_equal(litert, litert_sequence(svdf_model("int16", 0, "RELU").build(), xs), "zero point 0")
    op, got = host_sequence(builder, xs)
    assert (op["variant"], op["kernel"]["entry"]) == ("int8", "arm_svdf_state_s16_s8")
    _assert_sequences_equal(got, litert, "LiteRT")


@pytest.mark.parametrize("state_zero_point", [0, -5])
def test_int8_state_weight_zero_points_are_ignored_as_tflm_does(host_sequence, state_zero_point):
    builder = svdf_model("int8", state_zero_point, "TANH", (4, -2), state_scale=0.05)
    model, xs = builder.build(), samples(3)
    want = tflm_sequence(model, xs)
    _assert_sequences_equal(want, tflm_sequence(svdf_model("int8", state_zero_point, "TANH", state_scale=0.05)
                                                .build(), xs), "TFLM with weight zero points 0")
    op, got = host_sequence(builder, xs)
    assert op["variant"] == "int8_state8"
    _assert_sequences_equal(got, want, "TFLM")


def test_int16_state_zero_point_under_relu_is_refused_where_the_references_disagree(tmp_path):
    """Under RELU both references run it: LiteRT never reads the state zero point, TFLM adds it to each
    clamped projection, so their outputs part once a projection saturates. One-line refusal, its rule
    naming the disagreement."""
    builder = svdf_model("int16", 20000, "RELU", state_scale=0.0001)
    model, xs = builder.build(), samples()
    litert, tflm = litert_sequence(model, xs), tflm_sequence(model, xs)
    assert any(not np.array_equal(a, b) for a, b in zip(litert, tflm)), "the references agree: no need to refuse"
    with pytest.raises(UnsupportedModelError) as info:
        helia_aot.convert(model, tmp_path / "out", target="host")
    message = str(info.value.args[0])
    assert "\n" not in message and "tensor 'state'" in message
    assert "int16 state zero point 20000 under fused RELU: LiteRT and TFLM both run it and disagree" in message
    assert message.endswith("(helia-aot limit)")

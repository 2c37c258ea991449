# SPDX-License-Identifier: Apache-2.0
"""Models with state kept across invocations: resource variables (VAR_HANDLE, READ_VARIABLE,
ASSIGN_VARIABLE, CALL_ONCE and its initialisation subgraph), as the TensorFlow converter writes a
tf.Variable a model updates, and an SVDF with an int8 state (TFLM's form) with its Python reference.
Their outputs depend on every earlier invocation."""

from __future__ import annotations

import math

import numpy as np

from tests.modelgen.builder import ModelBuilder

SEED = 1107
# name -> dtype of the accumulator
NAMES = {"accumulator_int8": "int8", "accumulator_float32": "float32"}
SHAPE = (1, 6)
# int8: the sum of 20 inputs in [-1, 1) stays far from saturation only with a wide scale.
INT8_SCALE, INT8_ZERO_POINT = 0.25, 3


def accumulator(dtype: str, initial: float = 0.5) -> bytes:
    """acc = acc + x, out = acc: a resource variable `acc` CALL_ONCE initialises to `initial`,
    read, added to the input and assigned back every invoke."""
    q = dict(scale=INT8_SCALE, zero_point=INT8_ZERO_POINT) if dtype == "int8" else {}
    start = np.full(SHAPE, initial)
    if dtype == "int8":
        start = np.round(start / INT8_SCALE) + INT8_ZERO_POINT
    return accumulator_model(f"accumulator {dtype}", dtype, q,
                             lambda init: init.const("acc_initial", start, dtype, **q))


def accumulator_model(name: str, dtype: str, q: dict, initial, add_options: dict | None = None,
                      output_read: bool = False) -> bytes:
    """acc = acc + x, out = acc (and first the value read, with `output_read`), of SHAPE: CALL_ONCE's subgraph
    assigns `initial(init)`, a tensor it makes there (a constant, or one it computes)."""
    b = ModelBuilder(name)
    init = b.subgraph("init")
    handle0 = init.resource("acc_handle_init")
    init.op("VAR_HANDLE", [], [handle0], {"container": "", "shared_name": "acc"})
    init.op("ASSIGN_VARIABLE", [handle0, initial(init)], [])
    b.op("CALL_ONCE", [], [], {"init_subgraph_index": init.index})
    x = b.input("x", SHAPE, dtype, **q)
    handle = b.resource("acc_handle")
    b.op("VAR_HANDLE", [], [handle], {"container": "", "shared_name": "acc"})
    value = b.tensor("acc_value", SHAPE, dtype, **q)
    b.op("READ_VARIABLE", [handle], [value])
    total = b.tensor("acc_next", SHAPE, dtype, **q)
    b.op("ADD", [value, x], [total], add_options)
    b.op("ASSIGN_VARIABLE", [handle, total], [])
    if output_read:
        b.output(value)
    b.output(total)
    return b.build()


def build(name: str) -> bytes:
    return accumulator(NAMES[name])


# -- SVDF with an int8 state (TensorFlow Lite Micro's form) ----------------------------------------
# LiteRT reads an SVDF's state and time weights as int16 whatever the model declares, so it cannot
# run this form; its reference is the Python model below, LiteRT's EvalIntegerSVDF on 8-bit memory.

SVDF8 = dict(batches=2, input_size=10, units=4, rank=2, memory=6)
SVDF8_SCALES = dict(input=(0.02, 5), weights_feature=0.004, weights_time=0.01, state=(0.05, 0), output=(0.05, -3))


def svdf_int8_state(state_zero_point: int = 0) -> bytes:
    """TFLM's int8 SVDF; `state_zero_point` other than 0 is the form of TFLM's int8 keyword models."""
    b = ModelBuilder("SVDF with an int8 state")
    g = np.random.default_rng(SEED)
    n, i, f, t = SVDF8["batches"], SVDF8["input_size"], SVDF8["units"] * SVDF8["rank"], SVDF8["memory"]
    s = SVDF8_SCALES
    x = b.input("input", (n, i), "int8", *s["input"])
    wf = b.const("weights_feature", g.integers(-127, 128, (f, i)), "int8", s["weights_feature"], 0)
    wt = b.const("weights_time", g.integers(-127, 128, (f, t)), "int8", s["weights_time"], 0)
    bias = b.const("bias", g.integers(-3000, 3000, SVDF8["units"]), "int32", s["state"][0] * s["weights_time"], 0)
    state = b.tensor("state", (n, f * t), "int8", s["state"][0], state_zero_point, variable=True)
    y = b.tensor("output", (n, SVDF8["units"]), "int8", *s["output"])
    b.op("SVDF", [x, wf, wt, bias, state], [y], {"rank": SVDF8["rank"], "fused_activation_function": "RELU"})
    b.output(y)
    return b.build()


def _quantize_multiplier(real: float) -> tuple[int, int]:
    """TFLite's QuantizeMultiplier: real = m * 2^(shift - 31), m a Q31 value in [2^30, 2^31)."""
    mantissa, shift = math.frexp(real)
    m = int(math.floor(abs(mantissa) * (1 << 31) + 0.5))
    if m == 1 << 31:
        m, shift = m // 2, shift + 1
    return m, shift


def _requantize(x: int, multiplier: int, shift: int) -> int:
    """MultiplyByQuantizedMultiplier: doubling high multiply (rounded), then a rounding right shift."""
    x = x << max(shift, 0)
    product = x * multiplier
    nudge = (1 << 30) if product >= 0 else 1 - (1 << 30)
    high = (product + nudge) // (1 << 31) if product + nudge >= 0 else -((-(product + nudge)) // (1 << 31))
    right = max(-shift, 0)
    if right == 0:
        return high
    mask = (1 << right) - 1
    remainder = high & mask
    threshold = (mask >> 1) + (1 if high < 0 else 0)
    return (high >> right) + (1 if remainder > threshold else 0)


def _wrap32(x: int) -> int:
    return (x + (1 << 31)) % (1 << 32) - (1 << 31)


def svdf_int8_state_reference(model: bytes, samples: list[list[np.ndarray]],
                              state_zero_point: int = 0) -> list[list[np.ndarray]]:
    """The outputs of one sequence of invocations of svdf_int8_state(state_zero_point), from a state
    of real 0 (every code the zero point, as both references reset an int8 variable): the pinned
    tflite-micro's EvalIntegerSvdfReference, each projection clamped to int8, then the state zero point
    added and the sum narrowed to int8 modulo 256; the zero point taken off each state value in the time
    dot products."""
    from ai_edge_litert import schema_py_generated as schema
    m = schema.ModelT.InitFromPackedBuf(model, 0)
    sg = m.subgraphs[0]

    def const(k):
        t = sg.tensors[sg.operators[0].inputs[k]]
        return np.frombuffer(bytes(m.buffers[t.buffer].data), dtype="<i4" if k == 3 else "i1").reshape(t.shape)

    wf, wt, bias = const(1).astype(np.int64), const(2).astype(np.int64), const(3).astype(np.int64)
    s = SVDF8_SCALES
    f32 = np.float32
    m1, s1 = _quantize_multiplier(float(f32(f32(s["input"][0]) * f32(s["weights_feature"])) / f32(s["state"][0])))
    m2, s2 = _quantize_multiplier(float(f32(f32(s["state"][0]) * f32(s["weights_time"])) / f32(s["output"][0])))
    n, f, t, rank = SVDF8["batches"], wf.shape[0], wt.shape[1], SVDF8["rank"]
    state = np.full((n, f, t), state_zero_point, dtype=np.int64)
    outputs = []
    for (x,) in samples:
        x = x.astype(np.int64).reshape(n, -1)
        flat = state.reshape(-1)
        flat[:-1] = flat[1:].copy()
        for b in range(n):
            for k in range(f):
                acc = _requantize(int(np.sum((x[b] - s["input"][1]) * wf[k])), m1, s1)
                state[b, k, -1] = (min(max(acc, -128), 127) + state_zero_point + 128) % 256 - 128
        y = np.zeros((n, f // rank), dtype=np.int8)
        for b in range(n):
            sums = [_wrap32(int(np.sum(wt[k] * (state[b, k] - state_zero_point)))) for k in range(f)]
            for u in range(f // rank):
                acc = _wrap32(int(bias[u]) + sum(sums[u * rank:(u + 1) * rank]))
                y[b, u] = min(max(_requantize(acc, m2, s2) + s["output"][1], -128), 127)
        outputs.append([y])
    return outputs

# SPDX-License-Identifier: Apache-2.0
"""SVDF kernels (arm_svdf_s8, arm_svdf_state_s16_s8, arm_svdf_f32) over sequences of calls: against a
Python model of LiteRT's SVDF (EvalIntegerSVDF, EvalFloatSVDF; the int8-state form is the same
computation on int8 state and time weights, as TFLM runs it), and bit for bit against ns-cmsis-nn."""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

import numpy as np
import pytest

import kernel_build as kb
import reference as ref

S8, S16, F32, SIZES = 0, 1, 2, 3
INT_RANGES = {S8: (-128, 127), S16: (-32768, 32767)}


def f2b(x: float) -> int:
    return struct.unpack("<i", struct.pack("<f", float(x)))[0]


def b2f(bits) -> np.ndarray:
    return np.array(bits, dtype=np.int32).view(np.float32)


@dataclass
class SvdfCall:
    kind: int
    batches: int
    input_size: int
    features: int
    time: int
    rank: int
    weights_feature: np.ndarray
    weights_time: np.ndarray
    bias: np.ndarray | None
    state: np.ndarray
    inputs: np.ndarray  # [steps, batches, input_size]
    in_offset: int = 0
    out_offset: int = 0
    in_quant: tuple[int, int] = (2**30, 1)
    out_quant: tuple[int, int] = (2**30, 1)
    in_act: tuple = (-32768, 32767)
    out_act: tuple = (-128, 127)
    extra: dict = field(default_factory=dict)

    @property
    def units(self) -> int:
        return self.features // self.rank

    def record(self) -> str:
        def arr(a):
            if a is None:
                return "0"
            a = np.asarray(a).ravel()
            values = [f2b(v) for v in a] if self.kind == F32 else [int(v) for v in a]
            return " ".join(map(str, [len(values), *values]))

        acts = [*self.in_act, *self.out_act]
        acts = [f2b(v) for v in acts] if self.kind == F32 else [int(v) for v in acts]
        head = [self.kind, self.batches, self.input_size, self.features, self.time, self.rank, self.in_offset,
                self.out_offset, *self.in_quant, *self.out_quant, *acts, len(self.inputs)]
        return " ".join(map(str, head)) + " " + " ".join(
            arr(a) for a in (self.weights_feature, self.weights_time, self.bias, self.state, self.inputs))


def run(program, calls: list[SvdfCall]) -> list[tuple[list[tuple[int, np.ndarray]], np.ndarray]]:
    """Per call: [(status, outputs)] per step, and the final state."""
    text = kb.run_program(program, "\n".join(c.record() for c in calls) + "\n")
    lines = iter(text.splitlines())
    results = []
    for c in calls:
        steps = []
        for _ in range(len(c.inputs)):
            status, count, *values = map(int, next(lines).split())
            assert count == len(values)
            steps.append((status, b2f(values) if c.kind == F32 else np.array(values)))
        word, count, *values = next(lines).split()
        assert word == "state" and int(count) == len(values)
        state = b2f(list(map(int, values))) if c.kind == F32 else np.array(list(map(int, values)))
        results.append((steps, state))
    assert next(lines, None) is None
    return results


# -- the Python model of LiteRT's SVDF -----------------------------------------------------------


def reference_int(c: SvdfCall) -> tuple[list[np.ndarray], np.ndarray]:
    """LiteRT's EvalIntegerSVDF step by step (state int16 there; int8 for arm_svdf_s8), with the
    activation bounds of the call (LiteRT's: the state type's range, then int8)."""
    state = c.state.astype(np.int64).reshape(c.batches, c.features, c.time).copy()
    wf, wt = c.weights_feature.astype(np.int64), c.weights_time.astype(np.int64)
    outputs = []
    for x in c.inputs.astype(np.int64):
        flat = state.reshape(-1)
        flat[:-1] = flat[1:].copy()  # the whole state moves one step left
        for b in range(c.batches):
            for f in range(c.features):
                acc = int(np.sum((x[b] - c.in_offset) * wf[f]))
                state[b, f, -1] = ref.clamp(ref.requantize(acc, *c.in_quant), *c.in_act)
        y = np.zeros((c.batches, c.units), dtype=np.int64)
        for b in range(c.batches):
            sums = [ref.wrap32(int(np.sum(wt[f] * state[b, f]))) for f in range(c.features)]
            for u in range(c.units):
                acc = int(c.bias[u]) if c.bias is not None else 0
                acc = ref.wrap32(acc + sum(sums[u * c.rank:(u + 1) * c.rank]))
                y[b, u] = ref.clamp(ref.requantize(acc, *c.out_quant) + c.out_offset, *c.out_act)
        outputs.append(y.ravel())
    return outputs, state.ravel()


def reference_f32(c: SvdfCall) -> tuple[list[np.ndarray], np.ndarray]:
    """LiteRT's EvalFloatSVDF in float32 arithmetic, summed in its order (dot products from the first
    element; rank sums onto the bias), clamped to the activation bounds."""
    f32 = np.float32
    state = c.state.astype(f32).reshape(c.batches, c.features, c.time).copy()
    lo_in, hi_in = f32(c.in_act[0]), f32(c.in_act[1])
    lo, hi = f32(c.out_act[0]), f32(c.out_act[1])

    def dot(a, b):
        s = f32(0)
        for p, q in zip(a, b):
            s = f32(s + f32(p * q))
        return s

    outputs = []
    for x in c.inputs.astype(f32):
        for b in range(c.batches):
            for f in range(c.features):
                state[b, f, :-1] = state[b, f, 1:].copy()
                state[b, f, -1] = min(max(dot(x[b], c.weights_feature[f].astype(f32)), lo_in), hi_in)
        y = np.zeros((c.batches, c.units), dtype=f32)
        for b in range(c.batches):
            sums = [dot(c.weights_time[f].astype(f32), state[b, f]) for f in range(c.features)]
            for u in range(c.units):
                if c.bias is not None and c.rank == 1:
                    acc = f32(sums[u] + f32(c.bias[u]))
                else:
                    acc = f32(c.bias[u]) if c.bias is not None else f32(0)
                    for r in range(c.rank):
                        acc = f32(acc + sums[u * c.rank + r])
                y[b, u] = min(max(acc, lo), hi)
        outputs.append(y.ravel())
    return outputs, state.ravel()


# -- calls ----------------------------------------------------------------------------------------


def random_call(kind: int, seed: int, batches=1, input_size=7, units=3, rank=2, time=5, steps=6,
                bias=True) -> SvdfCall:
    rng = np.random.default_rng(seed)
    features = units * rank
    if kind == F32:
        return SvdfCall(F32, batches, input_size, features, time, rank,
                        rng.uniform(-1, 1, (features, input_size)).astype(np.float32),
                        rng.uniform(-1, 1, (features, time)).astype(np.float32),
                        rng.uniform(-1, 1, units).astype(np.float32) if bias else None,
                        np.zeros(batches * features * time, np.float32),
                        rng.uniform(-1, 1, (steps, batches, input_size)).astype(np.float32),
                        in_act=(-3.0e38, 3.0e38), out_act=(-1.5, 2.5))
    state_lo, state_hi = INT_RANGES[kind]
    return SvdfCall(kind, batches, input_size, features, time, rank,
                    rng.integers(-127, 128, (features, input_size)),
                    rng.integers(state_lo, state_hi + 1, (features, time)),
                    rng.integers(-50000, 50000, units) if kind == S16 and bias else
                    (rng.integers(-5000, 5000, units) if bias else None),
                    rng.integers(state_lo, state_hi + 1, batches * features * time),
                    rng.integers(-128, 128, (steps, batches, input_size)),
                    in_offset=int(rng.integers(-20, 20)), out_offset=int(rng.integers(-20, 20)),
                    in_quant=(int(rng.integers(2**30, 2**31 - 1)), int(rng.integers(-9, -4)) if kind == S16 else -10),
                    out_quant=(int(rng.integers(2**30, 2**31 - 1)), -int(rng.integers(14, 18)) if kind == S16 else -10),
                    in_act=(state_lo, state_hi), out_act=(-128, 127))


SHAPES = [dict(), dict(batches=2), dict(rank=1), dict(rank=1, bias=False), dict(batches=2, rank=3, bias=False),
          dict(units=1, rank=1, time=1), dict(input_size=33, units=4, time=10, batches=3)]


@pytest.fixture(scope="module")
def portable(build_root, portable_library):
    return kb.link_program([kb.DRIVER_DIR / "svdf_driver.c"], [portable_library], [kb.PORTABLE_INCLUDE],
                           build_root / "svdf_driver_portable", ["ARM_NN_ENABLE_F32=1", "ARM_NN_ENABLE_F16=1"])


@pytest.fixture(scope="module")
def ns_program(build_root, ns_dir, ns_float_library):
    return kb.link_program([kb.DRIVER_DIR / "svdf_driver.c"], [ns_float_library], [ns_dir / "Include"],
                           build_root / "svdf_driver_ns", ["ARM_NN_ENABLE_F32=1", "ARM_NN_ENABLE_F16=1"])


def test_hand_worked_int16_state(portable):
    """One feature (rank 1), two inputs, memory 2, state (0, 10): it moves left to (10, .) and
    x = (3, -1) with input offset 1 gives 2 * 2 + (-2) * 1 = 2 (scale 1) as its newest entry; time
    weights (5, 7) on (10, 2) give 64, plus bias 20 = 84, output scale 1/2 -> 42 -> plus output
    offset -3 -> 39."""
    call = SvdfCall(S16, 1, 2, 1, 2, 1, np.array([[2, 1]]), np.array([[5, 7]]), np.array([20]),
                    np.array([0, 10]), np.array([[[3, -1]]]), in_offset=1, out_offset=-3,
                    in_quant=(2**30, 1), out_quant=(2**30, 0))
    (steps, state), = run(portable, [call])
    assert [(status, out.tolist()) for status, out in steps] == [(0, [39])]
    assert state.tolist() == [10, 2]


@pytest.mark.parametrize("kind", [S8, S16])
@pytest.mark.parametrize("shape", range(len(SHAPES)))
def test_integer_kernels_match_litert_svdf_over_a_sequence(portable, kind, shape):
    call = random_call(kind, seed=100 + shape, **SHAPES[shape])
    (steps, state), = run(portable, [call])
    want, want_state = reference_int(call)
    for k, ((status, got), expected) in enumerate(zip(steps, want)):
        assert status == 0
        np.testing.assert_array_equal(got, expected, err_msg=f"step {k}")
    np.testing.assert_array_equal(state, want_state)
    # the outputs are not constant: the sequence exercises the state (a 1x1 state may well not)
    assert len({tuple(s[1]) for s in steps}) > 1 or call.features * call.time == 1


@pytest.mark.parametrize("shape", range(len(SHAPES)))
def test_float_kernel_matches_litert_svdf_over_a_sequence(portable, shape):
    call = random_call(F32, seed=200 + shape, **SHAPES[shape])
    (steps, state), = run(portable, [call])
    want, want_state = reference_f32(call)
    for k, ((status, got), expected) in enumerate(zip(steps, want)):
        assert status == 0
        np.testing.assert_array_equal(got, expected, err_msg=f"step {k}")
    np.testing.assert_array_equal(state, want_state)


def test_buffer_sizes(portable):
    text = kb.run_program(portable, f"{SIZES} 1 5 12 1 1 0 0 0 0 0 0 0 0 0 0 0\n")
    assert text.split() == ["0", "0", str(12 * 4)]


@pytest.mark.parametrize("kind", [S8, S16, F32])
def test_parity_with_ns_cmsis_nn(portable, ns_program, kind):
    calls = [random_call(kind, seed=300 + 10 * kind + i, **SHAPES[i % len(SHAPES)]) for i in range(40)]
    # extremes: saturating projections and outputs
    for c in calls[::5]:
        if kind != F32:
            c.in_quant = (2**31 - 1, 4)
            c.out_quant = (2**31 - 1, 2)
    records = "\n".join(c.record() for c in calls) + "\n"
    assert kb.run_program(portable, records) == kb.run_program(ns_program, records)


def test_sizer_parity_with_ns_cmsis_nn(portable, ns_program):
    records = "".join(f"3 1 5 {f} 1 1 0 0 0 0 0 0 0 0 0 0 0\n" for f in (1, 2, 7, 64))
    assert kb.run_program(portable, records) == kb.run_program(ns_program, records)

# SPDX-License-Identifier: Apache-2.0
"""The LSTM kernels (arm_lstm_unidirectional_s8 / _f32, their step, gate and element-wise helpers).

Checked against a Python reference of LiteRT's integer LSTM (lstm_eval's 8x8_16 evaluation: each
gate the saturating sum of the input and recurrent products, each requantized to Q3.12; c = f * c +
i * g with the cell clip; h = o * tanh(c) requantized to the output), computed with the rounding
ns-cmsis-nn uses at the two places where it differs from LiteRT's reference kernels: the gate
sigmoid / tanh come from TFLite's int16 sigmoid table (LiteRT: gemmlowp's fixed-point functions), and
f * c is a doubly rounded requantization by 2^-15 (LiteRT: one rounding shift by 15). Those two
differences are what the end-to-end cases measure against LiteRT itself (tests/e2e). The float
kernels are checked against exact float64 math within ns-cmsis-nn's table error. Parity with
ns-cmsis-nn's plain-C build is bit-exact on every record (skipped unless HELIA_NS_CMSIS_NN_DIR is set).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import kernel_build as kb
import reference as ref
from helia_aot.ir.quant import quantize_multiplier

ARM_SIGMOID, ARM_TANH = 0, 1
FLT_SIGMOID, FLT_TANH = 33, 34
GATES = ("forget", "input", "cell", "output")
TABLE = ref.sigmoid_table()


# ---- drivers -------------------------------------------------------------------------------------

class LstmDriver:
    def __init__(self, program):
        self.program = program

    def run(self, records: list[str]) -> list[list[int]]:
        out = kb.run_program(self.program, "\n".join(records) + "\n")
        lines = out.splitlines()
        assert len(lines) == len(records)
        return [[int(v) for v in line.split()] for line in lines]

    def run_text(self, records: list[str]) -> str:
        return kb.run_program(self.program, "\n".join(records) + "\n")


@pytest.fixture(scope="session")
def lstm_driver(build_root, portable_library) -> LstmDriver:
    return LstmDriver(kb.link_program([kb.DRIVER_DIR / "lstm_driver.c"], [portable_library], [kb.PORTABLE_INCLUDE],
                                      build_root / "lstm_driver_portable", ["ARM_NN_ENABLE_F32=1"]))


@pytest.fixture(scope="session")
def ns_lstm_driver(build_root, ns_dir, ns_float_library) -> LstmDriver:
    return LstmDriver(kb.link_program([kb.DRIVER_DIR / "lstm_driver.c"], [ns_float_library], [ns_dir / "Include"],
                                      build_root / "lstm_driver_ns", ["ARM_NN_ENABLE_F32=1", "DRIVER_NS_CMSIS_NN=1"]))


# ---- records -------------------------------------------------------------------------------------

def arr(values) -> str:
    values = [int(v) for v in np.asarray(values).reshape(-1)]
    return " ".join([str(len(values)), *map(str, values)])


def bits(values) -> np.ndarray:
    return np.asarray(values, dtype=np.float32).reshape(-1).view(np.int32)


def random_layer_s8(rng, *, time_major: bool, batch: int, steps: int, in_size: int, hidden: int,
                    cell_clip: int = 0, cell_power: int = -11) -> dict:
    """Parameters as LiteRT's Prepare derives them from plausible scales (weights symmetric)."""
    input_scale, input_zp = float(rng.uniform(0.005, 0.1)), int(rng.integers(-128, 128))
    out_scale, out_zp = float(rng.uniform(1 / 256, 1 / 64)), int(rng.integers(-20, 21))
    gate_scale = 2.0 ** -12
    layer = dict(time_major=int(time_major), batch=batch, steps=steps, in_size=in_size, hidden=hidden,
                 input_offset=-input_zp, cell_clip=cell_clip, cell_power=cell_power, out_offset=out_zp)
    layer["f2c"] = quantize_multiplier(2.0 ** -15)
    layer["i2c"] = quantize_multiplier(2.0 ** (-30 - cell_power))
    layer["out"] = quantize_multiplier(2.0 ** -30 / out_scale)
    for name in GATES:
        w = rng.integers(-127, 128, (hidden, in_size))
        r = rng.integers(-127, 128, (hidden, hidden))
        w_scale, r_scale = float(rng.uniform(0.001, 0.02)), float(rng.uniform(0.001, 0.02))
        bias = rng.integers(-3000, 3000, hidden)
        layer[name] = dict(
            act=ARM_TANH if name == "cell" else ARM_SIGMOID,
            in_q=quantize_multiplier(input_scale * w_scale / gate_scale),
            hid_q=quantize_multiplier(out_scale * r_scale / gate_scale),
            w=w, r=r,
            in_bias=bias + (-input_zp) * w.sum(axis=1),
            hid_bias=(-out_zp) * r.sum(axis=1),
        )
    return layer


def layer_s8_text(L: dict) -> str:
    head = [L["time_major"], L["batch"], L["steps"], L["in_size"], L["hidden"], L["input_offset"], *L["f2c"],
            *L["i2c"], L["cell_clip"], L["cell_power"], *L["out"], L["out_offset"]]
    parts = [" ".join(map(str, head))]
    for name in GATES:
        g = L[name]
        parts.append(" ".join(map(str, [*g["in_q"], *g["hid_q"], g["act"]])))
        parts += [arr(g["w"]), arr(g["in_bias"]), arr(g["r"]), arr(g["hid_bias"])]
    return " ".join(parts)


def random_layer_f32(rng, *, time_major: bool, batch: int, steps: int, in_size: int, hidden: int,
                     cell_clip: float = 0.0, drop: tuple[str, ...] = ()) -> dict:
    layer = dict(time_major=int(time_major), batch=batch, steps=steps, in_size=in_size, hidden=hidden,
                 cell_clip=np.float32(cell_clip))
    for name in GATES:
        layer[name] = dict(
            act=FLT_TANH if name == "cell" else FLT_SIGMOID,
            w=rng.uniform(-0.6, 0.6, (hidden, in_size)).astype(np.float32),
            r=rng.uniform(-0.6, 0.6, (hidden, hidden)).astype(np.float32),
            b=None if f"{name}_bias" in drop else rng.uniform(-0.5, 0.5, hidden).astype(np.float32),
        )
    return layer


def layer_f32_text(L: dict) -> str:
    parts = [" ".join(map(str, [L["time_major"], L["batch"], L["steps"], L["in_size"], L["hidden"],
                                int(bits([L["cell_clip"]])[0])]))]
    for name in GATES:
        g = L[name]
        parts += [str(g["act"]), arr(bits(g["w"])), arr(bits(g["r"])),
                  arr(bits(g["b"])) if g["b"] is not None else "0"]
    return " ".join(parts)


# ---- the integer reference -----------------------------------------------------------------------

def sat16(v: int) -> int:
    return ref.clamp(v, -32768, 32767)


def activation_s16(values, left_shift: int, is_tanh: bool) -> list[int]:
    """arm_nn_activation_s16: TFLite's int16 table sigmoid / tanh for an input scale 2^(left_shift - 12)."""
    if left_shift >= 0:
        mult, right = 3 << left_shift, 0
    else:
        mult, right = 3, -left_shift
    return [int(v) for v in ref.logistic_tanh_s16(np.asarray(values), mult, right, is_tanh, TABLE)]


def gate_s8(L: dict, name: str, x_rows: list, h_rows: list | None) -> list[list[int]]:
    g = L[name]
    out = []
    for b, x in enumerate(x_rows):
        row = []
        for r in range(L["hidden"]):
            acc = int(g["in_bias"][r]) + int(np.dot(g["w"][r].astype(np.int64), np.asarray(x, dtype=np.int64)))
            value = sat16(ref.requantize(acc, *g["in_q"]))
            if h_rows is not None:
                acc = int(g["hid_bias"][r]) + int(np.dot(g["r"][r].astype(np.int64),
                                                         np.asarray(h_rows[b], dtype=np.int64)))
                value = sat16(ref.requantize(acc, *g["hid_q"]) + value)
            row.append(value)
        out.append(activation_s16(row, 0, g["act"] == ARM_TANH))
    return out


def step_s8(L: dict, x_rows: list, h_rows: list | None, cell: list[list[int]]) -> list[list[int]]:
    """One step for the given batch rows; updates cell in place, returns the new hidden rows."""
    clip = L["cell_clip"]
    lo, hi = (-clip, clip) if clip > 0 else (-32768, 32767)
    f = gate_s8(L, "forget", x_rows, h_rows)
    i = gate_s8(L, "input", x_rows, h_rows)
    g = gate_s8(L, "cell", x_rows, h_rows)
    o = gate_s8(L, "output", x_rows, h_rows)
    hidden = []
    for b in range(len(x_rows)):
        for k in range(L["hidden"]):
            c = sat16(ref.requantize(f[b][k] * cell[b][k], *L["f2c"]))
            cell[b][k] = ref.clamp(ref.requantize(i[b][k] * g[b][k], *L["i2c"]) + c, lo, hi)
        t = activation_s16(cell[b], L["cell_power"] + 12, True)
        hidden.append([ref.clamp(ref.requantize(o[b][k] * t[k], *L["out"]) + L["out_offset"], -128, 127)
                       for k in range(L["hidden"])])
    return hidden


def sequence_s8(L: dict, x: np.ndarray, hidden: list | None, cell: list) -> np.ndarray:
    """The whole call: x is [time, batch, in] (time-major) or [batch, time, in]; hidden None is stateless."""
    B, T = L["batch"], L["steps"]
    if hidden is None:
        for row in cell:
            row[:] = [0] * L["hidden"]
    out = np.zeros(x.shape[:2] + (L["hidden"],), dtype=np.int64)
    h = None if hidden is None else [list(r) for r in hidden]
    for t in range(T):
        rows = [x[t, b] if L["time_major"] else x[b, t] for b in range(B)]
        h = step_s8(L, rows, h, cell)
        for b in range(B):
            if L["time_major"]:
                out[t, b] = h[b]
            else:
                out[b, t] = h[b]
    if hidden is not None and T > 0:
        for b in range(B):
            hidden[b][:] = h[b]
    return out


def lstm_s8_record(L: dict, inputs: list[np.ndarray], hidden, cell, stateful: bool) -> str:
    return (f"lstm_s8 {layer_s8_text(L)} {len(inputs)} {int(stateful)} " + " ".join(arr(x) for x in inputs)
            + f" {arr(hidden)} {arr(cell)}")


def input_shape(L: dict) -> tuple[int, int, int]:
    return (L["steps"], L["batch"], L["in_size"]) if L["time_major"] else (L["batch"], L["steps"], L["in_size"])


# ---- integer tests -------------------------------------------------------------------------------

def test_vec_mat_mul_result_acc_matches_reference(lstm_driver):
    rng = np.random.default_rng(11)
    records, expected = [], []
    for _ in range(30):
        cols, rows, batches, offset = (int(rng.integers(1, 40)), int(rng.integers(1, 12)), int(rng.integers(1, 4)),
                                       int(rng.integers(1, 4)))
        mult, shift = int(rng.integers(2**30, 2**31)), int(rng.integers(-12, 2))
        lhs = rng.integers(-128, 128, batches * offset * cols)
        rhs = rng.integers(-128, 128, rows * cols)
        bias = rng.integers(-200000, 200000, rows)
        dst = rng.integers(-32768, 32768, batches * rows)
        records.append(f"vecmat {cols} {rows} {batches} {offset} {mult} {shift} {arr(lhs)} {arr(rhs)} {arr(bias)} "
                       f"{arr(dst)}")
        want = []
        for b in range(batches):
            x = lhs[b * offset * cols:(b * offset + 1) * cols]
            for r in range(rows):
                acc = int(bias[r]) + int(np.dot(rhs[r * cols:(r + 1) * cols], x))
                want.append(sat16(ref.requantize(acc, mult, shift) + int(dst[b * rows + r])))
        expected.append([0, *want])
    assert lstm_driver.run(records) == expected


def test_mul_acc_adds_and_clips(lstm_driver):
    rng = np.random.default_rng(12)
    records, expected = [], []
    for clip in (0, 1, 700, 20480, -5):
        n = 41
        a, b, out = (rng.integers(-32768, 32768, n) for _ in range(3))
        mult, shift = quantize_multiplier(2.0 ** -19)
        records.append(f"mulacc {mult} {shift} {-clip} {clip} {arr(a)} {arr(b)} {arr(out)}")
        lo, hi = (-clip, clip) if clip > 0 else (-32768, 32767)
        expected.append([0, *[ref.clamp(ref.requantize(int(x) * int(y), mult, shift) + int(z), lo, hi)
                              for x, y, z in zip(a, b, out)]])
    got = lstm_driver.run(records)
    assert got == expected
    assert max(abs(v) for v in got[1][1:]) <= 1  # the clip of 1 is reached


def test_mul_s16_s8_writes_batch_rows_apart(lstm_driver):
    rng = np.random.default_rng(13)
    block, batches, offset, zp = 5, 3, 2, -7
    a, b = rng.integers(-32768, 32768, block * batches), rng.integers(-32768, 32768, block * batches)
    mult, shift = quantize_multiplier(2.0 ** -30 / (1 / 128))
    got = lstm_driver.run([f"muls8 {block} {batches} {offset} {zp} {mult} {shift} {arr(a)} {arr(b)}"])[0]
    assert got[0] == 0
    out = np.array(got[1:]).reshape(batches, offset, block)
    want = [[ref.clamp(ref.requantize(int(x) * int(y), mult, shift) + zp, -128, 127)
             for x, y in zip(a[k * block:(k + 1) * block], b[k * block:(k + 1) * block])] for k in range(batches)]
    np.testing.assert_array_equal(out[:, 0, :], want)
    assert (out[:, 1:, :] == 0x5A).all()  # the rows between batches are left alone


def hand_worked_layer() -> dict:
    """A one-cell layer with zero weights: every gate is its bias, 4096 (1.0 in Q3.12) through a
    multiplier of exactly 1 (2^30 with shift 1)."""
    L = dict(time_major=1, batch=1, steps=1, in_size=1, hidden=1, input_offset=0, cell_clip=0, cell_power=-11,
             out_offset=0, f2c=quantize_multiplier(2.0 ** -15), i2c=quantize_multiplier(2.0 ** -19),
             out=quantize_multiplier(2.0 ** -30 / (1 / 128)))
    for name in GATES:
        L[name] = dict(act=ARM_TANH if name == "cell" else ARM_SIGMOID, in_q=(2**30, 1), hid_q=(2**30, 1),
                       w=np.zeros((1, 1), np.int64), r=np.zeros((1, 1), np.int64), in_bias=[4096], hid_bias=[0])
    return L


def test_hand_worked_step(lstm_driver):
    """From zero state: c = sigmoid(1) * tanh(1) and h = sigmoid(1) * tanh(c), in the reference and the kernel."""
    L = hand_worked_layer()
    cell = [[0]]
    h = step_s8(L, [[0]], None, cell)
    s, t = 1 / (1 + math.exp(-1)), math.tanh(1)
    assert abs(cell[0][0] * 2.0 ** -11 - s * t) < 2 * 2.0 ** -11
    assert abs(h[0][0] / 128 - s * math.tanh(s * t)) <= 1 / 128
    got = lstm_driver.run([f"step_s8 {layer_s8_text(L)} 1 {arr([0])} 0 {arr([0])}"])[0]
    assert got == [0, h[0][0], cell[0][0]]


LAYOUTS = [
    # time_major, batch, steps, in_size, hidden, cell_clip, cell_power
    (False, 1, 5, 7, 4, 0, -11),
    (False, 3, 4, 9, 6, 0, -11),
    (True, 1, 6, 5, 3, 0, -12),
    (True, 2, 3, 12, 8, 20480, -11),
    (False, 2, 2, 16, 5, 900, -10),
    (True, 3, 1, 4, 7, 0, -11),
]


@pytest.mark.parametrize("layout", LAYOUTS)
def test_lstm_s8_sequences_match_reference(lstm_driver, layout):
    time_major, batch, steps, in_size, hidden, clip, power = layout
    rng = np.random.default_rng(sum(map(abs, map(int, layout))) + 3)
    L = random_layer_s8(rng, time_major=time_major, batch=batch, steps=steps, in_size=in_size, hidden=hidden,
                        cell_clip=clip, cell_power=power)
    inputs = [rng.integers(-128, 128, input_shape(L)) for _ in range(4)]
    records, expected = [], []
    for stateful in (True, False):
        h0 = rng.integers(-128, 128, (batch, hidden))
        c0 = rng.integers(-6000, 6000, (batch, hidden))
        records.append(lstm_s8_record(L, inputs, h0, c0, stateful))
        h, c = [list(map(int, r)) for r in h0], [list(map(int, r)) for r in c0]
        outs = [sequence_s8(L, x, h if stateful else None, c) for x in inputs]
        expected.append([0, *np.concatenate([o.reshape(-1) for o in outs]).tolist(),
                         *np.asarray(h).reshape(-1).tolist(), *np.asarray(c).reshape(-1).tolist()])
    assert lstm_driver.run(records) == expected


def test_stateless_calls_repeat_and_stateful_ones_do_not(lstm_driver):
    rng = np.random.default_rng(5)
    L = random_layer_s8(rng, time_major=False, batch=2, steps=3, in_size=6, hidden=5)
    x = rng.integers(-128, 128, input_shape(L))
    zeros_h, zeros_c = np.full((2, 5), L["out_offset"]), np.zeros((2, 5), np.int64)
    stateless, stateful = lstm_driver.run([lstm_s8_record(L, [x, x], zeros_h, zeros_c, False),
                                           lstm_s8_record(L, [x, x], zeros_h, zeros_c, True)])
    n = 2 * 3 * 5
    assert stateless[1:1 + n] == stateless[1 + n:1 + 2 * n]
    assert stateful[1:1 + n] != stateful[1 + n:1 + 2 * n]


def test_step_with_batch_offset(lstm_driver):
    """The step on rows batch_offset rows apart (a batch-major sequence stepped for every batch at once)."""
    rng = np.random.default_rng(17)
    batch, offset, in_size, hidden = 3, 4, 6, 5
    L = random_layer_s8(rng, time_major=True, batch=batch, steps=1, in_size=in_size, hidden=hidden)
    data = rng.integers(-128, 128, (batch, offset, in_size))
    h_in = rng.integers(-128, 128, (batch, offset, hidden))
    c0 = rng.integers(-6000, 6000, (batch, hidden))
    records = [f"step_s8 {layer_s8_text(L)} {offset} {arr(data)} {arr(h_in)} {arr(c0)}",
               f"step_s8 {layer_s8_text(L)} {offset} {arr(data)} 0 {arr(c0)}"]
    got = lstm_driver.run(records)
    for rec, hidden_rows in zip(got, ([h_in[b, 0] for b in range(batch)], None)):
        cell = [list(map(int, r)) for r in c0]
        h = step_s8(L, [data[b, 0] for b in range(batch)], hidden_rows, cell)
        out = np.array(rec[1:1 + batch * offset * hidden]).reshape(batch, offset, hidden)
        assert rec[0] == 0
        np.testing.assert_array_equal(out[:, 0, :], h)
        assert (out[:, 1:, :] == 0x5A).all()
        assert rec[1 + batch * offset * hidden:] == np.asarray(cell).reshape(-1).tolist()


# ---- float32 -------------------------------------------------------------------------------------

def sequence_f32(L: dict, x: np.ndarray, hidden, cell) -> np.ndarray:
    """Exact float64 LSTM (LiteRT's float equations); hidden None is stateless. Updates state in place."""
    B, T, H = L["batch"], L["steps"], L["hidden"]
    if hidden is None:
        cell[:] = 0
    h = None if hidden is None else hidden.astype(np.float64).copy()
    out = np.zeros(x.shape[:2] + (H,))
    sig = lambda v: 1 / (1 + np.exp(-v))  # noqa: E731

    def gate(name, xb, hb):
        g = L[name]
        acc = (g["b"].astype(np.float64) if g["b"] is not None else 0.0) + g["w"].astype(np.float64) @ xb
        if hb is not None:
            acc = acc + g["r"].astype(np.float64) @ hb
        return np.tanh(acc) if g["act"] == FLT_TANH else sig(acc)

    for t in range(T):
        new_h = np.zeros((B, H))
        for b in range(B):
            xb = (x[t, b] if L["time_major"] else x[b, t]).astype(np.float64)
            hb = None if h is None else h[b]
            f, i, g, o = (gate(n, xb, hb) for n in GATES)
            c = f * cell[b] + i * g
            if L["cell_clip"] > 0:
                c = np.clip(c, -L["cell_clip"], L["cell_clip"])
            cell[b] = c
            new_h[b] = o * np.tanh(c)
            if L["time_major"]:
                out[t, b] = new_h[b]
            else:
                out[b, t] = new_h[b]
        h = new_h
    if hidden is not None and T > 0:
        hidden[:] = h
    return out


def lstm_f32_record(L, inputs, hidden, cell, stateful) -> str:
    return (f"lstm_f32 {layer_f32_text(L)} {len(inputs)} {int(stateful)} " + " ".join(arr(bits(x)) for x in inputs)
            + f" {arr(bits(hidden))} {arr(bits(cell))}")


def floats(values) -> np.ndarray:
    return np.asarray(values, dtype=np.int64).astype(np.int32).view(np.float32)


F32_LAYOUTS = [
    (False, 1, 5, 7, 4, 0.0),
    (False, 3, 4, 9, 6, 0.0),
    (True, 2, 3, 12, 8, 0.8),
    (True, 1, 6, 5, 3, 0.0),
]


@pytest.mark.parametrize("layout", F32_LAYOUTS)
def test_lstm_f32_sequences_close_to_exact_math(lstm_driver, layout):
    time_major, batch, steps, in_size, hidden, clip = layout
    rng = np.random.default_rng(int(steps * 31 + in_size + hidden))
    L = random_layer_f32(rng, time_major=time_major, batch=batch, steps=steps, in_size=in_size, hidden=hidden,
                         cell_clip=clip, drop=("output_bias",))
    inputs = [rng.uniform(-1, 1, input_shape(L)).astype(np.float32) for _ in range(3)]
    for stateful in (True, False):
        h0 = rng.uniform(-0.5, 0.5, (batch, hidden)).astype(np.float32)
        c0 = rng.uniform(-1, 1, (batch, hidden)).astype(np.float32)
        got = lstm_driver.run([lstm_f32_record(L, inputs, h0, c0, stateful)])[0]
        assert got[0] == 0
        values = floats(got[1:])
        h, c = h0.astype(np.float64), c0.astype(np.float64)
        want = np.concatenate([sequence_f32(L, x, h if stateful else None, c).reshape(-1) for x in inputs])
        n = want.size
        # ns-cmsis-nn's tanh table is within 6.7e-4 of tanh; the error stays of that order through the steps
        np.testing.assert_allclose(values[:n], want, atol=3e-3)
        np.testing.assert_allclose(values[n:n + h.size], h.reshape(-1) if stateful else h0.reshape(-1), atol=3e-3)
        np.testing.assert_allclose(values[n + h.size:], c.reshape(-1), atol=3e-3)
        if clip > 0:
            assert np.abs(values[n + h.size:]).max() <= clip


def test_step_f32_with_batch_offset(lstm_driver):
    rng = np.random.default_rng(23)
    batch, offset, in_size, hidden = 2, 3, 4, 5
    L = random_layer_f32(rng, time_major=True, batch=batch, steps=1, in_size=in_size, hidden=hidden)
    data = rng.uniform(-1, 1, (batch, offset, in_size)).astype(np.float32)
    h_in = rng.uniform(-1, 1, (batch, offset, hidden)).astype(np.float32)
    c0 = rng.uniform(-1, 1, (batch, hidden)).astype(np.float32)
    got = lstm_driver.run([f"step_f32 {layer_f32_text(L)} {offset} {arr(bits(data))} {arr(bits(h_in))} "
                           f"{arr(bits(c0))}"])[0]
    assert got[0] == 0
    out = floats(got[1:1 + batch * offset * hidden]).reshape(batch, offset, hidden)
    c = c0.astype(np.float64)
    h = h_in[:, 0, :].astype(np.float64)
    want = sequence_f32(L, data[:, :1, :].transpose(1, 0, 2), h.copy(), c)
    np.testing.assert_allclose(out[:, 0, :], want[0], atol=3e-3)
    assert (floats(got[1:1 + batch * offset * hidden]).reshape(batch, offset, hidden)[:, 1:, :].view(np.int32)
            == 0x5A5A5A5A).all()


def test_step_f32_refuses_batch_offset_0(lstm_driver):
    """arm_nn_lstm_step_f32 checks its arguments as ns-cmsis-nn does: a batch_offset of 0 is ARM_CMSIS_NN_ARG_ERROR."""
    rng = np.random.default_rng(1)
    L = random_layer_f32(rng, time_major=True, batch=1, steps=1, in_size=2, hidden=2)
    got = lstm_driver.run([f"step_f32 {layer_f32_text(L)} 0 {arr(bits(np.zeros(2)))} 0 {arr(bits(np.zeros(2)))}"])[0]
    assert got[0] == -1  # ARM_CMSIS_NN_ARG_ERROR


# ---- parity with ns-cmsis-nn ---------------------------------------------------------------------

def parity_records(seed: int) -> list[str]:
    rng = np.random.default_rng(seed)
    records = []
    for _ in range(12):
        time_major = bool(rng.integers(0, 2))
        batch, steps = int(rng.integers(1, 4)), int(rng.integers(1, 5))
        in_size, hidden = int(rng.integers(1, 20)), int(rng.integers(1, 12))
        clip = int(rng.choice([0, 0, 300, 20480]))
        L = random_layer_s8(rng, time_major=time_major, batch=batch, steps=steps, in_size=in_size, hidden=hidden,
                            cell_clip=clip, cell_power=int(rng.choice([-12, -11, -10, -9])))
        inputs = [rng.integers(-128, 128, input_shape(L)) for _ in range(3)]
        h0, c0 = rng.integers(-128, 128, (batch, hidden)), rng.integers(-32768, 32768, (batch, hidden))
        records.append(lstm_s8_record(L, inputs, h0, c0, bool(rng.integers(0, 2))))
        offset = int(rng.integers(1, 4))
        data = rng.integers(-128, 128, (batch, offset, in_size))
        h_in = rng.integers(-128, 128, (batch, offset, hidden))
        records.append(f"step_s8 {layer_s8_text(L)} {offset} {arr(data)} "
                       f"{arr(h_in) if rng.integers(0, 2) else '0'} {arr(c0)}")
        Lf = random_layer_f32(rng, time_major=time_major, batch=batch, steps=steps, in_size=in_size, hidden=hidden,
                              cell_clip=float(rng.choice([0.0, 0.5, 3.0])),
                              drop=tuple(rng.choice(["forget_bias", "cell_bias", "none"], 1)))
        xf = [(rng.uniform(-3, 3, input_shape(Lf))).astype(np.float32) for _ in range(2)]
        hf, cf = rng.uniform(-1, 1, (batch, hidden)), rng.uniform(-2, 2, (batch, hidden))
        records.append(lstm_f32_record(Lf, xf, hf, cf, bool(rng.integers(0, 2))))
        records.append(f"step_f32 {layer_f32_text(Lf)} {offset} {arr(bits(rng.uniform(-3, 3, (batch, offset, in_size))))} "
                       f"{arr(bits(rng.uniform(-1, 1, (batch, offset, hidden))))} {arr(bits(cf))}")
        cols, rows = int(rng.integers(1, 40)), int(rng.integers(1, 9))
        records.append(f"vecmat {cols} {rows} {batch} {offset} {int(rng.integers(2**30, 2**31))} "
                       f"{int(rng.integers(-10, 3))} {arr(rng.integers(-128, 128, batch * offset * cols))} "
                       f"{arr(rng.integers(-128, 128, rows * cols))} {arr(rng.integers(-10**6, 10**6, rows))} "
                       f"{arr(rng.integers(-32768, 32768, batch * rows))}")
        n = int(rng.integers(1, 30))
        mult, shift = int(rng.integers(2**30, 2**31)), int(rng.integers(-25, -10))
        records.append(f"mulacc {mult} {shift} {-clip} {clip} {arr(rng.integers(-32768, 32768, n))} "
                       f"{arr(rng.integers(-32768, 32768, n))} {arr(rng.integers(-32768, 32768, n))}")
        records.append(f"muls8 {n} {batch} {offset} {int(rng.integers(-128, 128))} {mult} {shift + 8} "
                       f"{arr(rng.integers(-32768, 32768, n * batch))} {arr(rng.integers(-32768, 32768, n * batch))}")
    return records


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_bit_identical_to_ns_cmsis_nn(seed, lstm_driver, ns_lstm_driver):
    records = parity_records(seed)
    portable = lstm_driver.run_text(records)
    reference = ns_lstm_driver.run_text(records)
    assert len(portable.splitlines()) == len(records)
    for k, (a, b) in enumerate(zip(portable.splitlines(), reference.splitlines())):
        assert a == b, f"record {k}: {records[k][:200]}"

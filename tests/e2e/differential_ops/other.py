# SPDX-License-Identifier: Apache-2.0
"""Differential case generators: the other operators (reductions, arg-max/min, batch matmul, the LSTM and TFLM's
Signal operators). Each walks the rules its operator declares (helia_aot/ops/<op>.py) on both sides of their
boundaries; tests/e2e/differential.py asks the references and helia-aot."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator

import numpy as np

from tests.e2e.differential import Case, _grid, _name
from tests.modelgen import ModelBuilder
from tests.modelgen.cases import CASES_DIR, build_case_model, load_case


def _walk(rng: np.random.Generator, first: list[dict], axes: dict[str, list], limit: int) -> Iterator[dict]:
    """`first` (points that reach a reference-run match and the rules' boundaries within CI's few cases), then
    the grid's points: `limit` in all."""
    yield from (list(first) + list(_grid(rng, axes, limit)))[:limit]

# --------------------------------------------------------------------------- reductions

# (input shape, axis values, what the point tests): kernel-sized, merged, rank 5 (the inline loop), and an axis
# past the rank (AXIS_RANGE_RULE: LiteRT's reduce.cc refuses it).
_REDUCE_SHAPES = [((2, 3, 4), [1]), ((2, 3, 4), [0, 2]), ((2, 3, 4), [-1, 2]), ((1, 3, 4, 2), [1, 2]),
                  ((2, 3, 2, 2, 2), [0, 2, 4]), ((2, 5), [2])]
_REDUCE_DTYPES = {"SUM": ["int8", "float32", "int32", "int16"], "REDUCE_MAX": ["int8", "int16", "float32", "int32"],
                  "REDUCE_MIN": ["int8", "int16", "float32", "int32"], "REDUCE_PROD": ["int8", "int16", "float32"],
                  "REDUCE_ANY": ["bool"]}


def _reduced(shape, axis, keep):
    rank = len(shape)
    axes = {a % rank for a in axis if -rank <= a < rank}
    return tuple(1 if d in axes else shape[d] for d in range(rank) if keep or d not in axes)


def reduce_cases(op: str) -> Callable[[np.random.Generator, int], Iterator[Case]]:
    # quant: "same" (output in the input's quantization), "other" (another scale; int8 another zero point),
    # "zp16" (an int16 zero point: LiteRT's int16 rule), "wide" (REDUCE_PROD: a rescaling shift of 8 or more).
    quants = ["same", "other", "zp16"] + (["wide"] if op == "REDUCE_PROD" else [])
    dtypes = _REDUCE_DTYPES[op]
    first = [dict(dtype=dtypes[0], shape=_REDUCE_SHAPES[0], keep_dims=False, quant="same"),
             dict(dtype=dtypes[-1], shape=_REDUCE_SHAPES[-1], keep_dims=True, quant="same"),
             dict(dtype=dtypes[1 % len(dtypes)], shape=_REDUCE_SHAPES[3], keep_dims=True, quant="other"),
             dict(dtype=dtypes[1] if op == "REDUCE_PROD" else dtypes[0], shape=_REDUCE_SHAPES[0], keep_dims=False,
                  quant="wide" if op == "REDUCE_PROD" else "other")]

    def cases(rng: np.random.Generator, limit: int) -> Iterator[Case]:
        axes = {"dtype": dtypes, "shape": _REDUCE_SHAPES, "keep_dims": [False, True], "quant": quants}
        for k, p in enumerate(_walk(rng, first, axes, limit)):
            dtype, (shape, axis), keep, quant = p["dtype"], p["shape"], p["keep_dims"], p["quant"]
            if quant == "wide":
                # REDUCE_PROD's rescaling shift of 8 to 14 (relaxed from LiteRT's DCHECK of 7): one input per
                # output, so the output is (code - zero point) x about 2^8 or 2^9, and small codes keep it unclamped
                shape, axis = (3, 1, 4), [1]
            out = _reduced(shape, axis, keep)
            b = ModelBuilder()
            fixed = {}
            xs = ys = xz = yz = None
            if dtype == "int8":
                xs, xz = float(rng.uniform(0.02, 0.1)), int(rng.integers(-20, 20))
                ys, yz = (xs, xz) if quant in ("same", "zp16") else (xs * 1.7, xz // 2 + 3)
                if quant == "wide":
                    ys, yz = xs / 150, 0
                    fixed = {"x": (xz + rng.integers(-1, 2, size=shape)).astype(np.int8)}
                if op == "SUM":
                    # LiteRT's int8 SUM reads the codes as uint8 and adds them plainly at one scale (the README's
                    # known difference; the module computes TFLM's): small non-negative codes and a zero point of
                    # 0 or below keep every sum where LiteRT's reading and TFLM's agree.
                    xz = 0 if quant in ("same", "zp16") else -2
                    ys, yz = (xs, 0) if quant in ("same", "zp16") else (xs * 2, 5)
                    fixed = {"x": rng.integers(0, 8, size=shape).astype(np.int8)}
            elif dtype == "int16":
                xs, xz = float(rng.uniform(0.02, 0.1)) / 256, (3 if quant == "zp16" else 0)
                ys, yz = (xs, xz) if quant in ("same", "zp16") else (xs * 1.7, 0)
                if op == "SUM":
                    # LiteRT's int16 SUM output is wrong (measured 32768 codes from TFLM's; the module computes
                    # TFLM's, checked by tests/e2e/cases/sum_int16_rescaled.yaml against TFLM): only its zero-point
                    # rule, where LiteRT refuses and TFLM answers, is walked here.
                    xz = yz = 3
                if quant == "wide":
                    ys = xs / 300
                    fixed = {"x": rng.integers(-60, 61, size=shape).astype(np.int16)}
            x = b.input("x", shape, dtype=dtype, scale=xs, zero_point=xz)
            ax = b.const("axis", np.asarray(axis, np.int32))
            y = b.tensor("y", out, dtype=dtype, scale=ys, zero_point=yz)
            b.op(op, [x, ax], [y], {"keep_dims": keep})
            b.output(y)
            yield Case(op, _name(op, k, p), b.build(),
                       f"{dtype} shape {shape} axis {axis} keep_dims {keep}, quantization {quant}", fixed=fixed)
    return cases


# --------------------------------------------------------------------------- ARG_MAX / ARG_MIN

_INDEX_TYPES = {"int32": 2, "int64": 4}


def arg_cases(op: str) -> Callable[[np.random.Generator, int], Iterator[Case]]:
    def cases(rng: np.random.Generator, limit: int) -> Iterator[Case]:
        # axis: one value (negative, last), two values (ONE_AXIS), past the rank (AXIS_RANGE_RULE); output_type
        # as the output's dtype, or naming the other one (OUTPUT_TYPE).
        axes = {"dtype": ["int8", "float32", "int32", "bool"], "shape": [(2, 5), (3, 4, 2), (1, 7)],
                "axis": ["last", "first", "negative", "two", "past"], "index": ["int32", "int64", "other"]}
        first = [dict(dtype="int8", shape=(2, 5), axis="last", index="int32"),
                 dict(dtype="float32", shape=(3, 4, 2), axis="past", index="int32"),
                 dict(dtype="int32", shape=(3, 4, 2), axis="negative", index="int64"),
                 dict(dtype="bool", shape=(1, 7), axis="first", index="other")]
        for k, p in enumerate(_walk(rng, first, axes, limit)):
            dtype, shape = p["dtype"], p["shape"]
            rank = len(shape)
            axis = {"last": [rank - 1], "first": [0], "negative": [-1], "two": [0, 1], "past": [rank]}[p["axis"]]
            reduced = axis[0] % rank if p["axis"] != "past" else rank - 1
            out = tuple(d for i, d in enumerate(shape) if i != reduced) or (1,)
            out_dtype = "int32" if p["index"] == "other" else p["index"]
            code = _INDEX_TYPES["int64" if p["index"] == "other" else p["index"]]
            b = ModelBuilder()
            q = {"scale": 0.05, "zero_point": 3} if dtype == "int8" else {}
            x = b.input("x", shape, dtype=dtype, **q)
            ax = b.const("axis", np.asarray(axis, np.int32))
            y = b.tensor("y", out, dtype=out_dtype)
            b.op(op, [x, ax], [y], {"output_type": code})
            b.output(y)
            yield Case(op, _name(op, k, p), b.build(), f"{dtype} shape {shape} axis {axis}, output {out_dtype} "
                                                       f"(output_type {code})")
    return cases


# --------------------------------------------------------------------------- BATCH_MATMUL

# (lhs shape, rhs shape) before adj_x / adj_y: plain, batched, broadcast batch, three merged batch groups
# (TWO_BATCH_AXES: the integer kernels' limit), rank 6 (RANK), inner dimensions that disagree (INNER).
_MATMUL_SHAPES = {"plain": ((3, 5), (5, 4)), "batched": ((2, 3, 5), (2, 5, 4)),
                  "broadcast": ((2, 1, 3, 5), (3, 5, 4)), "three_groups": ((2, 1, 2, 3, 5), (1, 3, 1, 5, 4)),
                  "rank6": ((1, 1, 1, 2, 3, 5), (1, 1, 1, 2, 5, 4)), "inner": ((3, 5), (6, 4))}


def batch_matmul_cases(rng: np.random.Generator, limit: int) -> Iterator[Case]:
    axes = {"dtype": ["int8", "int16", "float32"], "shapes": list(_MATMUL_SHAPES), "adj_x": [False, True],
            "adj_y": [False, True], "rhs": ["input", "constant"], "zero_points": ["zero", "nonzero"]}
    first = [dict(dtype="int8", shapes="broadcast", adj_x=False, adj_y=False, rhs="input", zero_points="nonzero"),
             dict(dtype="int8", shapes="three_groups", adj_x=False, adj_y=True, rhs="constant", zero_points="zero"),
             dict(dtype="int16", shapes="batched", adj_x=True, adj_y=True, rhs="constant", zero_points="zero"),
             dict(dtype="float32", shapes="inner", adj_x=False, adj_y=False, rhs="input", zero_points="zero")]
    for k, p in enumerate(_walk(rng, first, axes, limit)):
        dtype = p["dtype"]
        lhs_shape, rhs_shape = (list(s) for s in _MATMUL_SHAPES[p["shapes"]])
        if p["adj_x"]:
            lhs_shape[-2:] = lhs_shape[-1], lhs_shape[-2]
        if p["adj_y"]:
            rhs_shape[-2:] = rhs_shape[-1], rhs_shape[-2]
        rows = lhs_shape[-1] if p["adj_x"] else lhs_shape[-2]
        cols = rhs_shape[-2] if p["adj_y"] else rhs_shape[-1]
        lb, rb = lhs_shape[:-2], rhs_shape[:-2]
        n = max(len(lb), len(rb))
        lb, rb = [1] * (n - len(lb)) + lb, [1] * (n - len(rb)) + rb
        out = [max(a, c) for a, c in zip(lb, rb)] + [rows, cols]
        nonzero = p["zero_points"] == "nonzero"
        b = ModelBuilder()
        if dtype == "float32":
            lq = rq = yq = {}
        elif dtype == "int8":
            lq = {"scale": 0.05, "zero_point": 7 if nonzero else 0}
            rq = {"scale": 0.02, "zero_point": -5 if nonzero else 0}
            yq = {"scale": 0.3, "zero_point": -3 if nonzero else 0}
        else:  # int16: LiteRT's and TFLM's zero-point rule
            lq = {"scale": 0.05 / 256, "zero_point": 2 if nonzero else 0}
            rq = {"scale": 0.02 / 256, "zero_point": 0}
            yq = {"scale": 0.3 / 256, "zero_point": 0}
        lhs = b.input("lhs", lhs_shape, dtype=dtype, **lq)
        if p["rhs"] == "constant":
            values = (rng.uniform(-1, 1, rhs_shape).astype(np.float32) if dtype == "float32" else
                      rng.integers(-100, 100, rhs_shape))
            rhs = b.const("rhs", values, dtype=dtype, **rq)
        else:
            rhs = b.input("rhs", rhs_shape, dtype=dtype, **rq)
        y = b.tensor("y", out, dtype=dtype, **yq)
        b.op("BATCH_MATMUL", [lhs, rhs], [y], {"adj_x": p["adj_x"], "adj_y": p["adj_y"]})
        b.output(y)
        yield Case("BATCH_MATMUL", _name("BATCH_MATMUL", k, p), b.build(),
                   f"{dtype} {p['shapes']} lhs {lhs_shape} rhs {rhs_shape} ({p['rhs']}), adj_x {p['adj_x']} adj_y "
                   f"{p['adj_y']}, zero points {p['zero_points']}")


# --------------------------------------------------------------------------- UNIDIRECTIONAL_SEQUENCE_LSTM

_LSTM_BASE = {"int8": "unidirectional_sequence_lstm_batch_major.yaml",
              "float32": "unidirectional_sequence_lstm_float32_batch_major.yaml"}


def _lstm_case(dtype: str, time_major: bool, cell_scale: str, extra: str, activation: str, seed: int):
    """A case file's LSTM with the point's changes: time-major (input and output axes 0 and 1 swapped), the cell
    state's scale (int8), peephole weights or CIFG, the fused activation."""
    case = load_case(CASES_DIR / _LSTM_BASE[dtype])
    inputs = [dict(spec) for spec in case.inputs]
    outputs = [dict(spec) for spec in case.outputs]
    by_name = {spec["name"]: spec for spec in inputs}
    cells = by_name["input_to_forget_weights"]["shape"][0]
    float_kind = {"dtype": "float32"} if dtype == "float32" else {}
    if time_major:
        for spec in (by_name["input"], outputs[0]):
            spec["shape"] = [spec["shape"][1], spec["shape"][0], *spec["shape"][2:]]
    if dtype == "int8":
        by_name["cell_state"]["scale"] = {"2^-11": 2.0 ** -11, "2^-15": 2.0 ** -15, "not_pot": 0.0005}[cell_scale]
    if extra == "peephole":
        for gate in ("input", "forget", "output"):
            spec = by_name[f"cell_to_{gate}_weights"]
            spec.clear()
            spec.update({"name": f"cell_to_{gate}_weights", "kind": "weights", "shape": [cells], "fan_in": 4,
                         **float_kind})
    elif extra == "cifg":
        for name in ("input_to_input_weights", "recurrent_to_input_weights", "input_gate_bias"):
            by_name[name].clear()
            by_name[name].update({"name": name, "kind": "omitted"})
    options = dict(case.options, time_major=time_major, fused_activation_function=activation)
    return dataclasses.replace(case, inputs=inputs, outputs=outputs, options=options, seed=seed)


def lstm_cases(rng: np.random.Generator, limit: int) -> Iterator[Case]:
    # int8: the cell scale's rules (a power of two: LiteRT; 2^-12..2^2: the kernel's), peephole / CIFG (the
    # kernel's limits), TANH only (the kernel's); float32: peephole and CIFG run, and every activation.
    axes = {"dtype": ["int8", "float32"], "time_major": [False, True], "cell_scale": ["2^-11", "2^-15", "not_pot"],
            "extra": ["none", "peephole", "cifg"], "activation": ["TANH", "RELU", "RELU_N1_TO_1", "SIGN_BIT"]}
    first = [dict(dtype="int8", time_major=False, cell_scale="2^-11", extra="none", activation="TANH"),
             dict(dtype="int8", time_major=True, cell_scale="2^-11", extra="none", activation="TANH"),
             dict(dtype="float32", time_major=True, cell_scale="2^-11", extra="peephole", activation="TANH"),
             dict(dtype="int8", time_major=False, cell_scale="not_pot", extra="none", activation="TANH"),
             dict(dtype="int8", time_major=False, cell_scale="2^-15", extra="none", activation="TANH"),
             dict(dtype="float32", time_major=False, cell_scale="2^-11", extra="cifg", activation="RELU_N1_TO_1"),
             dict(dtype="int8", time_major=False, cell_scale="2^-11", extra="cifg", activation="TANH"),
             dict(dtype="float32", time_major=False, cell_scale="2^-11", extra="none", activation="SIGN_BIT")]
    for k, p in enumerate(_walk(rng, first, axes, limit)):
        case = _lstm_case(p["dtype"], p["time_major"], p["cell_scale"], p["extra"], p["activation"], 1500 + k)
        what = (f"{p['dtype']} time_major {p['time_major']}, {p['extra']}, {p['activation']}"
                + (f", cell scale {p['cell_scale']}" if p["dtype"] == "int8" else ""))
        yield Case("UNIDIRECTIONAL_SEQUENCE_LSTM", _name("UNIDIRECTIONAL_SEQUENCE_LSTM", k, p),
                   build_case_model(case), what)


# --------------------------------------------------------------------------- TFLM's Signal operators
# LiteRT cannot load them; the harness asks TFLM. Options are walked around the ranges read_options declares
# (OPTION_RANGE), the key sets (OPTION_KEYS: TFLM reads each value at its position, whatever the key) and the
# unchecked sizes.

def _custom(code: str, inputs, outputs, options) -> bytes:
    """inputs: (name, shape, dtype) or (name, array, dtype, "const"); outputs: (name, shape, dtype)."""
    b = ModelBuilder()
    refs = [b.const(s[0], np.asarray(s[1]), s[2]) if len(s) == 4 else b.input(*s) for s in inputs]
    outs = [b.tensor(*s) for s in outputs]
    b.custom_op(code, refs, outs, options)
    for o in outs:
        b.output(o)
    return b.build()


def signal_window_cases(rng: np.random.Generator, limit: int) -> Iterator[Case]:
    axes = {"shift": [0, 12, 31, 32], "shape": [(16,), (2, 8), (12,)], "window": [8, 16],
            "options": ["exact", "extra_key"]}
    first = [dict(shift=12, shape=(2, 8), window=8, options="exact"),
             dict(shift=32, shape=(16,), window=16, options="exact"),
             dict(shift=0, shape=(12,), window=8, options="exact"),
             dict(shift=3, shape=(16,), window=8, options="extra_key"),
             dict(shift=31, shape=(16,), window=16, options="exact")]
    for k, p in enumerate(_walk(rng, first, axes, limit)):
        options = {"shift": p["shift"], **({"gain": 1} if p["options"] == "extra_key" else {})}
        window = rng.integers(-32768, 32768, p["window"]).astype(np.int16)
        model = _custom("SignalWindow", [("x", p["shape"], "int16"), ("w", window, "int16", "const")],
                        [("y", p["shape"], "int16")], options)
        yield Case("CUSTOM:SignalWindow", _name("signal_window", k, p), model,
                   f"shape {p['shape']} window {p['window']}, options {options}")


def signal_fft_auto_scale_cases(rng: np.random.Generator, limit: int) -> Iterator[Case]:
    axes = {"size": [16, 33, 1], "output": ["same", "longer"], "options": ["none", "extra_key"]}
    first = [dict(size=33, output="same", options="none"), dict(size=16, output="longer", options="none"),
             dict(size=16, output="same", options="extra_key"), dict(size=1, output="longer", options="none"),
             dict(size=1, output="same", options="none")]
    for k, p in enumerate(_walk(rng, first, axes, limit)):
        size = p["size"]
        options = {"shift": 1} if p["options"] == "extra_key" else {}
        model = _custom("SignalFftAutoScale", [("x", (size,), "int16")],
                        [("y", (size + (2 if p["output"] == "longer" else 0),), "int16"), ("bits", (), "int32")],
                        options)
        yield Case("CUSTOM:SignalFftAutoScale", _name("signal_fft_auto_scale", k, p), model,
                   f"{size} samples, output {p['output']}, options {options}")


def signal_energy_cases(rng: np.random.Generator, limit: int) -> Iterator[Case]:
    axes = {"bins": [(0, 9), (2, 5), (0, 10), (6, 3), (-1, 4)], "length": [18, 20]}
    first = [dict(bins=(2, 5), length=18), dict(bins=(0, 10), length=18), dict(bins=(-1, 4), length=20),
             dict(bins=(2, 12), length=20), dict(bins=(0, 9), length=18)]
    for k, p in enumerate(_walk(rng, first, axes, limit)):
        start, end = p["bins"]
        length = p["length"]
        model = _custom("SignalEnergy", [("x", (length,), "int16")], [("y", (length // 2,), "uint32")],
                        {"end_index": end, "start_index": start})
        yield Case("CUSTOM:SignalEnergy", _name("signal_energy", k, p), model,
                   f"{length // 2} complex bins, start_index {start} end_index {end}",
                   written={0: slice(max(start, 0), max(end, start, 0))})


def _filter_bank_config(rng: np.random.Generator, bins: int, channels: int, reach: int):
    """A mel-like configuration of channels + 1 bands over `bins` energies (band c starts where c - 1 did plus
    its width), weights in Q12; `reach` moves the last band that far past the energies."""
    widths = [int(v) for v in rng.integers(1, max(2, bins // (channels + 1)) + 1, channels + 1)]
    starts, firsts, at, weight = [], [], 0, 0
    for w in widths:
        starts.append(min(at, bins - w))
        firsts.append(weight)
        at += max(1, w // 2)
        weight += w
    starts[-1] += reach
    weights = rng.integers(0, 4096, weight).astype(np.int16)
    return weights, (4096 - weights).astype(np.int16), starts, firsts, widths


def signal_filter_bank_cases(rng: np.random.Generator, limit: int) -> Iterator[Case]:
    axes = {"channels": [4, 6], "bins": [24, 33], "reach": [0, 0, 40], "output": ["num_channels", "one_more"]}
    first = [dict(channels=6, bins=33, reach=0, output="num_channels"),
             dict(channels=4, bins=24, reach=40, output="num_channels"),
             dict(channels=6, bins=24, reach=0, output="one_more"),
             dict(channels=6, bins=33, reach=40, output="num_channels"),
             dict(channels=4, bins=24, reach=0, output="num_channels")]
    for k, p in enumerate(_walk(rng, first, axes, limit)):
        channels, bins = p["channels"], p["bins"]
        weights, unweights, starts, firsts, widths = _filter_bank_config(rng, bins, channels, p["reach"])
        out = channels + (1 if p["output"] == "one_more" else 0)
        model = _custom("SignalFilterBank", [
            ("x", (bins,), "uint32"), ("w", weights, "int16", "const"), ("uw", unweights, "int16", "const"),
            ("starts", np.asarray(starts), "int16", "const"), ("firsts", np.asarray(firsts), "int16", "const"),
            ("widths", np.asarray(widths), "int16", "const")], [("y", (out,), "uint64")], {"num_channels": channels})
        yield Case("CUSTOM:SignalFilterBank", _name("signal_filter_bank", k, p), model,
                   f"{channels} channels over {bins} energies, last band moved by {p['reach']}, output {out}")


def signal_filter_bank_square_root_cases(rng: np.random.Generator, limit: int) -> Iterator[Case]:
    # The harness draws no uint64 input and cannot set a scalar one, so the uint64 channels come from a
    # SignalFilterBank (as in TFLM's audio front end) and scale_bits is a constant: 0..31, or 32 (SHIFT).
    axes = {"bits": [0, 7, 15, 31, 32], "channels": [4, 6], "output": ["same", "longer"]}
    first = [dict(bits=7, channels=6, output="same"), dict(bits=32, channels=4, output="same"),
             dict(bits=15, channels=6, output="longer"), dict(bits=32, channels=6, output="longer"),
             dict(bits=0, channels=4, output="same")]
    for k, p in enumerate(_walk(rng, first, axes, limit)):
        bits, channels, bins = p["bits"], p["channels"], 24
        weights, unweights, starts, firsts, widths = _filter_bank_config(rng, bins, channels, 0)
        b = ModelBuilder()
        x = b.input("x", (bins,), "uint32")
        config = [b.const(name, np.asarray(values), "int16") for name, values in (
            ("w", weights), ("uw", unweights), ("starts", starts), ("firsts", firsts), ("widths", widths))]
        energies = b.tensor("energies", (channels,), "uint64")
        b.custom_op("SignalFilterBank", [x, *config], [energies], {"num_channels": channels})
        y = b.tensor("y", (channels + (1 if p["output"] == "longer" else 0),), "uint32")
        b.custom_op("SignalFilterBankSquareRoot", [energies, b.const("bits", np.asarray(bits, np.int32), "int32")],
                    [y], {})
        b.output(y)
        yield Case("CUSTOM:SignalFilterBankSquareRoot", _name("signal_filter_bank_square_root", k, p), b.build(),
                   f"{channels} filter bank channels, scale_bits {bits}, output {p['output']}")


def signal_filter_bank_log_cases(rng: np.random.Generator, limit: int) -> Iterator[Case]:
    axes = {"bits": [0, 3, 31, 32], "scale": [1600, 1, -5], "output": ["same", "shorter"]}
    first = [dict(bits=3, scale=1600, output="same"), dict(bits=32, scale=1600, output="same"),
             dict(bits=3, scale=1, output="shorter"), dict(bits=32, scale=-5, output="shorter"),
             dict(bits=0, scale=-5, output="same")]
    for k, p in enumerate(_walk(rng, first, axes, limit)):
        n = 10
        model = _custom("SignalFilterBankLog", [("x", (n,), "uint32")],
                        [("y", (n - (1 if p["output"] == "shorter" else 0),), "int16")],
                        {"input_correction_bits": p["bits"], "output_scale": p["scale"]})
        yield Case("CUSTOM:SignalFilterBankLog", _name("signal_filter_bank_log", k, p), model,
                   f"input_correction_bits {p['bits']}, output_scale {p['scale']}, output {p['output']}")


def signal_spectral_subtraction_cases(rng: np.random.Generator, limit: int) -> Iterator[Case]:
    axes = {"smoothing_bits": [10, 0, 31, 32], "subtraction_bits": [14, 63, 64], "clamping": [False, True],
            "channels": ["match", "other"]}
    first = [dict(smoothing_bits=10, subtraction_bits=14, clamping=False, channels="match"),
             dict(smoothing_bits=32, subtraction_bits=14, clamping=True, channels="match"),
             dict(smoothing_bits=10, subtraction_bits=14, clamping=False, channels="other"),
             dict(smoothing_bits=10, subtraction_bits=64, clamping=True, channels="match"),
             dict(smoothing_bits=0, subtraction_bits=63, clamping=True, channels="match")]
    for k, p in enumerate(_walk(rng, first, axes, limit)):
        n = 8
        options = {"alternate_one_minus_smoothing": 15729, "alternate_smoothing": 655, "clamping": p["clamping"],
                   "min_signal_remaining": 1638, "num_channels": n if p["channels"] == "match" else n + 1,
                   "one_minus_smoothing": 15729, "smoothing": 655, "smoothing_bits": p["smoothing_bits"],
                   "spectral_subtraction_bits": p["subtraction_bits"]}
        model = _custom("SignalFilterBankSpectralSubtraction", [("x", (n,), "uint32")],
                        [("y", (n,), "uint32"), ("noise", (n,), "uint32")], options)
        yield Case("CUSTOM:SignalFilterBankSpectralSubtraction", _name("signal_spectral_subtraction", k, p), model,
                   f"smoothing_bits {p['smoothing_bits']}, spectral_subtraction_bits {p['subtraction_bits']}, "
                   f"clamping {p['clamping']}, num_channels {options['num_channels']} of {n}")


def signal_pcan_cases(rng: np.random.Generator, limit: int) -> Iterator[Case]:
    axes = {"snr_shift": [6, 0, 63, 64], "lut": [125, 124], "lut_kind": ["const", "input"]}
    first = [dict(snr_shift=6, lut=125, lut_kind="const"), dict(snr_shift=64, lut=125, lut_kind="const"),
             dict(snr_shift=6, lut=124, lut_kind="const"), dict(snr_shift=64, lut=125, lut_kind="input"),
             dict(snr_shift=0, lut=125, lut_kind="input")]
    for k, p in enumerate(_walk(rng, first, axes, limit)):
        n = 8
        lut_values = rng.integers(0, 32767, p["lut"]).astype(np.int16)
        lut = ("lut", lut_values, "int16", "const") if p["lut_kind"] == "const" else ("lut", (p["lut"],), "int16")
        model = _custom("SignalPCAN", [("x", (n,), "uint32"), ("noise", (n,), "uint32"), lut],
                        [("y", (n,), "uint32")], {"snr_shift": p["snr_shift"]})
        yield Case("CUSTOM:SignalPCAN", _name("signal_pcan", k, p), model,
                   f"snr_shift {p['snr_shift']}, gain_lut {p['lut']} entries ({p['lut_kind']})",
                   fixed={"lut": lut_values} if p["lut_kind"] == "input" else {})


def signal_rfft_cases(rng: np.random.Generator, limit: int) -> Iterator[Case]:
    axes = {"dtype": ["int16", "int32", "float32"], "fft_length": [16, 64, 15], "frame": ["equal", "shorter",
                                                                                       "longer"],
            "type_code": ["right", "wrong"], "frames": [(), (2,)]}
    codes = {"int16": 7, "int32": 2, "float32": 0}
    first = [dict(dtype="int16", fft_length=64, frame="shorter", type_code="right", frames=(2,)),
             dict(dtype="int32", fft_length=15, frame="equal", type_code="right", frames=()),
             dict(dtype="int16", fft_length=16, frame="longer", type_code="right", frames=()),
             dict(dtype="int32", fft_length=64, frame="equal", type_code="wrong", frames=(2,)),
             dict(dtype="float32", fft_length=16, frame="equal", type_code="right", frames=())]
    for k, p in enumerate(_walk(rng, first, axes, limit)):
        dtype, n = p["dtype"], p["fft_length"]
        frame = {"equal": n, "shorter": n - 5, "longer": n + 2}[p["frame"]]
        lead = tuple(p["frames"])
        code = codes[dtype] if p["type_code"] == "right" else codes["int32" if dtype != "int32" else "int16"]
        model = _custom("SignalRfft", [("x", (*lead, frame), dtype)], [("y", (*lead, n + 2), dtype)],
                        {"T": code, "fft_length": n})
        yield Case("CUSTOM:SignalRfft", _name("signal_rfft", k, p), model,
                   f"{dtype} fft_length {n}, frames of {frame} x {lead or 1}, T {code}")


# --------------------------------------------------------------------------- resource variables

_RESOURCE_SHAPE = (1, 6)
_RESOURCE_QUANT = {"int8": dict(scale=0.25, zero_point=3), "int16": dict(scale=0.01, zero_point=0)}


def _resource_model(dtype: str, init: str, assign: str, extra_handle: bool) -> bytes:
    """acc = acc + x, out = acc (tests/modelgen/stateful.py's form) with one point moved across a rule:
    `init` constant (CALL_ONCE assigns a constant), computed (its subgraph assigns an ADD of constants,
    folded at conversion), reads (an ADD of the variable's own value: its reset value, as TFLM reads it;
    LiteRT refuses the read) or none (no CALL_ONCE: the variable starts at its reset value); `assign` same,
    requantized / reshaped (the value assigned back has another quantization or shape, as many codes: copied
    as they are) or resized (fewer elements: ONE_SIZE, reference undefined); `extra_handle` adds a
    VAR_HANDLE nothing reads or assigns (HANDLE_RESOLVED)."""
    b = ModelBuilder(f"resource variable {dtype}")
    q = _RESOURCE_QUANT.get(dtype, {})
    start = np.full(_RESOURCE_SHAPE, 2)
    if init != "none":
        sub = b.subgraph("init")
        handle0 = sub.resource("acc_handle_init")
        sub.op("VAR_HANDLE", [], [handle0], {"container": "", "shared_name": "acc"})
        value = sub.const("acc_initial", start, dtype, **q)
        if init == "reads":  # the variable's own value: known only at run time
            value = sub.tensor("acc_initial_read", _RESOURCE_SHAPE, dtype, **q)
            sub.op("READ_VARIABLE", [handle0], [value])
        if init in ("computed", "reads"):
            total0 = sub.tensor("acc_initial_sum", _RESOURCE_SHAPE, dtype, **q)
            sub.op("ADD", [value, sub.const("acc_step", start, dtype, **q)], [total0])
            value = total0
        sub.op("ASSIGN_VARIABLE", [handle0, value], [])
        b.op("CALL_ONCE", [], [], {"init_subgraph_index": sub.index})
    x = b.input("x", _RESOURCE_SHAPE, dtype, **q)
    handle = b.resource("acc_handle")
    b.op("VAR_HANDLE", [], [handle], {"container": "", "shared_name": "acc"})
    if extra_handle:
        b.op("VAR_HANDLE", [], [b.resource("unused_handle")], {"container": "", "shared_name": "unused"})
    read = b.tensor("acc_value", _RESOURCE_SHAPE, dtype, **q)
    b.op("READ_VARIABLE", [handle], [read])
    out_q = dict(q, scale=q["scale"] * 2) if assign == "requantized" and q else q
    total = b.tensor("acc_next", _RESOURCE_SHAPE, dtype, **out_q)
    b.op("ADD", [read, x], [total])
    assigned = total
    if assign == "reshaped":
        assigned = b.tensor("acc_next_flat", (_RESOURCE_SHAPE[1],), dtype, **out_q)
        b.op("RESHAPE", [total, b.const("flat", np.asarray([_RESOURCE_SHAPE[1]], np.int32))], [assigned],
             {"new_shape": [_RESOURCE_SHAPE[1]]})
    elif assign == "resized":
        assigned = b.tensor("acc_next_head", (1, _RESOURCE_SHAPE[1] - 1), dtype, **out_q)
        b.op("SLICE", [total, b.const("begin", np.asarray([0, 0], np.int32)),
                       b.const("size", np.asarray([1, _RESOURCE_SHAPE[1] - 1], np.int32))], [assigned])
    b.op("ASSIGN_VARIABLE", [handle, assigned], [])
    b.output(total)
    return b.build()


def resource_cases(op: str) -> Callable[[np.random.Generator, int], Iterator[Case]]:
    """One walk for the four resource operators, led by the rule the named operator declares."""
    lead = {"CALL_ONCE": "init", "READ_VARIABLE": "assign", "ASSIGN_VARIABLE": "assign",
            "VAR_HANDLE": "extra_handle"}[op]
    plain = dict(dtype="int8", init="constant", assign="same", extra_handle=False)
    moved = {"init": [dict(plain, init="computed"), dict(plain, dtype="float32", init="reads"),
                      dict(plain, init="none", assign="resized")],
             "assign": [dict(plain, assign="requantized"), dict(plain, dtype="float32", assign="reshaped"),
                        dict(plain, assign="resized")],
             # An unused handle is dropped (both references run it too), so the walk's boundary here is a
             # value of another size assigned to the handle's variable.
             "extra_handle": [dict(plain, extra_handle=True), dict(plain, init="reads", extra_handle=True),
                              dict(plain, assign="resized", extra_handle=True)]}[lead]
    first = [plain, *moved, dict(plain, dtype="int32")]
    axes = {"dtype": ["int8", "int16", "float32", "int32"], "init": ["constant", "computed", "reads", "none"],
            "assign": ["same", "requantized", "reshaped", "resized"], "extra_handle": [False, True]}

    def cases(rng: np.random.Generator, limit: int) -> Iterator[Case]:
        for k, p in enumerate(_walk(rng, first, axes, limit)):
            if p["assign"] == "requantized" and p["dtype"] not in _RESOURCE_QUANT:
                p = dict(p, assign="same")
            yield Case(op, _name(op, k, p), _resource_model(**p),
                       f"{p['dtype']} variable, initialised {p['init']}, assigned {p['assign']}"
                       + (", an unused handle" if p["extra_handle"] else ""))
    return cases


GENERATORS: dict[str, Callable[[np.random.Generator, int], Iterator[Case]]] = {
    **{op: reduce_cases(op) for op in ("SUM", "REDUCE_MAX", "REDUCE_MIN", "REDUCE_PROD", "REDUCE_ANY")},
    "ARG_MAX": arg_cases("ARG_MAX"),
    "ARG_MIN": arg_cases("ARG_MIN"),
    "BATCH_MATMUL": batch_matmul_cases,
    "UNIDIRECTIONAL_SEQUENCE_LSTM": lstm_cases,
    "CUSTOM:SignalWindow": signal_window_cases,
    "CUSTOM:SignalFftAutoScale": signal_fft_auto_scale_cases,
    "CUSTOM:SignalEnergy": signal_energy_cases,
    "CUSTOM:SignalFilterBank": signal_filter_bank_cases,
    "CUSTOM:SignalFilterBankSquareRoot": signal_filter_bank_square_root_cases,
    "CUSTOM:SignalFilterBankLog": signal_filter_bank_log_cases,
    "CUSTOM:SignalFilterBankSpectralSubtraction": signal_spectral_subtraction_cases,
    "CUSTOM:SignalPCAN": signal_pcan_cases,
    "CUSTOM:SignalRfft": signal_rfft_cases,
    **{op: resource_cases(op) for op in ("CALL_ONCE", "VAR_HANDLE", "READ_VARIABLE", "ASSIGN_VARIABLE")},
}
# Cases per operator in CI where fewer than tests/e2e/test_differential.py's default keep the suite in budget:
# each generator leads with a match and a boundary (its `first` points); tools/differential walks more.
CI_CASES: dict[str, int] = {op: 4 for op in GENERATORS}

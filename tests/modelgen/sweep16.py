# SPDX-License-Identifier: Apache-2.0
"""Seeded sweep of single-operator int16 (A16W8) models over the space LiteRT accepts.

Each model is drawn from `quant.rng((seed, index))`: an operator (round-robin over OPERATORS), then
its shapes, options and quantization, written as a `cases.Case` so that weights, biases and the
calibration of outputs on a float twin are the ones the case files use. A drawn model LiteRT's
reference kernels refuse (at Prepare or Invoke) is not a test of ours: it is counted and drawn again.

    from tests.modelgen import sweep16
    for model in sweep16.sweep(120, seed=sweep16.SEED):
        model.name, model.op, model.model_bytes

Shapes lean towards what audio networks have: [1, 1, T, C] with 1xK kernels, [1, T, F, C], small
odd channel counts, batch 2 now and then. `python -m tests.modelgen.sweep16 --n 50 --out DIR` writes
the models and prints one line per model.
"""

from __future__ import annotations

import argparse
import dataclasses
import faulthandler
import os
import pathlib
import re
from typing import Any, Callable

import numpy as np

from tests.modelgen import quant
from tests.modelgen.cases import Case, build_case_model
from tests.modelgen.litert import make_interpreter, random_inputs

SEED = 16016
# Redraws of one index before giving up: LiteRT refuses some draws (e.g. int16 CONV_2D without bias).
MAX_DRAWS = 50
ACTIVATIONS = ("NONE", "NONE", "RELU", "RELU6", "RELU_N1_TO_1")


@dataclasses.dataclass(frozen=True)
class SweepModel:
    index: int
    name: str
    op: str
    description: str
    model_bytes: bytes
    refused_draws: int  # draws LiteRT refused before this one


class _Draw:
    """A seeded source of choices for one model."""

    def __init__(self, generator: np.random.Generator):
        self.g = generator

    def pick(self, *values):
        return values[int(self.g.integers(len(values)))]

    def int(self, lo: int, hi: int) -> int:
        """Uniform in [lo, hi]."""
        return int(self.g.integers(lo, hi + 1))

    def chance(self, p: float) -> bool:
        return bool(self.g.random() < p)

    def magnitude(self) -> float:
        """A real activation range's half-width, 0.05 .. 20, log-uniform, 4 significant digits."""
        return float(f"{float(np.exp(self.g.uniform(np.log(0.05), np.log(20.0)))):.4g}")

    def channels(self) -> int:
        return self.pick(1, 2, 3, 4, 5, 7, 8, 12, 16, 24, 32)


def _act(name: str, shape, draw: _Draw, dtype: str = "int16", magnitude: float | None = None) -> dict:
    m = draw.magnitude() if magnitude is None else magnitude
    if dtype == "int16":
        return {"name": name, "kind": "activation", "shape": list(shape), "dtype": dtype, "range": [-m, m]}
    # int8: asymmetric like the converter's, the range off-centre now and then.
    lo = -m * draw.pick(1.0, 0.5, 0.1, 1.0)
    return {"name": name, "kind": "activation", "shape": list(shape), "dtype": dtype, "range": [lo, m]}


def _out(shape, how: dict | None = None, dtype: str = "int16") -> dict:
    return {"name": "output", "shape": [int(d) for d in shape], "dtype": dtype, **(how or {"calibrate": True})}


def _conv_out(size: int, kernel: int, stride: int, dilation: int, padding: str) -> int:
    if padding == "SAME":
        return -(-size // stride)
    return (size - ((kernel - 1) * dilation + 1)) // stride + 1


def _spatial(draw: _Draw) -> tuple[int, int, int]:
    """(N, H, W): audio-like [1, 1, T], [1, T, F] or small images; batch 2 now and then."""
    n = 2 if draw.chance(0.15) else 1
    h, w = draw.pick((1, draw.int(8, 64)), (draw.int(2, 12), draw.int(4, 40)), (draw.int(1, 9), draw.int(1, 9)),
                     (1, 256), (draw.int(8, 32), 1))
    return n, h, w


def _bias_input(draw: _Draw, options: dict, allow_int32: bool = True, allow_none: bool = True) -> dict | None:
    kinds = ["int64", "int64"] + (["int32"] if allow_int32 else []) + (["none"] if allow_none else [])
    kind = draw.pick(*kinds)
    if kind == "none":
        return None
    if kind == "int32":
        options["quantized_bias_type"] = "INT32"
    return {"name": "bias", "kind": "bias", "input": "input", "weights": "filter", "dtype": kind,
            "std": draw.pick(0.02, 0.1, 0.5)}


def conv_2d(draw: _Draw) -> tuple[dict, str]:
    n, h, w = _spatial(draw)
    cin, cout = draw.channels(), draw.channels()
    kh, kw = draw.pick((1, 1), (1, 3), (1, 5), (3, 1), (3, 3), (2, 3), (5, 1), (1, 7), (1, 2), (4, 4), (3, 5))
    if h == 1 and kh > 1 and draw.chance(0.8):
        kh = 1
    sh, sw = draw.pick((1, 1), (1, 1), (1, 2), (2, 1), (2, 2), (1, 3), (3, 2))
    dh, dw = draw.pick((1, 1), (1, 1), (1, 2), (2, 1), (1, 4), (2, 3), (3, 3))
    padding = draw.pick("SAME", "VALID")
    options = {"padding": padding, "stride_h": sh, "stride_w": sw, "dilation_h_factor": dh,
               "dilation_w_factor": dw, "fused_activation_function": draw.pick(*ACTIVATIONS)}
    oh, ow = _conv_out(h, kh, sh, dh, padding), _conv_out(w, kw, sw, dw, padding)
    if oh < 1 or ow < 1:
        raise _Redraw
    per_channel = draw.chance(0.75)
    # Grouped now and then: filter channels a divisor of the input's (one channel per group included).
    groups = draw.pick(2, 3, 4, cin) if draw.chance(0.15) else 1
    if groups > 1:
        cin = cin * groups if groups != cin else cin
        cout = groups * draw.pick(1, 1, 2, 3)
    filt = {"name": "filter", "kind": "weights", "shape": [cout, kh, kw, cin // groups]}
    if per_channel:
        filt["per_channel_axis"] = 0
    inputs = [_act("input", (n, h, w, cin), draw), filt]
    b = _bias_input(draw, options, allow_none=draw.chance(0.2))
    if b is not None:
        inputs.append(b)
    variant = (f"{kh}x{kw}_s{sh}x{sw}_d{dh}x{dw}_{padding.lower()}_{n}x{h}x{w}x{cin}_to_{cout}"
               f"_{'pc' if per_channel else 'pt'}_{b['dtype'] if b else 'nobias'}"
               f"_{options['fused_activation_function']}" + (f"_g{groups}" if groups > 1 else ""))
    return dict(op="CONV_2D", options=options, inputs=inputs, outputs=[_out((n, oh, ow, cout))]), variant


def depthwise_conv_2d(draw: _Draw) -> tuple[dict, str]:
    n, h, w = _spatial(draw)
    cin, mult = draw.channels(), draw.pick(1, 1, 2, 3)
    kh, kw = draw.pick((3, 3), (1, 3), (3, 1), (1, 5), (5, 5), (2, 2), (1, 1), (3, 2))
    if h == 1 and kh > 1 and draw.chance(0.8):
        kh = 1
    sh, sw = draw.pick((1, 1), (1, 1), (2, 2), (1, 2), (2, 1))
    dh, dw = draw.pick((1, 1), (1, 1), (1, 2), (2, 1), (2, 2), (1, 3))
    padding = draw.pick("SAME", "VALID")
    options = {"padding": padding, "stride_h": sh, "stride_w": sw, "dilation_h_factor": dh,
               "dilation_w_factor": dw, "depth_multiplier": mult,
               "fused_activation_function": draw.pick(*ACTIVATIONS)}
    oh, ow = _conv_out(h, kh, sh, dh, padding), _conv_out(w, kw, sw, dw, padding)
    if oh < 1 or ow < 1:
        raise _Redraw
    cout = cin * mult
    per_channel = draw.chance(0.75)
    filt = {"name": "filter", "kind": "weights", "shape": [1, kh, kw, cout]}
    if per_channel:
        filt["per_channel_axis"] = 3
    inputs = [_act("input", (n, h, w, cin), draw), filt]
    if not draw.chance(0.15):
        inputs.append({"name": "bias", "kind": "bias", "input": "input", "weights": "filter", "dtype": "int64",
                       **({} if per_channel else {"size": cout})})
    variant = (f"{kh}x{kw}_m{mult}_s{sh}x{sw}_d{dh}x{dw}_{padding.lower()}_{n}x{h}x{w}x{cin}"
               f"_{'pc' if per_channel else 'pt'}_{'bias' if len(inputs) > 2 else 'nobias'}")
    return dict(op="DEPTHWISE_CONV_2D", options=options, inputs=inputs, outputs=[_out((n, oh, ow, cout))]), variant


def transpose_conv(draw: _Draw) -> tuple[dict, str]:
    n = 2 if draw.chance(0.1) else 1
    h, w = draw.pick((1, draw.int(4, 32)), (draw.int(2, 8), draw.int(2, 16)), (draw.int(1, 6), draw.int(1, 6)))
    cin, cout = draw.channels(), draw.channels()
    kh, kw = draw.pick((3, 3), (1, 3), (1, 4), (3, 1), (2, 2), (4, 4), (1, 5), (3, 2), (1, 1), (5, 3))
    if h == 1 and kh > 1 and draw.chance(0.8):
        kh = 1
    sh, sw = draw.pick((1, 1), (2, 2), (1, 2), (2, 1), (3, 3), (1, 3), (3, 1), (2, 3))
    padding = draw.pick("SAME", "VALID")

    def out_size(i, k, s):
        # Every output size whose forward convolution gives the input size (LiteRT's rule).
        if padding == "SAME":
            return draw.int((i - 1) * s + 1, i * s)
        return draw.int((i - 1) * s + k, (i - 1) * s + k + s - 1)
    oh, ow = out_size(h, kh, sh), out_size(w, kw, sw)
    options = {"padding": padding, "stride_h": sh, "stride_w": sw}
    if draw.chance(0.2):
        options["fused_activation_function"] = draw.pick("RELU", "RELU6", "RELU_N1_TO_1")
    per_channel = draw.chance(0.75)
    filt = {"name": "filter", "kind": "weights", "shape": [cout, kh, kw, cin]}
    if per_channel:
        filt["per_channel_axis"] = 0
    inputs = [{"name": "output_shape", "kind": "const", "dtype": "int32", "value": [n, oh, ow, cout]}, filt,
              _act("input", (n, h, w, cin), draw)]
    b = _bias_input(draw, options)
    if b is not None:
        if not per_channel:
            b["size"] = cout
        inputs.append(b)
    variant = (f"{kh}x{kw}_s{sh}x{sw}_{padding.lower()}_{n}x{h}x{w}x{cin}_to_{oh}x{ow}x{cout}"
               f"_{'pc' if per_channel else 'pt'}_{b['dtype'] if b else 'nobias'}"
               f"_{options.get('fused_activation_function', 'NONE')}")
    return dict(op="TRANSPOSE_CONV", options=options, inputs=inputs, outputs=[_out((n, oh, ow, cout))]), variant


def _any_shape(draw: _Draw, rank: int | None = None) -> list[int]:
    rank = rank or draw.pick(1, 2, 3, 4, 4)
    shapes = {1: [draw.int(1, 40)], 2: [draw.int(1, 4), draw.int(1, 40)],
              3: [draw.int(1, 2), draw.int(1, 16), draw.int(1, 24)],
              4: draw.pick([1, 1, draw.int(4, 64), draw.channels()], [draw.int(1, 2), draw.int(1, 8), draw.int(1, 16),
                                                                      draw.channels()])}
    return list(shapes[rank])


def leaky_relu(draw: _Draw) -> tuple[dict, str]:
    shape = _any_shape(draw)
    alpha = draw.pick(0.2, 0.01, 0.3, 0.1, 1.5, 2.0, -0.5, 0.0, 1.0, -1.25)
    inputs = [_act("input", shape, draw)]
    m = inputs[0]["range"][1]
    # Output scale: calibrated, or the converter's choice for a layer whose range it observed wider/narrower.
    how = draw.pick({"calibrate": True}, {"calibrate": True}, {"range": [-m, m]},
                    {"range": [-m * max(abs(alpha), 1.0) * 1.7, m * max(abs(alpha), 1.0) * 1.7]})
    return dict(op="LEAKY_RELU", options={"alpha": alpha}, inputs=inputs, outputs=[_out(shape, how)]), \
        f"alpha{alpha}_{'x'.join(map(str, shape))}"


def pad(draw: _Draw) -> tuple[dict, str]:
    rank = draw.pick(2, 3, 4, 4)
    shape = _any_shape(draw, rank)
    pads = [[draw.pick(0, 0, 1, 2, 3), draw.pick(0, 0, 1, 2, 4)] for _ in range(rank)]
    if rank == 4 and draw.chance(0.5):
        pads[0] = [0, 0]
    op = draw.pick("PAD", "PADV2")
    inputs = [_act("input", shape, draw), {"name": "paddings", "kind": "const", "dtype": "int32", "value": pads}]
    if op == "PADV2":
        inputs.append({"name": "constant_values", "kind": "const", "dtype": "int16", "shape": [],
                       "value": draw.int(-32768, 32767), "same_as": "input"})
    out_shape = [d + p[0] + p[1] for d, p in zip(shape, pads)]
    return dict(op=op, options={}, inputs=inputs, outputs=[_out(out_shape, {"same_as": "input"})]), \
        f"{'x'.join(map(str, shape))}_pads{'_'.join(f'{a}{b}' for a, b in pads)}"


def strided_slice(draw: _Draw) -> tuple[dict, str]:
    rank = draw.pick(1, 2, 3, 4, 4)
    shape = _any_shape(draw, rank)
    begin, end, strides = [], [], []
    begin_mask = end_mask = shrink = 0
    index: list[Any] = []
    for d, n in enumerate(shape):
        s = draw.pick(1, 1, 1, 2, 3)
        b = draw.int(-n, n - 1)
        e = draw.pick(draw.int(-n, n), n, 0) if draw.chance(0.8) else draw.int(-2 * n, 2 * n)
        bm, em = draw.chance(0.25), draw.chance(0.25)
        sk = draw.chance(0.15)
        begin.append(b)
        end.append(e)
        strides.append(s)
        begin_mask |= bm << d
        end_mask |= em << d
        if sk:
            shrink |= 1 << d
            index.append((0 if bm else b))
        else:
            index.append(slice(None if bm else b, None if em else e, s))
    try:
        out_shape = list(np.zeros(shape)[tuple(index)].shape)
    except IndexError:
        raise _Redraw from None
    if int(np.prod(out_shape)) == 0:
        raise _Redraw
    options = {"begin_mask": begin_mask, "end_mask": end_mask, "shrink_axis_mask": shrink}
    inputs = [_act("input", shape, draw),
              {"name": "begin", "kind": "const", "dtype": "int32", "value": begin},
              {"name": "end", "kind": "const", "dtype": "int32", "value": end},
              {"name": "strides", "kind": "const", "dtype": "int32", "value": strides}]
    return dict(op="STRIDED_SLICE", options=options, inputs=inputs,
                outputs=[_out(out_shape, {"same_as": "input"})]), \
        f"{'x'.join(map(str, shape))}_b{begin}_e{end}_s{strides}_m{begin_mask}.{end_mask}.{shrink}".replace(" ", "")


def _broadcast_pair(draw: _Draw) -> tuple[list[int], list[int], list[int]]:
    out = _any_shape(draw)
    if draw.chance(0.4):
        return out, list(out), list(out)
    a = [d if draw.chance(0.6) else 1 for d in out]
    b = [d if draw.chance(0.6) else 1 for d in out]
    if draw.chance(0.3):
        b = b[draw.int(0, len(b) - 1):] or [1]
    # Where neither keeps a dimension the output has 1 there.
    rank = len(out)
    bb = [1] * (rank - len(b)) + b
    out = [max(x, y) for x, y in zip(a, bb)]
    if draw.chance(0.5):
        a, b = b, a
    return a, b, out


def add_sub(draw: _Draw, op: str) -> tuple[dict, str]:
    a, b, out = _broadcast_pair(draw)
    pot = draw.chance(0.25)
    options = {"fused_activation_function": draw.pick(*ACTIVATIONS)}
    if pot:
        # pot_scale_int16 true (the schema default) with power-of-two scales: LiteRT's narrow path.
        options["pot_scale_int16"] = True
        k = draw.int(8, 15)
        ka, kb = draw.pick((k, k), (k, k + draw.int(0, 3)), (k + draw.int(0, 3), k))
        inputs = [{"name": "input", "kind": "activation", "shape": a, "dtype": "int16", "scale": 2.0 ** -ka,
                   "zero_point": 0},
                  {"name": "other", "kind": "activation", "shape": b, "dtype": "int16", "scale": 2.0 ** -kb,
                   "zero_point": 0}]
        ko = draw.pick(min(ka, kb), min(ka, kb), min(ka, kb) - 1)
        outputs = [_out(out, {"scale": 2.0 ** -ko, "zero_point": 0})]
    else:
        options["pot_scale_int16"] = draw.pick(False, False, True)  # True with general scales: general path
        inputs = [_act("input", a, draw), _act("other", b, draw)]
        outputs = [_out(out)]
    return dict(op=op, options=options, inputs=inputs, outputs=outputs), \
        f"{'x'.join(map(str, a))}_{'x'.join(map(str, b))}_pot{int(options['pot_scale_int16'])}{'s' if pot else ''}" \
        f"_{options['fused_activation_function']}"


def mul(draw: _Draw) -> tuple[dict, str]:
    a, b, out = _broadcast_pair(draw)
    options = {"fused_activation_function": draw.pick(*ACTIVATIONS)}
    return dict(op="MUL", options=options, inputs=[_act("input", a, draw), _act("other", b, draw)],
                outputs=[_out(out)]), f"{'x'.join(map(str, a))}_{'x'.join(map(str, b))}"


def concatenation(draw: _Draw) -> tuple[dict, str]:
    rank = draw.pick(2, 3, 4, 4)
    shape = _any_shape(draw, rank)
    axis = draw.int(-rank, rank - 1)
    m = draw.magnitude()
    inputs, total = [], 0
    for k in range(draw.pick(2, 2, 3, 4)):
        s = list(shape)
        s[axis] = draw.int(1, 8)
        total += s[axis]
        inputs.append(_act(f"input{k}" if k else "input", s, draw, magnitude=m))
    out = list(shape)
    out[axis] = total
    return dict(op="CONCATENATION", options={"axis": axis}, inputs=inputs,
                outputs=[_out(out, {"same_as": "input"})]), \
        f"axis{axis}_{'_'.join('x'.join(map(str, i['shape'])) for i in inputs)}"


def quantize(draw: _Draw) -> tuple[dict, str]:
    shape = _any_shape(draw)
    kind = draw.pick("int16_int32", "int32_int16", "int16_int16", "int8_int16", "int16_int8", "int16_int32",
                     "int32_int16")
    src, dst = kind.split("_")
    m = draw.magnitude()
    f = draw.pick(1.0, 0.5, 2.0, 0.01, 37.0, 1.0 / 3)
    if src == "int32":
        # An int32 tensor of a requantization chain: scale much finer than an int16 one.
        inputs = [{"name": "input", "kind": "activation", "shape": shape, "dtype": "int32",
                   "scale": float(np.float32(m / 2 ** draw.int(20, 31))), "zero_point": 0}]
    else:
        inputs = [_act("input", shape, draw, dtype=src, magnitude=m)]
    if dst == "int32":
        how = {"scale": float(np.float32(m / 32767 / 2 ** draw.int(0, 16) * draw.pick(1.0, 0.77))), "zero_point": 0}
    elif dst == "int8":
        how = {"range": [-m * f, m * f * draw.pick(1.0, 0.5)]}
    else:
        how = {"range": [-m * f, m * f]}
    return dict(op="QUANTIZE", options={}, inputs=inputs, outputs=[_out(shape, how, dst)]), \
        f"{kind}_{'x'.join(map(str, shape))}"


def fully_connected(draw: _Draw) -> tuple[dict, str]:
    depth, units = draw.pick(1, 3, 8, 16, 33, 64), draw.pick(1, 2, 5, 16, 32, 40)
    keep = draw.chance(0.4)
    in_shape = draw.pick([draw.int(1, 3), depth], [1, draw.int(1, 8), depth], [draw.int(1, 2), draw.int(1, 4), depth])
    options = {"fused_activation_function": draw.pick(*ACTIVATIONS), "keep_num_dims": keep}
    per_channel = draw.chance(0.5)
    filt = {"name": "filter", "kind": "weights", "shape": [units, depth]}
    if per_channel:
        filt["per_channel_axis"] = 0
    inputs = [_act("input", in_shape, draw), filt]
    b = _bias_input(draw, options)
    if b is not None:
        inputs.append(b)
    batches = int(np.prod(in_shape[:-1]))
    out = in_shape[:-1] + [units] if keep else [batches, units]
    return dict(op="FULLY_CONNECTED", options=options, inputs=inputs, outputs=[_out(out)]), \
        f"{'x'.join(map(str, in_shape))}_to_{units}_{'keep' if keep else 'flat'}_{'pc' if per_channel else 'pt'}" \
        f"_{b['dtype'] if b else 'nobias'}"


def mean(draw: _Draw) -> tuple[dict, str]:
    rank = draw.pick(2, 3, 4, 4, 4)
    shape = _any_shape(draw, rank)
    axes = sorted({draw.int(0, rank - 1) for _ in range(draw.int(1, rank))})
    if draw.chance(0.2):
        axes = [a - rank for a in axes]
    keep = draw.chance(0.5)
    out = [1 if (d in axes or d - rank in axes) else n for d, n in enumerate(shape)
           if keep or not (d in axes or d - rank in axes)]
    return dict(op="MEAN", options={"keep_dims": keep},
                inputs=[_act("input", shape, draw),
                        {"name": "axis", "kind": "const", "dtype": "int32", "value": axes}],
                outputs=[_out(out)]), f"{'x'.join(map(str, shape))}_axes{axes}_{'keep' if keep else 'drop'}"


class _Redraw(Exception):
    """The drawn shapes are empty or inconsistent: draw again (not a LiteRT refusal)."""


# Operator -> generator; the CI sweep cycles through them, the convolutions twice as often.
OPERATORS: dict[str, Callable[[_Draw], tuple[dict, str]]] = {
    "CONV_2D": conv_2d,
    "DEPTHWISE_CONV_2D": depthwise_conv_2d,
    "TRANSPOSE_CONV": transpose_conv,
    "CONV_2D ": conv_2d,
    "TRANSPOSE_CONV ": transpose_conv,
    "LEAKY_RELU": leaky_relu,
    "PAD": pad,
    "STRIDED_SLICE": strided_slice,
    "ADD": lambda d: add_sub(d, "ADD"),
    "SUB": lambda d: add_sub(d, "SUB"),
    "MUL": mul,
    "CONCATENATION": concatenation,
    "QUANTIZE": quantize,
    "FULLY_CONNECTED": fully_connected,
    "MEAN": mean,
    "DEPTHWISE_CONV_2D ": depthwise_conv_2d,
}
_ORDER = list(OPERATORS)


def _survives(data: bytes) -> bool:
    """Runs the model once in a forked child: some refusals are aborts (e.g. int16 ADD with
    pot_scale_int16 and broadcasting trips a check), which would end this process."""
    pid = os.fork()
    if pid == 0:  # child: no cleanup, no atexit handlers of the parent
        code = 1
        try:
            faulthandler.disable()  # the abort's report is not ours to show
            os.dup2(os.open(os.devnull, os.O_WRONLY), 2)
            make_interpreter(data).invoke()
            code = 0
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    return os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0


def litert_accepts(data: bytes, output_shapes: list) -> bool:
    """LiteRT's reference kernels prepare and run the model once (on zeros). An output shape LiteRT
    computes differently from the one drawn is a bug of this generator, not a refusal."""
    if not _survives(data):
        return False
    try:
        interp = make_interpreter(data)
        interp.invoke()
    except (RuntimeError, ValueError):
        return False
    got = [list(d["shape"]) for d in interp.get_output_details()]
    if got != [list(s) for s in output_shapes]:
        raise RuntimeError(f"sweep16: LiteRT computes output shapes {got}, the generator drew {output_shapes}")
    return True


def degenerate(data: bytes, generator: np.random.Generator) -> bool:
    """The calibration saw no range (e.g. a fused RELU over only negative sums): an output scale at the
    1e-8 floor, whose requantization multiplier is far past what LiteRT's kernels allow (shift < 8), or
    every output one constant over a few full-range inputs. Such a model tests nothing."""
    interp = make_interpreter(data)
    # The calibration's floor (quant.symmetric_scale): it saw only zeros.
    if any(0 < d["quantization"][0] < 1e-7 / 32767 for d in interp.get_output_details()):
        return True
    seen = [set() for _ in interp.get_output_details()]
    for _ in range(3):
        for detail, value in zip(interp.get_input_details(), random_inputs(data, generator)):
            interp.set_tensor(detail["index"], value)
        interp.invoke()
        for k, detail in enumerate(interp.get_output_details()):
            seen[k].update(np.unique(interp.get_tensor(detail["index"])).tolist())
    return any(len(values) < 2 for values in seen)


def draw_model(index: int, seed: int = SEED) -> SweepModel:
    generator = quant.rng(seed * 1_000_003 + index)
    draw = _Draw(generator)
    make = OPERATORS[_ORDER[index % len(_ORDER)]]
    refused = 0
    for attempt in range(MAX_DRAWS):
        try:
            spec, variant = make(draw)
        except _Redraw:
            continue
        case = Case(path=pathlib.Path(f"<sweep16 seed {seed} index {index}>"), op=spec["op"], variant=variant,
                    seed=int(generator.integers(1 << 30)), options=spec["options"], inputs=spec["inputs"],
                    outputs=spec["outputs"], tolerance=1, tolerance_reason="int16 sweep: one code")
        try:
            data = build_case_model(case)
        except (RuntimeError, ValueError):  # the float twin refused during calibration
            refused += 1
            continue
        if not litert_accepts(data, [o["shape"] for o in spec["outputs"]]):
            refused += 1
            continue
        if degenerate(data, generator):
            continue
        name = re.sub(r"[^A-Za-z0-9_.-]+", "", f"{index:04d}_{spec['op'].lower()}_{variant}")
        return SweepModel(index, name, spec["op"], variant, data, refused)
    raise RuntimeError(f"sweep16: index {index} ({make.__name__}) found no model LiteRT accepts in {MAX_DRAWS} draws")


def sweep(n: int, seed: int = SEED, start: int = 0) -> list[SweepModel]:
    return [draw_model(i, seed) for i in range(start, start + n)]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=50)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--out", type=pathlib.Path)
    args = parser.parse_args(argv)
    for model in sweep(args.n, args.seed, args.start):
        print(f"{model.name}  (LiteRT refused {model.refused_draws} draws first)")
        if args.out:
            args.out.mkdir(parents=True, exist_ok=True)
            (args.out / f"{model.name}.tflite").write_bytes(model.model_bytes)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

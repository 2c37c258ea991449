# SPDX-License-Identifier: Apache-2.0
"""Batches of independent int8 operators, each drawn with its own quantization parameters and
attributes, in one model: the operators a MobileNetV2 exported from PyTorch (ai-edge-torch) is made
of, to find a one-code disagreement with TFLM's interpreter across many parameters for the cost of one
conversion and one compile per batch.

`build(op, count, seed) -> (bytes, descriptions)`: `count` copies of `op` (one of OPERATORS), copy i
reading its own graph inputs and writing graph output i; descriptions[i] says what copy i drew
(scales, zero points, attributes), to name a case that differs.

    python -m tests.modelgen.op_batches --op ADD --count 8     # prints what each copy drew
"""

from __future__ import annotations

import argparse
import sys
from typing import Callable, Sequence

import numpy as np

from tests.modelgen import quant
from tests.modelgen.builder import ModelBuilder, TensorRef
from tests.modelgen.errors import BuilderError


def _scale(g: np.random.Generator, lo: float = 1e-3, hi: float = 0.5) -> float:
    """A float32 scale log-uniform in [lo, hi] (the spread calibrated activations have)."""
    return float(np.float32(np.exp(g.uniform(np.log(lo), np.log(hi)))))


def _zp(g: np.random.Generator) -> int:
    return int(g.integers(-128, 128))


def _act(b: ModelBuilder, g, name, shape, scale=None, zp=None) -> TensorRef:
    return b.tensor(name, shape, "int8", _scale(g) if scale is None else scale, _zp(g) if zp is None else zp)


def _inp(b: ModelBuilder, g, name, shape, scale=None, zp=None) -> TensorRef:
    return b.input(name, shape, "int8", _scale(g) if scale is None else scale, _zp(g) if zp is None else zp)


def _hw(g) -> tuple[int, int, int]:
    return int(g.integers(1, 9)), int(g.integers(1, 9)), int(g.integers(1, 17))


def _q(t: TensorRef) -> str:
    return f"{t.scale:.6g}/{t.zero_point}"


def _add(b, g, i):
    h, w, c = _hw(g)
    x = _inp(b, g, f"a{i}", (1, h, w, c))
    # Residual inputs: both from the same block, scales within a factor of ~8 of each other.
    y = _inp(b, g, f"b{i}", (1, h, w, c), scale=float(np.float32(x.scale * np.exp(g.uniform(-2, 2)))))
    act = str(g.choice(["NONE", "NONE", "RELU6", "RELU"]))
    out = _act(b, g, f"sum{i}", (1, h, w, c), scale=float(np.float32((x.scale + y.scale) * g.uniform(0.5, 1.5))))
    b.op("ADD", [x, y], [out], {"fused_activation_function": act})
    return out, f"ADD {h}x{w}x{c} a {_q(x)} b {_q(y)} out {_q(out)} {act}"


def _mean(b, g, i):
    h, w, c = int(g.integers(1, 15)), int(g.integers(1, 15)), int(g.integers(1, 33))
    keep = bool(g.integers(0, 2))
    x = _inp(b, g, f"x{i}", (1, h, w, c))
    same = g.uniform() < 0.25   # the output may keep the input's quantization
    out = _act(b, g, f"mean{i}", (1, 1, 1, c) if keep else (1, c),
               scale=x.scale if same else None, zp=x.zero_point if same else None)
    axis = b.const(f"axis{i}", np.array([1, 2], dtype=np.int32))
    b.op("MEAN", [x, axis], [out], {"keep_dims": keep})
    return out, f"MEAN {h}x{w}x{c} keep_dims={keep} in {_q(x)} out {_q(out)}"


def _pad(b, g, i):
    h, w, c = _hw(g)
    x = _inp(b, g, f"x{i}", (1, h, w, c))
    pads = [[0, 0], [int(g.integers(0, 2)), int(g.integers(0, 3))], [int(g.integers(0, 2)), int(g.integers(0, 3))],
            [0, 0]]
    shape = tuple(d + lo + hi for d, (lo, hi) in zip(x.shape, pads))
    out = b.tensor(f"pad{i}", shape, "int8", x.scale, x.zero_point)
    b.op("PAD", [x, b.const(f"pads{i}", np.array(pads, dtype=np.int32))], [out])
    return out, f"PAD {h}x{w}x{c} {pads} {_q(x)}"


def _quantize(b, g, i):
    h, w, c = _hw(g)
    x = _inp(b, g, f"x{i}", (1, h, w, c))
    out = _act(b, g, f"requant{i}", (1, h, w, c), scale=float(np.float32(x.scale * np.exp(g.uniform(-3, 3)))))
    b.op("QUANTIZE", [x], [out])
    return out, f"QUANTIZE {h}x{w}x{c} in {_q(x)} out {_q(out)}"


def _hard_swish(b, g, i):
    h, w, c = _hw(g)
    x = _inp(b, g, f"x{i}", (1, h, w, c), scale=_scale(g, 0.005, 0.1))
    out = _act(b, g, f"hswish{i}", (1, h, w, c), scale=_scale(g, 0.005, 0.1))
    b.op("HARD_SWISH", [x], [out])
    return out, f"HARD_SWISH {h}x{w}x{c} in {_q(x)} out {_q(out)}"


def _average_pool(b, g, i):
    h, w, c = int(g.integers(2, 12)), int(g.integers(2, 12)), int(g.integers(1, 17))
    kh, kw = int(g.integers(1, min(h, 7) + 1)), int(g.integers(1, min(w, 7) + 1))
    sh, sw = int(g.integers(1, 3)), int(g.integers(1, 3))
    pad = str(g.choice(["SAME", "VALID"]))
    act = str(g.choice(["NONE", "RELU6"]))
    oh = -(-h // sh) if pad == "SAME" else (h - kh) // sh + 1
    ow = -(-w // sw) if pad == "SAME" else (w - kw) // sw + 1
    x = _inp(b, g, f"x{i}", (1, h, w, c))
    out = b.tensor(f"pool{i}", (1, oh, ow, c), "int8", x.scale, x.zero_point)
    b.op("AVERAGE_POOL_2D", [x], [out], {"padding": pad, "stride_h": sh, "stride_w": sw, "filter_height": kh,
                                         "filter_width": kw, "fused_activation_function": act})
    return out, f"AVERAGE_POOL_2D {h}x{w}x{c} k{kh}x{kw} s{sh}x{sw} {pad} {act} {_q(x)}"


def _depthwise(b, g, i):
    h, w, c = int(g.integers(3, 10)), int(g.integers(3, 10)), int(g.integers(1, 9))
    mult = int(g.choice([1, 1, 2, 3]))
    stride = int(g.integers(1, 3))
    pad = str(g.choice(["SAME", "VALID"]))
    act = str(g.choice(["NONE", "RELU6"]))
    x = _inp(b, g, f"x{i}", (1, h, w, c), scale=_scale(g, 0.005, 0.1))
    wq, ws = quant.quantize_per_channel(quant.random_weights(g, (1, 3, 3, c * mult), 9), 3)
    bq, bs = quant.quantize_bias(g.normal(0, 0.1, c * mult), x.scale, ws)
    oh = -(-h // stride) if pad == "SAME" else (h - 3) // stride + 1
    ow = -(-w // stride) if pad == "SAME" else (w - 3) // stride + 1
    out = _act(b, g, f"dw{i}", (1, oh, ow, c * mult), scale=_scale(g, 0.005, 0.2))
    b.op("DEPTHWISE_CONV_2D", [x, b.const(f"w{i}", wq, "int8", ws, 0, 3), b.const(f"bias{i}", bq, "int32", bs, 0)],
         [out], {"padding": pad, "stride_h": stride, "stride_w": stride, "depth_multiplier": mult,
                 "dilation_h_factor": 1, "dilation_w_factor": 1, "fused_activation_function": act})
    return out, f"DEPTHWISE_CONV_2D {h}x{w}x{c} x{mult} s{stride} {pad} {act} in {_q(x)} out {_q(out)}"


def _minmax(b, g, i):
    """ReLU6 as PyTorch's clamp exports it: MINIMUM(MAXIMUM(x, 0), 6) against quantized constants."""
    h, w, c = _hw(g)
    x = _inp(b, g, f"x{i}", (1, h, w, c), scale=_scale(g, 0.01, 0.1))
    zero = b.const(f"zero{i}", np.array([x.zero_point], dtype=np.int8), "int8", x.scale, x.zero_point)
    six = b.const(f"six{i}", quant.quantize(np.array([6.0]), x.scale, x.zero_point), "int8", x.scale, x.zero_point)
    mid = b.tensor(f"max{i}", (1, h, w, c), "int8", x.scale, x.zero_point)
    out = b.tensor(f"min{i}", (1, h, w, c), "int8", x.scale, x.zero_point)
    b.op("MAXIMUM", [x, zero], [mid])
    b.op("MINIMUM", [mid, six], [out])
    return out, f"MAXIMUM/MINIMUM {h}x{w}x{c} {_q(x)}"


OPERATORS: dict[str, Callable] = {
    "ADD": _add, "MEAN": _mean, "PAD": _pad, "QUANTIZE": _quantize, "HARD_SWISH": _hard_swish,
    "AVERAGE_POOL_2D": _average_pool, "DEPTHWISE_CONV_2D": _depthwise, "MAXIMUM_MINIMUM": _minmax,
}


def build(op: str, count: int, seed: int) -> tuple[bytes, list[str]]:
    """`count` independent copies of `op`, each with its own draws; same arguments, same bytes."""
    if op not in OPERATORS:
        raise BuilderError(f"unknown operator batch '{op}'; use one of {sorted(OPERATORS)}")
    g = quant.rng(seed)
    b = ModelBuilder(description=f"helia-aot {count} x int8 {op} (seed {seed})")
    descriptions = []
    for i in range(count):
        out, description = OPERATORS[op](b, g, i)
        b.output(out)
        descriptions.append(description)
    return b.build(), descriptions


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--op", required=True, choices=sorted(OPERATORS))
    parser.add_argument("--count", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    _, descriptions = build(args.op, args.count, args.seed)
    print("\n".join(descriptions))
    return 0


if __name__ == "__main__":
    sys.exit(main())

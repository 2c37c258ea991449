# SPDX-License-Identifier: Apache-2.0
"""KWS DS-CNN int8 model with the MLPerf Tiny reference layer structure, seeded weights.

Layers (as in the MLPerf Tiny kws_ref_model): input 1x49x10x1 int8 (49 frames of
10 MFCC features); CONV_2D 10x4 stride 2 SAME -> 64 channels + RELU; four blocks of
DEPTHWISE_CONV_2D 3x3 SAME + RELU and CONV_2D 1x1 -> 64 + RELU; AVERAGE_POOL_2D
25x5 VALID; RESHAPE to 1x64; FULLY_CONNECTED -> 12; SOFTMAX.

Weights are random (He-normal from a fixed seed), so the 12 classes mean nothing:
the model exists to exercise the compiler on the real KWS structure. Activation
ranges are calibrated by a float64 numpy forward pass over seeded random inputs,
then every tensor is quantized the way the TFLite converter lays it out: per-channel
symmetric int8 weights, int32 bias with scale input_scale * weight_scale, asymmetric
int8 activations, softmax output scale 1/256 and zero point -128.

Regenerate byte-for-byte:  python -m tests.modelgen.kws --out models/kws.tflite
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import pathlib
import sys

import numpy as np

from tests.modelgen import quant
from tests.modelgen.builder import ModelBuilder, TensorRef

SEED = 20240601
INPUT_SHAPE = (1, 49, 10, 1)
# Real range of the int8 input: MFCC features in the reference model span about
# [-123, 26]; we use a round range of the same size and asymmetry.
INPUT_RANGE = (-120.0, 30.0)
CHANNELS = 64
NUM_CLASSES = 12
NUM_BLOCKS = 4
CALIBRATION_SAMPLES = 32
# Calibrated ranges are rounded to this many significant digits so that last-bit
# differences in float summation between numpy builds cannot change the bytes.
RANGE_DIGITS = 4


# -- float reference (NHWC, float64) -------------------------------------------

def _same_padding(size: int, kernel: int, stride: int) -> tuple[int, int, int]:
    out = -(-size // stride)
    total = max((out - 1) * stride + kernel - size, 0)
    return out, total // 2, total - total // 2  # TFLite puts the odd pixel after


def _pad_same(x: np.ndarray, kh: int, kw: int, stride: int) -> np.ndarray:
    _, h, w, _ = x.shape
    _, top, bottom = _same_padding(h, kh, stride)
    _, left, right = _same_padding(w, kw, stride)
    return np.pad(x, ((0, 0), (top, bottom), (left, right), (0, 0)))


def _windows(x: np.ndarray, kh: int, kw: int, stride: int) -> np.ndarray:
    """[N, OH, OW, KH, KW, C] view of the (already padded) input."""
    n, h, w, c = x.shape
    oh, ow = (h - kh) // stride + 1, (w - kw) // stride + 1
    s = x.strides
    return np.lib.stride_tricks.as_strided(
        x, (n, oh, ow, kh, kw, c), (s[0], s[1] * stride, s[2] * stride, s[1], s[2], s[3]),
        writeable=False)


def conv2d(x, w, b, stride):
    """w: [O, KH, KW, I] as LiteRT stores it; SAME padding."""
    _, kh, kw, _ = w.shape
    win = _windows(_pad_same(x, kh, kw, stride), kh, kw, stride)
    return np.einsum("nhwijc,oijc->nhwo", win, w) + b


def depthwise_conv2d(x, w, b):
    """w: [1, KH, KW, C]; depth multiplier 1, stride 1, SAME padding."""
    _, kh, kw, _ = w.shape
    win = _windows(_pad_same(x, kh, kw, 1), kh, kw, 1)
    return np.einsum("nhwijc,ijc->nhwc", win, w[0]) + b


def relu(x):
    return np.maximum(x, 0.0)


def softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


# -- parameters -----------------------------------------------------------------

@dataclasses.dataclass
class QuantLayer:
    """A layer's quantized weights and their dequantized float values."""

    weights_q: np.ndarray
    weight_scales: list[float]
    weights: np.ndarray  # dequantized, used by the float pass
    bias: np.ndarray  # float; quantized once the input scale is known
    axis: int | None  # per-channel axis, None for per-tensor


def _layer(generator, shape, fan_in, axis) -> QuantLayer:
    w = quant.random_weights(generator, shape, fan_in)
    b = generator.normal(0.0, 0.05, size=shape[axis if axis is not None else 0])
    if axis is None:
        q, scale = quant.quantize_per_tensor_symmetric(w)
        return QuantLayer(q, [scale], quant.dequantize(q, scale, 0), b, None)
    q, scales = quant.quantize_per_channel(w, axis)
    bshape = [1] * len(shape)
    bshape[axis] = -1
    return QuantLayer(q, scales, quant.dequantize(q, np.array(scales).reshape(bshape), 0), b,
                      axis)


def make_layers(seed: int = SEED) -> dict[str, QuantLayer]:
    g = quant.rng(seed)
    layers = {"conv0": _layer(g, (CHANNELS, 10, 4, 1), 10 * 4, 0)}
    for i in range(1, NUM_BLOCKS + 1):
        layers[f"dw{i}"] = _layer(g, (1, 3, 3, CHANNELS), 9, 3)
        layers[f"pw{i}"] = _layer(g, (CHANNELS, 1, 1, CHANNELS), CHANNELS, 0)
    layers["fc"] = _layer(g, (NUM_CLASSES, CHANNELS), CHANNELS, None)
    return layers


def float_forward(layers: dict[str, QuantLayer], x: np.ndarray) -> dict[str, np.ndarray]:
    """Float64 forward pass; returns every activation by tensor name."""
    acts = {"input": x}
    h = relu(conv2d(x, layers["conv0"].weights, layers["conv0"].bias, 2))
    acts["conv0"] = h
    for i in range(1, NUM_BLOCKS + 1):
        h = relu(depthwise_conv2d(h, layers[f"dw{i}"].weights, layers[f"dw{i}"].bias))
        acts[f"dw{i}"] = h
        h = relu(conv2d(h, layers[f"pw{i}"].weights, layers[f"pw{i}"].bias, 1))
        acts[f"pw{i}"] = h
    pooled = h.mean(axis=(1, 2), keepdims=True)
    acts["pool"] = pooled
    logits = pooled.reshape(1, CHANNELS) @ layers["fc"].weights.T + layers["fc"].bias
    acts["fc"] = logits
    acts["softmax"] = softmax(logits)
    return acts


def calibration_inputs(seed: int = SEED, count: int = CALIBRATION_SAMPLES) -> list[np.ndarray]:
    """Seeded float inputs spanning the input range, snapped to the int8 grid the
    quantized model sees."""
    scale, zp = quant.range_to_scale_zp(*INPUT_RANGE)
    g = quant.rng(seed + 1)
    out = []
    for _ in range(count):
        x = g.uniform(*INPUT_RANGE, size=INPUT_SHAPE)
        out.append(quant.dequantize(quant.quantize(x, scale, zp), scale, zp))
    return out


def _round_sig(value: float) -> float:
    return float(f"{value:.{RANGE_DIGITS}g}")


def calibrate(layers: dict[str, QuantLayer], seed: int = SEED) -> dict[str, tuple[float, float]]:
    ranges: dict[str, tuple[float, float]] = {}
    for x in calibration_inputs(seed):
        for name, value in float_forward(layers, x).items():
            lo, hi = ranges.get(name, (np.inf, -np.inf))
            ranges[name] = (min(lo, float(value.min())), max(hi, float(value.max())))
    return {k: (_round_sig(lo), _round_sig(hi)) for k, (lo, hi) in ranges.items()}


# -- the int8 model ---------------------------------------------------------------

def _add_weights(b: ModelBuilder, name: str, layer: QuantLayer, in_ref: TensorRef
                 ) -> tuple[TensorRef, TensorRef]:
    per_channel = layer.axis is not None
    w = b.const(f"{name}/weights", layer.weights_q, "int8",
                scale=layer.weight_scales if per_channel else layer.weight_scales[0],
                zero_point=0, quantized_dimension=layer.axis or 0)
    bias_q, bias_scales = quant.quantize_bias(layer.bias, in_ref.scale, layer.weight_scales)
    bias = b.const(f"{name}/bias", bias_q, "int32",
                   scale=bias_scales if per_channel else bias_scales[0], zero_point=0)
    return w, bias


def build_kws_model(seed: int = SEED) -> bytes:
    layers = make_layers(seed)
    ranges = calibrate(layers, seed)
    b = ModelBuilder(description=f"helia-aot KWS DS-CNN, random weights (seed {seed})")

    def act(name: str, shape) -> TensorRef:
        scale, zp = quant.range_to_scale_zp(*ranges[name])
        return b.tensor(name, shape, "int8", scale, zp)

    in_scale, in_zp = quant.range_to_scale_zp(*INPUT_RANGE)
    x = b.input("input", INPUT_SHAPE, "int8", in_scale, in_zp)
    conv_opts = {"padding": "SAME", "fused_activation_function": "RELU",
                 "dilation_h_factor": 1, "dilation_w_factor": 1}
    w, bias = _add_weights(b, "conv0", layers["conv0"], x)
    h = act("conv0", (1, 25, 5, CHANNELS))
    b.op("CONV_2D", [x, w, bias], [h], {**conv_opts, "stride_h": 2, "stride_w": 2})
    for i in range(1, NUM_BLOCKS + 1):
        w, bias = _add_weights(b, f"dw{i}", layers[f"dw{i}"], h)
        d = act(f"dw{i}", (1, 25, 5, CHANNELS))
        b.op("DEPTHWISE_CONV_2D", [h, w, bias], [d],
             {**conv_opts, "stride_h": 1, "stride_w": 1, "depth_multiplier": 1})
        w, bias = _add_weights(b, f"pw{i}", layers[f"pw{i}"], d)
        h = act(f"pw{i}", (1, 25, 5, CHANNELS))
        b.op("CONV_2D", [d, w, bias], [h], {**conv_opts, "stride_h": 1, "stride_w": 1})
    # Average pooling and reshape keep their input's quantization, as LiteRT requires.
    pooled = b.tensor("pool", (1, 1, 1, CHANNELS), "int8", h.scale, h.zero_point)
    b.op("AVERAGE_POOL_2D", [h], [pooled],
         {"padding": "VALID", "stride_h": 25, "stride_w": 5, "filter_height": 25,
          "filter_width": 5, "fused_activation_function": "NONE"})
    shape = b.const("flatten/shape", np.array([-1, CHANNELS], dtype=np.int32), "int32")
    flat = b.tensor("flatten", (1, CHANNELS), "int8", h.scale, h.zero_point)
    b.op("RESHAPE", [pooled, shape], [flat])
    w, bias = _add_weights(b, "fc", layers["fc"], flat)
    logits = act("fc", (1, NUM_CLASSES))
    b.op("FULLY_CONNECTED", [flat, w, bias], [logits],
         {"fused_activation_function": "NONE", "weights_format": "DEFAULT",
          "keep_num_dims": False})
    probs = b.tensor("softmax", (1, NUM_CLASSES), "int8", 1.0 / 256.0, -128)
    b.op("SOFTMAX", [logits], [probs], {"beta": 1.0})
    b.output(probs)
    return b.build()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True, type=pathlib.Path,
                        help="where to write the .tflite file")
    parser.add_argument("--seed", type=int, default=SEED,
                        help=f"weight seed (default {SEED}, the checked-in model)")
    args = parser.parse_args(argv)
    data = build_kws_model(args.seed)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_bytes(data)
    print(f"wrote {args.out} ({len(data)} bytes, sha256 {hashlib.sha256(data).hexdigest()})")
    return 0


if __name__ == "__main__":
    sys.exit(main())

# SPDX-License-Identifier: Apache-2.0
"""int8 MobileNetV2 shaped as ai-edge-torch exports torchvision's mobilenet_v2 after PT2E quantization,
with seeded random weights.

  input 1x3xHxW int8 (NCHW, as PyTorch gives it) -> TRANSPOSE to NHWC
  -> PAD 1 + CONV_2D 3x3 stride 2 VALID + RELU6 (PyTorch pads 1 on every side where TFLite's SAME
     would pad (0, 1), so the exporter writes the PAD and a VALID convolution)
  -> 17 inverted residual blocks (expansion t, channels c, repeats n, first stride s as torchvision's
     [1,16,1,1] [6,24,2,2] [6,32,3,2] [6,64,4,2] [6,96,3,1] [6,160,3,2] [6,320,1,1]):
     CONV_2D 1x1 + RELU6 (t > 1), DEPTHWISE_CONV_2D 3x3 + RELU6 (SAME at stride 1; PAD + VALID at
     stride 2), CONV_2D 1x1 (linear), ADD with the block input when the shapes allow (inputs and
     output each with their own scale)
  -> CONV_2D 1x1 to 1280 + RELU6 -> MEAN over H, W (keep_dims, output quantized as its input: PT2E
     shares the average pool's parameters) -> RESHAPE 1x1280 -> FULLY_CONNECTED 1000 (per-channel).

`width` scales every channel count as torchvision's width_mult does (rounded to multiples of 8, the
last 1280 kept for width <= 1); `size` is the input's height and width. Built twice, as
int16_models.py does: a float32 twin (the int8 weights dequantized) run in LiteRT to calibrate every
activation over seeded inputs, then the int8 model quantized the way PT2E's symmetric config and the
converter lay it out: asymmetric int8 activations, per-channel symmetric int8 weights (convolutions
and the classifier), int32 bias at input_scale * weight_scale; TRANSPOSE, PAD and RESHAPE keep their
input's quantization.

    from tests.modelgen import mobilenet_v2
    data = mobilenet_v2.build(size=224, width=1.0)     # same arguments, same bytes
    python -m tests.modelgen.mobilenet_v2 --size 224 --width 1.0 --out mobilenet_v2_224.tflite
"""

from __future__ import annotations

import argparse
import pathlib
import sys
from typing import Sequence

import numpy as np

from tests.modelgen import quant
from tests.modelgen.builder import ModelBuilder, TensorRef
from tests.modelgen.errors import BuilderError
from tests.modelgen.litert import make_interpreter

SEED = 20241130
# torchvision's inverted residual setting: expansion, output channels, repeats, first stride.
BLOCKS = ((1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2), (6, 96, 3, 1), (6, 160, 3, 2),
          (6, 320, 1, 1))
NUM_CLASSES = 1000
# ImageNet-normalized pixels span about this range ((0 - 0.485) / 0.229 .. (1 - 0.406) / 0.225).
INPUT_RANGE = (-2.1179, 2.6400)
CALIBRATION_SAMPLES = 4
# As int16_models: fresh random test inputs reach a little past what calibration saw.
RANGE_HEADROOM = 1.25
RANGE_DIGITS = 4


def _make_divisible(value: float, divisor: int = 8) -> int:
    """torchvision's _make_divisible: round to a multiple of 8, never more than 10% down."""
    new = max(divisor, int(value + divisor / 2) // divisor * divisor)
    return new + divisor if new < 0.9 * value else new


def _round_sig(value: float) -> float:
    return float(f"{value:.{RANGE_DIGITS}g}")


class _Net:
    """One pass over the network: float32 twin (ranges None) or int8."""

    def __init__(self, seed: int, ranges: dict[str, tuple[float, float]] | None, description: str):
        self.quantized = ranges is not None
        self.ranges = ranges or {}
        self.rng = quant.rng(seed)
        self.b = ModelBuilder(description=f"{description} ({'int8' if self.quantized else 'float32 twin'})")
        self.observed: dict[str, TensorRef] = {}   # float pass: activations to calibrate
        self.copies: dict[str, str] = {}           # name -> tensor whose quantization it keeps

    def _act(self, name: str, shape) -> TensorRef:
        if not self.quantized:
            ref = self.b.tensor(name, shape, "float32")
            self.observed[name] = ref
            return ref
        scale, zero_point = quant.range_to_scale_zp(*self.ranges[name])
        return self.b.tensor(name, shape, "int8", scale, zero_point)

    def _same(self, name: str, shape, like: TensorRef) -> TensorRef:
        self.copies[name] = like.name
        if not self.quantized:
            return self.b.tensor(name, shape, "float32")
        return self.b.tensor(name, shape, "int8", like.scale, like.zero_point)

    def input(self, shape) -> TensorRef:
        if not self.quantized:
            return self.b.input("input", shape, "float32")
        scale, zero_point = quant.range_to_scale_zp(*INPUT_RANGE)
        return self.b.input("input", shape, "int8", scale, zero_point)

    def _weights_bias(self, name, x, shape, axis, fan_in, channels):
        w = quant.random_weights(self.rng, shape, fan_in)
        b = self.rng.normal(0.0, 0.05, size=channels)
        q, scales = quant.quantize_per_channel(w, axis)
        if not self.quantized:
            bshape = [1] * len(shape)
            bshape[axis] = -1
            real = quant.dequantize(q, np.array(scales).reshape(bshape), 0).astype(np.float32)
            return self.b.const(f"{name}/weights", real), self.b.const(f"{name}/bias", b.astype(np.float32))
        bq, bias_scales = quant.quantize_bias(b, x.scale, scales)
        return (self.b.const(f"{name}/weights", q, "int8", scales, 0, axis),
                self.b.const(f"{name}/bias", bq, "int32", bias_scales, 0))

    def transpose(self, name, x, perm) -> TensorRef:
        y = self._same(name, tuple(x.shape[p] for p in perm), x)
        self.b.op("TRANSPOSE", [x, self.b.const(f"{name}/perm", np.array(perm, dtype=np.int32))], [y])
        return y

    def pad(self, name, x) -> TensorRef:
        """PyTorch's padding=1 on H and W, written out before a strided VALID convolution."""
        paddings = [[0, 0], [1, 1], [1, 1], [0, 0]]
        n, h, w, c = x.shape
        y = self._same(name, (n, h + 2, w + 2, c), x)
        self.b.op("PAD", [x, self.b.const(f"{name}/paddings", np.array(paddings, dtype=np.int32))], [y])
        return y

    def conv(self, name, x, out_ch, kernel=1, stride=1, act="RELU6") -> TensorRef:
        if kernel == 3 and stride == 2:
            x = self.pad(f"{name}/pad", x)
        padding = "VALID" if stride == 2 or kernel == 1 else "SAME"
        n, h, w, c = x.shape
        oh, ow = ((h - kernel) // stride + 1, (w - kernel) // stride + 1) if padding == "VALID" else (h, w)
        weights, bias = self._weights_bias(name, x, (out_ch, kernel, kernel, c), 0, kernel * kernel * c, out_ch)
        y = self._act(name, (n, oh, ow, out_ch))
        self.b.op("CONV_2D", [x, weights, bias], [y],
                  {"padding": padding, "stride_h": stride, "stride_w": stride, "dilation_h_factor": 1,
                   "dilation_w_factor": 1, "fused_activation_function": act})
        return y

    def depthwise(self, name, x, stride) -> TensorRef:
        if stride == 2:
            x = self.pad(f"{name}/pad", x)
        padding = "VALID" if stride == 2 else "SAME"
        n, h, w, c = x.shape
        oh, ow = ((h - 3) // 2 + 1, (w - 3) // 2 + 1) if stride == 2 else (h, w)
        weights, bias = self._weights_bias(name, x, (1, 3, 3, c), 3, 9, c)
        y = self._act(name, (n, oh, ow, c))
        self.b.op("DEPTHWISE_CONV_2D", [x, weights, bias], [y],
                  {"padding": padding, "stride_h": stride, "stride_w": stride, "depth_multiplier": 1,
                   "dilation_h_factor": 1, "dilation_w_factor": 1, "fused_activation_function": "RELU6"})
        return y

    def add(self, name, a, b) -> TensorRef:
        y = self._act(name, a.shape)
        self.b.op("ADD", [a, b], [y], {"fused_activation_function": "NONE"})
        return y

    def mean(self, name, x) -> TensorRef:
        n, _, _, c = x.shape
        y = self._same(name, (n, 1, 1, c), x)
        self.b.op("MEAN", [x, self.b.const(f"{name}/axis", np.array([1, 2], dtype=np.int32))], [y],
                  {"keep_dims": True})
        return y

    def reshape(self, name, x, shape) -> TensorRef:
        y = self._same(name, tuple(shape), x)
        self.b.op("RESHAPE", [x, self.b.const(f"{name}/shape", np.array(shape, dtype=np.int32))], [y],
                  {"new_shape": list(shape)})
        return y

    def fully_connected(self, name, x, units) -> TensorRef:
        depth = x.shape[-1]
        weights, bias = self._weights_bias(name, x, (units, depth), 0, depth, units)
        y = self._act(name, (x.shape[0], units))
        self.b.op("FULLY_CONNECTED", [x, weights, bias], [y],
                  {"fused_activation_function": "NONE", "weights_format": "DEFAULT", "keep_num_dims": False})
        return y


def _network(net: _Net, size: int, width: float) -> TensorRef:
    x = net.input((1, 3, size, size))
    h = net.transpose("to_nhwc", x, (0, 2, 3, 1))
    h = net.conv("stem", h, _make_divisible(32 * width), kernel=3, stride=2)
    block = 0
    for expansion, channels, repeats, first_stride in BLOCKS:
        out_ch = _make_divisible(channels * width)
        for r in range(repeats):
            stride = first_stride if r == 0 else 1
            name = f"block{block}"
            y = h
            if expansion != 1:
                y = net.conv(f"{name}/expand", y, h.shape[-1] * expansion)
            y = net.depthwise(f"{name}/depthwise", y, stride)
            y = net.conv(f"{name}/project", y, out_ch, act="NONE")
            h = net.add(f"{name}/add", y, h) if stride == 1 and h.shape[-1] == out_ch else y
            block += 1
    h = net.conv("head", h, _make_divisible(1280 * max(1.0, width)))
    h = net.mean("pool", h)
    h = net.reshape("flatten", h, (1, h.shape[-1]))
    return net.fully_connected("classifier", h, NUM_CLASSES)


def _description(size: int, width: float, seed: int) -> str:
    return f"helia-aot MobileNetV2-style {size}x{size} width {width:g} (seed {seed})"


def _float_pass(size: int, width: float, seed: int) -> tuple[_Net, bytes]:
    net = _Net(seed, None, _description(size, width, seed))
    net.b.output(_network(net, size, width))
    return net, net.b.build()


def calibrate(size: int, width: float, seed: int = SEED) -> dict[str, tuple[float, float]]:
    """Every activation's range in the float twin over seeded inputs on the int8 grid of INPUT_RANGE,
    widened by RANGE_HEADROOM and rounded; tensors that keep another's quantization take its range."""
    net, data = _float_pass(size, width, seed)
    interp = make_interpreter(data, preserve_all_tensors=True)
    detail = interp.get_input_details()[0]
    scale, zero_point = quant.range_to_scale_zp(*INPUT_RANGE)
    generator = quant.rng(seed + 1)
    seen: dict[str, tuple[float, float]] = {}
    for _ in range(CALIBRATION_SAMPLES):
        q = generator.integers(-128, 128, size=tuple(detail["shape"]))
        interp.set_tensor(detail["index"], quant.dequantize(q, scale, zero_point).astype(np.float32))
        interp.invoke()
        for name, ref in net.observed.items():
            value = interp.get_tensor(ref.index)
            lo, hi = seen.get(name, (np.inf, -np.inf))
            seen[name] = (min(lo, float(value.min())), max(hi, float(value.max())))
    return {name: (_round_sig(lo * RANGE_HEADROOM), _round_sig(hi * RANGE_HEADROOM)) for name, (lo, hi) in seen.items()}


def build_float_twin(size: int = 224, width: float = 1.0, seed: int = SEED) -> bytes:
    return _float_pass(size, width, seed)[1]


def build(size: int = 224, width: float = 1.0, seed: int = SEED) -> bytes:
    """The int8 model; same arguments, same bytes."""
    if size < 32 or size % 32:
        raise BuilderError(f"MobileNetV2 input size {size} is not a multiple of 32 (its five stride-2 layers "
                           "halve it to a whole 1/32); use 96, 128, 224, ...")
    if width <= 0:
        raise BuilderError(f"MobileNetV2 width {width} must be positive (torchvision uses 0.35 to 1.4)")
    ranges = calibrate(size, width, seed)
    net = _Net(seed, ranges, _description(size, width, seed))
    net.b.output(_network(net, size, width))
    return net.b.build()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=224)
    parser.add_argument("--width", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--out", required=True, type=pathlib.Path)
    args = parser.parse_args(argv)
    data = build(args.size, args.width, args.seed)
    args.out.write_bytes(data)
    print(f"wrote {args.out} ({len(data)} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

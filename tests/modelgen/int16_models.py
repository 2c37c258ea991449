# SPDX-License-Identifier: Apache-2.0
"""Multi-layer A16W8 models (int16 activations, int8 weights) shaped like small audio
encoder-decoders, with seeded random weights.

  skip_tconv          1x1x64x16 (64 frames of 16 features): CONV_2D 1x3 stride 1x2 ->
                      LEAKY_RELU -> STRIDED_SLICE (every other channel) ->
                      TRANSPOSE_CONV 1x4 stride 1x2 -> ADD with the input (skip connection).
  glu_concat          1x16x16x4: PAD -> DEPTHWISE_CONV_2D 3x3 x2 VALID; CONV_2D 1x1 on the
                      input; SUB of the two; LOGISTIC gate; MUL (gated linear unit);
                      CONCATENATION of the gated and ungated difference.
  bottleneck_requant  1x16x16x4: two CONV_2D 3x3 stride 2 + RELU -> MEAN over H, W ->
                      FULLY_CONNECTED 32 -> QUANTIZE int16 -> int32 -> QUANTIZE int32 -> int16
                      -> FULLY_CONNECTED 64 (int32 bias) -> RESHAPE 1x4x4x4 ->
                      TRANSPOSE_CONV 3x3 stride 2 -> TANH.

Each network is described once (the `_skip_tconv`, ... functions) and built twice: a
float32 twin whose weights are the int8 weights dequantized, run in LiteRT over seeded
inputs to observe every activation's range (widened by RANGE_HEADROOM), then the A16W8
model quantized the way the converter's 16x8 mode does: symmetric int16 activations
(zero point 0, scale max|range| / 32767), per-channel symmetric int8 weights (per
tensor where a layer says so), int64 bias with scale input_scale * weight_scale (int32
where the layer declares quantized_bias_type INT32), padding/slicing/reshape keep their
input's quantization, CONCATENATION inputs and output share one scale, LOGISTIC and
TANH outputs are 1/32768.

    from tests.modelgen import int16_models
    for name in int16_models.NAMES:
        data = int16_models.build(name)      # same name, same bytes
"""

from __future__ import annotations

import argparse
import pathlib
import sys
from typing import Callable, Sequence

import numpy as np

from tests.modelgen import quant
from tests.modelgen.builder import ModelBuilder, TensorRef
from tests.modelgen.errors import BuilderError
from tests.modelgen.litert import make_interpreter

SEED = 20240716
CALIBRATION_SAMPLES = 64
# Calibrated ranges are widened by this factor: the test inputs are fresh full-range
# random data, and global pooling and the bottleneck make a few activations reach past
# what the calibration samples showed; without headroom about one input in twenty
# saturates an intermediate tensor (still valid LiteRT behaviour, but then the model no
# longer follows its float twin).
RANGE_HEADROOM = 1.25
# Calibrated ranges are rounded to this many significant digits so that last-bit
# differences in float summation between builds cannot change the bytes.
RANGE_DIGITS = 4
# LiteRT's int16 LOGISTIC and TANH require an output scale of exactly 2^-15.
FIXED_INT16_OUTPUT_SCALE = 1.0 / 32768


def _round_sig(value: float) -> float:
    return float(f"{value:.{RANGE_DIGITS}g}")


def _out_size(size: int, kernel: int, stride: int, padding: str) -> int:
    if padding == "SAME":
        return -(-size // stride)
    return (size - kernel) // stride + 1


class _Net:
    """One pass over a network description: float32 (ranges is None) or A16W8."""

    def __init__(self, name: str, seed: int, ranges: dict[str, tuple[float, float]] | None):
        self.quantized = ranges is not None
        self.ranges = ranges or {}
        self.rng = quant.rng(seed)
        kind = "A16W8" if self.quantized else "float32 twin"
        self.b = ModelBuilder(description=f"helia-aot int16 model {name} ({kind}, seed {seed})")
        self.tensors: dict[str, TensorRef] = {}  # activations by name (float pass)
        self.tied: list[list[str]] = []  # names that must share one scale
        self.copies: dict[str, str] = {}  # name -> the tensor whose quantization it keeps

    # -- tensors -------------------------------------------------------------------
    def _act(self, name: str, shape, dtype: str = "int16", scale=None) -> TensorRef:
        if not self.quantized:
            ref = self.b.tensor(name, shape, "float32")
            self.tensors[name] = ref
            return ref
        if scale is None:
            scale, _ = quant.range_to_scale_zp(*self.ranges[name], dtype)
        return self.b.tensor(name, shape, dtype, scale, 0)

    def _same(self, name: str, shape, like: TensorRef) -> TensorRef:
        """An output that keeps its input's quantization (data movement, pooling)."""
        self.copies[name] = like.name
        if not self.quantized:
            return self._act(name, shape)
        return self.b.tensor(name, shape, like.dtype, like.scale, like.zero_point)

    def input(self, name: str, shape, real_range: tuple[float, float]) -> TensorRef:
        self.ranges.setdefault(name, real_range)
        if not self.quantized:
            ref = self.b.input(name, shape, "float32")
            self.tensors[name] = ref
            return ref
        scale, _ = quant.range_to_scale_zp(*real_range, "int16")
        return self.b.input(name, shape, "int16", scale, 0)

    def _weights(self, name: str, shape, axis: int | None, fan_in: int) -> tuple[TensorRef, list]:
        w = quant.random_weights(self.rng, shape, fan_in)
        if axis is None:
            q, scale = quant.quantize_per_tensor_symmetric(w)
            scales, dequantized = [scale], quant.dequantize(q, scale, 0)
        else:
            q, scales = quant.quantize_per_channel(w, axis)
            bshape = [1] * len(shape)
            bshape[axis] = -1
            dequantized = quant.dequantize(q, np.array(scales).reshape(bshape), 0)
        if not self.quantized:
            return self.b.const(f"{name}/weights", dequantized.astype(np.float32)), scales
        ref = self.b.const(f"{name}/weights", q, "int8", scales if axis is not None else scales[0],
                           0, axis or 0)
        return ref, scales

    def _bias(self, name: str, x: TensorRef, scales: list, size: int, dtype: str,
              per_channel: bool) -> TensorRef:
        b = self.rng.normal(0.0, 0.05, size=size)
        if not self.quantized:
            return self.b.const(f"{name}/bias", b.astype(np.float32))
        q, bias_scales = quant.quantize_bias(b, x.scale, scales, dtype)
        return self.b.const(f"{name}/bias", q, dtype,
                            bias_scales if per_channel else bias_scales[0], 0)

    # -- layers ----------------------------------------------------------------------
    def conv2d(self, name, x, out_ch, kernel, stride=(1, 1), padding="SAME", act="NONE"):
        (kh, kw), (sh, sw) = kernel, stride
        n, h, w_, c = x.shape
        weights, scales = self._weights(name, (out_ch, kh, kw, c), 0, kh * kw * c)
        bias = self._bias(name, x, scales, out_ch, "int64", True)
        y = self._act(name, (n, _out_size(h, kh, sh, padding), _out_size(w_, kw, sw, padding),
                             out_ch))
        self.b.op("CONV_2D", [x, weights, bias], [y],
                  {"padding": padding, "stride_h": sh, "stride_w": sw, "dilation_h_factor": 1,
                   "dilation_w_factor": 1, "fused_activation_function": act})
        return y

    def depthwise(self, name, x, kernel, multiplier, stride=(1, 1), padding="SAME", act="NONE"):
        (kh, kw), (sh, sw) = kernel, stride
        n, h, w_, c = x.shape
        out_ch = c * multiplier
        weights, scales = self._weights(name, (1, kh, kw, out_ch), 3, kh * kw)
        # LiteRT's int16 DEPTHWISE_CONV_2D takes an int64 bias only.
        bias = self._bias(name, x, scales, out_ch, "int64", True)
        y = self._act(name, (n, _out_size(h, kh, sh, padding), _out_size(w_, kw, sw, padding),
                             out_ch))
        self.b.op("DEPTHWISE_CONV_2D", [x, weights, bias], [y],
                  {"padding": padding, "stride_h": sh, "stride_w": sw,
                   "depth_multiplier": multiplier, "dilation_h_factor": 1,
                   "dilation_w_factor": 1, "fused_activation_function": act})
        return y

    def fully_connected(self, name, x, units, per_channel=True, bias_dtype="int64", act="NONE"):
        depth = x.shape[-1]
        weights, scales = self._weights(name, (units, depth), 0 if per_channel else None, depth)
        bias = self._bias(name, x, scales, units, bias_dtype, per_channel)
        y = self._act(name, (int(np.prod(x.shape[:-1])), units))
        options = {"fused_activation_function": act, "weights_format": "DEFAULT",
                   "keep_num_dims": False}
        if bias_dtype == "int32" and self.quantized:
            # LiteRT reads an int16 layer's bias as int64 unless the options say int32.
            options["quantized_bias_type"] = "INT32"
        self.b.op("FULLY_CONNECTED", [x, weights, bias], [y], options)
        return y

    def transpose_conv(self, name, x, out_ch, kernel, stride, padding="SAME"):
        (kh, kw), (sh, sw) = kernel, stride
        n, h, w_, c = x.shape
        if padding == "SAME":
            out_shape = (n, h * sh, w_ * sw, out_ch)
        else:
            out_shape = (n, (h - 1) * sh + kh, (w_ - 1) * sw + kw, out_ch)
        shape = self.b.const(f"{name}/output_shape", np.array(out_shape, dtype=np.int32))
        # Each input pixel feeds about kh*kw/(sh*sw) outputs per input channel.
        weights, scales = self._weights(name, (out_ch, kh, kw, c), 0,
                                        max(1, kh * kw * c // (sh * sw)))
        bias = self._bias(name, x, scales, out_ch, "int64", True)
        y = self._act(name, out_shape)
        self.b.op("TRANSPOSE_CONV", [shape, weights, x, bias], [y],
                  {"padding": padding, "stride_h": sh, "stride_w": sw,
                   "fused_activation_function": "NONE"})
        return y

    def unary(self, op_name, name, x, options=None, fixed_scale=None):
        y = self._act(name, x.shape, scale=fixed_scale)
        self.b.op(op_name, [x], [y], options)
        return y

    def binary(self, op_name, name, a, b):
        shape = tuple(np.broadcast_shapes(a.shape, b.shape))
        y = self._act(name, shape)
        options = {"fused_activation_function": "NONE"}
        if op_name in ("ADD", "SUB"):
            options["pot_scale_int16"] = False  # general scales, as the converter writes
        self.b.op(op_name, [a, b], [y], options)
        return y

    def strided_slice(self, name, x, begin, end, strides):
        shape = tuple(len(range(b0, e0, s0)) for b0, e0, s0 in zip(begin, end, strides))
        consts = [self.b.const(f"{name}/{k}", np.array(v, dtype=np.int32))
                  for k, v in (("begin", begin), ("end", end), ("strides", strides))]
        y = self._same(name, shape, x)
        self.b.op("STRIDED_SLICE", [x, *consts], [y],
                  {"begin_mask": 0, "end_mask": 0, "ellipsis_mask": 0, "new_axis_mask": 0,
                   "shrink_axis_mask": 0})
        return y

    def pad(self, name, x, paddings):
        shape = tuple(d + lo + hi for d, (lo, hi) in zip(x.shape, paddings))
        p = self.b.const(f"{name}/paddings", np.array(paddings, dtype=np.int32))
        y = self._same(name, shape, x)
        self.b.op("PAD", [x, p], [y])
        return y

    def reshape(self, name, x, shape):
        s = self.b.const(f"{name}/shape", np.array(shape, dtype=np.int32))
        y = self._same(name, tuple(shape), x)
        self.b.op("RESHAPE", [x, s], [y], {"new_shape": list(shape)})
        return y

    def mean(self, name, x, axes, keep_dims=False):
        shape = tuple(1 if i in axes else d for i, d in enumerate(x.shape)) if keep_dims else \
            tuple(d for i, d in enumerate(x.shape) if i not in axes)
        a = self.b.const(f"{name}/axis", np.array(axes, dtype=np.int32))
        y = self._act(name, shape)
        self.b.op("MEAN", [x, a], [y], {"keep_dims": keep_dims})
        return y

    def concat(self, name, xs, axis):
        shape = list(xs[0].shape)
        shape[axis] = sum(x.shape[axis] for x in xs)
        self.tied.append([x.name for x in xs] + [name])
        if self.quantized:  # the tied scale (inputs and output) is the output's
            y = self.b.tensor(name, shape, "int16", xs[0].scale, 0)
        else:
            y = self._act(name, shape)
        self.b.op("CONCATENATION", list(xs), [y], {"axis": axis,
                                                    "fused_activation_function": "NONE"})
        return y

    def requantize(self, name, x, dtype, finer=1.0, widen=1.0):
        """QUANTIZE to `dtype`: int32 with a scale `finer` times smaller than x's, or int16
        over x's range widened by `widen`. The float twin has no such step."""
        self.copies[name] = x.name  # the range it derives from
        if not self.quantized:
            return x
        if dtype == "int32":
            scale = x.scale / finer
        else:
            lo, hi = self.ranges[_root(self.copies, name)]
            scale, _ = quant.range_to_scale_zp(lo * widen, hi * widen, "int16")
        y = self.b.tensor(name, x.shape, dtype, scale, 0)
        self.b.op("QUANTIZE", [x], [y])
        return y


def _root(copies: dict[str, str], name: str) -> str:
    while name in copies:
        name = copies[name]
    return name


# -- the networks ------------------------------------------------------------------------

def _skip_tconv(net: _Net) -> TensorRef:
    x = net.input("input", (1, 1, 64, 16), (-1.0, 1.0))
    h = net.conv2d("enc_conv", x, 32, (1, 3), (1, 2))
    h = net.unary("LEAKY_RELU", "enc_lrelu", h, {"alpha": 0.2})
    h = net.strided_slice("every_other_channel", h, [0, 0, 0, 0], [1, 1, 32, 32], [1, 1, 1, 2])
    h = net.transpose_conv("dec_tconv", h, 16, (1, 4), (1, 2))
    return net.binary("ADD", "skip_add", h, x)


def _glu_concat(net: _Net) -> TensorRef:
    x = net.input("input", (1, 16, 16, 4), (-2.0, 2.0))
    p = net.pad("pad", x, [[0, 0], [1, 1], [1, 1], [0, 0]])
    d = net.depthwise("dw", p, (3, 3), 2, padding="VALID")
    c = net.conv2d("pw", x, 8, (1, 1))
    s = net.binary("SUB", "diff", d, c)
    g = net.unary("LOGISTIC", "gate", c, fixed_scale=FIXED_INT16_OUTPUT_SCALE)
    m = net.binary("MUL", "glu", s, g)
    return net.concat("concat", [m, s], axis=3)


def _bottleneck_requant(net: _Net) -> TensorRef:
    x = net.input("input", (1, 16, 16, 4), (-2.0, 2.0))
    h = net.conv2d("enc1", x, 8, (3, 3), (2, 2), act="RELU")
    h = net.conv2d("enc2", h, 16, (3, 3), (2, 2), act="RELU")
    h = net.mean("pool", h, [1, 2])
    z = net.fully_connected("bottleneck", h, 32)
    z = net.requantize("bottleneck_int32", z, "int32", finer=3000.0)
    z = net.requantize("bottleneck_int16", z, "int16", widen=1.25)
    h = net.fully_connected("expand", z, 64, per_channel=False, bias_dtype="int32", act="RELU")
    h = net.reshape("unflatten", h, [1, 4, 4, 4])
    h = net.transpose_conv("dec", h, 8, (3, 3), (2, 2))
    return net.unary("TANH", "output", h, fixed_scale=FIXED_INT16_OUTPUT_SCALE)


NETWORKS: dict[str, Callable[[_Net], TensorRef]] = {
    "skip_tconv": _skip_tconv,
    "glu_concat": _glu_concat,
    "bottleneck_requant": _bottleneck_requant,
}
NAMES: tuple[str, ...] = tuple(NETWORKS)


def _network(name: str) -> Callable[[_Net], TensorRef]:
    if name not in NETWORKS:
        raise BuilderError(f"unknown int16 model '{name}'; use one of {list(NAMES)}")
    return NETWORKS[name]


def _float_pass(name: str, seed: int) -> tuple[_Net, bytes]:
    net = _Net(name, seed, None)
    net.b.output(_network(name)(net))
    return net, net.b.build()


def build_float_twin(name: str, seed: int = SEED) -> bytes:
    """The network in float32 with the A16W8 model's weights dequantized (float bias)."""
    return _float_pass(name, seed)[1]


def calibrate(name: str, seed: int = SEED) -> dict[str, tuple[float, float]]:
    """Observed range of every activation of the float twin over seeded inputs on the
    int16 grid of the input range, rounded; tied tensors get their union, and tensors
    that keep another's quantization take its range."""
    net, data = _float_pass(name, seed)
    interp = make_interpreter(data, preserve_all_tensors=True)
    detail = interp.get_input_details()[0]
    lo, hi = net.ranges["input"]
    scale, _ = quant.range_to_scale_zp(lo, hi, "int16")
    generator = quant.rng(seed + 1)
    observed: dict[str, tuple[float, float]] = {}
    for _ in range(CALIBRATION_SAMPLES):
        x = quant.quantize(generator.uniform(lo, hi, size=tuple(detail["shape"])), scale, 0,
                           "int16")
        interp.set_tensor(detail["index"], quant.dequantize(x, scale, 0).astype(np.float32))
        interp.invoke()
        for tname, ref in net.tensors.items():
            value = interp.get_tensor(ref.index)
            a, b = observed.get(tname, (np.inf, -np.inf))
            observed[tname] = (min(a, float(value.min())), max(b, float(value.max())))
    ranges = {k: (_round_sig(a * RANGE_HEADROOM), _round_sig(b * RANGE_HEADROOM))
              for k, (a, b) in observed.items()}
    ranges["input"] = (lo, hi)
    for group in net.tied:
        union = (min(ranges[n][0] for n in group), max(ranges[n][1] for n in group))
        for n in group:
            ranges[n] = union
    for tname in net.copies:
        if tname in ranges:
            ranges[tname] = ranges[_root(net.copies, tname)]
    return ranges


def build(name: str, seed: int = SEED) -> bytes:
    """The A16W8 model `name` (one of NAMES); same name and seed, same bytes."""
    ranges = calibrate(name, seed)
    net = _Net(name, seed, ranges)
    net.b.output(_network(name)(net))
    return net.b.build()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True, type=pathlib.Path,
                        help="directory to write <name>.tflite files into")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for name in NAMES:
        data = build(name)
        (args.out / f"{name}.tflite").write_bytes(data)
        print(f"wrote {args.out / (name + '.tflite')} ({len(data)} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

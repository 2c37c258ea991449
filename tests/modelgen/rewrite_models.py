# SPDX-License-Identifier: Apache-2.0
"""Small int8 / int16 models holding the patterns helia_aot.lowering.rewrites folds (and near misses it must
leave alone), for tests/unit/test_rewrites.py (decisions) and tests/e2e/test_rewrites.py (outputs).

build(name) -> model bytes; PATTERNS maps each name to (the rewrites that must fire, in order, and a
line saying what the model holds). Scales are picked so outputs spread over the codes (the clamps
bite on both sides); weights and biases come from a fixed seed."""

from __future__ import annotations

import numpy as np

from tests.modelgen import ModelBuilder

SEED = 1313
X_SCALE, X_ZP = 0.05, -3  # int8 input: reals in [-6.25, 6.5]
Y_SCALE, Y_ZP = 0.05, 10  # int8 layer outputs
W_SCALE = 0.005


def _rng(name: str) -> np.random.Generator:
    return np.random.default_rng([SEED, sum(name.encode())])


class _Net:
    """A ModelBuilder with helpers for int8 layers whose output quantization is (Y_SCALE, Y_ZP)."""

    def __init__(self, name: str, dtype: str = "int8"):
        self.b = ModelBuilder(description=f"rewrite pattern {name}")
        self.rng = _rng(name)
        self.dtype = dtype
        self.count = 0
        # int16 activations are symmetric (zero point 0)
        self.x_q = (X_SCALE / 256, 0) if dtype == "int16" else (X_SCALE, X_ZP)
        self.y_q = (Y_SCALE / 256, 0) if dtype == "int16" else (Y_SCALE, Y_ZP)

    def name(self, what: str) -> str:
        self.count += 1
        return f"{what}_{self.count}"

    def input(self, shape):
        return self.b.input("x", shape, self.dtype, *self.x_q)

    def act(self, shape, q=None, what="t"):
        scale, zp = q or self.y_q
        return self.b.tensor(self.name(what), shape, self.dtype, scale, zp)

    def conv(self, x, x_q, in_ch, out_hw, out_ch, k=3, stride=1, padding="VALID", act="NONE", depthwise=False,
             out_q=None):
        w_shape = (1, k, k, out_ch) if depthwise else (out_ch, k, k, in_ch)
        axis = 3 if depthwise else 0
        w = self.b.const(self.name("w"), self.rng.integers(-25, 26, w_shape), "int8",
                         [W_SCALE] * out_ch, 0, quantized_dimension=axis)
        bias_scale = [x_q[0] * W_SCALE] * out_ch
        bias_dtype = "int64" if self.dtype == "int16" else "int32"
        bias = self.b.const(self.name("b"), self.rng.integers(-200, 201, (out_ch,)), bias_dtype, bias_scale, 0)
        y = self.act((1, *out_hw, out_ch), out_q)
        options = {"padding": padding, "stride_h": stride, "stride_w": stride, "fused_activation_function": act}
        if depthwise:
            options["depth_multiplier"] = out_ch // in_ch
        self.b.op("DEPTHWISE_CONV_2D" if depthwise else "CONV_2D", [x, w, bias], [y], options)
        return y

    def pad(self, x, x_q, shape, pads, value=None):
        out = tuple(d + p0 + p1 for d, (p0, p1) in zip(shape, pads))
        y = self.act(out, x_q, "padded")
        p = self.b.const(self.name("paddings"), np.asarray(pads, dtype=np.int32), "int32")
        if value is None:
            self.b.op("PAD", [x, p], [y])
        else:
            v = self.b.const(self.name("value"), np.asarray([value]), self.dtype, *x_q)
            self.b.op("PADV2", [x, p, v], [y])
        return y

    def unary(self, op, x, shape, q=None):
        y = self.act(shape, q, op.lower())
        self.b.op(op, [x], [y])
        return y

    def minmax(self, op, x, shape, code):
        c = self.b.const(self.name("limit"), np.asarray([code]), self.dtype, *self.y_q)
        y = self.act(shape, None, op.lower())
        self.b.op(op, [x, c], [y])
        return y

    def build(self, *outputs) -> bytes:
        for o in outputs:
            self.b.output(o)
        return self.b.build()


def _pad_conv(bottom_right_only: bool) -> bytes:
    """PAD then a VALID 3x3 convolution: (0, 1) before a stride-2 one (SAME's split for 8 -> 4), or
    (1, 1) before a stride-1 one."""
    n = _Net("pad_conv_s2" if bottom_right_only else "pad_conv_s1")
    x = n.input((1, 8, 8, 4))
    pads = [(0, 0), (0, 1), (0, 1), (0, 0)] if bottom_right_only else [(0, 0), (1, 1), (1, 1), (0, 0)]
    t = n.pad(x, n.x_q, (1, 8, 8, 4), pads)
    stride = 2 if bottom_right_only else 1
    hw = (4, 4) if bottom_right_only else (8, 8)
    return n.build(n.conv(t, n.x_q, 4, hw, 6, stride=stride))


def _padv2_depthwise() -> bytes:
    """PADV2 with the zero point as its value, then a VALID 3x3 depthwise convolution with a fused RELU6."""
    n = _Net("padv2_depthwise")
    x = n.input((1, 7, 7, 4))
    t = n.pad(x, n.x_q, (1, 7, 7, 4), [(0, 0), (1, 1), (1, 1), (0, 0)], value=X_ZP)
    return n.build(n.conv(t, n.x_q, 4, (7, 7), 4, depthwise=True, act="RELU6"))


def _padv2_max_pool(value: int) -> bytes:
    """PADV2 then a VALID 3x3 stride-2 max pool on 8x8 (SAME's split: (0, 1))."""
    n = _Net(f"padv2_max_pool_{value}")
    x = n.input((1, 8, 8, 3))
    t = n.pad(x, n.x_q, (1, 8, 8, 3), [(0, 0), (0, 1), (0, 1), (0, 0)], value=value)
    y = n.act((1, 4, 4, 3), n.x_q, "pooled")
    n.b.op("MAX_POOL_2D", [t], [y], {"padding": "VALID", "stride_h": 2, "stride_w": 2, "filter_height": 3,
                                     "filter_width": 3})
    return n.build(y)


def _pad_average_pool() -> bytes:
    n = _Net("pad_average_pool")
    x = n.input((1, 8, 8, 3))
    t = n.pad(x, n.x_q, (1, 8, 8, 3), [(0, 0), (1, 1), (1, 1), (0, 0)])
    y = n.act((1, 8, 8, 3), n.x_q, "pooled")
    n.b.op("AVERAGE_POOL_2D", [t], [y], {"padding": "VALID", "stride_h": 1, "stride_w": 1, "filter_height": 3,
                                         "filter_width": 3})
    return n.build(y)


def _pad_conv_more_before() -> bytes:
    """(1, 0) before a stride-2 3x3 convolution on 8: SAME would pad (0, 1)."""
    n = _Net("pad_conv_more_before")
    x = n.input((1, 8, 8, 4))
    t = n.pad(x, n.x_q, (1, 8, 8, 4), [(0, 0), (1, 0), (1, 0), (0, 0)])
    return n.build(n.conv(t, n.x_q, 4, (4, 4), 6, stride=2))


def _pad_conv_other_value() -> bytes:
    n = _Net("pad_conv_other_value")
    x = n.input((1, 8, 8, 4))
    t = n.pad(x, n.x_q, (1, 8, 8, 4), [(0, 0), (1, 1), (1, 1), (0, 0)], value=X_ZP + 5)
    return n.build(n.conv(t, n.x_q, 4, (8, 8), 6))


def _pad_also_output() -> bytes:
    n = _Net("pad_also_output")
    x = n.input((1, 8, 8, 4))
    t = n.pad(x, n.x_q, (1, 8, 8, 4), [(0, 0), (1, 1), (1, 1), (0, 0)])
    return n.build(n.conv(t, n.x_q, 4, (8, 8), 6), t)


def _conv_clamps(chain: tuple[str, ...], dtype: str = "int8") -> bytes:
    """A 3x3 SAME convolution followed by the clamps in `chain` (RELU, RELU6, RELU_N1_TO_1, RELU_0_TO_1,
    MINIMUM / MAXIMUM with a constant code), every one on the convolution's output quantization."""
    n = _Net("conv_" + "_".join(chain).lower() + f"_{dtype}", dtype)
    x = n.input((1, 6, 6, 4))
    y = n.conv(x, n.x_q, 4, (6, 6), 8, padding="SAME")
    shape = (1, 6, 6, 8)
    for op in chain:
        if op in ("MINIMUM", "MAXIMUM"):
            code = 40 if op == "MINIMUM" else -20
            y = n.minmax(op, y, shape, code if dtype == "int8" else code * 256)
        else:
            y = n.unary(op, y, shape)
    return n.build(y)


def _add_relu() -> bytes:
    """ADD of two inputs, then RELU6 (same quantization)."""
    n = _Net("add_relu6")
    a = n.input((1, 4, 4, 8))
    b = n.b.input("y", (1, 4, 4, 8), "int8", 0.04, 5)
    s = n.act((1, 4, 4, 8))
    n.b.op("ADD", [a, b], [s], {"fused_activation_function": "NONE"})
    return n.build(n.unary("RELU6", s, (1, 4, 4, 8)))


def _fc_relu_n1_to_1() -> bytes:
    n = _Net("fc_relu_n1_to_1")
    x = n.b.input("x", (1, 16), "int8", X_SCALE, X_ZP)
    w = n.b.const("w", n.rng.integers(-30, 31, (10, 16)), "int8", W_SCALE, 0)
    bias = n.b.const("b", n.rng.integers(-200, 201, (10,)), "int32", X_SCALE * W_SCALE, 0)
    y = n.b.tensor("fc", (1, 10), "int8", 0.02, -4)
    n.b.op("FULLY_CONNECTED", [x, w, bias], [y], {"fused_activation_function": "NONE"})
    r = n.b.tensor("clamped", (1, 10), "int8", 0.02, -4)
    n.b.op("RELU_N1_TO_1", [y], [r])
    return n.build(r)


def _conv_relu_requantizes() -> bytes:
    """RELU with a different output scale: a requantization, not a clamp."""
    n = _Net("conv_relu_requantizes")
    x = n.input((1, 6, 6, 4))
    y = n.conv(x, n.x_q, 4, (6, 6), 8, padding="SAME")
    return n.build(n.unary("RELU", y, (1, 6, 6, 8), (Y_SCALE / 2, -128)))


def _conv_relu_shared() -> bytes:
    """The convolution's output is also a graph output: the RELU stays."""
    n = _Net("conv_relu_shared")
    x = n.input((1, 6, 6, 4))
    y = n.conv(x, n.x_q, 4, (6, 6), 8, padding="SAME")
    return n.build(n.unary("RELU", y, (1, 6, 6, 8)), y)


def _identity_quantize(at_end: bool) -> bytes:
    """An int8 -> int8 QUANTIZE with equal scale and zero point after a convolution; in the middle (a
    second convolution reads it) or as the graph output (the convolution then writes the output)."""
    n = _Net("identity_quantize_end" if at_end else "identity_quantize_mid")
    x = n.input((1, 6, 6, 4))
    y = n.conv(x, n.x_q, 4, (6, 6), 8, padding="SAME")
    q = n.unary("QUANTIZE", y, (1, 6, 6, 8))
    if at_end:
        return n.build(q)
    return n.build(n.conv(q, n.y_q, 8, (6, 6), 4, padding="SAME"))


def _requantize() -> bytes:
    """A QUANTIZE that rescales: it stays."""
    n = _Net("requantize")
    x = n.input((1, 6, 6, 4))
    y = n.conv(x, n.x_q, 4, (6, 6), 8, padding="SAME")
    return n.build(n.unary("QUANTIZE", y, (1, 6, 6, 8), (Y_SCALE * 2, 0)))


def _zero_pad_then_conv() -> bytes:
    """A PAD by nothing between two convolutions."""
    n = _Net("zero_pad")
    x = n.input((1, 6, 6, 4))
    y = n.conv(x, n.x_q, 4, (6, 6), 8, padding="SAME")
    t = n.pad(y, n.y_q, (1, 6, 6, 8), [(0, 0)] * 4)
    return n.build(n.conv(t, n.y_q, 8, (6, 6), 4, padding="SAME"))


def _mixed() -> bytes:
    """Every rewrite in one network: PAD -> conv -> RELU -> identity QUANTIZE -> PAD -> depthwise -> RELU6."""
    n = _Net("mixed")
    x = n.input((1, 8, 8, 4))
    t = n.pad(x, n.x_q, (1, 8, 8, 4), [(0, 0), (0, 1), (0, 1), (0, 0)])
    y = n.unary("RELU", n.conv(t, n.x_q, 4, (4, 4), 8, stride=2), (1, 4, 4, 8))
    q = n.unary("QUANTIZE", y, (1, 4, 4, 8))
    p = n.pad(q, n.y_q, (1, 4, 4, 8), [(0, 0), (1, 1), (1, 1), (0, 0)])
    d = n.conv(p, n.y_q, 8, (4, 4), 8, depthwise=True)
    return n.build(n.unary("RELU6", d, (1, 4, 4, 8)))


# name -> (builder, rewrites that fire in order, what it holds)
PATTERNS = {
    "pad_conv_s2": (lambda: _pad_conv(True), ["fold_pad"], "PAD (0, 1) + VALID stride-2 conv"),
    "pad_conv_s1": (lambda: _pad_conv(False), ["fold_pad"], "PAD (1, 1) + VALID stride-1 conv"),
    "padv2_depthwise": (_padv2_depthwise, ["fold_pad"], "PADV2 (zero point) + VALID depthwise, RELU6"),
    "padv2_max_pool": (lambda: _padv2_max_pool(-128), ["fold_pad"], "PADV2 (-128) + VALID max pool"),
    "padv2_max_pool_zp": (lambda: _padv2_max_pool(X_ZP), [], "PADV2 (zero point) + max pool: refused"),
    "pad_average_pool": (_pad_average_pool, [], "PAD + average pool: refused"),
    "pad_conv_more_before": (_pad_conv_more_before, [], "PAD (1, 0): not SAME's split, refused"),
    "pad_conv_other_value": (_pad_conv_other_value, [], "PADV2 value not the zero point: refused"),
    "pad_also_output": (_pad_also_output, [], "PAD output is also a graph output: refused"),
    "conv_relu": (lambda: _conv_clamps(("RELU",)), ["fold_clamp"], "conv + RELU"),
    "conv_relu6": (lambda: _conv_clamps(("RELU6",)), ["fold_clamp"], "conv + RELU6"),
    "conv_relu_relu6": (lambda: _conv_clamps(("RELU", "RELU6")), ["fold_clamp", "fold_clamp"],
                        "conv + RELU + RELU6"),
    "conv_relu_0_to_1": (lambda: _conv_clamps(("RELU_0_TO_1",)), ["fold_clamp"], "conv + RELU_0_TO_1"),
    "conv_min_max": (lambda: _conv_clamps(("MINIMUM", "MAXIMUM")), ["fold_clamp", "fold_clamp"],
                     "conv + MINIMUM + MAXIMUM with constants"),
    "conv_relu6_int16": (lambda: _conv_clamps(("RELU6",), "int16"), ["fold_clamp"], "int16 conv + RELU6"),
    "conv_min_int16": (lambda: _conv_clamps(("MINIMUM",), "int16"), ["fold_clamp"], "int16 conv + MINIMUM"),
    "add_relu6": (_add_relu, ["fold_clamp"], "ADD + RELU6"),
    "fc_relu_n1_to_1": (_fc_relu_n1_to_1, ["fold_clamp"], "FULLY_CONNECTED + RELU_N1_TO_1"),
    "conv_relu_requantizes": (_conv_relu_requantizes, [], "RELU that rescales: refused"),
    "conv_relu_shared": (_conv_relu_shared, [], "conv output also a graph output: refused"),
    "identity_quantize_mid": (lambda: _identity_quantize(False), ["elide_copy"], "identity QUANTIZE mid-graph"),
    "identity_quantize_end": (lambda: _identity_quantize(True), ["elide_copy"], "identity QUANTIZE as output"),
    "requantize": (_requantize, [], "QUANTIZE that rescales: kept"),
    "zero_pad": (_zero_pad_then_conv, ["elide_copy"], "PAD by nothing"),
    "mixed": (_mixed, ["elide_copy", "fold_pad", "fold_pad", "fold_clamp", "fold_clamp"], "all of them"),
}


def build(name: str) -> bytes:
    return PATTERNS[name][0]()


def _add_in_place() -> bytes:
    """conv -> t1, conv(t1) -> t2, ADD(t1, t2) -> t3, conv(t3): at the ADD three equal tensors live unless
    its output takes t2's (or t1's) bytes."""
    n = _Net("add_in_place")
    x = n.input((1, 8, 8, 4))
    t1 = n.conv(x, n.x_q, 4, (8, 8), 16, padding="SAME")
    t2 = n.conv(t1, n.y_q, 16, (8, 8), 16, padding="SAME")
    t3 = n.act((1, 8, 8, 16))
    n.b.op("ADD", [t1, t2], [t3], {"fused_activation_function": "NONE"})
    return n.build(n.conv(t3, n.y_q, 16, (8, 8), 2, padding="SAME"))


# The planner's in-place steps (not graph rewrites): name -> (builder, plan rewrites, what it holds)
IN_PLACE = {"add_in_place": (_add_in_place, ["in_place"], "ADD over an input that dies there")}

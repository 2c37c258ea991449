# SPDX-License-Identifier: Apache-2.0
"""fold_pad (helia_aot/lowering/rewrites/fold_pad.py) cases that mutants showed untested
(tests/MUTATION.md, 2026-12-02): a convolution's height dilation decides the SAME padding a PAD must
equal, and a PADV2 whose value constant is tensor 0 is judged by that value, not the zero point."""

from __future__ import annotations

import numpy as np

from helia_aot.frontend import litert
from helia_aot.lowering import verifier
from helia_aot.lowering.rewrites import fold_pad
from tests.modelgen import rewrite_models as rm


def _pad_then_conv(pads, dilation_h: int, value: int | None = None) -> bytes:
    """A PAD (PADV2 when `value` is given, its value constant created first: tensor 0) of an 8x8 int8
    input, then a VALID 3x3 stride-1 convolution dilated `dilation_h` along the height."""
    n = rm._Net(f"pad_conv_dilated_{dilation_h}_{value}")
    v = None if value is None else n.b.const("value", np.asarray([value]), "int8", *n.x_q)
    x = n.input((1, 8, 8, 4))
    padded_shape = (1, 8 + sum(pads[1]), 8 + sum(pads[2]), 4)
    t = n.act(padded_shape, n.x_q, "padded")
    p = n.b.const("paddings", np.asarray(pads, dtype=np.int32), "int32")
    n.b.op("PAD" if v is None else "PADV2", [x, p] + ([] if v is None else [v]), [t])
    w = n.b.const("w", n.rng.integers(-25, 26, (6, 3, 3, 4)), "int8", [rm.W_SCALE] * 6, 0)
    b = n.b.const("b", n.rng.integers(-200, 201, (6,)), "int32", [n.x_q[0] * rm.W_SCALE] * 6, 0)
    out_h = padded_shape[1] - 2 * dilation_h
    y = n.act((1, out_h, padded_shape[2] - 2, 6))
    n.b.op("CONV_2D", [t, w, b], [y], {"padding": "VALID", "stride_h": 1, "stride_w": 1,
                                         "dilation_h_factor": dilation_h, "dilation_w_factor": 1,
                                         "fused_activation_function": "NONE"})
    return n.build(y)


def _consider(model: bytes):
    graph, _ = verifier.verify(litert.load(model, "m", 0), "m")
    (pad,) = [op for op in graph.operators if op.op_type in ("PAD", "PADV2")]
    return fold_pad.consider(graph, pad)


def test_a_dilated_convolution_folds_the_padding_its_dilation_needs():
    """Dilation 2 along the height: SAME pads (2, 2) there and (1, 1) along the width."""
    found = _consider(_pad_then_conv([(0, 0), (2, 2), (1, 1), (0, 0)], dilation_h=2))
    assert not isinstance(found, str) and found is not None, found
    folded, record = found
    (conv,) = folded.operators
    assert conv.options["padding"] == "SAME" and record.rewrite == "fold_pad"


def test_an_undilated_padding_before_a_dilated_convolution_is_refused():
    assert _consider(_pad_then_conv([(0, 0), (1, 1), (1, 1), (0, 0)], dilation_h=2)) == (
        "height padding [1, 1] is not SAME's [2, 2] for input 8, filter 3, stride 1, dilation 2")


def test_a_padv2_value_at_tensor_index_0_is_read():
    """The value constant is tensor 0: its value (zero point + 5) is not the input zero point, refused."""
    model = _pad_then_conv([(0, 0), (1, 1), (1, 1), (0, 0)], dilation_h=1, value=rm.X_ZP + 5)
    graph, _ = verifier.verify(litert.load(model, "m", 0), "m")
    (pad,) = [op for op in graph.operators if op.op_type == "PADV2"]
    assert pad.inputs[2] == 0
    assert fold_pad.consider(graph, pad) == (f"pad value {rm.X_ZP + 5} is not the input zero point {rm.X_ZP} "
                                             "(SAME pads with real 0)")

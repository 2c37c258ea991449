# SPDX-License-Identifier: Apache-2.0
"""fold_pad: a PAD / PADV2 whose only reader is a VALID CONV_2D, DEPTHWISE_CONV_2D or MAX_POOL_2D is
removed, and the reader takes SAME padding instead, when that gives the same output bit for bit:

- the PAD pads height and width only, by exactly what SAME computes for the unpadded input (TFLite's
  ComputePaddingWithOffset: the smaller half on top / left, the rest at the bottom / right; the kernels
  take top / left and treat every position past the input as padding);
- convolutions: the pad value is the input zero point (LiteRT's SAME convolutions pad with real 0);
- MAX_POOL_2D: the pad value is the dtype's minimum, which never wins a maximum over a window that
  always holds an input element (SAME windows do);
- int8 / int16 only, and the PAD's input and output quantization equal bit for bit.

Refused: AVERAGE_POOL_2D (LiteRT's SAME average divides by the in-bounds count, the PAD's elements
would count); float (a padded tap adds w x 0.0, a skipped one nothing: the sign of a zero sum can
differ); paddings SAME cannot express (more before than after, or more than SAME needs)."""

from __future__ import annotations

import numpy as np

from helia_aot.ir.graph import Graph, Operator
from helia_aot.lowering.rewrites.graph_edit import Record, is_boundary, readers, reads_once, same_quant, without

NAME = "fold_pad"
_READERS = ("CONV_2D", "DEPTHWISE_CONV_2D", "MAX_POOL_2D", "AVERAGE_POOL_2D")


def same_padding(in_size: int, filter_size: int, stride: int, dilation: int) -> tuple[int, int]:
    """(before, after) SAME padding of one axis, as TFLite computes it."""
    out = (in_size + stride - 1) // stride
    total = max((out - 1) * stride + (filter_size - 1) * dilation + 1 - in_size, 0)
    return total // 2, total - total // 2


def _window(graph: Graph, op: Operator) -> list[tuple[int, int, int]]:
    """(filter size, stride, dilation) along height and width."""
    o = op.options
    if op.op_type == "CONV_2D" or op.op_type == "DEPTHWISE_CONV_2D":
        w = graph.tensors[op.inputs[1]].shape
        sizes = (int(w[1]), int(w[2]))
        dil = (int(o.get("dilation_h_factor", 1)), int(o.get("dilation_w_factor", 1)))
    else:
        sizes = (int(o.get("filter_height", 1)), int(o.get("filter_width", 1)))
        dil = (1, 1)
    strides = (int(o.get("stride_h", 1)), int(o.get("stride_w", 1)))
    return [(sizes[a], strides[a], dil[a]) for a in (0, 1)]


def _pad_value(graph: Graph, pad: Operator) -> int | None:
    y = graph.tensors[pad.outputs[0]]
    if pad.op_type == "PADV2" and len(pad.inputs) > 2 and pad.inputs[2] >= 0:
        value = graph.tensors[pad.inputs[2]]
        if not value.is_constant or np.asarray(value.data).size != 1:
            return None
        return int(np.asarray(value.data).reshape(-1)[0])
    return int(y.quant.zero_point)


def consider(graph: Graph, pad: Operator):
    """None when `pad` is no PAD; else the refusal reason (str) or the rewritten graph and its record."""
    if pad.op_type not in ("PAD", "PADV2"):
        return None
    x, t = graph.tensors[pad.inputs[0]], graph.tensors[pad.outputs[0]]
    if x.dtype not in ("int8", "int16"):
        return f"{x.dtype}: only int8 / int16 fold bit-exactly (a float padded tap can flip the sign of a zero sum)"
    if is_boundary(graph, pad.outputs[0]):
        return "its output is a graph output"
    users = readers(graph, pad.outputs[0])
    if len(users) != 1 or not reads_once(users[0], pad.outputs[0]) or users[0].inputs[0] != pad.outputs[0]:
        return "its output has other readers (or is not their data input)"
    user = users[0]
    if user.op_type not in _READERS:
        return f"its reader is {user.op_type}, which has no padding of its own"
    if user.op_type == "AVERAGE_POOL_2D":
        return "AVERAGE_POOL_2D: LiteRT's SAME average divides by the in-bounds count, the PAD's elements count"
    if user.options.get("padding", "VALID") != "VALID":
        return "its reader already pads (SAME)"
    if not same_quant(x, t) or x.quant is None:
        return "the PAD's input and output quantization differ"
    pads_t = graph.tensors[pad.inputs[1]]
    pads = [int(v) for v in np.asarray(pads_t.data).reshape(-1)] if pads_t.is_constant else []
    if len(x.shape) != 4 or len(pads) != 8:
        return "not a 4-D (NHWC) PAD with constant paddings"
    if pads[0] or pads[1] or pads[6] or pads[7]:
        return "it pads the batch or channel dimension"
    value = _pad_value(graph, pad)
    if user.op_type == "MAX_POOL_2D":
        lowest = int(np.iinfo(x.dtype).min)
        if value != lowest:
            return f"MAX_POOL_2D folds a pad value of {lowest} (the dtype minimum) only, it pads {value}"
    elif value != int(x.quant.zero_point):
        return f"pad value {value} is not the input zero point {x.quant.zero_point} (SAME pads with real 0)"
    for axis, (size, stride, dilation) in zip((1, 2), _window(graph, user)):
        want = same_padding(int(x.shape[axis]), size, stride, dilation)
        got = (pads[2 * axis], pads[2 * axis + 1])
        if got != want:
            return (f"{'height' if axis == 1 else 'width'} padding {list(got)} is not SAME's {list(want)} for "
                    f"input {x.shape[axis]}, filter {size}, stride {stride}, dilation {dilation}")
    options = dict(user.options, padding="SAME")
    from dataclasses import replace
    folded = replace(user, inputs=[pad.inputs[0]] + list(user.inputs[1:]), options=options)
    detail = (f"{pad.op_type} {pads[2:6]} (top, bottom, left, right) of value {value} is {user.op_type}'s "
              f"SAME padding")
    return without(graph, pad, {user.index: folded}), Record(NAME, (pad.index,), user.index, detail)

# SPDX-License-Identifier: Apache-2.0
"""How a kernel call's cost is modelled: each kind of entry names the shape features its instruction
count is fitted on (helia_aot/library/cost_model.py) and computes them from a call's dims. An
operator's variant declares the kind of each entry it may call (Variant.cost_kinds); our Helium and DSP
kernels declare theirs in helia_aot/library/helium_costs.py and dsp_costs.py.

Dims as cmsis_nn_dims (n, h, w, c): a convolution's filter is (c_out, h, w, c_in), a depthwise one's
(1, h, w, c_out), a fully connected one's (depth, 1, 1, outputs). stride and padding (w, h) where a
kind's cost depends on them, else None.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

Dims = tuple[int, int, int, int]


@dataclass(frozen=True)
class CostKind:
    name: str
    features: tuple[str, ...]
    # (input_dims, filter_dims, output_dims, stride, padding) -> feature -> value
    compute: Callable[..., dict[str, int]]


def _out(output_dims) -> tuple[int, int, int, int, int, int]:
    n, oh, ow, oc = (int(d) for d in output_dims)
    return n, oh, ow, oc, n * oh * ow, n * oh * ow * oc


def _conv(input_dims, filter_dims, output_dims, stride=None, padding=None) -> dict[str, int]:
    *_, out_pixels, out_elements = _out(output_dims)
    taps = int(filter_dims[1]) * int(filter_dims[2])
    return {"macs": out_elements * taps * int(filter_dims[3]), "taps": out_elements * taps,
            "ptaps": out_pixels * taps, "out_elements": out_elements, "calls": 1}


def _depthwise(input_dims, filter_dims, output_dims, stride=None, padding=None) -> dict[str, int]:
    *_, out_pixels, out_elements = _out(output_dims)
    window = int(filter_dims[1]) * int(filter_dims[2])
    return {"macs": out_elements * window, "out_elements": out_elements, "out_pixels": out_pixels, "calls": 1}


def _fully_connected(input_dims, filter_dims, output_dims, stride=None, padding=None) -> dict[str, int]:
    *_, out_elements = _out(output_dims)
    return {"macs": out_elements * int(filter_dims[0]), "out_elements": out_elements, "calls": 1}


def axis_geometry(size: int, kernel: int, out: int) -> tuple[int, int]:
    """(stride, leading padding) that give `out` outputs along one axis: TFLite SAME, else VALID."""
    for stride in (1, 2, 3, 4):
        if out == -(-size // stride):
            return stride, max((out - 1) * stride + kernel - size, 0) // 2
        if size >= kernel and out == (size - kernel) // stride + 1:
            return stride, 0
    return 1, 0


def inside_outputs(size: int, kernel: int, out: int, stride: int, lead: int) -> int:
    """Outputs along one axis whose window lies wholly inside the input (no padding tap)."""
    return sum(1 for o in range(out) if 0 <= o * stride - lead <= size - kernel)


# "calls": 1 (the per-call constant); "taps": output elements x filter taps (kh x kw), the per-tap work
# of a loop over input channels, which dominates where inputs have few channels; "ptaps": output pixels
# x taps, the im2col copies.
CONV = CostKind("conv", ("macs", "taps", "ptaps", "out_elements", "calls"), _conv)
DEPTHWISE = CostKind("depthwise", ("macs", "out_elements", "out_pixels", "calls"), _depthwise)
FULLY_CONNECTED = CostKind("fc", ("macs", "out_elements", "calls"), _fully_connected)

# SPDX-License-Identifier: Apache-2.0
"""Instruction cost of a kernel call, from tables measured on QEMU (-icount shift=0).

One table per kernel library, build flavour and core, under helia_aot/library/cost_tables, written by
tools/measure_kernel_costs (which records its command and date in the file). A table holds every
measured call and, per entry, a linear model fitted to them:

    instructions = sum(coefficient[f] * feature[f])

over a few features of the call's shape (MACs, output elements, ...; see FEATURES). The model's
largest relative error on its own measurements is stored beside it; tests/unit/test_cost_model.py
checks the committed coefficients against the committed measurements. A call whose exact shape was
measured (the MLPerf Tiny layers are) is estimated by its measurement, any other by the model.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

DATA_DIR = Path(__file__).resolve().parent / "cost_tables"

# The shape features each kind of entry's cost is fitted on. "calls": 1 (the per-call constant);
# "taps": output elements x filter taps (kh x kw), the per-tap work of a loop over input channels,
# which dominates where inputs have few channels; "ptaps": output pixels x taps, the im2col copies.
FEATURES = {
    "conv": ("macs", "taps", "ptaps", "out_elements", "calls"),
    "depthwise": ("macs", "out_elements", "out_pixels", "calls"),
    # Our Helium depthwise works on blocks of eight channels (a last short block costs a whole one, plus
    # its predication per pixel). Outputs of more than nine pixels run block by block: the MACs, the edge
    # pixels' extra work (the cheaper of the kernel's two edge methods), a set-up per output row and
    # block; smaller outputs run pixel-major, with their own cost per MAC.
    "mve_depthwise": ("block_macs", "edge_work", "block_rows", "pixel_major_macs", "partial_pixels", "blocks",
                      "calls"),
    # Our Helium 1x1 convolution works on 2 x 2 tiles (two pixels by two output channels): one loop
    # step per sixteen input channels of a tile, the requantization and store per tile, and each
    # channel pair's set-up.
    "mve_pointwise": ("tile_steps", "tiles", "pairs", "calls"),
    # Our Helium convolution: the same tiles over two gathered columns, plus the gathering, one copy
    # (or fill) per filter row of each output pixel, sixteen bytes per step.
    "mve_conv": ("tile_steps", "tiles", "gather_rows", "gather_steps", "calls"),
    "fc": ("macs", "out_elements", "calls"),
}

# Entry -> kind. Only these entries are measured and estimated.
ENTRY_KIND = {
    "arm_convolve_1x1_s8_fast": "conv",
    "arm_convolve_1x1_s8": "conv",
    "arm_convolve_1_x_n_s8": "conv",
    "arm_convolve_s8": "conv",
    "arm_convolve_wrapper_s8": "conv",
    "arm_depthwise_conv_3x3_s8": "depthwise",
    "arm_depthwise_conv_s8_opt": "depthwise",
    "arm_depthwise_conv_s8": "depthwise",
    "arm_depthwise_conv_wrapper_s8": "depthwise",
    # Our Helium 3x3 depthwise (kernels/helium), measured where the library is present.
    "helia_mve_depthwise_conv_3x3_s8": "mve_depthwise",
    "helia_mve_convolve_1x1_s8": "mve_pointwise",
    "helia_mve_convolve_s8": "mve_conv",
    "arm_fully_connected_s8": "fc",
    "arm_fully_connected_per_channel_s8": "fc",
}


def _axis_geometry(size: int, kernel: int, out: int) -> tuple[int, int]:
    """(stride, leading padding) that give `out` outputs along one axis: TFLite SAME, else VALID."""
    for stride in (1, 2, 3, 4):
        if out == -(-size // stride):
            return stride, max((out - 1) * stride + kernel - size, 0) // 2
        if size >= kernel and out == (size - kernel) // stride + 1:
            return stride, 0
    return 1, 0


def _inside(size: int, kernel: int, out: int, stride: int, lead: int) -> int:
    """Outputs along one axis whose window lies wholly inside the input."""
    return sum(1 for o in range(out) if o * stride - lead >= 0 and o * stride - lead + kernel <= size)


def features(entry: str, input_dims, filter_dims, output_dims, stride=None, padding=None) -> dict[str, int]:
    """The cost features of one call. Dims as cmsis_nn_dims (n, h, w, c); a convolution's filter
    is (c_out, h, w, c_in), a depthwise one's (1, h, w, c_out), a fully connected one's
    (depth, 1, 1, outputs). stride and padding (w, h), where a kind's cost depends on them; when not
    given they are inferred from the dims (TFLite SAME or VALID)."""
    kind = ENTRY_KIND[entry]
    n, oh, ow, oc = (int(d) for d in output_dims)
    out_pixels = n * oh * ow
    out_elements = out_pixels * oc
    if kind == "conv":
        taps = int(filter_dims[1]) * int(filter_dims[2])
        return {"macs": out_elements * taps * int(filter_dims[3]), "taps": out_elements * taps,
                "ptaps": out_pixels * taps, "out_elements": out_elements, "calls": 1}
    if kind == "mve_pointwise":
        pairs = -(-oc // 2)
        tiles = -(-out_pixels // 2) * pairs
        return {"tile_steps": tiles * -(-int(filter_dims[3]) // 16), "tiles": tiles, "pairs": pairs, "calls": 1}
    if kind == "mve_conv":
        kh, kw, cin = int(filter_dims[1]), int(filter_dims[2]), int(filter_dims[3])
        tiles = n * -(-(oh * ow) // 2) * -(-oc // 2)
        return {"tile_steps": tiles * -(-(kh * kw * cin) // 16), "tiles": tiles, "gather_rows": out_pixels * kh,
                "gather_steps": out_pixels * kh * -(-(kw * cin) // 16), "calls": 1}
    if kind == "mve_depthwise":
        return _mve_depthwise(input_dims, filter_dims, output_dims, stride, padding)
    if kind == "depthwise":
        window = int(filter_dims[1]) * int(filter_dims[2])
        return {"macs": out_elements * window, "out_elements": out_elements, "out_pixels": out_pixels, "calls": 1}
    depth = int(filter_dims[0])
    return {"macs": out_elements * depth, "out_elements": out_elements, "calls": 1}


def _mve_depthwise(input_dims, filter_dims, output_dims, stride, padding) -> dict[str, int]:
    """helia_mve_depthwise_conv_3x3_s8's work, as the kernel itself splits it (kernels/helium)."""
    _, ih, iw, _ = (int(d) for d in input_dims)
    kh, kw = int(filter_dims[1]), int(filter_dims[2])
    n, oh, ow, oc = (int(d) for d in output_dims)
    if stride is None or padding is None:
        (sh, ph), (sw, pw) = _axis_geometry(ih, kh, oh), _axis_geometry(iw, kw, ow)
    else:
        (sw, sh), (pw, ph) = (int(v) for v in stride), (int(v) for v in padding)
    blocks = -(-oc // 8)
    macs = n * oh * ow * blocks * 8 * kh * kw
    partial = n * oh * ow if oc % 8 else 0
    if oh * ow <= 9:  # the kernel's pixel-major order
        return {"block_macs": 0, "edge_work": 0, "block_rows": 0, "pixel_major_macs": macs,
                "partial_pixels": partial, "blocks": n * blocks, "calls": 1}
    inside_h, inside_w = _inside(ih, kh, oh, sh, ph), _inside(iw, kw, ow, sw, pw)
    edge_pixels = oh * ow - inside_h * inside_w
    shift_pairs = (oh - inside_h + 1) * (ow - inside_w + 1)
    # The kernel's own rule: shifted windows (about 90 instructions per shift pair and block) or the
    # pad vector (about 50 per edge pixel and block), whichever is cheaper.
    edge_work = n * blocks * min(90 * shift_pairs, 50 * edge_pixels)
    return {"block_macs": macs, "edge_work": edge_work, "block_rows": n * oh * blocks, "pixel_major_macs": 0,
            "partial_pixels": partial, "blocks": n * blocks, "calls": 1}


def fit(rows: list[tuple[dict[str, int], int]], names: tuple[str, ...]) -> list[float]:
    """Least-squares coefficients minimising the relative error of instructions over the rows
    (each row divided by its measured count), rounded to 4 decimals."""
    a = np.array([[row[name] for name in names] for row, _ in rows], dtype=np.float64)
    y = np.array([count for _, count in rows], dtype=np.float64)
    weights = 1.0 / y
    solution, *_ = np.linalg.lstsq(a * weights[:, None], y * weights, rcond=None)
    return [round(float(c), 4) for c in solution]


def predict(coefficients: dict[str, float], feats: dict[str, int]) -> float:
    return sum(c * feats[name] for name, c in coefficients.items())


@dataclass(frozen=True)
class CostTable:
    """One library/build/core's measured calls and fitted models."""

    path: Path
    library: str
    build: str
    core: str
    models: dict  # entry -> {"coefficients": {feature: value}, "max_relative_error": float}
    measured: dict  # (entry, input dims, filter dims, output dims) -> instructions
    command: str | None = None  # what made the table (recorded in the plan's report)
    date: str | None = None

    @property
    def name(self) -> str:
        return self.path.stem

    def has(self, entry: str) -> bool:
        return entry in self.models

    def estimate(self, entry: str, input_dims, filter_dims, output_dims, stride=None, padding=None) -> int | None:
        """Estimated instructions of one call, None when the entry was not measured here. stride and
        padding (w, h) refine the estimate where the entry's cost depends on them."""
        model = self.models.get(entry)
        if model is None:
            return None
        key = (entry, tuple(map(int, input_dims)), tuple(map(int, filter_dims)), tuple(map(int, output_dims)))
        if key in self.measured:
            return self.measured[key]
        value = predict(model["coefficients"], features(entry, input_dims, filter_dims, output_dims, stride, padding))
        return max(int(round(value)), 1)


def read_table(path: Path) -> CostTable:
    data = json.loads(path.read_text(encoding="utf-8"))
    # Stride and padding are implied by the dims for the measured shapes (one measurement each).
    measured = {(m["entry"], tuple(m["input_dims"]), tuple(m["filter_dims"]), tuple(m["output_dims"])):
                m["instructions"] for m in data["measurements"]}
    return CostTable(path, data["library"], data["build"], data["core"], data["entries"], measured,
                     data.get("command"), data.get("date"))


@functools.lru_cache(maxsize=None)
def tables() -> tuple[CostTable, ...]:
    return tuple(read_table(p) for p in sorted(DATA_DIR.glob("*.json")))


def table_for(library: str, build: str, cpu: str) -> CostTable | None:
    """The table measured for this library, build and core; else one for the library and build on
    another core (instruction counts differ, their ranking much less); else None."""
    same = [t for t in tables() if t.library == library and t.build == build]
    for t in same:
        if t.core == cpu:
            return t
    return same[0] if same else None

# SPDX-License-Identifier: Apache-2.0
"""The cost models of our Helium kernels (kernels/helium): each kernel's features follow how the kernel
itself splits its work, so an unmeasured shape is ranked against the library entry it may replace.
The operator variants that offer a Helium entry name its kind here (Variant.cost_kinds)."""

from __future__ import annotations

from helia_aot.library.cost_kinds import CostKind


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


def _depthwise_3x3(input_dims, filter_dims, output_dims, stride=None, padding=None) -> dict[str, int]:
    """helia_mve_depthwise_conv_3x3_s8's work, as the kernel itself splits it."""
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


def _pointwise(input_dims, filter_dims, output_dims, stride=None, padding=None) -> dict[str, int]:
    n, oh, ow, oc = (int(d) for d in output_dims)
    pairs = -(-oc // 2)
    tiles = -(-(n * oh * ow) // 2) * pairs
    return {"tile_steps": tiles * -(-int(filter_dims[3]) // 16), "tiles": tiles, "pairs": pairs, "calls": 1}


def _convolution(input_dims, filter_dims, output_dims, stride=None, padding=None) -> dict[str, int]:
    n, oh, ow, oc = (int(d) for d in output_dims)
    kh, kw, cin = int(filter_dims[1]), int(filter_dims[2]), int(filter_dims[3])
    out_pixels = n * oh * ow
    tiles = n * -(-(oh * ow) // 2) * -(-oc // 2)
    return {"tile_steps": tiles * -(-(kh * kw * cin) // 16), "tiles": tiles, "gather_rows": out_pixels * kh,
            "gather_steps": out_pixels * kh * -(-(kw * cin) // 16), "calls": 1}


# Blocks of eight channels (a last short block costs a whole one, plus its predication per pixel).
# Outputs of more than nine pixels run block by block: the MACs, the edge pixels' extra work (the
# cheaper of the kernel's two edge methods), a set-up per output row and block; smaller outputs run
# pixel-major, with their own cost per MAC.
MVE_DEPTHWISE = CostKind("mve_depthwise", ("block_macs", "edge_work", "block_rows", "pixel_major_macs",
                                           "partial_pixels", "blocks", "calls"), _depthwise_3x3)
# 2 x 2 tiles (two pixels by two output channels): one loop step per sixteen input channels of a tile,
# the requantization and store per tile, and each channel pair's set-up.
MVE_POINTWISE = CostKind("mve_pointwise", ("tile_steps", "tiles", "pairs", "calls"), _pointwise)
# The same tiles over two gathered columns, plus the gathering: one copy (or fill) per filter row of
# each output pixel, sixteen bytes per step.
MVE_CONV = CostKind("mve_conv", ("tile_steps", "tiles", "gather_rows", "gather_steps", "calls"), _convolution)

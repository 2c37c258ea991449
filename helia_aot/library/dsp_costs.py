# SPDX-License-Identifier: Apache-2.0
"""The cost models of our DSP kernels (kernels/dsp): each kernel's features follow how the kernel itself
splits its work, so an unmeasured shape is ranked against the library entries it may replace. The
operator variants that offer a DSP entry name its kind here (Variant.cost_kinds)."""

from __future__ import annotations

from helia_aot.library.cost_kinds import CostKind, axis_geometry, inside_outputs


def _taps_inside(size: int, kernel: int, out: int, stride: int, lead: int) -> int:
    """Filter taps along one axis that fall inside the input, summed over the outputs."""
    return sum(sum(1 for k in range(kernel) if 0 <= o * stride - lead + k < size) for o in range(out))


def _depthwise_3x3(input_dims, filter_dims, output_dims, stride=None, padding=None) -> dict[str, int]:
    """helia_dsp_depthwise_conv_3x3_s8's work, as the kernel splits it: per group of four channels (its
    weights and constants prepared once), per output row; an output pixel whose window lies inside the
    input runs the nine taps without bounds checks (in pairs at strides 1 and 2), one whose window
    reaches into the padding only its taps inside; a last group of one to three channels runs per
    channel over the taps inside."""
    n, ih, iw, _ = (int(d) for d in input_dims)
    kh, kw = int(filter_dims[1]), int(filter_dims[2])
    _, oh, ow, oc = (int(d) for d in output_dims)
    if stride is None or padding is None:
        (sh, ph), (sw, pw) = axis_geometry(ih, kh, oh), axis_geometry(iw, kw, ow)
    else:
        (sw, sh), (pw, ph) = (int(v) for v in stride), (int(v) for v in padding)
    groups, tail = oc // 4, oc % 4
    pixels = n * oh * ow
    inside = n * inside_outputs(ih, kh, oh, sh, ph) * inside_outputs(iw, kw, ow, sw, pw)
    taps = n * _taps_inside(ih, kh, oh, sh, ph) * _taps_inside(iw, kw, ow, sw, pw)
    return {"inside_groups": inside * groups, "edge_groups": (pixels - inside) * groups,
            "edge_taps": (taps - inside * kh * kw) * groups, "tail_taps": taps * tail,
            "group_rows": n * oh * groups, "groups": groups, "calls": 1}


# Per group of four channels: an inside pixel (nine taps, four requantizations); an edge pixel (its
# requantizations) and each of its taps inside; a last short group's taps per channel; a set-up per
# output row and per group; the per-call constant.
DSP_DEPTHWISE = CostKind("dsp_depthwise", ("inside_groups", "edge_groups", "edge_taps", "tail_taps", "group_rows",
                                           "groups", "calls"), _depthwise_3x3)


def _pointwise(input_dims, filter_dims, output_dims, stride=None, padding=None) -> dict[str, int]:
    """helia_dsp_convolve_1x1_s8's work: per output element, one multiply-accumulate step per four input
    channels (and the depth's last one to three) and a requantization; a set-up per pixel."""
    n, oh, ow, oc = (int(d) for d in output_dims)
    depth = int(filter_dims[3])
    elements = n * oh * ow * oc
    return {"depth_steps": elements * (depth // 4), "depth_tails": elements * (depth % 4),
            "out_elements": elements, "pixels": n * oh * ow, "calls": 1}


# Per output element: its steps of four input channels (two SMLADs), the last one to three channels and
# its requantization and store; per pixel its set-up; the per-call constant.
DSP_POINTWISE = CostKind("dsp_pointwise", ("depth_steps", "depth_tails", "out_elements", "pixels", "calls"),
                         _pointwise)

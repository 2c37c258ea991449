# SPDX-License-Identifier: Apache-2.0
"""The cost models of our Helium kernels (kernels/helium): each kernel's features follow how the kernel
itself splits its work, so an unmeasured shape is ranked against the library entry it may replace.
The operator variants that offer a Helium entry name its kind here (Variant.cost_kinds)."""

from __future__ import annotations

from helia_aot.library.cost_kinds import CostKind, axis_geometry, inside_outputs


# helia_mve_depthwise_conv_3x3_s8's window (kernels/helium/src/helia_mve_depthwise_conv_3x3_s8.c): its bytes
# and the fewest rows a band holds, which bound a column chunk's width.
_DW_WINDOW_BYTES = 1600
_DW_MIN_BAND_ROWS = 6


def _depthwise_3x3(input_dims, filter_dims, output_dims, stride=None, padding=None) -> dict[str, int]:
    """helia_mve_depthwise_conv_3x3_s8's work, as the kernel itself splits it: per block of eight channels,
    column chunks of the output, each in bands of window rows (the window's rows along the output's longer
    axis); each band copies its window rows of input and padding, then runs its output rows through the
    pair loop."""
    _, ih, iw, _ = (int(d) for d in input_dims)
    kh, kw = int(filter_dims[1]), int(filter_dims[2])
    n, oh, ow, oc = (int(d) for d in output_dims)
    if stride is None or padding is None:
        (sh, _), (sw, _) = axis_geometry(ih, kh, oh), axis_geometry(iw, kw, ow)
    else:
        sw, sh = (int(v) for v in stride)
    blocks = -(-oc // 8)
    # (outputs, stride) across the window's rows and along one
    across, along = ((ow, sw), (oh, sh)) if oh > ow else ((oh, sh), (ow, sw))
    per_chunk = (_DW_WINDOW_BYTES // (8 * _DW_MIN_BAND_ROWS) - 3) // along[1] + 1
    window_pixels = window_rows = bands = 0
    for o0 in range(0, along[0], per_chunk):
        columns = (min(per_chunk, along[0] - o0) - 1) * along[1] + 3
        per_band = (_DW_WINDOW_BYTES // (8 * columns) - 3) // across[1] + 1
        for r0 in range(0, across[0], per_band):
            rows = min(per_band, across[0] - r0)
            window_pixels += ((rows - 1) * across[1] + 3) * columns
            window_rows += rows
            bands += 1
    # The last, short block, and every block when a window row's stride is over 2, take the general loop.
    general_blocks = blocks if along[1] > 2 else (1 if oc % 8 else 0)
    return {"block_macs": n * oh * ow * blocks * 8 * kh * kw, "window_pixels": n * blocks * window_pixels,
            "window_rows": n * blocks * window_rows, "general_pixels": n * oh * ow * general_blocks,
            "bands": n * blocks * bands, "calls": 1}


# helia_mve_convolve_1x1_s8's small-depth path (kernels/helium/src/helia_mve_convolve_1x1_s8.c): the
# largest depth it takes, the depths of its loop of four pixels, and the most output channels that loop
# stores (byte offsets).
_PW_SMALL_MAX_DEPTH = 16
_PW_QUAD_DEPTHS = (8, 16)
_PW_QUAD_MAX_CHANNELS = 84


def _pointwise(input_dims, filter_dims, output_dims, stride=None, padding=None) -> dict[str, int]:
    """helia_mve_convolve_1x1_s8's work, as the kernel itself splits it (the model assumes right shifts, as
    real layers have). Depths up to 16 run groups of four output channels, each with a set-up (its rows
    copied into a padded buffer, its constants); at depths 8 and 16 a full group's pixels go four per step of
    an asm loop and the last one to three in two-pixel tiles, at other small depths (and in a last short
    group) all in two-pixel tiles. Deeper layers run channel pairs: for a depth that is a multiple of 32, each full
    pair's pixel pairs the wide tile (32 input channels per pass), the rest (a last odd pixel or channel,
    other depths) the general tile (one loop step per 16 input channels)."""
    n, oh, ow, oc = (int(d) for d in output_dims)
    depth = int(filter_dims[3])
    pixels = n * oh * ow
    small = {"quad_steps": 0, "small_tiles": 0, "small_groups": 0}
    if depth <= _PW_SMALL_MAX_DEPTH:
        groups, full = -(-oc // 4), oc // 4
        if depth in _PW_QUAD_DEPTHS and oc <= _PW_QUAD_MAX_CHANNELS and pixels >= 4:
            small = {"quad_steps": full * (pixels // 4),
                     "small_tiles": full * -(-(pixels % 4) // 2) + (groups - full) * -(-pixels // 2),
                     "small_groups": groups}
        else:
            small = {"quad_steps": 0, "small_tiles": groups * -(-pixels // 2), "small_groups": groups}
        return {"tile_steps": 0, "tiles": 0, "wide_passes": 0, "wide_tiles": 0, **small, "pairs": 0, "calls": 1}
    pairs = -(-oc // 2)
    if depth % 32 == 0:
        wide_tiles = (pixels // 2) * (oc // 2)
        tiles = -(-pixels // 2) * pairs - wide_tiles
    else:
        wide_tiles, tiles = 0, -(-pixels // 2) * pairs
    return {"tile_steps": tiles * -(-depth // 16), "tiles": tiles, "wide_passes": wide_tiles * (depth // 32),
            "wide_tiles": wide_tiles, **small, "pairs": pairs, "calls": 1}


# helia_mve_convolve_s8's short path (kernels/helium/src/helia_mve_convolve_s8.c): columns of at most this
# many bytes with at most this many output channels.
_SHORT_DEPTH = 32
_SHORT_CHANNELS = 16


def _convolution(input_dims, filter_dims, output_dims, stride=None, padding=None) -> dict[str, int]:
    """helia_mve_convolve_s8's work, as the kernel itself splits it. Columns of at most 32 bytes with at most
    16 output channels (stems; not pointwise layers, 1x1 with stride 1 and no padding) take the short path: per output row, pairs of pixels (a last odd one counts
    as a pair), each gathering both windows (short_pixels) and running every group of four channels over
    them (short_groups). Otherwise, per pair of output pixels (a last odd one counts as a pair), both
    windows gathered into columns, then every channel pair's 2 x 2 tile. A column of 16 bytes or more runs
    the full channel pairs in the wide tile (the model assumes weight sums and right shifts, as real layers
    have), one 16-byte step each; a last odd channel, and every tile of a shorter column, the general tile.
    A window wholly inside the input is gathered as kh row copies (16 bytes per step); on either path,
    others take the general gather, which costs more per filter row (edge_rows)."""
    n, ih, iw, _ = (int(d) for d in input_dims)
    _, oh, ow, oc = (int(d) for d in output_dims)
    kh, kw, cin = int(filter_dims[1]), int(filter_dims[2]), int(filter_dims[3])
    if stride is None or padding is None:
        (sh, ph), (sw, pw) = axis_geometry(ih, kh, oh), axis_geometry(iw, kw, ow)
    else:
        (sw, sh), (pw, ph) = (int(v) for v in stride), (int(v) for v in padding)
    depth = kh * kw * cin
    out_pixels = n * oh * ow
    edge_pixels = out_pixels - n * inside_outputs(ih, kh, oh, sh, ph) * inside_outputs(iw, kw, ow, sw, pw)
    pointwise = kh == kw == sh == sw == 1 and ph == pw == 0  # helia_mve_convolve_1x1_s8's: not the short path
    if depth <= _SHORT_DEPTH and oc <= _SHORT_CHANNELS and not pointwise:
        return {"tile_steps": 0, "tiles": 0, "wide_steps": 0, "wide_tiles": 0, "gather_rows": 0, "gather_steps": 0,
                "edge_rows": edge_pixels * kh, "short_groups": n * oh * -(-ow // 2) * -(-oc // 4),
                "short_pixels": out_pixels, "calls": 1}
    pixel_pairs = n * -(-(oh * ow) // 2)
    wide_tiles = pixel_pairs * (oc // 2) if depth >= 16 else 0
    tiles = pixel_pairs * -(-oc // 2) - wide_tiles
    steps = -(-depth // 16)
    return {"tile_steps": tiles * steps, "tiles": tiles, "wide_steps": wide_tiles * steps, "wide_tiles": wide_tiles,
            "gather_rows": out_pixels * kh, "gather_steps": out_pixels * kh * -(-(kw * cin) // 16),
            "edge_rows": edge_pixels * kh, "short_groups": 0, "short_pixels": 0, "calls": 1}


def _fully_connected(input_dims, filter_dims, output_dims, stride=None, padding=None) -> dict[str, int]:
    """helia_mve_fully_connected_s8's work, as the kernel splits it: per batch row, groups of four output
    rows (a last short group repeats its last row), each a loop over the depth in sixteen-byte steps
    (one loop end per step, or per two steps when the depth is a multiple of 32)."""
    depth, outputs, batches = int(filter_dims[0]), int(output_dims[3]), int(output_dims[0])
    groups = batches * -(-outputs // 4)
    steps = -(-depth // 16)
    ends = depth // 32 if depth % 32 == 0 else steps
    return {"group_steps": groups * steps, "loop_ends": groups * ends, "groups": groups,
            "short_groups": batches * (1 if outputs % 4 else 0), "calls": 1}


# Blocks of eight channels (a last short block costs a whole one): the MACs of the pair loop, the window's
# copying (input and padding, per window pixel), a set-up per window row and per band, and the pixels of
# the general loop (the last, short block; strides over 2 along a window row).
MVE_DEPTHWISE = CostKind("mve_depthwise", ("block_macs", "window_pixels", "window_rows", "general_pixels",
                                           "bands", "calls"), _depthwise_3x3)
# 2 x 2 tiles (two pixels by two output channels): the general tile's loop steps (sixteen input channels
# each) and its requantization and store; the wide tile's passes (32 input channels each) and its
# requantization and store; each channel pair's set-up. Depths up to 16: the asm loop's steps (four pixels
# by four channels, depths 8 and 16), the two-pixel tiles (by four channels) and each group's set-up.
MVE_POINTWISE = CostKind("mve_pointwise", ("tile_steps", "tiles", "wide_passes", "wide_tiles", "quad_steps",
                                           "small_tiles", "small_groups", "pairs", "calls"), _pointwise)
# The same tiles over two gathered columns: the general tile's steps (sixteen bytes each) and its
# requantization and store; the wide tile's steps (sixteen bytes each) and its set-up, requantization and
# store; plus the gathering: one copy per filter row of each output pixel (sixteen bytes per step), and
# the general gather's extra per filter row of a window over the padding. The short path (stems): four
# channels of a pair of pixels per group (their multiply-accumulates, requantization and two stores) and
# each pixel's gathering and share of its pair's loop.
MVE_CONV = CostKind("mve_conv", ("tile_steps", "tiles", "wide_steps", "wide_tiles", "gather_rows", "gather_steps",
                                 "edge_rows", "short_groups", "short_pixels", "calls"), _convolution)

# Groups of four output rows per batch row: one step per sixteen bytes of depth (five loads, four
# VMLADAVA), the loop ends, each group's set-up, requantization and store, and a last short group (the
# C loop).
MVE_FC = CostKind("mve_fc", ("group_steps", "loop_ends", "groups", "short_groups", "calls"), _fully_connected)

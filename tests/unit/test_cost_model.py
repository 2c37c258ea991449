# SPDX-License-Identifier: Apache-2.0
"""The committed kernel cost tables (helia_aot/library/cost_tables, written by tools/measure_kernel_costs):
each entry's model is the fit of the table's own measurements and predicts each of them within the
error it records, which stays small enough to rank entries."""

from __future__ import annotations

import json

import pytest

from helia_aot.library import cost_model

TABLES = sorted(cost_model.DATA_DIR.glob("*.json"))
MAX_FIT_ERROR = 0.30  # a model further off than this cannot rank entries
# A wrapper's cost is that of the entry it dispatches to, whose models differ; the compiler never
# chooses a wrapper by cost (it only estimates one the operator cannot avoid). Measured shapes are
# estimated by their measurement.
LOOSE_FIT = {"arm_convolve_wrapper_s8": 0.45}


def test_tables_cover_each_library_and_build():
    found = {(t.library, t.build, t.core) for t in cost_model.tables()}
    assert ("ns_cmsis_nn", "mve", "cortex-m55") in found
    assert ("ns_cmsis_nn", "dsp", "cortex-m4") in found
    assert {("portable", "plain", "cortex-m55"), ("portable", "plain", "cortex-m4")} <= found


@pytest.mark.parametrize("path", TABLES, ids=[p.stem for p in TABLES])
def test_table_records_how_it_was_made(path):
    data = json.loads(path.read_text())
    assert data["command"].startswith("tools/measure_kernel_costs") and path.stem in data["command"]
    assert len(data["date"]) == 10 and data["optimization"] == "-O2"
    assert data["measurements"] and data["entries"]


@pytest.mark.parametrize("path", TABLES, ids=[p.stem for p in TABLES])
def test_models_are_the_fit_of_the_measurements_and_predict_them(path):
    data = json.loads(path.read_text())
    for entry, model in data["entries"].items():
        names = cost_model.kind_of(entry).features
        assert set(model["coefficients"]) == set(names)
        rows = [(cost_model.features(entry, m["input_dims"], m["filter_dims"], m["output_dims"], m["stride"],
                                     m["padding"]), m["instructions"])
                for m in data["measurements"] if m["entry"] == entry]
        assert len(rows) == model["measured_calls"] > len(names), f"{entry}: too few calls to fit"
        assert cost_model.fit(rows, names) == pytest.approx([model["coefficients"][n] for n in names], abs=2e-4)
        bound = LOOSE_FIT.get(entry, MAX_FIT_ERROR)
        assert model["max_relative_error"] <= bound, f"{entry}: the linear model does not fit"
        for feats, count in rows:
            predicted = cost_model.predict(model["coefficients"], feats)
            assert abs(predicted - count) / count <= model["max_relative_error"], (entry, feats, count)


def test_table_lookup_prefers_the_same_core():
    assert cost_model.table_for("ns_cmsis_nn", "mve", "cortex-m55").core == "cortex-m55"
    assert cost_model.table_for("portable", "plain", "cortex-m4").core == "cortex-m4"
    # Another core of the same library and build stands in (the host builds portable plain C).
    assert cost_model.table_for("portable", "plain", "generic").library == "portable"
    assert cost_model.table_for("ns_cmsis_nn", "plain", "generic") is None
    assert cost_model.table_for("portable", "plain", "generic").core == "cortex-m4"


def test_tables_cover_every_emulated_core_but_the_m0():
    """tools/measure_kernel_costs measured each emulated core with ns-cmsis-nn's build for it and the
    portable kernels; the micro:bit's M0 (16 KiB) cannot hold the layers and takes the M3's plain C."""
    found = {(t.library, t.build, t.core) for t in cost_model.tables()}
    for core, build in (("cortex-m3", "plain"), ("cortex-m4", "dsp"), ("cortex-m7", "dsp"), ("cortex-m33", "dsp"),
                        ("cortex-m55", "mve")):
        assert {("ns_cmsis_nn", build, core), ("portable", "plain", core)} <= found, core
    assert cost_model.table_for("ns_cmsis_nn", "plain", "cortex-m0").core == "cortex-m3"
    assert cost_model.table_for("portable", "plain", "cortex-m0plus").core == "cortex-m3"


def test_stand_ins_name_known_cores_and_never_the_core_itself():
    for cpu, stand_ins in cost_model.STAND_INS.items():
        assert cpu not in stand_ins and len(set(stand_ins)) == len(stand_ins), cpu
    # An M33 without DSP builds ns-cmsis-nn's plain C: the M3's table, the nearest measured plain build.
    assert cost_model.table_for("ns_cmsis_nn", "plain", "cortex-m33").core == "cortex-m3"


def test_features_count_the_layer_macs():
    conv = cost_model.features("arm_convolve_s8", (1, 10, 10, 8), (16, 3, 3, 8), (1, 8, 8, 16))
    assert conv == {"macs": 8 * 8 * 16 * 9 * 8, "taps": 8 * 8 * 16 * 9, "ptaps": 8 * 8 * 9, "out_elements": 8 * 8 * 16,
                    "calls": 1}
    dw = cost_model.features("arm_depthwise_conv_3x3_s8", (1, 10, 10, 8), (1, 3, 3, 8), (1, 10, 10, 8))
    assert dw == {"macs": 10 * 10 * 8 * 9, "out_elements": 800, "out_pixels": 100, "calls": 1}
    fc = cost_model.features("arm_fully_connected_s8", (1, 1, 1, 64), (64, 1, 1, 12), (1, 1, 1, 12))
    assert fc == {"macs": 64 * 12, "out_elements": 12, "calls": 1}


def test_measured_shapes_are_estimated_by_their_measurement():
    table = cost_model.table_for("ns_cmsis_nn", "mve", "cortex-m55")
    data = json.loads(table.path.read_text())
    for m in data["measurements"]:
        assert table.estimate(m["entry"], m["input_dims"], m["filter_dims"], m["output_dims"]) == m["instructions"]
    # An unmeasured shape takes the model.
    dims = ((1, 20, 20, 40), (1, 3, 3, 40), (1, 20, 20, 40))
    model = table.models["arm_depthwise_conv_s8_opt"]["coefficients"]
    expected = round(cost_model.predict(model, cost_model.features("arm_depthwise_conv_s8_opt", *dims)))
    assert table.estimate("arm_depthwise_conv_s8_opt", *dims) == expected


def test_helium_pointwise_features_follow_the_kernels_own_split():
    """helia_mve_convolve_1x1_s8: a depth that is a multiple of 32 runs its full channel pairs' pixel pairs
    in the wide tile (32 input channels per pass); a last odd pixel or channel, and every tile of other
    depths over 16, run the general tile (16 input channels per step). Depths up to 16 run groups of four
    channels: at depths 8 and 16 a full group four pixels per asm step (the last one to three pixels in
    two-pixel tiles), else two-pixel tiles."""
    entry = "helia_mve_convolve_1x1_s8"
    none = {"quad_steps": 0, "small_tiles": 0, "small_groups": 0}
    # kws 25x5x64 -> 64: 62 pixel pairs of 32 channel pairs wide; the odd 125th pixel's 32 tiles general.
    kws = cost_model.features(entry, (1, 25, 5, 64), (64, 1, 1, 64), (1, 25, 5, 64))
    assert kws == {"tile_steps": 32 * 4, "tiles": 32, "wide_passes": 62 * 32 * 2, "wide_tiles": 62 * 32, **none,
                   "pairs": 32, "calls": 1}
    # 7x7x96 -> 25: 24 pixel pairs of 12 full channel pairs wide; the rest (25 tiles of the odd channel's
    # pair, and the last pixel's 12 full pairs) general.
    odd = cost_model.features(entry, (1, 7, 7, 96), (25, 1, 1, 96), (1, 7, 7, 25))
    assert odd == {"tile_steps": (25 * 13 - 24 * 12) * 6, "tiles": 25 * 13 - 24 * 12, "wide_passes": 24 * 12 * 3,
                   "wide_tiles": 24 * 12, **none, "pairs": 13, "calls": 1}
    # Depth 40 (not a multiple of 32): all general, three steps of 16 per tile.
    narrow = cost_model.features(entry, (1, 7, 7, 40), (25, 1, 1, 40), (1, 7, 7, 25))
    assert narrow == {"tile_steps": 25 * 13 * 3, "tiles": 25 * 13, "wide_passes": 0, "wide_tiles": 0, **none,
                      "pairs": 13, "calls": 1}
    # Depths up to 16 run groups of four channels instead. vww 48x48x8 -> 16: four groups, 576 steps of four
    # pixels each, no pixel left.
    deep_0 = {"tile_steps": 0, "tiles": 0, "wide_passes": 0, "wide_tiles": 0, "pairs": 0, "calls": 1}
    vww = cost_model.features(entry, (1, 48, 48, 8), (16, 1, 1, 8), (1, 48, 48, 16))
    assert vww == {**deep_0, "quad_steps": 4 * 576, "small_tiles": 0, "small_groups": 4}
    # Depth 16, 7x7 -> 10: two full groups of 12 steps and a two-pixel tile for the 49th pixel each; the
    # short third group in 25 two-pixel tiles.
    short = cost_model.features(entry, (1, 7, 7, 16), (10, 1, 1, 16), (1, 7, 7, 10))
    assert short == {**deep_0, "quad_steps": 2 * 12, "small_tiles": 2 * 1 + 25, "small_groups": 3}
    # Depth 5 (two pixels per load, no four-pixel loop), 9x9 -> 7: two groups of 41 tiles.
    five = cost_model.features(entry, (1, 9, 9, 5), (7, 1, 1, 5), (1, 9, 9, 7))
    assert five == {**deep_0, "quad_steps": 0, "small_tiles": 2 * 41, "small_groups": 2}


def test_helium_convolution_features_follow_the_kernels_own_split():
    """helia_mve_convolve_s8: per pair of output pixels (a last odd one counts as a pair), a column of 16
    bytes or more runs the full channel pairs in the wide tile and a last odd channel in the general one,
    16 bytes per step either way; a shorter column runs every tile general. Windows inside the input are
    kh row copies; the others (edge_rows per filter row) take the general gather. Columns of at most 32
    bytes with at most 16 channels (stems) take the short path: groups of four channels per pair of pixels
    of an output row, and each pixel's gathering."""
    entry = "helia_mve_convolve_s8"
    none = {"tile_steps": 0, "tiles": 0, "wide_steps": 0, "wide_tiles": 0, "gather_rows": 0, "gather_steps": 0,
            "short_groups": 0, "short_pixels": 0}
    # resnet 32x32x16 -> 16, 3x3 SAME: 512 pixel pairs of 8 channel pairs, 9 steps over 144 bytes; 30 x 30
    # windows inside the input, 124 over the padding.
    resnet = cost_model.features(entry, (1, 32, 32, 16), (16, 3, 3, 16), (1, 32, 32, 16), (1, 1), (1, 1))
    assert resnet == {**none, "wide_steps": 512 * 8 * 9, "wide_tiles": 512 * 8, "gather_rows": 1024 * 3,
                      "gather_steps": 1024 * 3 * 3, "edge_rows": 124 * 3, "calls": 1}
    # vww 96x96x3 -> 8, 3x3 stride 2 SAME (padding inferred: none leading, one trailing): a 27-byte column
    # and 8 channels, the short path: 48 rows of 24 pairs, two groups each; the last row and column of
    # outputs read the padding.
    vww = cost_model.features(entry, (1, 96, 96, 3), (8, 3, 3, 3), (1, 48, 48, 8))
    assert vww == {**none, "short_groups": 48 * 24 * 2, "short_pixels": 2304, "edge_rows": (2304 - 47 * 47) * 3,
                   "calls": 1}
    # An odd channel count over a 144-byte column: 13 pixel pairs, one wide pair and one general tile each.
    odd = cost_model.features(entry, (1, 5, 5, 16), (3, 3, 3, 16), (1, 5, 5, 3), (1, 1), (1, 1))
    assert odd["wide_tiles"] == 13 and odd["tiles"] == 13 and odd["tile_steps"] == 13 * 9
    assert odd["short_groups"] == 0 and odd["short_pixels"] == 0
    # A 9-byte column (3x3x1) over 5 channels: the short path, 7 rows of 4 pairs (the last odd), 2 groups.
    stem = cost_model.features(entry, (1, 7, 7, 1), (5, 3, 3, 1), (1, 7, 7, 5), (1, 1), (1, 1))
    assert stem == {**none, "short_groups": 7 * 4 * 2, "short_pixels": 49, "edge_rows": (49 - 25) * 3, "calls": 1}
    # The same column over 20 channels: every tile general, one step each.
    short = cost_model.features(entry, (1, 7, 7, 1), (20, 3, 3, 1), (1, 7, 7, 20), (1, 1), (1, 1))
    assert short["wide_tiles"] == 0 and short["tiles"] == 25 * 10 and short["tile_steps"] == 25 * 10
    assert short["edge_rows"] == (49 - 25) * 3 and short["short_groups"] == 0
    # A pointwise layer (1x1, stride 1, no padding) stays off the short path (helia_mve_convolve_1x1_s8's).
    pointwise = cost_model.features(entry, (1, 48, 48, 8), (16, 1, 1, 8), (1, 48, 48, 16), (1, 1), (0, 0))
    assert pointwise["short_groups"] == 0 and pointwise["tiles"] == 1152 * 8
    strided = cost_model.features(entry, (1, 9, 9, 8), (12, 1, 1, 8), (1, 5, 5, 12), (2, 2), (0, 0))
    assert strided == {**none, "short_groups": 5 * 3 * 3, "short_pixels": 25, "edge_rows": 0, "calls": 1}
    # 33 bytes (a 1x11x3 filter) over 8 channels: past the short path's columns.
    long = cost_model.features(entry, (1, 1, 20, 3), (8, 1, 11, 3), (1, 1, 10, 8), (1, 1), (0, 0))
    assert long["short_groups"] == 0 and long["wide_tiles"] == 5 * 4


def test_helium_depthwise_features_follow_the_kernels_own_split():
    """helia_mve_depthwise_conv_3x3_s8: per block of eight channels, bands of window rows along the output's
    longer axis, each copying its rows of input and padding, then the pair loop over its output rows; the
    general loop's pixels (a short last block, a stride over 2 along a window row); stride and padding given,
    or inferred from the dims as TFLite SAME / VALID."""
    entry = "helia_mve_depthwise_conv_3x3_s8"
    given = cost_model.features(entry, (1, 10, 10, 20), (1, 3, 3, 20), (1, 10, 10, 20), (1, 1), (1, 1))
    # 3 blocks of 8 (20 channels, the last short); one band of 12 window rows of 12 pixels for 10 output rows.
    assert given == {"block_macs": 100 * 3 * 72, "window_pixels": 3 * 12 * 12, "window_rows": 3 * 10,
                     "general_pixels": 100, "bands": 3, "calls": 1}
    assert cost_model.features(entry, (1, 10, 10, 20), (1, 3, 3, 20), (1, 10, 10, 20)) == given  # SAME inferred
    # kws 25x5: the window's rows run along y, 7 rows of 27 pixels per block, 5 output rows.
    kws = cost_model.features(entry, (1, 25, 5, 64), (1, 3, 3, 64), (1, 25, 5, 64))
    assert (kws["window_pixels"], kws["window_rows"], kws["bands"]) == (8 * 7 * 27, 8 * 5, 8)
    # 48 wide: column chunks of 31 and 17 outputs (at most 33 window columns), bands of 6 and 10 window rows.
    wide = cost_model.features(entry, (1, 48, 48, 8), (1, 3, 3, 8), (1, 48, 48, 8))
    assert (wide["window_pixels"], wide["bands"]) == (12 * 6 * 33 + 6 * 10 * 19, 12 + 6)
    # Stride 3 along a window row: every block runs the general loop.
    strided = cost_model.features(entry, (1, 10, 30, 16), (1, 3, 3, 16), (1, 10, 10, 16), (3, 1), (1, 1))
    assert strided["general_pixels"] == 100 * 2


def test_helium_fully_connected_features_follow_the_kernels_own_split():
    """helia_mve_fully_connected_s8: per batch row, groups of four output rows (a short last group counted
    whole and apart), sixteen-byte steps over the depth, one loop end per step or per two steps when the
    depth is a multiple of 32."""
    entry = "helia_mve_fully_connected_s8"
    ad01 = cost_model.features(entry, (1, 1, 1, 640), (640, 1, 1, 128), (1, 1, 1, 128))
    assert ad01 == {"group_steps": 32 * 40, "loop_ends": 32 * 20, "groups": 32, "short_groups": 0, "calls": 1}
    odd = cost_model.features(entry, (2, 1, 1, 40), (40, 1, 1, 10), (2, 1, 1, 10))
    assert odd == {"group_steps": 2 * 3 * 3, "loop_ends": 2 * 3 * 3, "groups": 2 * 3, "short_groups": 2, "calls": 1}
    sixteen = cost_model.features(entry, (1, 1, 1, 48), (48, 1, 1, 8), (1, 1, 1, 8))
    assert (sixteen["group_steps"], sixteen["loop_ends"]) == (2 * 3, 2 * 3)

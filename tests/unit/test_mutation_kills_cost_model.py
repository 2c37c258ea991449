# SPDX-License-Identifier: Apache-2.0
"""Cost tables (helia_aot/library/cost_model.py) cases that mutants showed untested (tests/MUTATION.md,
2026-12-02): a table keeps the command and date that made it, and the report names them; a stated stride
and padding reach the entry's features instead of the ones the dims suggest."""

from __future__ import annotations

import json

import helia_aot
from helia_aot.library import cost_model

from .test_operator_overrides import MODEL


def test_each_table_keeps_the_command_and_date_that_made_it():
    paths = sorted(cost_model.DATA_DIR.glob("*.json"))
    assert paths
    for path in paths:
        data = json.loads(path.read_text(encoding="utf-8"))
        table = cost_model.read_table(path)
        assert (table.command, table.date) == (data["command"], data["date"]), path.name
        assert table.command.startswith("tools/measure_kernel_costs ") and len(table.date) == len("2026-12-01")


def test_the_report_names_the_table_its_command_and_date(tmp_path):
    result = helia_aot.convert(MODEL, tmp_path / "o", target="corstone300")
    summary = result.report["kernel_choice"]
    table = cost_model.table_for("ns_cmsis_nn", "mve", "cortex-m55")
    assert summary["cost_table"] == table.name
    assert (summary["cost_table_command"], summary["cost_table_date"]) == (table.command, table.date)
    assert table.command and table.date


def test_a_stated_stride_and_padding_win_over_what_the_dims_suggest():
    """Height 7 -> 3 outputs is VALID stride 2 by the dims but SAME stride 3 with one row of leading padding as
    stated; width 10 -> 10 is SAME stride 1."""
    entry = "helia_mve_depthwise_conv_3x3_s8"
    dims = ((1, 7, 10, 16), (1, 3, 3, 16), (1, 3, 10, 16))
    stated = cost_model.features(entry, *dims, (1, 3), (1, 1))  # (w, h)
    inferred = cost_model.features(entry, *dims)
    # Two blocks of 8 channels, window rows of 12 pixels; stated: the 3 output rows read 9 window rows.
    assert stated["window_pixels"] == 2 * 9 * 12
    # By the dims: 7 window rows.
    assert inferred["window_pixels"] == 2 * 7 * 12


def test_an_estimate_is_the_rounded_model_and_never_below_one_instruction(tmp_path):
    """A model predicting under half an instruction (a tiny or negative fit) still costs the call one; any
    other prediction is rounded to the nearest count."""
    entry, dims = "arm_convolve_s8", ((1, 4, 4, 2), (2, 1, 1, 2), (1, 4, 4, 2))
    assert cost_model.kind_of(entry) is not None

    def table(calls: float) -> cost_model.CostTable:
        return cost_model.CostTable(tmp_path / "t.json", "portable", "plain", "cortex-m4",
                                    {entry: {"coefficients": {"calls": calls}, "max_relative_error": 0.0}}, {})
    assert table(0.4).estimate(entry, *dims) == 1
    assert table(-3.0).estimate(entry, *dims) == 1
    assert table(1.6).estimate(entry, *dims) == 2
    assert table(2.4).estimate(entry, *dims) == 2


def test_helium_cost_geometry_of_an_axis_no_stride_explains():
    """The Helium depthwise cost reads stride and padding back from the shapes (TFLite SAME, else VALID, strides
    1 to 4); an axis none of them gives (here stride 5) is costed as stride 1 with no padding."""
    from helia_aot.library.cost_kinds import axis_geometry as _axis_geometry
    assert _axis_geometry(20, 3, 10) == (2, 0)  # SAME, stride 2: 10 outputs, (9 x 2 + 3 - 20) // 2 = 0
    assert _axis_geometry(21, 3, 11) == (2, 1)  # SAME, stride 2: 11 outputs, (10 x 2 + 3 - 21) // 2 = 1
    assert _axis_geometry(20, 3, 4) == (1, 0)

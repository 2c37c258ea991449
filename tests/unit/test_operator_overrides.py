# SPDX-License-Identifier: Apache-2.0
"""Per-operator rules (the configuration's `operators` list): what they set, what the plan records,
and every mistake as one line naming the entry."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

import helia_aot
from helia_aot.errors import InvalidConfigError
from tests.modelgen import ModelBuilder

from .helpers import REPO, function_body


def _two_convs() -> bytes:
    """x -> CONV_2D (y) -> CONV_2D (y2) -> RESHAPE (z). Each convolution has two candidate entries, the
    direct arm_convolve_s8 and the dispatching arm_convolve_wrapper_s8, which the kernel knob's generic
    value selects (helia_aot/ops/conv_2d.py)."""
    b = ModelBuilder()
    x = b.input("x", (1, 4, 4, 2), scale=0.5, zero_point=-3)
    y = b.tensor("y", (1, 4, 4, 3), scale=0.5, zero_point=1)
    y2 = b.tensor("y2", (1, 4, 4, 3), scale=0.5, zero_point=1)
    options = {"padding": "SAME", "stride_w": 1, "stride_h": 1}
    for name, src, dst, cin in (("w1", x, y, 2), ("w2", y, y2, 3)):
        w = b.const(name, np.ones((3, 3, 3, cin), np.int8), dtype="int8", scale=[0.25] * 3, zero_point=0,
                    quantized_dimension=0)
        bias = b.const(name + "b", np.arange(3, dtype=np.int32), dtype="int32", scale=[0.125] * 3, zero_point=0)
        b.op("CONV_2D", [src, w, bias], [dst], options)
    shape = b.const("shape", np.array([1, 48], np.int32), dtype="int32")
    z = b.tensor("z", (1, 48), scale=0.5, zero_point=1)
    b.op("RESHAPE", [y2, shape], [z])
    b.output(z)
    return b.build()


MODEL = _two_convs()
GENERIC = "arm_convolve_wrapper_s8"


def _convert(tmp_path, operators, **config):
    return helia_aot.convert(MODEL, tmp_path / "o", target="corstone300",
                             config={"operators": operators, **config})


def _error(tmp_path, operators) -> str:
    with pytest.raises(InvalidConfigError) as info:
        _convert(tmp_path, operators)
    text = str(info.value)
    assert "\n" not in text
    return text


def _kernel(result, position):
    return result.plan["operators"][position]["knobs"]["kernel"]


# What the cost model takes for these convolutions on the Cortex-M55: our Helium convolution.
CHOSEN = "helia_mve_convolve_s8"


def test_without_rules_both_convolutions_take_the_cost_models_entry(tmp_path):
    result = _convert(tmp_path, [])
    for position in (0, 1):
        op = result.plan["operators"][position]
        assert op["kernel"]["entry"] == CHOSEN and GENERIC in op["kernel"]["candidates"]
        assert _kernel(result, position)["source"] == {"kind": "default", "rule": None}
        assert op["attributes"] == {}


def test_a_rule_by_id_sets_the_knob_of_that_operator_only(tmp_path):
    result = _convert(tmp_path, [{"id": "main:y2", "optimization": {"kernel": "generic"}}])
    first, second = result.plan["operators"][:2]
    assert second["kernel"]["entry"] == GENERIC and first["kernel"]["entry"] == CHOSEN
    assert _kernel(result, 1) == {"value": "generic", "requested": "generic", "resolved_by": "explicit",
                                  "approximate": False,
                                  "source": {"kind": "operator", "rule": {"position": 0, "type": None,
                                                                          "id": "main:y2"}}}
    assert _kernel(result, 0)["source"]["kind"] == "default"
    # The generated code follows the plan: only operator 1 calls the general entry.
    source = (result.output_dir / "src" / "model_model.c").read_text()
    assert f"{GENERIC}(" in function_body(source, 1) and f"{GENERIC}(" not in function_body(source, 0)


def test_later_rules_win_and_the_plan_names_the_winner(tmp_path):
    result = _convert(tmp_path, [{"type": "CONV_2D", "optimization": {"kernel": "generic"}},
                                 {"id": "n0", "type": "CONV_2D", "optimization": {"kernel": "specialized"}}])
    assert _kernel(result, 0)["value"] == "specialized"
    assert _kernel(result, 0)["source"]["rule"] == {"position": 1, "type": "CONV_2D", "id": "n0"}
    assert _kernel(result, 1)["value"] == "generic"
    assert _kernel(result, 1)["source"]["rule"] == {"position": 0, "type": "CONV_2D", "id": None}
    assert result.plan["operators"][0]["kernel"]["entry"] == "arm_convolve_s8"
    assert result.plan["operators"][1]["kernel"]["entry"] == GENERIC


def test_a_rule_asking_for_auto_is_recorded_as_given(tmp_path):
    result = _convert(tmp_path, [{"type": "CONV_2D", "optimization": {"kernel": "auto"}}],
                      optimization={"kernel": "generic"})
    knob = _kernel(result, 0)
    assert (knob["requested"], knob["value"], knob["resolved_by"], knob["source"]["kind"]) == \
        ("auto", "specialized", "auto_table", "operator")


def test_a_rule_where_the_knob_has_no_effect_warns(tmp_path):
    result = _convert(tmp_path, [{"type": "RESHAPE", "optimization": {"kernel": "generic"}}])
    assert result.plan["operators"][2]["knobs"] == {}
    assert "operators[0] (type 'RESHAPE') sets optimization.kernel where it has no effect, on main:z: those " \
           "operators have a single kernel entry; remove the rule, or narrow it (id, type) to operators with a " \
           "choice" in result.report["warnings"]


def test_rules_from_a_yaml_file_and_the_command_line(tmp_path):
    cfg = tmp_path / "c.yaml"
    cfg.write_text("operators:\n  - id: main:y\n    optimization: {kernel: generic}\n")
    proc = subprocess.run([sys.executable, "-m", "helia_aot", "convert", "-o", str(tmp_path / "cli"),
                           "--config", str(cfg), "--target", "corstone300", str(_model_file(tmp_path))],
                          capture_output=True, text=True, cwd=REPO)
    assert proc.returncode == 0, proc.stderr
    import json
    plan = json.loads((tmp_path / "cli" / "model_plan.json").read_text())
    assert plan["operators"][0]["knobs"]["kernel"]["value"] == "generic"
    cfg.write_text("operators:\n  - id: main:why\n    optimization: {kernel: generic}\n")
    proc = subprocess.run([sys.executable, "-m", "helia_aot", "convert", "-o", str(tmp_path / "cli"),
                           "--config", str(cfg), str(_model_file(tmp_path))], capture_output=True, text=True, cwd=REPO)
    lines = proc.stderr.strip().splitlines()
    assert proc.returncode == 2 and len(lines) == 1
    assert lines[0].startswith("error: InvalidConfigError: operators[0] (id 'main:why') matches no operator")


def _model_file(tmp_path):
    path = tmp_path / "two_convs.tflite"
    path.write_bytes(MODEL)
    return path


# -- every mistake, one line naming the entry ----------------------------------------------------------

@pytest.mark.parametrize("operators, message", [
    ([{"type": "DEPTHWISE_CONV_2D", "optimization": {"kernel": "generic"}}],
     "operators[0] (type 'DEPTHWISE_CONV_2D') matches no operator of subgraph 'main'. The subgraph's operator "
     "types are ['CONV_2D', 'RESHAPE']"),
    ([{"type": "CONV_2D"}, {"id": "main:y2x", "optimization": {"kernel": "generic"}}],
     "operators[1] (id 'main:y2x') matches no operator of subgraph 'main'. Did you mean main:y2?"),
    ([{"type": "RESHAPE", "id": "main:y", "optimization": {"kernel": "generic"}}],
     "operators[0] (type 'RESHAPE', id 'main:y') matches no operator of subgraph 'main'. The id and the type name "
     "different operators: drop one or fix the other"),
])
def test_a_rule_matching_nothing_is_named(tmp_path, operators, message):
    assert _error(tmp_path, operators) == message


@pytest.mark.parametrize("operators, message", [
    ({"type": "CONV_2D"},
     "config: operators must be a list of entries, got dict. Write each entry as `- type: CONV_2D` or `- id: ...` "
     "with its settings under it"),
    (["CONV_2D"], "config: operators[0] must be a mapping, got str. Give it keys among ['id', 'type', "
                  "'optimization', 'attributes']"),
    ([{"type": "CONV_2D", "optimisation": {"kernel": "generic"}}],
     "config: operators[0]: unknown key(s) ['optimisation'] (allowed: ['id', 'type', 'optimization', "
     "'attributes']). Did you mean optimization?"),
    ([{"optimization": {"kernel": "generic"}}],
     "config: operators[0] selects no operator: it has neither id nor type. Add `type: <OPERATOR TYPE>` or "
     "`id: <operator id>` (the plan's operators[].id)"),
    ([{"id": 3}], "config: operators[0]: id must be str, got int 3. Fix operators[0].id"),
    ([{"type": "CONV_2D", "optimization": "generic"}],
     "config: operators[0]: optimization must be dict, got str 'generic'. Fix operators[0].optimization"),
    ([{"type": "CONV2D"}],
     "config: operators[0]: type 'CONV2D' is not an operator type helia_aot lowers. Did you mean CONV_2D?"),
    ([{"type": "CONV_2D", "optimization": {"accumulation": "fast"}}],
     "config: operators[0]: unknown knob optimization.accumulation (per-operator knobs: ['kernel']). Remove or "
     "rename the knob"),
    ([{"type": "CONV_2D", "optimization": {"goal": "size"}}],
     "config: operators[0]: optimization.goal is set for the whole model, not per operator. Set it in the "
     "optimization section; per operator: ['kernel']"),
    ([{"type": "CONV_2D", "optimization": {"kernel": "fastest"}}],
     "config: operators[0]: optimization.kernel is 'fastest', allowed values are ['auto', 'specialized', "
     "'generic']. Use one of ['auto', 'specialized', 'generic']"),
    ([{"type": "CONV_2D", "optimization": {"kernel": None}}],
     "config: operators[0]: optimization.kernel has no value. Give it a value or remove it"),
    ([{"type": "CONV_2D", "attributes": {"kernel": "generic"}}],
     "config: operators[0]: kernel is a knob, not an attribute. Set it under operators[0].optimization"),
    ([{"type": "CONV_2D", "attributes": {"use_lut": True}}],
     "config: operators[0]: unknown attribute 'use_lut' for CONV_2D (it takes none). Remove the attribute"),
])
def test_entry_mistakes_name_the_entry(tmp_path, operators, message):
    assert _error(tmp_path, operators) == message


def test_an_id_rule_checks_attributes_against_the_matched_operator(tmp_path):
    assert _error(tmp_path, [{"id": "main:z", "attributes": {"use_lut": True}}]) == \
        "operators[0] (id 'main:z'): unknown attribute 'use_lut' for RESHAPE (it takes none). Remove the attribute"

# SPDX-License-Identifier: Apache-2.0
"""Reading a plan as input (optimization.plan, --plan): the schedule read strictly, every other section
compared, and every mismatch as one line naming the field and both values."""

from __future__ import annotations

import copy
import json
import subprocess
import sys

import pytest

import helia_aot
from helia_aot.config import file as config_mod
from helia_aot.record import plan_reader as plan_input
from helia_aot.errors import InvalidConfigError
from tests.modelgen import ModelBuilder

from .helpers import REPO
from .test_operator_overrides import MODEL

RULES = [{"id": "main:y2", "optimization": {"kernel": "generic"}}]


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    """A conversion with an operators rule, and the plan it wrote."""
    out = tmp_path_factory.mktemp("plan") / "o"
    helia_aot.convert(MODEL, out, target="corstone300", config={"operators": RULES})
    return out, json.loads((out / "model_plan.json").read_text())


def _files(root):
    return {p.relative_to(root): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _replay(tmp_path, doc, target="corstone300", rules=RULES, model=MODEL, **config):
    path = tmp_path / "edited_plan.json"
    path.write_text(json.dumps(doc))
    return helia_aot.convert(model, tmp_path / "replay", target=target,
                             config={"operators": rules, "optimization": {"plan": str(path)}, **config})


def _refused(tmp_path, doc, **kwargs) -> str:
    with pytest.raises(InvalidConfigError) as info:
        _replay(tmp_path, doc, **kwargs)
    text = str(info.value)
    assert "\n" not in text
    prefix = f"optimization.plan {tmp_path / 'edited_plan.json'}"
    assert text.startswith(prefix)
    return text[len(prefix):]


def _edited(plan, edit):
    doc = copy.deepcopy(plan)
    edit(doc)
    return doc


def test_a_written_plan_replays_to_the_same_files(tmp_path, written):
    out, plan = written
    _replay(tmp_path, plan)
    assert _files(tmp_path / "replay") == _files(out)


def _set(path, value):
    def edit(doc):
        *parents, last = path
        node = doc
        for key in parents:
            node = node[key]
        node[last] = value
    return edit


def _delete(path):
    def edit(doc):
        *parents, last = path
        node = doc
        for key in parents:
            node = node[key]
        del node[last]
    return edit


@pytest.mark.parametrize("edit", [
    _set(("generator", "helia_aot"), "99.0.0"),
    _set(("module_prefix", ), "other"),
    _set(("optimization", "goal"), "size"),
    _set(("operators", 0, "id"), "main:renamed"),
    _set(("operators", 0, "id_source"), "fallback"),
    _set(("operators", 1, "kernel", "entry"), "arm_convolve_s8"),
    _set(("operators", 0, "annotation"), "a planner's note"),
    _set(("tensors", 0, "unit"), 3),
    _set(("tensors", 0, "pool_offset"), 64),
    _set(("tensors", 0, "memory"), None),  # a null memory is not compared
    _set(("tensors", 0, "memory"), "sram"),  # memory names in any case
    _set(("memory", "scratch_memory"), "dtcm"),
    _set(("memory", "buffers"), []),  # derived
    _set(("memory", "scratch_arena_bytes"), 1),  # derived
    _set(("planner", ), {"searched": 12}),  # unknown outside schedule: ignored
    _delete(("kernel_library", )),
    _set(("tensors", ), []),  # a plan listing no constants: nothing to compare
], ids=lambda edit: "")
def test_fields_that_are_not_compared(tmp_path, written, edit):
    out, plan = written
    _replay(tmp_path, _edited(plan, edit))
    assert _files(tmp_path / "replay") == _files(out)


@pytest.mark.parametrize("edit, message", [
    (_set(("schema_version", ), 2),
     ": schema_version is 2, this release reads 1. Convert with the helia-aot release that wrote the plan"),
    (_set(("model", "sha256"), None),
     " does not describe this conversion: model.sha256: None in the plan, '{sha}' in this conversion. A plan "
     "without the model's sha256 cannot be checked: write it with convert"),
    (_set(("model", "subgraph"), "encoder"),
     " does not describe this conversion: model.subgraph: 'encoder' in the plan, 'main' in this conversion. The "
     "plan was made from another model or subgraph: convert that one, or write a new plan with convert"),
    (_set(("kernel_library", "name"), "portable"),
     " does not describe this conversion: kernel_library.name: 'portable' in the plan, 'ns_cmsis_nn' in this "
     "conversion. The plan was made with other settings or by another release: convert with those, or write a new "
     "plan with convert"),
    (_set(("operators", 1, "node_id"), "n7"),
     " does not describe this conversion: operators[1].node_id: 'n7' in the plan, 'n1' in this conversion. The "
     "plan was made from another model or subgraph: convert that one, or write a new plan with convert"),
    (_set(("operators", 2, "op_type"), "SQUEEZE"),
     " does not describe this conversion: operators[2].op_type: 'SQUEEZE' in the plan, 'RESHAPE' in this "
     "conversion. The plan was made from another model or subgraph: convert that one, or write a new plan with "
     "convert"),
    (_set(("operators", 0, "knobs", "kernel", "value"), "generic"),
     " does not describe this conversion: operators[0].knobs.kernel.value: 'generic' in the plan, 'specialized' in "
     "this conversion. The plan was made with other settings or by another release: convert with those, or write "
     "a new plan with convert"),
    (_set(("operators", 0, "knobs", "kernel"), "generic"),
     " does not describe this conversion: operators[0].knobs.kernel: 'generic' in the plan, an object with a value "
     "in this conversion. The plan was made with other settings or by another release: convert with those, or "
     "write a new plan with convert"),
    (lambda doc: doc["operators"].pop(),
     " does not describe this conversion: operators: 2 entries in the plan, 3 entries in this conversion. The plan "
     "was made from another model or subgraph: convert that one, or write a new plan with convert"),
    (_set(("operators", ), {}),
     " does not describe this conversion: operators: {} in the plan, a list in this conversion. The plan was made "
     "with other settings or by another release: convert with those, or write a new plan with convert"),
    (lambda doc: doc["tensors"].pop(3),
     " does not describe this conversion: tensors['w1']: absent in the plan, a constant in this conversion. The "
     "plan was made from another model or subgraph: convert that one, or write a new plan with convert"),
    (lambda doc: doc["tensors"].append({**doc["tensors"][3], "id": "w9", "storage_id": "w9"}),
     " does not describe this conversion: tensors['w9']: a constant in the plan, absent in this conversion. The "
     "plan was made from another model or subgraph: convert that one, or write a new plan with convert"),
    (lambda doc: doc["tensors"].append(doc["tensors"][4]),
     " does not describe this conversion: tensors['w1b']: listed twice in the plan, one constant in this "
     "conversion. List each constant once"),
    (_set(("tensors", 4, "storage_id"), "w1b_packed"),
     " does not describe this conversion: tensors['w1b']: absent in the plan, a constant in this conversion. The "
     "plan was made from another model or subgraph: convert that one, or write a new plan with convert"),
    (_set(("tensors", 3, "requested"), "pin"),
     " does not describe this conversion: tensors['w1'].requested: 'pin' in the plan, None in this conversion. The "
     "plan was made with other settings or by another release: convert with those, or write a new plan with "
     "convert"),
    (_set(("tensors", 3, "residency"), "stream"),
     " does not describe this conversion: tensors['w1'].residency: 'stream' in the plan, 'direct' in this "
     "conversion. The plan was made with other settings or by another release: convert with those, or write a "
     "new plan with convert"),
    (_set(("tensors", 3, "memory"), "MRAM"),
     " does not describe this conversion: tensors['w1'].memory: 'MRAM' in the plan, 'SRAM' in this conversion. "
     "The plan was made with other settings or by another release: convert with those, or write a new plan with "
     "convert"),
    (_set(("tensors", 3, "destination_memory"), "DTCM"),
     " does not describe this conversion: tensors['w1'].destination_memory: 'DTCM' in the plan, None in this "
     "conversion. The plan was made with other settings or by another release: convert with those, or write a new "
     "plan with convert"),
    (_set(("tensors", 3, "bytes"), 1),
     " does not describe this conversion: tensors['w1'].bytes: 1 in the plan, 54 in this conversion. The plan was "
     "made with other settings or by another release: convert with those, or write a new plan with convert"),
    (_set(("tensors", 3, "alignment"), 4),
     " does not describe this conversion: tensors['w1'].alignment: 4 in the plan, 16 in this conversion. The plan "
     "was made with other settings or by another release: convert with those, or write a new plan with convert"),
    (_set(("memory", "scratch_memory"), "SRAM"),
     " does not describe this conversion: memory.scratch_memory: 'SRAM' in the plan, 'DTCM' in this conversion. "
     "The plan was made with other settings or by another release: convert with those, or write a new plan with "
     "convert"),
    (_set(("memory", "arena"), "caller"),
     " does not describe this conversion: memory.arena: 'caller' in the plan, 'static' in this conversion. The "
     "plan was made with other settings or by another release: convert with those, or write a new plan with "
     "convert"),
], ids=lambda v: "" if callable(v) else None)
def test_every_mismatch_names_the_field_and_both_values(tmp_path, written, edit, message):
    _, plan = written
    assert _refused(tmp_path, _edited(plan, edit)) == message.replace("{sha}", plan["model"]["sha256"])


def test_the_configuration_without_the_rule_differs_in_the_knob(tmp_path, written):
    _, plan = written
    assert _refused(tmp_path, plan, rules=[]) == (
        " does not describe this conversion: operators[1].knobs.kernel.value: 'generic' in the plan, 'specialized' "
        "in this conversion. The plan was made with other settings or by another release: convert with those, or "
        "write a new plan with convert")


def test_a_plan_for_another_target_is_refused_naming_the_field(tmp_path, written):
    _, plan = written
    assert _refused(tmp_path, plan, target="apollo4p_evb") == (
        " does not describe this conversion: platform.name: 'corstone300' in the plan, 'apollo4p_evb' in this "
        "conversion. The plan was made for another target: convert for that target, or write a new plan with convert")


def test_a_plan_for_another_model_is_refused_naming_the_field(tmp_path, written):
    _, plan = written
    b = ModelBuilder()
    x = b.input("x", (1, 4), scale=0.5, zero_point=0)
    y = b.tensor("y", (1, 4), scale=0.5, zero_point=0)
    b.op("RELU", [x], [y])
    b.output(y)
    other = b.build()
    import hashlib
    assert _refused(tmp_path, plan, model=other, rules=[]) == (
        f" does not describe this conversion: model.sha256: '{plan['model']['sha256']}' in the plan, "
        f"'{hashlib.sha256(other).hexdigest()}' in this conversion. The plan was made from another model or "
        "subgraph: convert that one, or write a new plan with convert")


# -- the schedule, applied and read strictly ---------------------------------------------------------

_NEWER = (". The field comes from a later helia-aot release or a planner written for one: convert with that "
          "release, or remove the field")


@pytest.mark.parametrize("schedule, message", [
    ({"source": "none", "units": [], "window": {"memory": "DTCM"}},
     " is not a plan this release can apply: schedule: unknown field(s) ['window'] under schedule, which the "
     "conversion applies" + _NEWER),
    ({"source": "none", "units": [], "budget": 1, "engine": "dma"},
     " is not a plan this release can apply: schedule: unknown field(s) ['budget', 'engine'] under schedule, which "
     "the conversion applies" + _NEWER),
    ({"source": "planner", "units": []},
     ": schedule.source is 'planner', which must be 'none' or 'compiler' or 'plan'. Fix the schedule (the plan's schedule section is "
     "applied as written)"),
    ({"units": []},
     ": schedule.source is missing. Give every field the plan's schedule schema requires"),
    ({"source": "none", "units": {}},
     ": schedule.units is {}, which must be a list. Fix the schedule (the plan's schedule section is applied as "
     "written)"),
    ([], ": schedule is list [], which must be an object. Fix the schedule (the plan's schedule section is "
         "applied as written)"),
    ({"source": "none", "units": ["u0"]},
     ": schedule.units[0] is str 'u0', which must be an object. Fix the schedule (the plan's schedule section is "
     "applied as written)"),
    ({"source": "none", "units": [{"id": 0, "tensors": ["w1"], "pool_offset": 0, "issue_after": None,
                                   "engine": "cpu"}]},
     ": schedule.units lists 1 unit with source 'none'. A schedule with units has source 'plan'; 'none' has no "
     "units"),
    ({"source": "none", "units": [], "pool": {"memory": "DTCM", "bytes": 64}},
     ": schedule.pool.alignment is missing. Give every field the plan's schedule schema requires"),
])
def test_the_schedule_is_read_strictly(tmp_path, written, schedule, message):
    _, plan = written
    assert _refused(tmp_path, _edited(plan, _set(("schedule", ), schedule))) == message


def test_the_schedule_is_checked_before_any_other_section(tmp_path, written):
    _, plan = written
    doc = _edited(plan, _set(("schedule", "window"), {}))
    doc["model"]["sha256"] = "0" * 64
    assert "unknown field(s) ['window']" in _refused(tmp_path, doc)


def test_the_plan_section_is_handed_on_as_the_schedule(tmp_path, written):
    from helia_aot.record.plan_model import Schedule
    _, plan = written
    path = tmp_path / "p.json"
    path.write_text(json.dumps(plan))
    assert plan_input.load(str(path)).schedule == Schedule(source="none", pool=None, units=[])


# -- reading the file ----------------------------------------------------------------------------------

@pytest.mark.parametrize("text, message", [
    (None, " does not exist. Check optimization.plan or --plan"),
    ("{", ": is not JSON (line 1: Expecting property name enclosed in double quotes). Pass the <prefix>_plan.json "
          "a conversion wrote"),
    ("[1]", ": is a JSON list, not a plan object. Pass the <prefix>_plan.json a conversion wrote"),
    ('{"schema_version": 1}', ": has no schedule section. Write `\"schedule\": {\"source\": \"none\", \"units\": []}` "
                              "when nothing streams"),
    (b"\xff\xfe", ": is not UTF-8 text. Pass the <prefix>_plan.json a conversion wrote"),
])
def test_unreadable_plans(tmp_path, text, message):
    path = tmp_path / "edited_plan.json"
    if isinstance(text, bytes):
        path.write_bytes(text)
    elif text is not None:
        path.write_text(text)
    with pytest.raises(InvalidConfigError) as info:
        helia_aot.convert(MODEL, tmp_path / "o", config={"optimization": {"plan": str(path)}})
    assert str(info.value) == f"optimization.plan {path}{message}"


# -- where the path resolves ---------------------------------------------------------------------------

def test_the_path_resolves_against_the_configuration_file_and_is_stored_absolute(tmp_path, written):
    out, plan = written
    (tmp_path / "cfg").mkdir()
    (tmp_path / "cfg" / "plans").mkdir()
    (tmp_path / "cfg" / "plans" / "p.json").write_text(json.dumps(plan))
    cfg = tmp_path / "cfg" / "c.yaml"
    cfg.write_text("optimization:\n  plan: plans/p.json\noperators:\n  - id: main:y2\n    optimization: {kernel: "
                   "generic}\n")
    assert config_mod.load(cfg).get("optimization", "plan") == str(tmp_path / "cfg" / "plans" / "p.json")
    helia_aot.convert(MODEL, tmp_path / "r", target="corstone300", config=str(cfg))
    assert _files(tmp_path / "r") == _files(out)


def test_the_flag_resolves_against_the_working_directory(tmp_path):
    (tmp_path / "m.tflite").write_bytes(MODEL)
    (tmp_path / "c.yaml").write_text("operators:\n  - id: main:y2\n    optimization: {kernel: generic}\n")
    run = lambda *args: subprocess.run([sys.executable, "-m", "helia_aot", "convert", "m.tflite", "--config", "c.yaml",
                                        *args], capture_output=True, text=True, cwd=tmp_path,
                                       env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"})
    proc = run("-o", "first", "--target", "corstone300")
    assert proc.returncode == 0, proc.stderr
    (tmp_path / "first" / "model_plan.json").rename(tmp_path / "p.json")
    proc = run("-o", "r", "--target", "corstone300", "--plan", "p.json")
    assert proc.returncode == 0, proc.stderr
    (tmp_path / "first" / "model_plan.json").write_bytes((tmp_path / "p.json").read_bytes())
    assert _files(tmp_path / "r") == _files(tmp_path / "first")
    proc = run("-o", "r2", "--plan", "p.json")  # host: another target
    lines = proc.stderr.strip().splitlines()
    assert proc.returncode == 2 and len(lines) == 1
    assert lines[0] == (f"error: InvalidConfigError: optimization.plan {tmp_path / 'p.json'} does not describe this "
                        "conversion: platform.name: 'corstone300' in the plan, 'host' in this conversion. The plan "
                        "was made for another target: convert for that target, or write a new plan with convert")
    proc = run("-o", "r3", "--plan", "")
    assert proc.returncode != 0 and "--plan needs the path of a plan JSON file" in proc.stderr


def test_an_explicit_plan_argument_wins_over_the_configuration(tmp_path, written):
    out, plan = written
    (tmp_path / "p.json").write_text(json.dumps(plan))
    helia_aot.convert(MODEL, tmp_path / "r", target="corstone300", plan=tmp_path / "p.json",
                      config={"operators": RULES, "optimization": {"plan": str(tmp_path / "missing.json")}})
    assert _files(tmp_path / "r") == _files(out)


# -- comparisons the conversions above cannot reach --------------------------------------------------------

def _facts(**operator):
    op = {"node_id": "n0", "op_type": "HARD_SWISH", "knobs": {}, "fixed": {}, "attributes": {}, **operator}
    return {"operators": [op]}


def _compare(planned: dict, current: dict, sections=("operators", )) -> str:
    pi = plan_input.PlanInput(path="p.json", doc=planned, schedule=None)
    with pytest.raises(InvalidConfigError) as info:
        plan_input.compare(pi, current, sections)
    return str(info.value)


def test_fixed_choices_and_attributes_are_compared_where_both_sides_name_them():
    pi = plan_input.PlanInput(path="p.json", doc=_facts(fixed={"use_lut": "true"}, attributes={"x": 1}),
                              schedule=None)
    plan_input.compare(pi, _facts(), ("operators", ))  # named on one side only: not compared
    assert _compare(_facts(fixed={"use_lut": "true"}), _facts(fixed={"use_lut": "false"})).startswith(
        "optimization.plan p.json does not describe this conversion: operators[0].fixed.use_lut: 'true' in the plan, "
        "'false' in this conversion.")
    assert _compare(_facts(attributes={"use_lut": True}), _facts(attributes={"use_lut": False})).startswith(
        "optimization.plan p.json does not describe this conversion: operators[0].attributes.use_lut: True in the "
        "plan, False in this conversion.")


def _constant(**fields):
    return {"id": "w", "storage_id": "w", "requested": None, "residency": "direct", "memory": "MRAM",
            "destination_memory": None, "bytes": 64, "alignment": 16, **fields}


def test_a_constant_whose_rules_permit_streaming_matches_direct_and_stream():
    for planned, current in (("direct", "stream"), ("stream", "direct"), ("stream", "stream")):
        pi = plan_input.PlanInput(path="p.json", doc={"tensors": [_constant(requested="stream", residency=planned)]},
                                  schedule=None)
        plan_input.compare(pi, {"tensors": [_constant(requested="stream", residency=current)]}, ("tensors", ))
    assert "tensors['w'].residency: 'pin' in the plan, 'direct' in this conversion" in _compare(
        {"tensors": [_constant(requested="stream", residency="pin")]},
        {"tensors": [_constant(requested="stream", residency="direct")]}, ("tensors", ))
    # Without a stream rule, direct and stream differ.
    assert "tensors['w'].residency: 'stream' in the plan, 'direct' in this conversion" in _compare(
        {"tensors": [_constant(residency="stream")]}, {"tensors": [_constant()]}, ("tensors", ))
    # A null destination memory is a value; memory names compare in any case.
    assert "tensors['w'].destination_memory: None in the plan, 'DTCM' in this conversion" in _compare(
        {"tensors": [_constant(destination_memory=None, memory="mram")]},
        {"tensors": [_constant(destination_memory="DTCM")]}, ("tensors", ))
    assert "tensors['w' stored as 'w_packed']: absent in the plan" in _compare(
        {"tensors": [_constant()]}, {"tensors": [_constant(storage_id="w_packed")]}, ("tensors", ))

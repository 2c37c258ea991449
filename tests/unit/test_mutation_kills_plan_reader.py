# SPDX-License-Identifier: Apache-2.0
"""Plan input (helia_aot/record/plan_reader.py) cases that mutants of the comparison showed untested
(tests/MUTATION.md, 2026-12-02): a stated interface is compared, an operators[] entry that is no object
is refused naming it, and a tensors[] entry may leave storage_id out when it equals the id."""

from __future__ import annotations

import pytest

import helia_aot
from helia_aot.errors import InvalidConfigError

from .test_operator_overrides import MODEL
from .test_plan_input import _edited, _files, _refused, _replay, written  # noqa: F401 (a fixture)

_OTHER_MODEL = ("The plan was made from another model or subgraph: convert that one, or write a new plan with "
                "convert")
_OTHER_SETTINGS = ("The plan was made with other settings or by another release: convert with those, or write a "
                   "new plan with convert")


def test_a_stated_interface_field_that_differs_is_refused_naming_it(tmp_path, written):
    _, plan = written
    shape = plan["interface"]["inputs"][0]["shape"]
    edited = _edited(plan, lambda doc: doc["interface"]["inputs"][0].update(shape=[*shape, 1]))
    assert _refused(tmp_path, edited) == (
        f" does not describe this conversion: interface.inputs[0].shape: {[*shape, 1]!r} in the plan, {shape!r} in "
        f"this conversion. {_OTHER_MODEL}")


def test_an_interface_with_another_input_count_is_refused_with_both_counts(tmp_path, written):
    _, plan = written
    assert len(plan["interface"]["inputs"]) == 1
    edited = _edited(plan, lambda doc: doc["interface"]["inputs"].append(doc["interface"]["inputs"][0]))
    assert _refused(tmp_path, edited) == (
        f" does not describe this conversion: interface.inputs: 2 entries in the plan, 1 entries in this "
        f"conversion. {_OTHER_MODEL}")


def test_an_operator_entry_that_is_no_object_is_refused_naming_it(tmp_path, written):
    _, plan = written
    edited = _edited(plan, lambda doc: doc["operators"].__setitem__(1, "n1"))
    assert _refused(tmp_path, edited) == (
        f" does not describe this conversion: operators[1]: 'n1' in the plan, an object in this conversion. "
        f"{_OTHER_SETTINGS}")


def test_constants_without_storage_id_are_keyed_by_their_id(tmp_path, written):
    """storage_id equal to the id may be left out (the schema check of the section does not require it)."""
    out, plan = written
    assert plan["tensors"] and all(t["storage_id"] == t["id"] for t in plan["tensors"])

    def drop(doc):
        for t in doc["tensors"]:
            del t["storage_id"]
    _replay(tmp_path, _edited(plan, drop))
    assert _files(tmp_path / "replay") == _files(out)


def test_a_schema_refusal_counts_the_problems_it_does_not_show(tmp_path, written):
    """Operators' kernel records are not compared but must have their schema's types: three wrong ones
    give the first and '(and 2 more)'."""
    _, plan = written

    def edit(doc):
        doc["operators"][0]["kernel"]["entry"] = 5
        doc["operators"][1]["kernel"]["entry"] = 6
        doc["operators"][2]["kernel"] = 7
    assert _refused(tmp_path, _edited(plan, edit)) == (
        ": does not match the plan schema: $.operators[0].kernel.entry: 5 matches none of the allowed forms "
        "(and 2 more). Pass the <prefix>_plan.json a conversion wrote, edited only where its values allow")


def test_a_plan_nesting_too_deeply_for_json_is_refused_in_one_line(tmp_path):
    path = tmp_path / "edited_plan.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(InvalidConfigError) as info:
        helia_aot.convert(MODEL, tmp_path / "o", config={"optimization": {"plan": str(path)}})
    assert str(info.value) == (f"optimization.plan {path}: nests too deeply to be a plan. Pass the "
                               "<prefix>_plan.json a conversion wrote")

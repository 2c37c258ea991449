# SPDX-License-Identifier: Apache-2.0
"""A written plan as input (optimization.plan), as properties (issue #26): it replays to a byte-identical
module under the configuration that wrote it; a plan written under another configuration is refused
naming a field where the two plans differ; and any single field of a plan, changed, is either refused
naming that field or changes nothing in the module. The fields come from the written plans themselves
(every leaf), so a section a later release adds is covered without listing it here."""

from __future__ import annotations

import copy
import json
import re

import pytest
from hypothesis import given, settings, strategies as st

import helia_aot
from helia_aot.errors import InvalidConfigError
from tests.unit import property_profile  # noqa: F401  (the derandomized profile)

from .test_operator_overrides import MODEL

RULES = [{"id": "main:y2", "optimization": {"kernel": "generic"}}]
# Configurations of the same model and target, each changing what the plan records.
CONFIGS = {
    "default": {},
    "arena_alignment": {"memory": {"arena_alignment": 64}},
    "constant_memory": {"memory": {"constant_memory": "ITCM"}},
    "persistent_memory": {"memory": {"persistent_memory": "SRAM"}},
    "scratch_memory": {"memory": {"scratch_memory": "SRAM"}},
    "caller_arena": {"module": {"arena": "caller"}},
    "no_rule": {"operators": []},
}


def _config(name: str, **extra) -> dict:
    return {"operators": RULES, **copy.deepcopy(CONFIGS[name]), **extra}


def _files(root):
    return {p.relative_to(root): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    """Each configuration's conversion: its output folder and its plan."""
    root = tmp_path_factory.mktemp("plans")
    out = {}
    for name in CONFIGS:
        helia_aot.convert(MODEL, root / name, target="corstone300", config=_config(name))
        out[name] = root / name, json.loads((root / name / "model_plan.json").read_text())
    return out


def _replay(tmp_path, plan: dict, config: str):
    path = tmp_path / "plan.json"
    path.write_text(json.dumps(plan))
    out = tmp_path / "replay"
    helia_aot.convert(MODEL, out, target="corstone300",
                      config=_config(config, optimization={"plan": str(path)}))
    return out


def leaves(node, path=()):
    """(path, value) of every scalar of a JSON document."""
    if isinstance(node, dict):
        for key, value in node.items():
            yield from leaves(value, (*path, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from leaves(value, (*path, i))
    else:
        yield path, node


def _refused_field(error: InvalidConfigError) -> str:
    """The field a refusal names: 'does not describe this conversion: FIELD: ...', a schema refusal's, or
    the field a refusal on reading names first ('schema_version is ...')."""
    text = str(error)
    found = (re.search(r"does not describe this conversion: (\S+): ", text)
             or re.search(r"does not match the plan schema: (\S+)", text)
             or re.search(r"^optimization\.plan \S+: ([\w.\[\]']+) ", text))
    assert found, text
    return found.group(1).removeprefix("$.").rstrip(":")


def _names(field: str, path: tuple) -> bool:
    """Whether a refusal's field (operators[0].knobs.kernel.value, tensors['w0'].bytes, memory.arena_alignment)
    is the leaf at `path` or the entry holding it: same section, and every key of the field on the path."""
    keys = [k for k in re.split(r"[.\[\]]", field) if k and not k.startswith("'") and not k.isdigit()]
    named = [k for k in path if isinstance(k, str)]
    return keys[0] == path[0] and set(keys) <= set(named)


@settings(max_examples=len(CONFIGS))
@given(st.sampled_from(sorted(CONFIGS)))
def test_a_written_plan_replays_to_the_same_module(tmp_path_factory, written, config):
    out, plan = written[config]
    replay = _replay(tmp_path_factory.mktemp("replay"), plan, config)
    assert _files(replay) == _files(out)


# Every ordered pair (42 replays of a two-operator model): exhaustive is cheaper than sampling here.
@pytest.mark.parametrize("planned, current", [(a, b) for a in CONFIGS for b in CONFIGS if a != b])
def test_a_plan_of_another_configuration_is_refused_naming_a_field_that_differs(tmp_path_factory, written, planned,
                                                                                 current):
    (_, plan), (out, now) = written[planned], written[current]
    differing = [path for (path, a), (_, b) in zip(leaves(plan), leaves(now)) if a != b and path[0] != "schedule"]
    if len(list(leaves(plan))) != len(list(leaves(now))) or differing:
        with pytest.raises(InvalidConfigError) as refusal:
            _replay(tmp_path_factory.mktemp("replay"), plan, current)
        field = _refused_field(refusal.value)
        assert any(_names(field, path) for path in differing) or not differing, (field, differing)
    else:
        assert _files(_replay(tmp_path_factory.mktemp("replay"), plan, current)) == _files(out)


def _changed(value):
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 16
    if isinstance(value, str):
        return value + "_changed"
    return "changed"


@settings(max_examples=30)
@given(st.data())
def test_every_single_field_changed_is_refused_naming_it_or_changes_nothing(tmp_path_factory, written, data):
    out, plan = written["default"]
    paths = [path for path, _ in leaves(plan) if path[0] != "schedule"]  # the schedule is applied, not compared
    path = data.draw(st.sampled_from(paths))
    doc = copy.deepcopy(plan)
    node = doc
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = _changed(node[path[-1]])
    try:
        replay = _replay(tmp_path_factory.mktemp("replay"), doc, "default")
    except InvalidConfigError as refusal:
        assert _names(_refused_field(refusal), path), (path, str(refusal))
    else:
        assert _files(replay) == _files(out), path

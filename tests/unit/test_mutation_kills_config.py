# SPDX-License-Identifier: Apache-2.0
"""Configuration (helia_aot/config/) cases that mutants showed untested (tests/MUTATION.md, 2026-12-02): a key
written in the wrong section is pointed to its own, and a misspelt capability of a custom target is
answered with the capability it most likely meant."""

from __future__ import annotations

import pytest

from helia_aot.config import file as config_file
from helia_aot.config import options as options_mod
from helia_aot.config.targets import target_from_dict
from helia_aot.errors import InvalidConfigError


def test_a_key_in_the_wrong_section_is_pointed_to_its_own():
    with pytest.raises(InvalidConfigError) as info:
        options_mod.resolve({"module": {"goal": "size"}})
    assert info.value.message == ("config: unknown key module.goal (allowed in module: ['arena', 'kernel_library', "
                                  "'prefix', 'type'])")
    assert info.value.hint == "goal belongs in section optimization: write it as optimization.goal"


def test_a_misspelt_capability_is_answered_with_the_nearest_one():
    spec = {"name": "my_m55", "cpu": "cortex-m55", "capabilities": ["dsp", "mvee"]}
    with pytest.raises(InvalidConfigError) as info:
        target_from_dict(spec, "targets.my_m55")
    assert info.value.hint == "Did you mean mve?"


def test_a_section_that_is_not_a_mapping_is_named():
    with pytest.raises(InvalidConfigError) as info:
        config_file.from_mapping({"optimization": ["goal", "size"]}, "cfg.yaml")
    assert info.value.message == "cfg.yaml: section 'optimization' must be a mapping"
    assert info.value.hint == "Indent its keys under it"


def test_each_value_is_checked_against_its_key():
    assert config_file.from_mapping({"optimization": {"goal": "size"}}).values["optimization"]["goal"] == "size"
    with pytest.raises(InvalidConfigError, match=r"^cfg\.yaml: optimization\.goal"):
        config_file.from_mapping({"optimization": {"goal": "smallest"}}, "cfg.yaml")


def test_a_relative_plan_is_taken_from_the_configuration_files_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    base = tmp_path / "configs"
    cfg = config_file.from_mapping({"optimization": {"plan": "plans/kws_plan.json"}}, "cfg.yaml", base)
    assert cfg.values["optimization"]["plan"] == str(base / "plans" / "kws_plan.json")
    assert config_file.plan_path("p.json", "--plan") == str(tmp_path / "p.json")  # a flag: the working directory
    assert config_file.plan_path("/abs/p.json", "--plan", base) == "/abs/p.json"


def test_a_value_of_the_wrong_type_is_quoted_with_the_type_to_write():
    from helia_aot.config.spec import check_value
    with pytest.raises(InvalidConfigError) as info:
        check_value("memory", "arena_alignment", "16", "cfg.yaml")
    assert info.value.message == "cfg.yaml: memory.arena_alignment must be int, got str '16'"
    assert info.value.hint == "Set memory.arena_alignment to an int"
    with pytest.raises(InvalidConfigError) as info:
        check_value("memory", "arena_alignment", 12, "cfg.yaml")
    assert (info.value.message, info.value.hint) == (
        "cfg.yaml: memory.arena_alignment 12 is not a power of two", "Use 4, 8 or 16")


def test_an_unknown_target_says_where_targets_are_defined():
    from helia_aot.config.targets import get_target
    from helia_aot.errors import UnknownTargetError
    with pytest.raises(UnknownTargetError) as info:
        get_target("no_such_board_at_all")
    assert info.value.hint == "Pick one of those, or define it under target: in the config file"


def test_a_yaml_syntax_error_names_its_line_and_how_to_fix_it(tmp_path):
    from helia_aot.config.yaml_file import read_yaml
    path = tmp_path / "cfg.yaml"
    path.write_text("optimization:\n  goal: size\n  kernel: [auto\n")
    with pytest.raises(InvalidConfigError) as info:
        read_yaml(path, "config", "")
    assert info.value.message.startswith(f"config {path} is not valid YAML at line 4")
    assert info.value.hint == "Fix the YAML syntax"

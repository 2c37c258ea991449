# SPDX-License-Identifier: Apache-2.0
"""Configuration (helia_aot/config/) cases that mutants showed untested (tests/MUTATION.md, 2026-12-02): a key
written in the wrong section is pointed to its own, and a misspelt capability of a custom target is
answered with the capability it most likely meant."""

from __future__ import annotations

import pytest

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

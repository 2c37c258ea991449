# SPDX-License-Identifier: Apache-2.0
"""The Bazel rules' table of target cores (rules/private/targets.bzl) agrees with the compiler's."""

import re
from pathlib import Path

from helia_aot.targets import builtin_targets

_TARGETS_BZL = Path(__file__).resolve().parents[2] / "rules" / "private" / "targets.bzl"


def _bzl_target_cores() -> dict[str, str]:
    text = _TARGETS_BZL.read_text()
    block = text[text.index("TARGET_CORES = {"):]
    block = block[:block.index("}")]
    return dict(re.findall(r'"(\w+)": "([\w-]+)"', block))


def test_every_builtin_target_is_in_the_rules_table_with_its_core():
    table = _bzl_target_cores()
    for target in builtin_targets():
        expected = "host" if target.name == "host" else target.cpu
        assert table.get(target.name) == expected, f"{target.name}: rules say {table.get(target.name)}, compiler {expected}"
    assert set(table) == {t.name for t in builtin_targets()}

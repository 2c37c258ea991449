# SPDX-License-Identifier: Apache-2.0
"""The Bazel rules' table of target cores (rules/private/targets.bzl) agrees with the compiler's."""

import ast
import re
from pathlib import Path

from helia_aot.config.targets import builtin_targets

_REPO = Path(__file__).resolve().parents[2]
_TARGETS_BZL = _REPO / "rules" / "private" / "targets.bzl"
_CORES_BZL = _REPO / "toolchains" / "arm_gnu" / "cores.bzl"


def _cores_bzl() -> dict:
    """The top-level assignments of cores.bzl, which holds plain literals only."""
    tree = ast.parse(_CORES_BZL.read_text())
    return {node.targets[0].id: ast.literal_eval(node.value) for node in tree.body if isinstance(node, ast.Assign)}


def _bzl_target_cores() -> dict[str, str]:
    """TARGET_CORES as rules/private/targets.bzl derives it from cores.bzl."""
    facts = _cores_bzl()
    table = {target: facts["CORES"][name]["core"] for target, name in facts["TARGET_CORE_NAMES"].items()}
    return {**table, "host": "host"}


def test_rules_take_their_core_facts_from_cores_bzl():
    """targets.bzl restates no core, target or constraint: it loads cores.bzl and derives them."""
    text = _TARGETS_BZL.read_text()
    assert 'load("//toolchains/arm_gnu:cores.bzl", "CORES", "TARGET_CORE_NAMES")' in text
    assert not re.search(r'"cortex[-_]m\d', text), "targets.bzl names a core itself"
    cores = _cores_bzl()["CORES"]
    defaults = [core["core"] for core in cores.values() if "default_target" in core]
    assert len(defaults) == len(set(defaults)), "two variants of one core name a default target"
    for core in cores.values():
        if "default_target" in core:
            assert _bzl_target_cores()[core["default_target"]] == core["core"]


def test_every_builtin_target_is_in_the_rules_table_with_its_core():
    table = _bzl_target_cores()
    for target in builtin_targets():
        expected = "host" if target.name == "host" else target.cpu
        assert table.get(target.name) == expected, f"{target.name}: rules say {table.get(target.name)}, compiler {expected}"
    assert set(table) == {t.name for t in builtin_targets()}


def test_rules_check_attributes_with_the_compilers_limits():
    """The analysis-time checks of prefix and golden-test ranges use the compiler's own limits."""
    from helia_aot.config import options, spec
    private = _TARGETS_BZL.parent
    module_bzl = (private / "module.bzl").read_text()
    keywords = module_bzl[module_bzl.index("_C_KEYWORDS = ["):]
    keywords = set(re.findall(r'"(\w+)"', keywords[:keywords.index("]")]))
    assert keywords == options._C_KEYWORDS
    assert int(re.search(r"^_MAX_PREFIX = (\d+)$", module_bzl, re.M).group(1)) == 40
    options.check_prefix("p" * 40)
    golden_bzl = (private / "golden_test.bzl").read_text()
    max_samples = int(re.search(r"^_MAX_SAMPLES = (\d+)$", golden_bzl, re.M).group(1))
    assert spec._RANGES[("test", "num_samples")] == (1, max_samples)
    assert spec._RANGES[("test", "tolerance")][0] == 0 and spec._RANGES[("test", "seed")][0] == 0
    max_iterations = int(re.search(r"^_MAX_ITERATIONS = (\d+)$", golden_bzl, re.M).group(1))
    assert spec._RANGES[("test", "iterations")] == (1, max_iterations)


def test_golden_rule_offers_the_compilers_references():
    """helia_aot_golden_test(reference = ...) accepts exactly test.reference's values ("" = the config's)."""
    from helia_aot.config import spec
    golden_bzl = (_TARGETS_BZL.parent / "golden_test.bzl").read_text()
    values = re.search(r'"reference": attr\.string\(default = "", values = \[([^\]]*)\]\)', golden_bzl).group(1)
    assert re.findall(r'"(\w*)"', values) == ["", *spec.SPEC["test"]["reference"][1]]

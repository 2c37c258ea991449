# SPDX-License-Identifier: Apache-2.0
"""The Bazel rules' table of target cores (rules/private/targets.bzl) agrees with the compiler's."""

import re
from pathlib import Path

from helia_aot.config.targets import builtin_targets

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

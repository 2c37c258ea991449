# SPDX-License-Identifier: Apache-2.0
"""What a module's README.md and CMakeLists.txt tell its user, checked against the module itself: every
output's macro prefix in the README's table is one the header defines, a model given as bytes is named so, and a
module whose inline C calls libm says so in both files (CMake links libm; the README says to link with -lm)."""

from __future__ import annotations

import re

import helia_aot
from tests.modelgen import ModelBuilder


def _exp_model() -> bytes:
    b = ModelBuilder()
    x = b.input("x", (2, 3), "float32")
    y = b.tensor("y", (2, 3), "float32")
    b.op("EXP", [x], [y])
    b.output(y)
    return b.build()


def test_readme_table_names_the_headers_macros_and_libm(tmp_path):
    result = helia_aot.convert(_exp_model(), tmp_path / "o", prefix="m", config={"module": {"type": "cmake"}})
    readme = (result.output_dir / "README.md").read_text()
    header = (result.output_dir / "include" / "m_model.h").read_text()
    rows = [line for line in readme.splitlines() if line.startswith("| output |")]
    assert len(rows) == 1
    macro = re.search(r"`(\w+)_\*`", rows[0]).group(1)
    assert macro == "M_OUTPUT0" and f"#define {macro}_ELEMENTS" in header
    assert "link with `-lm`" in readme
    assert "from \\(model bytes\\) (sha256 `" in readme  # from bytes, not a file (parentheses escaped for Markdown)
    assert "# The module's inline C calls libm." in (result.output_dir / "CMakeLists.txt").read_text()

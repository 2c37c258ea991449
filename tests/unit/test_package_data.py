# SPDX-License-Identifier: Apache-2.0
"""An installed helia-aot (`pip install .`) holds every file the compiler reads: each file of the package
that is not Python source is named by pyproject.toml's package data. The layout moved the templates and
cost tables once while the patterns kept the old folders, which only a wheel install would have shown."""

from __future__ import annotations

import fnmatch
import tomllib
from pathlib import Path

import helia_aot

PACKAGE = Path(helia_aot.__file__).parent
PYPROJECT = PACKAGE.parent / "pyproject.toml"


def test_every_data_file_of_the_package_is_package_data():
    patterns = tomllib.loads(PYPROJECT.read_text())["tool"]["setuptools"]["package-data"]["helia_aot"]
    data = [p.relative_to(PACKAGE).as_posix() for p in PACKAGE.rglob("*")
            if p.is_file() and p.suffix not in (".py", ".pyc") and "__pycache__" not in p.parts
            and p.name != "BUILD.bazel"]
    assert data, "the package holds no data files"
    missing = [f for f in data if not any(fnmatch.fnmatchcase(f, pattern) for pattern in patterns)]
    assert not missing, f"not in [tool.setuptools.package-data] of pyproject.toml: {missing}"


def test_every_package_data_pattern_matches_a_file():
    patterns = tomllib.loads(PYPROJECT.read_text())["tool"]["setuptools"]["package-data"]["helia_aot"]
    stale = [pattern for pattern in patterns if not list(PACKAGE.glob(pattern))]
    assert not stale, f"package-data patterns that name no file: {stale}"

# SPDX-License-Identifier: Apache-2.0
"""A configuration nested deep is refused as it is read, in bounded time: YAML's scanner slows
quadratically with flow nesting (found by the fuzz campaign's hostile_yaml class)."""

from __future__ import annotations

import time

import pytest

from helia_aot.config import yaml_file
from helia_aot.errors import InvalidConfigError


@pytest.mark.parametrize("text", [
    "operators: " + "[" * 20_000 + "]" * 20_000,
    "target: " + "{a: " * 20_000 + "1" + "}" * 20_000,
    "a:\n" + "".join("  " * i + "b:\n" for i in range(1, 400)),
])
def test_deep_nesting_is_refused_at_the_depth_limit_in_bounded_time(tmp_path, text):
    path = tmp_path / "config.yaml"
    path.write_text(text)
    start = time.perf_counter()
    with pytest.raises(InvalidConfigError, match=rf"nests too deeply to be a configuration \(past "
                                                 rf"{yaml_file.MAX_DEPTH} levels at line \d+\)"):
        yaml_file.read_yaml(path, "config file", "hint")
    assert time.perf_counter() - start < 2.0  # the scanner took ~20 s on the first before the limit


def test_nesting_within_the_limit_is_read(tmp_path):
    depth = yaml_file.MAX_DEPTH - 2
    path = tmp_path / "config.yaml"
    path.write_text("a: " + "[" * depth + "1" + "]" * depth)
    value = yaml_file.read_yaml(path, "config file", "hint")["a"]
    for _ in range(depth):
        (value,) = value
    assert value == 1

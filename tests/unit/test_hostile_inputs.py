# SPDX-License-Identifier: Apache-2.0
"""Hostile inputs at the boundary are one typed line within bounded time and memory: files that are
devices, FIFOs or too large, YAML aliases, huge or deeply nested values in a configuration, and plans
whose fields have the wrong JSON type."""

from __future__ import annotations

import json
import os
import resource
import time

import pytest

import helia_aot
from helia_aot import user_files
from helia_aot.config import file as config_file
from helia_aot.errors import HeliaError, InvalidConfigError, InvalidModelError

from tests.modelgen import ModelBuilder

from .test_ops import conv_model


def _bounded(call, *, seconds=10.0):
    """Run `call`, expecting a HeliaError; returns its message and checks the time it took."""
    start = time.monotonic()
    with pytest.raises(HeliaError) as info:
        call()
    assert time.monotonic() - start < seconds
    message = str(info.value)
    assert "\n" not in message and len(message) < 600
    return message


@pytest.mark.parametrize("path", ["/dev/zero", "/dev/null"])
def test_a_device_as_the_model_is_refused_at_once(tmp_path, path):
    message = _bounded(lambda: helia_aot.convert(path, tmp_path / "out"))
    assert f"model file {path} is not a regular file" in message


def test_a_fifo_as_plan_or_config_is_refused_without_waiting(tmp_path):
    fifo = tmp_path / "plan.json"
    os.mkfifo(fifo)
    message = _bounded(lambda: helia_aot.convert(conv_model().build(), tmp_path / "out", plan=fifo), seconds=5)
    assert "is not a regular file" in message and "optimization.plan" in message
    fifo_yaml = tmp_path / "c.yaml"
    os.mkfifo(fifo_yaml)
    assert "is not a regular file" in _bounded(lambda: config_file.load(fifo_yaml), seconds=5)


def test_a_file_over_the_limit_is_refused_before_it_is_read(tmp_path, monkeypatch):
    big = tmp_path / "big.yaml"
    with open(big, "wb") as f:
        f.truncate(user_files.YAML_LIMIT + 1)  # sparse: no bytes on disk
    message = _bounded(lambda: config_file.load(big))
    assert f"is {user_files.YAML_LIMIT + 1} bytes, more than the {user_files.YAML_LIMIT}" in message
    model = tmp_path / "m.tflite"
    with open(model, "wb") as f:
        f.truncate(user_files.MODEL_LIMIT + 1)
    with pytest.raises(InvalidModelError, match="more than the"):
        helia_aot.convert(model, tmp_path / "out")


def test_yaml_aliases_are_refused(tmp_path):
    """A 'billion laughs' configuration: each level ten aliases of the one before."""
    lines = ['a0: &a0 ["x", "x", "x", "x", "x", "x", "x", "x", "x", "x"]']
    for level in range(1, 9):
        refs = ", ".join([f"*a{level - 1}"] * 10)
        lines.append(f"a{level}: &a{level} [{refs}]")
    lines.append("module:\n  prefix: *a8")
    config = tmp_path / "c.yaml"
    config.write_text("\n".join(lines) + "\n")
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    message = _bounded(lambda: config_file.load(config), seconds=5)
    assert "uses a YAML alias at line 2" in message and "Write the value out instead of *name" in message
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 200_000  # KiB


def test_a_huge_nested_value_is_quoted_briefly(tmp_path):
    value = [[list(range(1000))] * 1000] * 10
    message = _bounded(lambda: helia_aot.convert(conv_model().build(), tmp_path / "out",
                                                 config={"module": {"prefix": value}}))
    assert "module.prefix" in message or "prefix" in message
    with pytest.raises(InvalidConfigError) as info:
        config_file.load({"optimization": {"goal": {"k": "v" * 10_000_000}}})
    assert len(str(info.value)) < 600


def _written_plan(tmp_path) -> dict:
    result = helia_aot.convert(conv_model().build(), tmp_path / "first", prefix="m")
    return json.loads(json.dumps(result.plan))


def test_a_plan_whose_schema_version_is_true_is_refused(tmp_path):
    plan = _written_plan(tmp_path)
    plan["schema_version"] = True
    path = tmp_path / "plan.json"
    path.write_text(json.dumps(plan))
    message = _bounded(lambda: helia_aot.convert(conv_model().build(), tmp_path / "out", prefix="m", plan=path))
    assert "schema_version is True" in message


def _relu(shape) -> bytes:
    b = ModelBuilder()
    x = b.input("x", shape, scale=0.5, zero_point=0)
    y = b.tensor("y", shape, scale=0.5, zero_point=0)
    b.op("RELU", [x], [y])
    b.output(y)
    return b.build()


@pytest.mark.parametrize("target", ["host", "corstone300"])
def test_an_arena_past_int32_is_refused_naming_it(tmp_path, target):
    """Two 1.2 GB activations live at once: a 2.4 GB scratch arena, whose offsets an int32_t cannot hold."""
    message = _bounded(lambda: helia_aot.convert(_relu((1, 40000, 30000, 1)), tmp_path / "out", target=target))
    assert "scratch arena in" in message and "more than 2147483647 B" in message
    assert not (tmp_path / "out").exists()


def test_an_arena_just_inside_int32_converts(tmp_path):
    result = helia_aot.convert(_relu((1, 1 << 14, 1 << 14, 1)), tmp_path / "out")
    assert result.arena_bytes <= (1 << 31) - 1


@pytest.mark.parametrize("first, second", [("A.B", "A_B"), ("SRAM-0", "SRAM_0"), ("SRAM+1", "sram_1")])
def test_memories_whose_c_names_collide_are_refused_naming_both(tmp_path, first, second):
    custom = {"name": "two", "cpu": "cortex-m55", "capabilities": ["dsp", "mve"],
              "memories": [{"name": first, "size": 1 << 20}, {"name": second, "size": 1 << 20},
                           {"name": "ROM", "size": 1 << 20, "writable": False}],
              "scratch_memory": first, "constant_memory": "ROM"}
    message = _bounded(lambda: helia_aot.convert(conv_model().build(), tmp_path / "out",
                                                 config={"target": {"name": "two", "custom": custom}}))
    assert repr(first) in message and repr(second) in message and "both become" in message


@pytest.mark.parametrize("edit, field", [
    (lambda p: p["operators"][0].__setitem__("kernel", "arm_x"), "operators[0].kernel"),
    (lambda p: p["tensors"][0].__setitem__("id", ["a", "b"]), "tensors[0].id"),
    (lambda p: p["memory"].__setitem__("arena_alignment", "16"), "memory.arena_alignment"),
    (lambda p: p.__setitem__("operators", {"0": {}}), "operators"),
])
def test_plan_fields_of_the_wrong_type_are_refused_naming_the_field(tmp_path, edit, field):
    plan = _written_plan(tmp_path)
    edit(plan)
    path = tmp_path / "plan.json"
    path.write_text(json.dumps(plan))
    with pytest.raises(InvalidConfigError) as info:
        helia_aot.convert(conv_model().build(), tmp_path / "out", prefix="m", plan=path)
    assert field in str(info.value) and "\n" not in str(info.value)

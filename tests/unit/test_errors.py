# SPDX-License-Identifier: Apache-2.0
"""One test per error class: each names what and where, and says what to do."""

from __future__ import annotations

import numpy as np
import pytest

import helia_aot
from helia_aot import ops
from helia_aot.errors import (InvalidConfigError, InvalidModelError, InvalidPrefixError, OutputDirError,
                              UnknownTargetError, UnsupportedModelError)
from tests.modelgen import ModelBuilder


def relu_model() -> bytes:
    b = ModelBuilder()
    x = b.input("x", (1, 4), scale=0.5, zero_point=0)
    y = b.tensor("y", (1, 4), scale=0.5, zero_point=0)
    b.op("RELU", [x], [y])
    b.output(y)
    return b.build()


@pytest.mark.parametrize("data,fragment", [
    (b"", "is empty"),
    (b"not a flatbuffer at all", "not a LiteRT flatbuffer"),
])
def test_invalid_model_bytes(tmp_path, data, fragment):
    with pytest.raises(InvalidModelError, match=fragment):
        helia_aot.convert(data, tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_invalid_model_truncated_and_missing(tmp_path):
    data = relu_model()
    with pytest.raises(InvalidModelError, match="malformed or truncated|points past"):
        helia_aot.convert(data[: len(data) // 2], tmp_path / "out")
    with pytest.raises(InvalidModelError, match="does not exist. Check the path"):
        helia_aot.convert(tmp_path / "missing.tflite", tmp_path / "out")
    assert not (tmp_path / "out").exists()


def _unsupported(op_type: str) -> bytes:
    b = ModelBuilder()
    x = b.input("x", (1, 4), dtype="float32")
    y = b.tensor("y", (1, 4), dtype="float32")
    b.op(op_type, [x], [y])
    b.output(y)
    return b.build()


@pytest.mark.parametrize("op_type,close", [
    ("SIN", ""),
    ("LSTM", " (the closest types it lowers: UNIDIRECTIONAL_SEQUENCE_LSTM)"),
])
def test_unsupported_operator_points_to_the_catalog(tmp_path, op_type, close):
    # One short line naming the operator and where the supported types are listed, not all of them.
    with pytest.raises(UnsupportedModelError) as info:
        helia_aot.convert(_unsupported(op_type), tmp_path / "out")
    count = len(ops.supported_operators())
    assert str(info.value) == (f"operator main:y (index 0) is {op_type}, which helia_aot does not lower{close}. "
                               "Replace the operator in the model, or file an issue asking for it; "
                               f"`helia-aot operators` lists the {count} operator types helia_aot lowers")


def test_dtypes_matching_no_variant_name_operator_dtypes_and_variants(tmp_path):
    b = ModelBuilder()
    x = b.input("x", (1, 4, 4, 2), dtype="float32")
    w = b.const("w", np.ones((2, 1, 1, 2), np.float32))
    y = b.tensor("y", (1, 4, 4, 2), dtype="int8", scale=0.5, zero_point=0)  # float in, int8 out: no variant
    b.op("CONV_2D", [x, w, None], [y], {"padding": "VALID", "stride_h": 1, "stride_w": 1})
    b.output(y)
    with pytest.raises(UnsupportedModelError, match=r"operator main:y \(CONV_2D, index 0\): dtypes \(inputs "
                                                    r"float32, float32, none; outputs int8\) match no variant "
                                                    r"\(variants: int8 \(input:int8, filter:int8, bias:int32\?\)"):
        helia_aot.convert(b.build(), tmp_path / "out")


def test_invalid_config_names_key_and_allowed(tmp_path):
    with pytest.raises(InvalidConfigError, match=r"unknown key optimization.kernal .*allowed in optimization: "
                                                  r"\['allow_approximate', 'goal', 'kernel', 'plan', 'rewrites'\]"):
        helia_aot.convert(relu_model(), tmp_path / "out", config={"optimization": {"kernal": "auto"}})
    cfg = tmp_path / "c.yaml"
    cfg.write_text("memory:\n  arena_alignment: sixteen\n")
    with pytest.raises(InvalidConfigError, match="memory.arena_alignment must be int"):
        helia_aot.convert(relu_model(), tmp_path / "out", config=str(cfg))


def test_unknown_target(tmp_path):
    with pytest.raises(UnknownTargetError, match="unknown target 'm7board' .*corstone300"):
        helia_aot.convert(relu_model(), tmp_path / "out", target="m7board")


@pytest.mark.parametrize("prefix", ["9lives", "has-dash", "int", ""])
def test_invalid_prefix(tmp_path, prefix):
    with pytest.raises(InvalidPrefixError, match="is not a C identifier"):
        helia_aot.convert(relu_model(), tmp_path / "out", prefix=prefix)


def test_output_dir_is_a_file(tmp_path):
    target = tmp_path / "file"
    target.write_text("keep me")
    with pytest.raises(OutputDirError, match="not a directory"):
        helia_aot.convert(relu_model(), target)
    assert target.read_text() == "keep me"
    assert [p.name for p in tmp_path.iterdir()] == ["file"]  # no temp dir left behind


def test_failed_conversion_keeps_previous_outdir(tmp_path):
    out = tmp_path / "out"
    helia_aot.convert(relu_model(), out, prefix="first")
    with pytest.raises(UnsupportedModelError):
        b = ModelBuilder()
        x = b.input("x", (1, 4), dtype="float32")
        y = b.tensor("y", (1, 4), dtype="float32")
        b.op("SIN", [x], [y])
        b.output(y)
        helia_aot.convert(b.build(), out, prefix="second")
    assert (out / "first_plan.json").exists() and not (out / "second_plan.json").exists()

# SPDX-License-Identifier: Apache-2.0
"""FILL whose dims is a run-time input (a graph input) while the output's shape is static: LiteRT sizes the
output from dims, TFLM refuses a dims that is not constant. The module converts it, fills the output as LiteRT
does when dims names the output's shape, and returns KERNEL_ERROR (operator 0), writing nothing, for any
other dims, clean under ASan / UBSan."""

from __future__ import annotations

import numpy as np
import pytest

import helia_aot
from helia_aot.errors import UnsupportedModelError
from tests.modelgen import ModelBuilder
from tests.modelgen.litert import run_reference

from .helpers import build_host_module, function_body
from .test_ops_indexing import HOST_MAIN, KERNEL_ERROR, run_host


def runtime_dims_model(dtype: str, shape=(2, 3), dims_dtype: str = "int32", dims_len: int | None = None) -> bytes:
    b = ModelBuilder()
    d = b.input("dims", (len(shape) if dims_len is None else dims_len,), dims_dtype)
    v = b.input("value", (), dtype, *((0.1, 2) if dtype == "int8" else (None, None)))
    y = b.tensor("y", shape, dtype, *((0.1, 2) if dtype == "int8" else (None, None)))
    b.op("FILL", [d, v], [y])
    b.output(y)
    return b.build()


@pytest.mark.parametrize("dtype, dims_dtype", [("int8", "int32"), ("float32", "int64"), ("int16", "int32")])
def test_fill_with_runtime_dims_checks_them_against_the_output(tmp_path, dtype, dims_dtype):
    model = runtime_dims_model(dtype, dims_dtype=dims_dtype)
    out = tmp_path / "out"
    helia_aot.convert(model, out, target="host", kernel_library="portable")
    assert "return ARM_CMSIS_NN_ARG_ERROR;" in function_body((out / "src" / "model_model.c").read_text(), 0)
    exe = build_host_module(out, HOST_MAIN, ())
    value = np.array(-7 if dtype != "float32" else 1.25, dtype=dtype)
    right = np.array([2, 3], dtype=dims_dtype)
    status, _, got = run_host(exe, [right, value], dtype)
    assert status == 0
    np.testing.assert_array_equal(got.reshape(2, 3), run_reference(model, [right, value])[0])
    for wrong in ([3, 2], [2, 4], [0, 3]):
        status, failed, got = run_host(exe, [np.array(wrong, dtype=dims_dtype), value], dtype)
        assert (status, failed) == (KERNEL_ERROR, 0), wrong


def test_fill_with_runtime_dims_of_another_rank_is_refused(tmp_path):
    with pytest.raises(UnsupportedModelError, match=r"tensor 'y': output shape \[2, 3\] has another rank than the 3 "
                                                    r"run-time dims"):
        helia_aot.convert(runtime_dims_model("int8", dims_len=3), tmp_path / "out", target="host")
    assert not (tmp_path / "out").exists()

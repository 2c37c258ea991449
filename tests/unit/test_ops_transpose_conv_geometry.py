# SPDX-License-Identifier: Apache-2.0
"""TRANSPOSE_CONV outputs of a size LiteRT refuses (not the VALID/SAME transposed convolution size of the
input) and TFLM runs (issue #30): its Prepare computes the padding on the output's size
(ComputePaddingHeightWidth), its reference kernels scatter input i to i * stride - pad + k and skip
positions outside the output. The module gives TFLM's outputs, cropped ones and ones with positions
no input reaches (the bias alone), clean under ASan / UBSan; the variants TFLM does not run keep refusing."""

from __future__ import annotations

import re

import numpy as np
import pytest

import helia_aot
from helia_aot.errors import UnsupportedModelError
from helia_aot.golden.references import TflmRunner
from tests.modelgen import ModelBuilder
from tests.modelgen.litert import run_reference

from .test_ops_indexing import KERNEL_ERROR, run_host
from .test_ops_transpose_conv import host_build  # noqa: F401 - the fixture

# (name, input, filter (C_out, H, W, C_in), strides, padding, output, TFLM's padding (w, h))
GEOMETRIES = [
    # the examples: VALID sizes 9 and 6, cropped at the end
    ("valid_s2_cropped", (1, 4, 4, 2), (4, 3, 3, 2), (2, 2), "VALID", (1, 7, 7, 4), (0, 0)),
    ("valid_s1_cropped", (1, 4, 4, 2), (4, 3, 3, 2), (1, 1), "VALID", (1, 5, 5, 4), (0, 0)),
    # larger than SAME's 8: the last rows and columns take no input; SAME pads 1 (H) and 0 (W)
    ("same_s2_larger", (1, 4, 4, 3), (2, 3, 3, 3), (2, 2), "SAME", (1, 11, 10, 2), (0, 1)),
    # cropped SAME, different strides per axis: totals (2 - 1) * 3 + 4 - 5 and (2 - 1) * 2 + 3 - 3, pads 1
    ("same_cropped", (1, 3, 4, 2), (3, 4, 3, 2), (3, 2), "SAME", (1, 5, 3, 3), (1, 1)),
    # VALID output smaller than the filter less the stride: ComputeOutSize's truncating division
    # ((1 + 3 - 6) / 3 = 0, not -1) leaves a total padding of 2, so TFLM pads 1 row
    ("valid_below_filter", (2, 2, 2, 2), (3, 6, 6, 2), (3, 3), "VALID", (2, 1, 2, 3), (0, 1)),
]


def geometry_model(dtype: str, x_shape, w_shape, strides, padding: str, y_shape,
                   activation: str = "NONE", bias32: bool = False, runtime_shape: bool = False,
                   given_shape=None) -> ModelBuilder:
    """given_shape: a constant output_shape other than the output's (None: the output's)."""
    b = ModelBuilder()
    g = np.random.default_rng(sum(y_shape) + len(dtype))
    cout = w_shape[0]
    shape = (b.input("output_shape", (4,), "int32") if runtime_shape
             else b.const("output_shape", np.array(given_shape or y_shape, np.int32), "int32"))
    if dtype in ("float32", "float16"):
        x = b.input("x", x_shape, dtype)
        w = b.const("w", g.uniform(-1, 1, w_shape).astype(dtype))
        bias = b.const("bias", g.uniform(-1, 1, cout).astype(dtype))
        y = b.tensor("y", y_shape, dtype)
    else:
        scales = [float(s) for s in g.uniform(0.005, 0.02, cout)]
        x = b.input("x", x_shape, dtype, 0.05, 3 if dtype == "int8" else 0)
        w = b.const("w", g.integers(-127, 128, w_shape).astype(np.int8), "int8", scales, 0, quantized_dimension=0)
        bias_dtype = "int32" if dtype == "int8" or bias32 else "int64"
        bias = b.const("bias", g.integers(-2000, 2000, cout), bias_dtype, [0.05 * s for s in scales], 0)
        y = b.tensor("y", y_shape, dtype, 0.08, -4 if dtype == "int8" else 0)
    options = {"padding": padding, "stride_h": strides[0], "stride_w": strides[1],
               "fused_activation_function": activation}
    if bias32:
        options["quantized_bias_type"] = "INT32"
    b.op("TRANSPOSE_CONV", [shape, w, x, bias], [y], options)
    b.output(y)
    return b


def _input(dtype: str, shape, seed: int) -> np.ndarray:
    g = np.random.default_rng(seed)
    if dtype == "float32":
        return g.uniform(-2, 2, shape).astype(np.float32)
    info = np.iinfo(dtype)
    return g.integers(info.min, info.max, shape, endpoint=True).astype(dtype)


def _padding_passed(source: str) -> tuple[int, int]:
    found = re.search(r"\{ (\d+), (\d+) \}, /\* padding w, h", source)
    if found:
        return int(found.group(1)), int(found.group(2))
    # the inline loop writes the padding into its index arithmetic
    h = re.search(r"const int32_t ty = y \+ (\d+) - fy;", source)
    w = re.search(r"const int32_t tx = x \+ (\d+) - fx;", source)
    return int(w.group(1)), int(h.group(1))


@pytest.mark.parametrize("geometry", GEOMETRIES, ids=[g[0] for g in GEOMETRIES])
@pytest.mark.parametrize("dtype", ["int8", "int16", "float32"])
def test_output_sizes_litert_refuses_match_tflm(host_build, tmp_path, dtype, geometry):  # noqa: F811
    name, x_shape, w_shape, strides, padding, y_shape, want_padding = geometry
    builder = geometry_model(dtype, x_shape, w_shape, strides, padding, y_shape,
                             activation="RELU" if dtype == "float32" else "NONE")
    model = builder.build()
    with pytest.raises(Exception):  # LiteRT's Prepare refuses these sizes
        run_reference(model, [_input(dtype, x_shape, 0)])
    result = helia_aot.convert(model, tmp_path / "plan", prefix="m", target="host", kernel_library="portable")
    source = (tmp_path / "plan" / "src" / "m_model.c").read_text()
    assert _padding_passed(source) == want_padding
    exe = host_build(builder, f"{dtype}_{name}")
    tflm = TflmRunner(model)
    for seed in range(3):
        x = _input(dtype, x_shape, seed)
        status, _, got = run_host(exe, [x], dtype)
        assert status == 0
        want = tflm.run([x])[0]
        if dtype == "float32":
            np.testing.assert_allclose(got.reshape(y_shape), want, rtol=0, atol=1e-5)
        else:
            np.testing.assert_array_equal(got.reshape(y_shape), want)
    assert result.plan["operators"][0]["kernel"] is not None


def test_unreached_outputs_get_the_bias(host_build):  # noqa: F811
    # same_s2_larger: rows 9, 10 and column 9 take no input; TFLM requantizes the bias alone there.
    _, x_shape, w_shape, strides, padding, y_shape, _ = GEOMETRIES[2]
    builder = geometry_model("int8", x_shape, w_shape, strides, padding, y_shape)
    exe = host_build(builder, "int8_unreached")
    x = _input("int8", x_shape, 5)
    got = run_host(exe, [x], "int8")[2].reshape(y_shape)
    want = TflmRunner(builder.build()).run([x])[0]
    np.testing.assert_array_equal(got, want)
    corner = got[0, 10, 9]
    assert (got[0, 10, :] == corner).all() and (got[0, :, 9] == corner).all()
    assert not (got[0, 0] == corner).all()


def test_kernel_choice_for_sizes_litert_refuses(tmp_path):
    """Portable: arm_transpose_conv_s8 gathers every output (any size) within its row window, inline past
    it. ns-cmsis-nn's kernel is checked on LiteRT's sizes only: inline."""
    def entry(geometry, library):
        _, x_shape, w_shape, strides, padding, y_shape, _ = geometry
        model = geometry_model("int8", x_shape, w_shape, strides, padding, y_shape).build()
        out = tmp_path / f"{geometry[0]}_{library}"
        return helia_aot.convert(model, out, prefix="m", target="corstone300",
                                 kernel_library=library).plan["operators"][0]
    assert entry(GEOMETRIES[0], "portable")["kernel"]["entry"] == "arm_transpose_conv_s8"
    larger = entry(GEOMETRIES[2], "portable")
    assert larger["kernel"]["entry"] is None and "row window" in larger["fixed"]["why"]
    for geometry in GEOMETRIES:
        ns = entry(geometry, "ns_cmsis_nn")
        assert ns["kernel"]["entry"] is None and ns["fixed"]["implementation"] == "inline", geometry[0]


def test_int16_on_a_helium_core_matches_tflm(host_build):  # noqa: F811
    """helia_mve_transpose_conv_s16 gathers per output, bounds-checked: TFLM's outputs for any size."""
    for name, x_shape, w_shape, strides, padding, y_shape, _ in GEOMETRIES:
        builder = geometry_model("int16", x_shape, w_shape, strides, padding, y_shape)
        exe = host_build(builder, f"int16_helium_{name}", target="corstone300")
        tflm = TflmRunner(builder.build())
        x = _input("int16", x_shape, 1)
        status, _, got = run_host(exe, [x], "int16")
        assert status == 0
        np.testing.assert_array_equal(got.reshape(y_shape), tflm.run([x])[0], err_msg=name)


@pytest.mark.parametrize("dtype, bias32, source", [("float16", False, "helia-aot limit"),
                                                    ("int16", True, "reference undefined")])
def test_variants_tflm_does_not_run_keep_litert_sizes(tmp_path, dtype, bias32, source):
    # TFLM has no float16 TRANSPOSE_CONV, and reads an int16 input's int32 bias as int64, past the tensor
    # (its outputs saturate where LiteRT's are small, even on LiteRT's sizes).
    _, x_shape, w_shape, strides, padding, y_shape, _ = GEOMETRIES[0]
    model = geometry_model(dtype, x_shape, w_shape, strides, padding, y_shape, bias32=bias32).build()
    with pytest.raises(UnsupportedModelError, match=rf"is not a VALID transposed convolution.*{source}"):
        helia_aot.convert(model, tmp_path / "out", target="corstone300")


@pytest.mark.parametrize("dtype", ["int8", "float32"])
def test_runtime_output_shape_is_checked_on_sizes_only_tflm_runs(host_build, dtype):  # noqa: F811
    # TFLM never reads output_shape; the module checks it on every size, as on LiteRT's
    # (test_ops_transpose_conv.py): the output's own shape gives TFLM's values, another is an error status.
    _, x_shape, w_shape, strides, padding, y_shape, _ = GEOMETRIES[0]
    builder = geometry_model(dtype, x_shape, w_shape, strides, padding, y_shape, runtime_shape=True)
    exe = host_build(builder, f"{dtype}_runtime_shape_tflm")
    tflm = TflmRunner(builder.build())
    x, shape = _input(dtype, x_shape, 0), np.array(y_shape, np.int32)
    status, _, got = run_host(exe, [shape, x], dtype)
    assert status == 0
    np.testing.assert_allclose(got.reshape(y_shape), tflm.run([shape, x])[0], rtol=0, atol=1e-5)
    for seed, given in enumerate(([1, 9, 9, 4], [-1, 0, 5, 2**31 - 1]), start=1):
        status, failed, _ = run_host(exe, [np.array(given, np.int32), _input(dtype, x_shape, seed)], dtype)
        assert (status, failed) == (KERNEL_ERROR, 0), given


@pytest.mark.parametrize("dtype", ["int8", "float32"])
def test_a_constant_output_shape_naming_another_shape_is_not_read(host_build, dtype):  # noqa: F811
    # LiteRT would resize the output to [1, 6, 6, 4] (another interface than declared); TFLM never reads
    # output_shape and computes the declared [1, 5, 5, 4]: so does the module.
    _, x_shape, w_shape, strides, padding, y_shape, _ = GEOMETRIES[1]
    builder = geometry_model(dtype, x_shape, w_shape, strides, padding, y_shape, given_shape=(1, 6, 6, 4))
    exe = host_build(builder, f"{dtype}_constant_shape_not_read")
    x = _input(dtype, x_shape, 0)
    status, _, got = run_host(exe, [x], dtype)
    assert status == 0
    np.testing.assert_allclose(got.reshape(y_shape), TflmRunner(builder.build()).run([x])[0], rtol=0, atol=1e-5)

# SPDX-License-Identifier: Apache-2.0
"""The portable headers match ns-cmsis-nn's API (struct layout, constants) and the library cross-compiles."""

from __future__ import annotations

import shutil
import subprocess

import pytest

import kernel_build as kb

# Every struct field and constant generated code may touch.
LAYOUT_PROGRAM = r"""
#include <stddef.h>
#include <stdio.h>
#include "arm_nnfunctions.h"
#define F(T, f) printf(#T "." #f " %d %d\n", (int)offsetof(T, f), (int)sizeof(((T *)0)->f));
#define S(T) printf(#T " %d\n", (int)sizeof(T));
int main(void)
{
    S(cmsis_nn_tile) F(cmsis_nn_tile, w) F(cmsis_nn_tile, h)
    S(cmsis_nn_context) F(cmsis_nn_context, buf) F(cmsis_nn_context, size)
    S(cmsis_nn_dims) F(cmsis_nn_dims, n) F(cmsis_nn_dims, h) F(cmsis_nn_dims, w) F(cmsis_nn_dims, c)
    S(cmsis_nn_per_channel_quant_params) F(cmsis_nn_per_channel_quant_params, multiplier)
    F(cmsis_nn_per_channel_quant_params, shift)
    S(cmsis_nn_per_tensor_quant_params) F(cmsis_nn_per_tensor_quant_params, multiplier)
    F(cmsis_nn_per_tensor_quant_params, shift)
    S(cmsis_nn_quant_params) F(cmsis_nn_quant_params, multiplier) F(cmsis_nn_quant_params, shift)
    F(cmsis_nn_quant_params, is_per_channel)
    S(cmsis_nn_activation) F(cmsis_nn_activation, min) F(cmsis_nn_activation, max)
    S(cmsis_nn_conv_params) F(cmsis_nn_conv_params, input_offset) F(cmsis_nn_conv_params, output_offset)
    F(cmsis_nn_conv_params, stride) F(cmsis_nn_conv_params, padding) F(cmsis_nn_conv_params, dilation)
    F(cmsis_nn_conv_params, activation)
    S(cmsis_nn_dw_conv_params) F(cmsis_nn_dw_conv_params, input_offset) F(cmsis_nn_dw_conv_params, output_offset)
    F(cmsis_nn_dw_conv_params, ch_mult) F(cmsis_nn_dw_conv_params, stride) F(cmsis_nn_dw_conv_params, padding)
    F(cmsis_nn_dw_conv_params, dilation) F(cmsis_nn_dw_conv_params, activation)
    S(cmsis_nn_pool_params) F(cmsis_nn_pool_params, stride) F(cmsis_nn_pool_params, padding)
    F(cmsis_nn_pool_params, activation)
    S(cmsis_nn_fc_params) F(cmsis_nn_fc_params, input_offset) F(cmsis_nn_fc_params, filter_offset)
    F(cmsis_nn_fc_params, output_offset) F(cmsis_nn_fc_params, activation)
    S(cmsis_nn_transpose_params) F(cmsis_nn_transpose_params, num_dims) F(cmsis_nn_transpose_params, permutations)
    S(cmsis_nn_bias_data) F(cmsis_nn_bias_data, data) F(cmsis_nn_bias_data, is_int32_bias)
    S(cmsis_nn_transpose_conv_params) F(cmsis_nn_transpose_conv_params, input_offset)
    F(cmsis_nn_transpose_conv_params, output_offset) F(cmsis_nn_transpose_conv_params, stride)
    F(cmsis_nn_transpose_conv_params, padding) F(cmsis_nn_transpose_conv_params, padding_offsets)
    F(cmsis_nn_transpose_conv_params, dilation) F(cmsis_nn_transpose_conv_params, activation)
    S(cmsis_nn_softmax_lut_s16) F(cmsis_nn_softmax_lut_s16, exp_lut) F(cmsis_nn_softmax_lut_s16, one_by_one_lut)
    printf("activation_type %d %d %d\n", (int)sizeof(arm_nn_activation_type), ARM_SIGMOID, ARM_TANH);
    printf("status %d %d %d %d\n", ARM_CMSIS_NN_SUCCESS, ARM_CMSIS_NN_ARG_ERROR, ARM_CMSIS_NN_NO_IMPL_ERROR,
           ARM_CMSIS_NN_FAILURE);
    printf("version %d %d %d %d\n", NS_CMSIS_NN_VERSION_MAJOR, NS_CMSIS_NN_VERSION_MINOR, NS_CMSIS_NN_VERSION_PATCH,
           NS_CMSIS_NN_VERSION);
    printf("limits %d %d %d %d %ld %ld\n", NN_Q7_MIN, NN_Q7_MAX, NN_Q15_MIN, NN_Q15_MAX, (long)NN_Q31_MIN,
           (long)NN_Q31_MAX);
    return 0;
}
"""


def layout(include_dir, tmp_path, tag: str) -> str:
    src = tmp_path / f"layout_{tag}.c"
    src.write_text(LAYOUT_PROGRAM)
    exe = tmp_path / f"layout_{tag}"
    subprocess.run([kb.CC, *kb.STRICT_C99, f"-I{include_dir}", str(src), "-o", str(exe)], check=True)
    return subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout


def test_portable_layout_and_constants(tmp_path):
    out = layout(kb.PORTABLE_INCLUDE, tmp_path, "portable")
    assert "version 7 29 2 7029002" in out
    assert "status 0 -1 -2 -3" in out
    assert "cmsis_nn_conv_params 40" in out  # 2 offsets + 3 tiles + activation: ten int32
    assert "cmsis_nn_transpose_conv_params 48" in out  # conv_params plus the padding_offsets tile
    assert "activation_type 4 0 1" in out


def test_layout_identical_to_ns_cmsis_nn(tmp_path, ns_dir):
    assert layout(kb.PORTABLE_INCLUDE, tmp_path, "portable") == layout(ns_dir / "Include", tmp_path, "ns")


def test_identifying_macro():
    assert "#define HELIA_PORTABLE_KERNELS (1)" in (kb.PORTABLE_INCLUDE / "arm_nn_types.h").read_text()


@pytest.mark.parametrize("cpu_flags", [
    ["-mcpu=cortex-m55", "-mfloat-abi=hard"],
    ["-mcpu=cortex-m4", "-mfpu=fpv4-sp-d16", "-mfloat-abi=hard"],
], ids=["cortex-m55", "cortex-m4"])
def test_cross_compiles_for_cortex_m(tmp_path, cpu_flags):
    cross = shutil.which("arm-none-eabi-gcc")
    if cross is None:
        pytest.skip("arm-none-eabi-gcc not installed")
    flags = [*cpu_flags, "--specs=picolibc.specs", *kb.STRICT_C99, "-O2", f"-I{kb.PORTABLE_INCLUDE}"]
    old_cc = kb.CC
    try:
        kb.CC = cross
        objects = kb.compile_objects(kb.portable_sources(), tmp_path, flags, kb.PORTABLE_SRC)
    finally:
        kb.CC = old_cc
    assert len(objects) == len(kb.portable_sources())

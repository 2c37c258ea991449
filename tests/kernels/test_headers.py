# SPDX-License-Identifier: Apache-2.0
"""The portable headers match ns-cmsis-nn's API (struct layout, constants) and the library cross-compiles."""

from __future__ import annotations

import re
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
    S(cmsis_nn_svdf_params) F(cmsis_nn_svdf_params, rank) F(cmsis_nn_svdf_params, input_offset)
    F(cmsis_nn_svdf_params, output_offset) F(cmsis_nn_svdf_params, input_activation)
    F(cmsis_nn_svdf_params, output_activation)
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


# ---- float32 / float16 part (arm_nn_types_flt.h, arm_nn_math_types_flt.h, arm_nnfunctions_flt.h) ------

FLOAT_LAYOUT_PROGRAM = r"""
#include <stddef.h>
#include <stdio.h>
#include "arm_nnfunctions.h"
#define F(T, f) printf(#T "." #f " %d %d\n", (int)offsetof(T, f), (int)sizeof(((T *)0)->f));
#define S(T) printf(#T " %d\n", (int)sizeof(T));
#define BOTH(X) X(f32) X(f16)
#define STRUCTS(t)                                                                                          \
    S(cmsis_nn_activation_##t) F(cmsis_nn_activation_##t, min) F(cmsis_nn_activation_##t, max)              \
    S(cmsis_nn_conv_params_##t) F(cmsis_nn_conv_params_##t, stride) F(cmsis_nn_conv_params_##t, padding)     \
    F(cmsis_nn_conv_params_##t, dilation) F(cmsis_nn_conv_params_##t, activation)                            \
    F(cmsis_nn_conv_params_##t, weight_format)                                                               \
    S(cmsis_nn_transpose_conv_params_##t) F(cmsis_nn_transpose_conv_params_##t, stride)                      \
    F(cmsis_nn_transpose_conv_params_##t, padding) F(cmsis_nn_transpose_conv_params_##t, padding_offsets)    \
    F(cmsis_nn_transpose_conv_params_##t, dilation) F(cmsis_nn_transpose_conv_params_##t, activation)        \
    S(cmsis_nn_dw_conv_params_##t) F(cmsis_nn_dw_conv_params_##t, ch_mult) F(cmsis_nn_dw_conv_params_##t, stride) \
    F(cmsis_nn_dw_conv_params_##t, padding) F(cmsis_nn_dw_conv_params_##t, dilation)                         \
    F(cmsis_nn_dw_conv_params_##t, activation)                                                               \
    S(cmsis_nn_pool_params_##t) F(cmsis_nn_pool_params_##t, stride) F(cmsis_nn_pool_params_##t, padding)     \
    F(cmsis_nn_pool_params_##t, activation)                                                                  \
    S(cmsis_nn_fc_params_##t) F(cmsis_nn_fc_params_##t, activation) F(cmsis_nn_fc_params_##t, weight_format) \
    S(cmsis_nn_ew_params_##t) F(cmsis_nn_ew_params_##t, activation)                                          \
    S(cmsis_nn_transpose_params_##t) F(cmsis_nn_transpose_params_##t, num_dims)                              \
    F(cmsis_nn_transpose_params_##t, perm) F(cmsis_nn_transpose_params_##t, layout)
int main(void)
{
    BOTH(STRUCTS)
    S(float32_t) S(float16_t) S(arm_nn_tensor_layout) S(arm_nn_activation_type_flt) S(arm_nn_weight_format_flt)
    S(arm_nn_dw_kernel_layout_f32) S(arm_nn_dw_kernel_layout_f16)
    S(cmsis_nn_svdf_params_f32) F(cmsis_nn_svdf_params_f32, rank) F(cmsis_nn_svdf_params_f32, input_activation)
    F(cmsis_nn_svdf_params_f32, output_activation)
    printf("layout %d\n", ARM_NN_LAYOUT_NHWC);
    printf("activations %d %d %d %d %d %d %d\n", ARM_NN_FLT_ACT_NONE, ARM_NN_FLT_ACT_SIGMOID, ARM_NN_FLT_ACT_TANH,
           ARM_NN_FLT_ACT_RELU, ARM_NN_FLT_ACT_RELU6, ARM_NN_FLT_ACT_HARDSWISH, ARM_NN_FLT_ACT_LEAKY_RELU);
    printf("weight formats %d %d dw layouts %d %d\n", ARM_NN_WEIGHT_FORMAT_STANDARD, ARM_NN_WEIGHT_FORMAT_NT_N_PACKED,
           ARM_NN_DW_KERNEL_KC, ARM_NN_DW_KERNEL_CK);
    printf("limits %a %a %a %a\n", (double)ARM_NN_F32_FINITE_MAX, (double)ARM_NN_F32_FINITE_LOWEST,
           (double)ARM_NN_F16_FINITE_MAX, (double)ARM_NN_F16_FINITE_LOWEST);
    printf("switches %d %d %d\n", ARM_NN_ENABLE_F32, ARM_NN_ENABLE_F16, ARM_NN_FLOAT_API_ENABLED);
    return 0;
}
"""

FLOAT_SWITCHES = ["-DARM_NN_ENABLE_F32=1", "-DARM_NN_ENABLE_F16=1"]
FLOAT_FUNCTIONS = set(re.findall(r"\b(arm_\w+)\s*\(", re.sub(r"/\*.*?\*/", "", (
    kb.PORTABLE_INCLUDE / "arm_nnfunctions_flt.h").read_text(), flags=re.S)))


def float_layout(include_dir, tmp_path, tag: str) -> str:
    src = tmp_path / f"float_layout_{tag}.c"
    src.write_text(FLOAT_LAYOUT_PROGRAM)
    exe = tmp_path / f"float_layout_{tag}"
    subprocess.run([kb.CC, *kb.STRICT_C99, *FLOAT_SWITCHES, f"-I{include_dir}", str(src), "-o", str(exe)], check=True)
    return subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout


def test_portable_float_layout_and_constants(tmp_path):
    out = float_layout(kb.PORTABLE_INCLUDE, tmp_path, "portable")
    assert "float32_t 4" in out and "float16_t 2" in out
    assert "cmsis_nn_conv_params_f32 36" in out  # three tiles, two floats, the weight format enum
    assert "cmsis_nn_activation_f16 4" in out
    assert "activations 32 33 34 35 36 37 38" in out
    assert "limits 0x1.fffffep+127 -0x1.fffffep+127 0x1.ffcp+15 -0x1.ffcp+15" in out
    assert "switches 1 1 1" in out


def test_float_layout_identical_to_ns_cmsis_nn(tmp_path, ns_dir):
    assert float_layout(kb.PORTABLE_INCLUDE, tmp_path, "portable") == float_layout(ns_dir / "Include", tmp_path, "ns")


def _float_prototypes(include_dir, tmp_path, tag: str) -> dict[str, str]:
    """Every arm_*_f32 / _f16 function prototype the headers declare, as GCC prints it (-aux-info)."""
    src = tmp_path / f"protos_{tag}.c"
    # ns-cmsis-nn declares its float LSTM step (arm_nn_lstm_step_f32) with the support functions.
    extra = '#include "arm_nnsupportfunctions.h"\n' if tag == "ns" else ""
    src.write_text('#include "arm_nnfunctions.h"\n' + extra)
    info = tmp_path / f"protos_{tag}.txt"
    subprocess.run([kb.CC, "-std=c99", *FLOAT_SWITCHES, f"-I{include_dir}", "-aux-info", str(info), "-fsyntax-only",
                    str(src)], check=True)
    protos = {}
    for line in info.read_text().splitlines():
        body = line.split("*/", 1)[-1].strip()
        name = body.split("(", 1)[0].split()[-1].lstrip("*") if "(" in body else ""
        if name in FLOAT_FUNCTIONS:
            protos[name] = " ".join(body.replace("extern ", "").split())
    return protos


def test_float_prototypes_match_ns_cmsis_nn(tmp_path, ns_dir):
    # Same return and parameter types for every float function both headers declare.
    portable = _float_prototypes(kb.PORTABLE_INCLUDE, tmp_path, "portable")
    ns = _float_prototypes(ns_dir / "Include", tmp_path, "ns")
    assert len(FLOAT_FUNCTIONS) >= 74 and set(portable) == FLOAT_FUNCTIONS  # 74 before issue 12 added more
    strip_names = lambda proto: re.sub(r"\b\w+\s*([,)])", r"\1", proto)  # noqa: E731 - parameter names may differ
    # The float functions the release lacks are exactly those its recorded entry list lacks (which keeps
    # modules off them); every other one has the same prototype.
    assert set(portable) - set(ns) == set(portable) - kb.ns_entries(ns_dir)
    for name, proto in portable.items():
        if name in ns:
            assert strip_names(proto) == strip_names(ns[name]), f"{name}:\n portable {proto}\n ns       {ns[name]}"


def test_float_headers_are_silent_without_the_switches(tmp_path):
    # An integer-only module sees no float declarations; the float headers alone refuse to be used.
    src = tmp_path / "no_float.c"
    src.write_text('#include "arm_nnfunctions.h"\n#ifdef ARM_NNFUNCTIONS_FLT_H\n#error float API visible\n#endif\n'
                   'int main(void) { return ARM_NN_FLOAT_API_ENABLED; }\n')
    subprocess.run([kb.CC, *kb.STRICT_C99, f"-I{kb.PORTABLE_INCLUDE}", str(src), "-o", str(tmp_path / "no_float")],
                   check=True)
    direct = tmp_path / "direct.c"
    direct.write_text('#include "arm_nnfunctions_flt.h"\n')
    result = subprocess.run([kb.CC, *kb.STRICT_C99, f"-I{kb.PORTABLE_INCLUDE}", "-c", str(direct), "-o",
                             str(tmp_path / "direct.o")], capture_output=True, text=True)
    assert result.returncode != 0 and "ARM_NN_ENABLE_F32 or ARM_NN_ENABLE_F16" in result.stderr


@pytest.mark.parametrize("cpu_flags,switches", [
    (["-mcpu=cortex-m55", "-mfloat-abi=hard"], FLOAT_SWITCHES),
    (["-mcpu=cortex-m4", "-mfpu=fpv4-sp-d16", "-mfloat-abi=hard"], ["-DARM_NN_ENABLE_F32=1"]),
], ids=["cortex-m55-f32-f16", "cortex-m4-f32"])
def test_float_kernels_cross_compile_for_cortex_m(tmp_path, cpu_flags, switches):
    # FP32 builds for any core; native FP16 is for cores with Helium float (cortex-m55).
    cross = shutil.which("arm-none-eabi-gcc")
    if cross is None:
        pytest.skip("arm-none-eabi-gcc not installed")
    flags = [*cpu_flags, "--specs=picolibc.specs", *kb.STRICT_C99, "-O2", *switches, f"-I{kb.PORTABLE_INCLUDE}"]
    old_cc = kb.CC
    try:
        kb.CC = cross
        objects = kb.compile_objects(kb.portable_sources(), tmp_path, flags, kb.PORTABLE_SRC)
    finally:
        kb.CC = old_cc
    assert len(objects) == len(kb.portable_sources())

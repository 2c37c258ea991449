# SPDX-License-Identifier: Apache-2.0
"""Python model of ns-cmsis-nn v7.29.2's *_get_buffer_size functions, per build.

``build`` is the code path a target's ns-cmsis-nn build compiles: "mve" (ARM_MATH_MVEI, which
implies ARM_MATH_DSP), "dsp" (ARM_MATH_DSP only) or "plain". ``compiler`` matters in one place:
the DSP 1x1 fast convolution asks for an im2col buffer only when built with Arm Compiler 6
("armclang"); with gcc it asks for none and the kernel takes its unbuffered route.

Dims are (n, h, w, c) tuples, as cmsis_nn_dims. Checked against the C functions by
tests/unit/test_scratch_sizes.py when HELIA_NS_CMSIS_NN_DIR is set.
"""

from __future__ import annotations

from dataclasses import dataclass

CH_IN_BLOCK_MVE = 124
# CONVERT_DW_CONV_WITH_ONE_INPUT_CH_AND_OUTPUT_CH_ABOVE_THRESHOLD: 8 on Arm Compiler 6, else 1.
_DW_ONE_IN_CH_THRESHOLD = {"armclang": 8, "gcc": 1}


@dataclass(frozen=True)
class ConvGeometry:
    stride_w: int
    stride_h: int
    pad_w: int
    pad_h: int
    dilation_w: int = 1
    dilation_h: int = 1


def _c_div(a: int, b: int) -> int:
    """C integer division (truncates toward zero)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def _c_mod(a: int, b: int) -> int:
    return a - _c_div(a, b) * b


def is_convolve_1x1(g: ConvGeometry, input_dims, filter_dims) -> bool:
    return (g.pad_w == 0 and g.pad_h == 0 and filter_dims[2] == 1 and filter_dims[1] == 1
            and g.dilation_w == 1 and g.dilation_h == 1 and input_dims[3] == filter_dims[3])


def is_convolve_1x1_fast(g: ConvGeometry) -> bool:
    return g.stride_w == 1 and g.stride_h == 1


def is_convolve_1_x_n(g: ConvGeometry, input_dims, filter_dims) -> bool:
    return (input_dims[1] == 1 and g.dilation_w == 1 and filter_dims[1] == 1
            and (g.stride_w * input_dims[3]) % 4 == 0 and input_dims[3] == filter_dims[3])


def convolve_s8_mve(input_dims, filter_dims) -> int:
    col_length = input_dims[3] * filter_dims[2] * filter_dims[1]
    col_length = (col_length + 15) // 16
    return 4 * col_length * 16


def convolve_s8(build: str, input_dims, filter_dims) -> int:
    if build == "mve":
        return convolve_s8_mve(input_dims, filter_dims)
    rhs_cols = filter_dims[2] * filter_dims[1] * input_dims[3]
    remainder = rhs_cols % 4
    aligned = rhs_cols + 4 - remainder if remainder else rhs_cols
    return 2 * aligned * 2


def helium_convolve_s8(input_dims, filter_dims) -> int:
    """helia_mve_convolve_s8_buffer_size (kernels/helium): two columns of kh * kw * input channels."""
    return 2 * filter_dims[1] * filter_dims[2] * input_dims[3]


def helium_convolve_s8_s32(g: ConvGeometry, input_dims, filter_dims, output_dims) -> int:
    """helia_mve_convolve_s8_s32_buffer_size (kernels/helium): none for a 1x1 filter with stride 1 and no
    padding (the input read in place), else two columns of kh * kw * input channels."""
    if (filter_dims[1] == 1 and filter_dims[2] == 1 and g.stride_h == 1 and g.stride_w == 1 and g.pad_h == 0
            and g.pad_w == 0 and output_dims[1] <= input_dims[1] and output_dims[2] == input_dims[2]):
        return 0
    return 2 * filter_dims[1] * filter_dims[2] * input_dims[3]


def convolve_1x1_s8_fast_dsp(input_dims, compiler: str = "gcc") -> int:
    return 2 * input_dims[3] * 2 if compiler == "armclang" else 0


def convolve_1x1_s8_fast(build: str, input_dims, compiler: str = "gcc") -> int:
    if build == "dsp":
        return convolve_1x1_s8_fast_dsp(input_dims, compiler)
    return 0


def convolve_1_x_n_s8_mve(g: ConvGeometry, input_dims, filter_dims, output_dims) -> int:
    input_x = input_dims[2]
    pad_x = g.pad_w
    kernel_x = filter_dims[2]
    output_x = output_dims[2]
    stride_x = g.stride_w
    total_pad = (output_x - 1) * stride_x + kernel_x - input_x
    asym_pad = _c_mod(total_pad, 2)
    right_pad_num = max(1, _c_div(pad_x + asym_pad + stride_x - 1, stride_x)) if pad_x + asym_pad != 0 else 0
    left_pad_num = max(1, _c_div(pad_x + stride_x - 1, stride_x)) if pad_x != 0 else 0
    no_pad_num = max(output_x - (right_pad_num + left_pad_num), 0)
    if right_pad_num + no_pad_num + left_pad_num != output_x:
        return convolve_s8_mve(input_dims, filter_dims)
    pad_size_left = pad_x * input_dims[3]
    pad_size_right = right_pad_num * input_dims[3] if asym_pad else pad_size_left
    num_elem_left = kernel_x * input_dims[3]
    num_elem_right = num_elem_left - input_dims[3]
    return max(num_elem_left + pad_size_left, num_elem_right + pad_size_right)


def convolve_1_x_n_s8(build: str, g: ConvGeometry, input_dims, filter_dims, output_dims) -> int:
    if build == "mve":
        return convolve_1_x_n_s8_mve(g, input_dims, filter_dims, output_dims)
    return convolve_s8(build, input_dims, filter_dims)


def convolve_wrapper_s8(build: str, g: ConvGeometry, input_dims, filter_dims, output_dims,
                        compiler: str = "gcc") -> int:
    """arm_convolve_wrapper_s8_get_buffer_size(_mve/_dsp) for the given build."""
    if is_convolve_1x1(g, input_dims, filter_dims):
        if is_convolve_1x1_fast(g):
            return convolve_1x1_s8_fast(build, input_dims, compiler)
        return 0
    if is_convolve_1_x_n(g, input_dims, filter_dims):
        return convolve_1_x_n_s8(build, g, input_dims, filter_dims, output_dims)
    return convolve_s8(build, input_dims, filter_dims)


def convolve_weights_sum(build: str, output_dims) -> int:
    return output_dims[3] * 4 if build == "mve" else 0


def depthwise_conv_s8_opt(build: str, input_dims, filter_dims) -> int:
    if build == "mve":
        return 4 * CH_IN_BLOCK_MVE * filter_dims[2] * filter_dims[1]
    if build == "dsp":
        return input_dims[3] * filter_dims[2] * filter_dims[1] * 2
    return 0


def _depthwise_one_in_ch_mve(g: ConvGeometry, input_dims, filter_dims, output_dims) -> int:
    filter_conv = (filter_dims[3], filter_dims[1], filter_dims[2], filter_dims[0])
    size = convolve_wrapper_s8("mve", g, input_dims, filter_conv, output_dims)
    return size + filter_dims[3] * filter_dims[1] * filter_dims[2] * filter_dims[0]


def depthwise_wrapper_s8(build: str, g: ConvGeometry, input_dims, filter_dims, output_dims,
                         compiler: str = "gcc") -> int:
    """arm_depthwise_conv_wrapper_s8_get_buffer_size for a build (not the _mve/_dsp helpers)."""
    if build == "mve" and input_dims[3] == 1 and output_dims[3] > _DW_ONE_IN_CH_THRESHOLD[compiler]:
        return _depthwise_one_in_ch_mve(g, input_dims, filter_dims, output_dims)
    if input_dims[3] == output_dims[3] and input_dims[0] == 1 and g.dilation_w == 1 and g.dilation_h == 1:
        if build != "mve" and filter_dims[2] == 3 and filter_dims[1] == 3 and g.pad_h <= 1 and g.pad_w <= 1:
            return 0
        return depthwise_conv_s8_opt(build, input_dims, filter_dims)
    return 0


def depthwise_wrapper_s8_mve_variant(g: ConvGeometry, input_dims, filter_dims, output_dims,
                                     compiler: str = "gcc") -> int:
    """arm_depthwise_conv_wrapper_s8_get_buffer_size_mve (callable from any build)."""
    size = 0
    if input_dims[3] == output_dims[3] and input_dims[0] == 1 and g.dilation_w == 1 and g.dilation_h == 1:
        size = depthwise_conv_s8_opt("mve", input_dims, filter_dims)
    if input_dims[3] == 1 and output_dims[3] > _DW_ONE_IN_CH_THRESHOLD[compiler]:
        return max(size, _depthwise_one_in_ch_mve(g, input_dims, filter_dims, output_dims))
    return size


def depthwise_wrapper_s8_dsp_variant(g: ConvGeometry, input_dims, filter_dims, output_dims) -> int:
    """arm_depthwise_conv_wrapper_s8_get_buffer_size_dsp (callable from any build)."""
    if input_dims[3] == output_dims[3] and input_dims[0] == 1 and g.dilation_w == 1 and g.dilation_h == 1:
        if filter_dims[2] == 3 and filter_dims[1] == 3 and g.pad_h <= 1 and g.pad_w <= 1:
            return 0
        return depthwise_conv_s8_opt("dsp", input_dims, filter_dims)
    return 0


def fully_connected_s8(build: str, filter_dims) -> int:
    """filter_dims as cmsis_nn_dims for FC: n = accumulation depth, c = output depth."""
    return filter_dims[3] * 4 if build == "mve" else 0


def avgpool_s8(build: str, output_x: int, ch_src: int) -> int:
    return ch_src * 4 if build == "dsp" else 0


# ---- int16 activations (A16W8) ------------------------------------------------------------------

def convolve_wrapper_s16(build: str, input_dims, filter_dims) -> int:
    """arm_convolve_wrapper_s16_get_buffer_size{,_mve,_dsp}: the im2col columns of arm_convolve_s16."""
    col_length = input_dims[3] * filter_dims[2] * filter_dims[1]
    if build == "mve":
        return 4 * ((col_length + 7) // 8) * 8 * 2
    return 2 * col_length * 2


def use_fast_depthwise_s16(ch_mult: int, g: ConvGeometry, filter_dims) -> bool:
    """USE_FAST_DW_CONV_S16_FUNCTION: the wrapper's choice of arm_depthwise_conv_fast_s16."""
    return ch_mult == 1 and g.dilation_w == 1 and g.dilation_h == 1 and filter_dims[2] * filter_dims[1] < 512


def depthwise_wrapper_s16(build: str, ch_mult: int, g: ConvGeometry, input_dims, filter_dims) -> int:
    if not use_fast_depthwise_s16(ch_mult, g, filter_dims):
        return 0
    window = input_dims[3] * filter_dims[2] * filter_dims[1]
    if build == "mve":
        return 4 * window * 2 + 8
    if build == "dsp":
        return window * 2
    return 0


def fully_connected_per_channel_s16(build: str, filter_dims) -> int:
    """ctx->buf of arm_fully_connected_per_channel_s16: its reduced multipliers, one int32 per output."""
    return filter_dims[3] * 4


def avgpool_s16(build: str, output_x: int, ch_src: int) -> int:
    return ch_src * 4 if build == "dsp" else 0


# ---- float32 and float16 (arm_get_buffer_size_f32.c, arm_get_buffer_size_f16.c) ---------------------
# The float convolutions pack output positions' input patches into ctx->buf, this many rows at a
# time, and fall back to unbuffered loops when it is missing; the sizes below are what they ask for.
# The f16 sizers are the f32 ones with 2-byte elements (and 8-lane vectors where MVE pads channels).
F32_CONV_TILE_ROWS = 8  # also the f16 patch tile
F32_DW_TILE_ROWS = 4  # also the f16 fast depthwise tile
_F32 = 4  # sizeof(float32_t)
_F16 = 2  # sizeof(float16_t)
_MVE_BYTES = 16  # one Helium vector


def _convolve_f32_is_1x1(g: ConvGeometry, filter_dims) -> bool:
    return filter_dims[1] == 1 and filter_dims[2] == 1 and g.pad_h == 0 and g.pad_w == 0


def _convolve_f32_is_1_x_n(g: ConvGeometry, input_dims, filter_dims, output_dims) -> bool:
    # The 1 x 3 and 1 x 5 single-batch stride-1 unpadded shapes have direct kernels without scratch.
    direct = input_dims[0] == 1 and filter_dims[2] in (3, 5) and g.stride_w == 1 and g.pad_w == 0
    return (input_dims[1] == 1 and output_dims[1] == 1 and filter_dims[1] == 1 and filter_dims[2] > 1
            and g.stride_h == 1 and g.stride_w > 0 and g.pad_h == 0 and g.dilation_h == 1 and g.dilation_w == 1
            and not direct)


def _convolve_wrapper_float(g: ConvGeometry, input_dims, filter_dims, output_dims, elem: int) -> int:
    if input_dims[3] <= 0 or filter_dims[1] <= 0 or filter_dims[2] <= 0 or output_dims[3] <= 0:
        return 0
    if _convolve_f32_is_1x1(g, filter_dims):
        if g.stride_h == 1 and g.stride_w == 1 and output_dims[1:3] == input_dims[1:3]:
            return 0
        return F32_CONV_TILE_ROWS * input_dims[3] * elem
    if _convolve_f32_is_1_x_n(g, input_dims, filter_dims, output_dims):
        return filter_dims[2] * input_dims[3] * elem if input_dims[3] == filter_dims[3] else 0
    return F32_CONV_TILE_ROWS * filter_dims[1] * filter_dims[2] * input_dims[3] * elem


def _depthwise_wrapper_float(build: str, g: ConvGeometry, ch_mult: int, input_dims, filter_dims, output_dims,
                             compiler: str, elem: int) -> int:
    if build == "mve" and input_dims[3] == 1 and output_dims[3] >= _DW_ONE_IN_CH_THRESHOLD[compiler]:
        lanes = _MVE_BYTES // elem
        conv_filter = (output_dims[3], filter_dims[1], filter_dims[2], input_dims[3])
        conv = _convolve_wrapper_float(g, input_dims, conv_filter, output_dims, elem)
        return (output_dims[3] + lanes - 1) // lanes * lanes * filter_dims[1] * filter_dims[2] * elem + conv
    if ch_mult != 1 or g.dilation_w != 1 or g.dilation_h != 1:
        return 0
    if input_dims[3] <= 0 or filter_dims[1] <= 0 or filter_dims[2] <= 0:
        return 0
    return F32_DW_TILE_ROWS * filter_dims[1] * filter_dims[2] * input_dims[3] * elem


def convolve_wrapper_f32(build: str, g: ConvGeometry, input_dims, filter_dims, output_dims) -> int:
    """arm_convolve_wrapper_f32_get_buffer_size (the same on every build)."""
    return _convolve_wrapper_float(g, input_dims, filter_dims, output_dims, _F32)


def convolve_wrapper_f16(build: str, g: ConvGeometry, input_dims, filter_dims, output_dims) -> int:
    """arm_convolve_wrapper_f16_get_buffer_size (the same on every build)."""
    return _convolve_wrapper_float(g, input_dims, filter_dims, output_dims, _F16)


def depthwise_wrapper_f32(build: str, g: ConvGeometry, ch_mult: int, input_dims, filter_dims, output_dims,
                          compiler: str = "gcc") -> int:
    """arm_depthwise_conv_wrapper_f32_get_buffer_size. On MVE a one-input-channel layer runs as a
    convolution (its filter re-laid out in ctx->buf); elsewhere only the channel-multiplier-1,
    undilated fast path packs patches."""
    return _depthwise_wrapper_float(build, g, ch_mult, input_dims, filter_dims, output_dims, compiler, _F32)


def depthwise_wrapper_f16(build: str, g: ConvGeometry, ch_mult: int, input_dims, filter_dims, output_dims,
                          compiler: str = "gcc") -> int:
    """arm_depthwise_conv_wrapper_f16_get_buffer_size, as the f32 one (MVE-FP for the convolution route)."""
    return _depthwise_wrapper_float(build, g, ch_mult, input_dims, filter_dims, output_dims, compiler, _F16)

/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: the public structs, enums and version macros of the ns-cmsis-nn v7.29.2 API. */

#ifndef ARM_NN_TYPES_H
#define ARM_NN_TYPES_H

#include "Internal/arm_nn_config.h"

#include <stdbool.h>
#include <stdint.h>

/*
 * The API version these kernels reproduce. Generated code may test NS_CMSIS_NN_VERSION, so it is
 * packed the same way: MAJOR * 1000000 + MINOR * 1000 + PATCH.
 */
#define NS_CMSIS_NN_VERSION_MAJOR (7)
#define NS_CMSIS_NN_VERSION_MINOR (29)
#define NS_CMSIS_NN_VERSION_PATCH (2)
#define NS_CMSIS_NN_VERSION                                                                            \
    ((NS_CMSIS_NN_VERSION_MAJOR * 1000000) + (NS_CMSIS_NN_VERSION_MINOR * 1000) + NS_CMSIS_NN_VERSION_PATCH)

/* The Ambiq flavour of the API (extra weight_sum_ctx arguments) is the one implemented here. */
#define NS_CMSIS_NN (1)

/* Identifies this library: the helia-aot portable C99 kernels, not ns-cmsis-nn itself. */
#define HELIA_PORTABLE_KERNELS (1)

/** Which function arm_nn_activation_s16 computes. */
typedef enum
{
    ARM_SIGMOID = 0, /**< logistic 1 / (1 + exp(-x)) */
    ARM_TANH = 1,    /**< hyperbolic tangent */
} arm_nn_activation_type;

/** Status returned by the kernels. */
typedef enum
{
    ARM_CMSIS_NN_SUCCESS = 0,        /**< Done. */
    ARM_CMSIS_NN_ARG_ERROR = -1,     /**< An argument is out of the supported range. */
    ARM_CMSIS_NN_NO_IMPL_ERROR = -2, /**< No implementation for this case. */
    ARM_CMSIS_NN_FAILURE = -3,       /**< Internal logic error. */
} arm_cmsis_nn_status;

/** Width and height of a 2-D window (stride, padding, dilation). */
typedef struct
{
    int32_t w;
    int32_t h;
} cmsis_nn_tile;

/** Scratch memory handed to a kernel. The portable kernels never read or write it. */
typedef struct
{
    void *buf;
    int32_t size;
} cmsis_nn_context;

/** Tensor shape in NHWC order; n is the batch or the output-channel count, depending on the tensor. */
typedef struct
{
    int32_t n;
    int32_t h;
    int32_t w;
    int32_t c;
} cmsis_nn_dims;

/** One requantization multiplier and shift per output channel. */
typedef struct
{
    int32_t *multiplier;
    int32_t *shift;
} cmsis_nn_per_channel_quant_params;

/** One requantization multiplier and shift for a whole tensor. */
typedef struct
{
    int32_t multiplier;
    int32_t shift;
} cmsis_nn_per_tensor_quant_params;

/** Requantization that is either per tensor (one entry) or per channel. */
typedef struct
{
    int32_t *multiplier;
    int32_t *shift;
    int32_t is_per_channel;
} cmsis_nn_quant_params;

/** Output clamp range, in output quantized units. */
typedef struct
{
    int32_t min;
    int32_t max;
} cmsis_nn_activation;

/** Convolution parameters. input_offset is minus the input zero point, output_offset the output zero point. */
typedef struct
{
    int32_t input_offset;
    int32_t output_offset;
    cmsis_nn_tile stride;
    cmsis_nn_tile padding;
    cmsis_nn_tile dilation;
    cmsis_nn_activation activation;
} cmsis_nn_conv_params;

/** Depthwise convolution parameters; ch_mult * input channels = output channels. */
typedef struct
{
    int32_t input_offset;
    int32_t output_offset;
    int32_t ch_mult;
    cmsis_nn_tile stride;
    cmsis_nn_tile padding;
    cmsis_nn_tile dilation;
    cmsis_nn_activation activation;
} cmsis_nn_dw_conv_params;

/** Pooling parameters. */
typedef struct
{
    cmsis_nn_tile stride;
    cmsis_nn_tile padding;
    cmsis_nn_activation activation;
} cmsis_nn_pool_params;

/** Fully connected parameters; the offsets are minus the input/filter zero points and the output zero point. */
typedef struct
{
    int32_t input_offset;
    int32_t filter_offset;
    int32_t output_offset;
    cmsis_nn_activation activation;
} cmsis_nn_fc_params;

/** Transpose parameters: output axis i takes input axis permutations[i]. */
typedef struct
{
    const int32_t num_dims;
    const uint32_t *permutations;
} cmsis_nn_transpose_params;

/* ---- int16-activation kernels and TRANSPOSE_CONV ------------------------------------------------ */

/** Bias of an int16-activation convolution: int32 entries when is_int32_bias, int64 otherwise; data may be NULL. */
typedef struct
{
    const void *data;
    const bool is_int32_bias;
} cmsis_nn_bias_data;

/**
 * Transpose convolution parameters. input_offset is minus the input zero point, output_offset the
 * output zero point. padding is the leading padding TFLite computes for the output; padding_offsets
 * the extra trailing padding (not read by the int8 kernel). dilation must be 1.
 */
typedef struct
{
    int32_t input_offset;
    int32_t output_offset;
    cmsis_nn_tile stride;
    cmsis_nn_tile padding;
    cmsis_nn_tile padding_offsets;
    cmsis_nn_tile dilation;
    cmsis_nn_activation activation;
} cmsis_nn_transpose_conv_params;
/* ---- int16 kernels ------------------------------------------------------------------------ */

/** The two 513-entry tables of arm_softmax_s16: exp(x) on [-10, 0] and 1 / (1 + x) on [0, 1], both in Q0.15. */
typedef struct
{
    const int16_t *exp_lut;
    const int16_t *one_by_one_lut;
} cmsis_nn_softmax_lut_s16;

/* ---- comparisons, reductions and selection (EQUAL ... LESS_EQUAL, REDUCE_MAX / MIN, SELECT_V2) ---- */

/** The comparison arm_comparison_s8 / _s16 apply to the rescaled inputs (lhs op rhs). */
typedef enum
{
    ARM_COMPARE_EQUAL = 0,
    ARM_COMPARE_NOT_EQUAL = 1,
    ARM_COMPARE_GREATER = 2,
    ARM_COMPARE_GREATER_EQUAL = 3,
    ARM_COMPARE_LESS = 4,
    ARM_COMPARE_LESS_EQUAL = 5,
} arm_nn_compare_operation;

/** SELECT_V2 with broadcasting: the output shape and, per output axis, each input's element stride
 * (0 along an axis the input is broadcast on). */
typedef struct
{
    int32_t rank;
    const int32_t *output_shape;
    const int32_t *cond_strides;
    const int32_t *x_strides;
    const int32_t *y_strides;
} cmsis_nn_select_v2_params;

/* ==== end of the comparison / reduction / selection block ==== */

/* The float32 / float16 parameter structs, when the build enables float support. */
#if ARM_NN_FLOAT_API_ENABLED
    #include "arm_nn_types_flt.h"
#endif

#endif /* ARM_NN_TYPES_H */

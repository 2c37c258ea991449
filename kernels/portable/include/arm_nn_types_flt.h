/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: the float32 / float16 parameter structs and enums of the ns-cmsis-nn v7.29.2 API. */

#ifndef ARM_NN_TYPES_FLT_H
#define ARM_NN_TYPES_FLT_H

#ifndef ARM_NN_TYPES_H
    #include "arm_nn_types.h"
#endif

#if !ARM_NN_ENABLE_F32 && !ARM_NN_ENABLE_F16
    #error "the float headers need ARM_NN_ENABLE_F32 or ARM_NN_ENABLE_F16; include arm_nnfunctions.h with one of them set"
#endif

#include "arm_nn_math_types_flt.h"

/* A compile-time check that works in C99 too (a negative array size is an error). */
#ifndef ARM_NN_STATIC_ASSERT
    #if defined(__STDC_VERSION__) && (__STDC_VERSION__ >= 201112L)
        #define ARM_NN_STATIC_ASSERT(cond, msg) _Static_assert(cond, #msg)
    #else
        #define ARM_NN_STATIC_ASSERT_GLUE(a, b) a##b
        #define ARM_NN_STATIC_ASSERT_XGLUE(a, b) ARM_NN_STATIC_ASSERT_GLUE(a, b)
        #define ARM_NN_STATIC_ASSERT(cond, msg)                                                                    \
            typedef char ARM_NN_STATIC_ASSERT_XGLUE(arm_nn_static_assert_, __LINE__)[(cond) ? 1 : -1]
    #endif
#endif

/** Tensor layout of the float entry points; only NHWC exists. */
typedef enum
{
    ARM_NN_LAYOUT_NHWC = 0,
} arm_nn_tensor_layout;

/** What arm_nn_activation_f32 / _f16 compute. The values start at 32, away from arm_nn_activation_type. */
typedef enum
{
    ARM_NN_FLT_ACT_NONE = 32,      /**< x */
    ARM_NN_FLT_ACT_SIGMOID = 33,   /**< 1 / (1 + exp(-x)), exp approximated (see README) */
    ARM_NN_FLT_ACT_TANH = 34,      /**< tanh(x), approximated (see README) */
    ARM_NN_FLT_ACT_RELU = 35,      /**< max(x, 0) */
    ARM_NN_FLT_ACT_RELU6 = 36,     /**< min(max(x, 0), 6) */
    ARM_NN_FLT_ACT_HARDSWISH = 37, /**< x * min(max(x / 6 + 1/2, 0), 1) */
    ARM_NN_FLT_ACT_LEAKY_RELU = 38 /**< x >= 0 ? x : act_param * x */
} arm_nn_activation_type_flt;

ARM_NN_STATIC_ASSERT(((int)ARM_TANH) < ((int)ARM_NN_FLT_ACT_NONE),
                     integer_activation_enum_must_not_overlap_float_activation_enum);

/** Depthwise filter storage: [kernel][channel] (TFLite's 1 x H x W x C) or [channel][kernel]. */
typedef enum
{
    ARM_NN_DW_KERNEL_KC = 0,
    ARM_NN_DW_KERNEL_CK = 1
} arm_nn_dw_kernel_layout_f32;

/**
 * Weight storage of convolutions and fully connected layers: the standard layout (TFLite's) or
 * ns-cmsis-nn's Helium repacking in blocks of output channels. The portable kernels take
 * ARM_NN_WEIGHT_FORMAT_STANDARD only (see README).
 */
typedef enum
{
    ARM_NN_WEIGHT_FORMAT_STANDARD = 0,
    ARM_NN_WEIGHT_FORMAT_NT_N_PACKED = 1,
} arm_nn_weight_format_flt;

#if ARM_NN_ENABLE_F32

/** Output clamp range in real values (e.g. -FLT_MAX / FLT_MAX, 0 / 6 for RELU6). */
typedef struct
{
    float32_t min;
    float32_t max;
} cmsis_nn_activation_f32;

/** CONV_2D parameters; padding is the leading (top / left) padding. */
typedef struct
{
    cmsis_nn_tile stride;
    cmsis_nn_tile padding;
    cmsis_nn_tile dilation;
    cmsis_nn_activation_f32 activation;
    arm_nn_weight_format_flt weight_format;
} cmsis_nn_conv_params_f32;

/** TRANSPOSE_CONV parameters; padding is the leading padding, padding_offsets is not read. */
typedef struct
{
    cmsis_nn_tile stride;
    cmsis_nn_tile padding;
    cmsis_nn_tile padding_offsets;
    cmsis_nn_tile dilation;
    cmsis_nn_activation_f32 activation;
} cmsis_nn_transpose_conv_params_f32;

/** DEPTHWISE_CONV_2D parameters; ch_mult * input channels = output channels. */
typedef struct
{
    int32_t ch_mult;
    cmsis_nn_tile stride;
    cmsis_nn_tile padding;
    cmsis_nn_tile dilation;
    cmsis_nn_activation_f32 activation;
} cmsis_nn_dw_conv_params_f32;

/** Pooling parameters. */
typedef struct
{
    cmsis_nn_tile stride;
    cmsis_nn_tile padding;
    cmsis_nn_activation_f32 activation;
} cmsis_nn_pool_params_f32;

/** FULLY_CONNECTED parameters. */
typedef struct
{
    cmsis_nn_activation_f32 activation;
    arm_nn_weight_format_flt weight_format;
} cmsis_nn_fc_params_f32;

/** Element-wise parameters. */
typedef struct
{
    cmsis_nn_activation_f32 activation;
} cmsis_nn_ew_params_f32;

/** TRANSPOSE parameters: output axis i is input axis perm[i], for the first num_dims axes. */
typedef struct
{
    int32_t num_dims;
    int32_t perm[4];
    arm_nn_tensor_layout layout;
} cmsis_nn_transpose_params_f32;

/** SVDF parameters: input_activation clamps the feature projection, output_activation the output. */
typedef struct
{
    int32_t rank;
    cmsis_nn_activation_f32 input_activation;
    cmsis_nn_activation_f32 output_activation;
} cmsis_nn_svdf_params_f32;

#endif /* ARM_NN_ENABLE_F32 */

#if ARM_NN_ENABLE_F16

typedef arm_nn_dw_kernel_layout_f32 arm_nn_dw_kernel_layout_f16;

/** The float16 counterparts of the float32 structs above, field for field. */
typedef struct
{
    float16_t min;
    float16_t max;
} cmsis_nn_activation_f16;

typedef struct
{
    cmsis_nn_tile stride;
    cmsis_nn_tile padding;
    cmsis_nn_tile dilation;
    cmsis_nn_activation_f16 activation;
    arm_nn_weight_format_flt weight_format;
} cmsis_nn_conv_params_f16;

typedef struct
{
    cmsis_nn_tile stride;
    cmsis_nn_tile padding;
    cmsis_nn_tile padding_offsets;
    cmsis_nn_tile dilation;
    cmsis_nn_activation_f16 activation;
} cmsis_nn_transpose_conv_params_f16;

typedef struct
{
    int32_t ch_mult;
    cmsis_nn_tile stride;
    cmsis_nn_tile padding;
    cmsis_nn_tile dilation;
    cmsis_nn_activation_f16 activation;
} cmsis_nn_dw_conv_params_f16;

typedef struct
{
    cmsis_nn_tile stride;
    cmsis_nn_tile padding;
    cmsis_nn_activation_f16 activation;
} cmsis_nn_pool_params_f16;

typedef struct
{
    cmsis_nn_activation_f16 activation;
    arm_nn_weight_format_flt weight_format;
} cmsis_nn_fc_params_f16;

typedef struct
{
    cmsis_nn_activation_f16 activation;
} cmsis_nn_ew_params_f16;

typedef struct
{
    int32_t num_dims;
    int32_t perm[4];
    arm_nn_tensor_layout layout;
} cmsis_nn_transpose_params_f16;

#endif /* ARM_NN_ENABLE_F16 */

/* ---- UNIDIRECTIONAL_SEQUENCE_LSTM (float32) ------------------------------------------------- */

#if ARM_NN_ENABLE_F32

/** One float32 LSTM gate; any pointer may be NULL (that term is then left out). */
typedef struct
{
    const float32_t *input_weights;  /**< [hidden_size][input_size] */
    const float32_t *hidden_weights; /**< [hidden_size][hidden_size] */
    const float32_t *bias;           /**< [hidden_size] */
    arm_nn_activation_type_flt activation_type; /**< ARM_NN_FLT_ACT_TANH, else the sigmoid */
} cmsis_nn_lstm_gate_f32;

typedef struct
{
    int32_t time_major;
    int32_t batch_size;
    int32_t time_steps;
    int32_t input_size;
    int32_t hidden_size;
    float32_t cell_clip; /**< > 0: the cell state is clamped to [-cell_clip, cell_clip] */

    cmsis_nn_lstm_gate_f32 forget_gate;
    cmsis_nn_lstm_gate_f32 input_gate;
    cmsis_nn_lstm_gate_f32 cell_gate;
    cmsis_nn_lstm_gate_f32 output_gate;
} cmsis_nn_lstm_params_f32;

/** temp1 / temp2 are not read by the portable kernels; hidden_state as in cmsis_nn_lstm_context. */
typedef struct
{
    float32_t *temp1;
    float32_t *temp2;
    float32_t *cell_state;
    float32_t *hidden_state;
} cmsis_nn_lstm_context_f32;

#endif /* ARM_NN_ENABLE_F32 */

/* ==== end of the UNIDIRECTIONAL_SEQUENCE_LSTM (float32) block ==== */

#endif /* ARM_NN_TYPES_FLT_H */

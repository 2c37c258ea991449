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

/* ---- SPLIT, SPLIT_V, TILE, BROADCAST_TO (issue 12, data movement A1) ----------------------- */

/** TILE: output dimension d is input_shape[d] * multiples[d]. */
typedef struct
{
    int32_t rank;               /**< 1..8 */
    const int32_t *input_shape; /**< rank entries */
    const int32_t *multiples;   /**< rank entries */
} cmsis_nn_tile_params;

/** BROADCAST_TO: every input dimension is 1 or equal to the output's. */
typedef struct
{
    int32_t rank;                /**< 1..8, of both shapes */
    const int32_t *input_shape;  /**< rank entries */
    const int32_t *output_shape; /**< rank entries */
} cmsis_nn_broadcast_to_params;

/* ==== end of the SPLIT / TILE / BROADCAST_TO block ==== */
/* ---- BATCH_TO_SPACE_ND, SPACE_TO_BATCH_ND, DEPTH_TO_SPACE, SPACE_TO_DEPTH, RESIZE_NEAREST_NEIGHBOR ---- */

/** RESIZE_NEAREST_NEIGHBOR options, as TFLite's. */
typedef struct
{
    bool align_corners;      /**< map the corner pixels of input and output onto each other */
    bool half_pixel_centers; /**< sample at pixel centres (index + 0.5) */
} cmsis_nn_resize_params;

/* ==== end of the space / batch / depth / nearest-neighbour resize block ==== */
/* ---- UNIDIRECTIONAL_SEQUENCE_LSTM (int8 / int16 activations, int16 cell state) --------------- */

/** One LSTM gate: its input and recurrent weights with their requantization to the gate's Q3.12. */
typedef struct
{
    int32_t input_multiplier;
    int32_t input_shift;
    const void *input_weights;
    const void *input_effective_bias; /**< bias + input_offset * row sums of input_weights */

    int32_t hidden_multiplier;
    int32_t hidden_shift;
    const void *hidden_weights;
    const void *hidden_effective_bias; /**< hidden (output state) offset * row sums of hidden_weights */

    const void *bias; /**< not read by the kernels (it is folded into input_effective_bias) */
    arm_nn_activation_type activation_type;
} cmsis_nn_lstm_gate;

/** A whole LSTM layer: shapes, the cell-state and output requantizations, the four gates. */
typedef struct
{
    int32_t time_major; /**< 0: input [batch, time, input_size]; else [time, batch, input_size] */
    int32_t batch_size;
    int32_t time_steps;
    int32_t input_size;
    int32_t hidden_size; /**< cells = outputs (no projection) */

    int32_t input_offset;

    int32_t forget_to_cell_multiplier;
    int32_t forget_to_cell_shift;
    int32_t input_to_cell_multiplier;
    int32_t input_to_cell_shift;
    int32_t cell_clip; /**< the cell state is clamped to [-cell_clip, cell_clip]; 0: no clip */
    int32_t cell_scale_power; /**< the cell state's scale is 2^cell_scale_power */

    int32_t output_multiplier;
    int32_t output_shift;
    int32_t output_offset;

    cmsis_nn_lstm_gate forget_gate;
    cmsis_nn_lstm_gate input_gate;
    cmsis_nn_lstm_gate cell_gate;
    cmsis_nn_lstm_gate output_gate;
} cmsis_nn_lstm_params;

/** Working memory and state: temp1 / temp2 hold batch * hidden int16 each; hidden_state NULL means
 * every call starts from zero state, otherwise it and cell_state carry over between calls. */
typedef struct
{
    void *temp1;
    void *temp2;
    void *cell_state;
    void *hidden_state;
} cmsis_nn_lstm_context;

/* ==== end of the UNIDIRECTIONAL_SEQUENCE_LSTM block ==== */
/* ---- SVDF ------------------------------------------------------------------------------------ */

/**
 * SVDF parameters (TFLM's convention, not the other kernels' negated one): input_offset and
 * output_offset are the input and output zero points themselves. input_activation clamps the
 * feature projection written into the state (the state type's range), output_activation the output.
 */
typedef struct
{
    int32_t rank;
    int32_t input_offset;
    int32_t output_offset;
    cmsis_nn_activation input_activation;
    cmsis_nn_activation output_activation;
} cmsis_nn_svdf_params;

/* The float32 / float16 parameter structs, when the build enables float support. */
#if ARM_NN_FLOAT_API_ENABLED
    #include "arm_nn_types_flt.h"
#endif

#endif /* ARM_NN_TYPES_H */

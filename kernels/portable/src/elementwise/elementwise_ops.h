/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: private per-element ADD / SUB / MUL arithmetic and broadcast indexing. */

#ifndef HELIA_PORTABLE_ELEMENTWISE_OPS_H
#define HELIA_PORTABLE_ELEMENTWISE_OPS_H

#include <stddef.h>

#include "arm_nnfunctions.h"

/* Quantization of an ADD or SUB: both inputs are rescaled to a common scale (2^left_shift headroom). */
typedef struct
{
    int32_t input_1_offset;
    int32_t input_1_mult;
    int32_t input_1_shift;
    int32_t input_2_offset;
    int32_t input_2_mult;
    int32_t input_2_shift;
    int32_t left_shift;
    int32_t out_offset;
    int32_t out_mult;
    int32_t out_shift;
    int32_t out_activation_min;
    int32_t out_activation_max;
} helia_add_sub_quant;

/* Quantization of a MUL: the raw product of the offset inputs is requantized once. */
typedef struct
{
    int32_t input_1_offset;
    int32_t input_2_offset;
    int32_t out_offset;
    int32_t out_mult;
    int32_t out_shift;
    int32_t out_activation_min;
    int32_t out_activation_max;
} helia_mul_quant;

/* a + b, or a - b when subtract is non-zero, in the output's quantization. */
int8_t helia_add_sub_s8(int8_t a, int8_t b, const helia_add_sub_quant *q, int subtract);

/* a * b in the output's quantization. */
int8_t helia_mul_s8(int8_t a, int8_t b, const helia_mul_quant *q);

/* Offset of element (n, h, w, c) of an output in an input whose size-1 dimensions are broadcast. */
size_t helia_broadcast_offset(const cmsis_nn_dims *input_dims, int32_t n, int32_t h, int32_t w, int32_t c);

#endif /* HELIA_PORTABLE_ELEMENTWISE_OPS_H */

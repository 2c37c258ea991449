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

/* The same three operations with one signature, for helia_broadcast_s8 (params: the quant struct). */
int8_t helia_add_element_s8(int8_t a, int8_t b, const void *params);
int8_t helia_sub_element_s8(int8_t a, int8_t b, const void *params);
int8_t helia_mul_element_s8(int8_t a, int8_t b, const void *params);

/* int16 ADD / SUB / MUL (ns-cmsis-nn's s16 kernels): the same arithmetic as the int8 ones except that
 * int16 tensors are symmetric, so every offset in the quant structs is ignored (treated as 0). */
int16_t helia_add_sub_s16(int16_t a, int16_t b, const helia_add_sub_quant *q, int subtract);
int16_t helia_mul_s16(int16_t a, int16_t b, const helia_mul_quant *q);

/* Visits every output position of a broadcast, in output order, with the flat indices of the two
 * input elements that meet there (NumPy-style: a size-1 dimension repeats along the output's). */
void helia_broadcast_walk(const cmsis_nn_dims *a_dims,
                          const cmsis_nn_dims *b_dims,
                          const cmsis_nn_dims *out_dims,
                          void (*visit)(size_t out_index, size_t a_index, size_t b_index, void *context),
                          void *context);

/* The three int16 broadcasting kernels: out = op(a, b) over out_dims. */
typedef enum
{
    HELIA_S16_ADD,
    HELIA_S16_SUB,
    HELIA_S16_MUL
} helia_s16_op;

void helia_broadcast_s16(const int16_t *a,
                         const cmsis_nn_dims *a_dims,
                         const int16_t *b,
                         const cmsis_nn_dims *b_dims,
                         int16_t *out,
                         const cmsis_nn_dims *out_dims,
                         helia_s16_op op,
                         const void *quant);

/* out[n][h][w][c] = op(a[...], b[...]) over the output's shape, NumPy-style: a size-1 dimension of
 * an input is repeated along the output's. */
void helia_broadcast_s8(const int8_t *a,
                        const cmsis_nn_dims *a_dims,
                        const int8_t *b,
                        const cmsis_nn_dims *b_dims,
                        int8_t *out,
                        const cmsis_nn_dims *out_dims,
                        int8_t (*op)(int8_t a, int8_t b, const void *params),
                        const void *params);

#endif /* HELIA_PORTABLE_ELEMENTWISE_OPS_H */

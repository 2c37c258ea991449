/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: per-element ADD / SUB / MUL arithmetic (TFLite integer reference math). */

#include "elementwise_ops.h"

#include "../support/fixed_point.h"

/* (x + offset) * 2^left_shift, then scaled by that input's multiplier/shift onto the common scale. */
static int32_t to_common_scale(int32_t x, int32_t offset, int32_t left_shift, int32_t mult, int32_t shift)
{
    return helia_requantize(helia_shift_left(x + offset, left_shift), mult, shift);
}

int8_t helia_add_sub_s8(int8_t a, int8_t b, const helia_add_sub_quant *q, int subtract)
{
    const int32_t a_common = to_common_scale(a, q->input_1_offset, q->left_shift, q->input_1_mult, q->input_1_shift);
    const int32_t b_common = to_common_scale(b, q->input_2_offset, q->left_shift, q->input_2_mult, q->input_2_shift);
    const int32_t combined = subtract ? a_common - b_common : a_common + b_common;
    const int32_t result = helia_requantize(combined, q->out_mult, q->out_shift) + q->out_offset;
    return (int8_t)helia_clamp(result, q->out_activation_min, q->out_activation_max);
}

int8_t helia_mul_s8(int8_t a, int8_t b, const helia_mul_quant *q)
{
    const int32_t product = ((int32_t)a + q->input_1_offset) * ((int32_t)b + q->input_2_offset);
    const int32_t result = helia_requantize(product, q->out_mult, q->out_shift) + q->out_offset;
    return (int8_t)helia_clamp(result, q->out_activation_min, q->out_activation_max);
}

int8_t helia_add_element_s8(int8_t a, int8_t b, const void *params)
{
    return helia_add_sub_s8(a, b, (const helia_add_sub_quant *)params, 0);
}

int8_t helia_sub_element_s8(int8_t a, int8_t b, const void *params)
{
    return helia_add_sub_s8(a, b, (const helia_add_sub_quant *)params, 1);
}

int8_t helia_mul_element_s8(int8_t a, int8_t b, const void *params)
{
    return helia_mul_s8(a, b, (const helia_mul_quant *)params);
}

static size_t broadcast_offset(const cmsis_nn_dims *input_dims, int32_t n, int32_t h, int32_t w, int32_t c)
{
    const size_t in_n = input_dims->n == 1 ? 0 : (size_t)n;
    const size_t in_h = input_dims->h == 1 ? 0 : (size_t)h;
    const size_t in_w = input_dims->w == 1 ? 0 : (size_t)w;
    const size_t in_c = input_dims->c == 1 ? 0 : (size_t)c;
    return ((in_n * (size_t)input_dims->h + in_h) * (size_t)input_dims->w + in_w) * (size_t)input_dims->c + in_c;
}

void helia_broadcast_walk(const cmsis_nn_dims *a_dims,
                          const cmsis_nn_dims *b_dims,
                          const cmsis_nn_dims *out_dims,
                          void (*visit)(size_t out_index, size_t a_index, size_t b_index, void *context),
                          void *context)
{
    size_t out_index = 0;
    for (int32_t n = 0; n < out_dims->n; ++n)
    {
        for (int32_t h = 0; h < out_dims->h; ++h)
        {
            for (int32_t w = 0; w < out_dims->w; ++w)
            {
                for (int32_t c = 0; c < out_dims->c; ++c)
                {
                    visit(out_index++, broadcast_offset(a_dims, n, h, w, c), broadcast_offset(b_dims, n, h, w, c),
                          context);
                }
            }
        }
    }
}

/* The operands and operation of one int8 broadcast call, handed to the walk's visitor. */
typedef struct
{
    const int8_t *a;
    const int8_t *b;
    int8_t *out;
    int8_t (*op)(int8_t a, int8_t b, const void *params);
    const void *params;
} s8_call;

static void visit_s8(size_t out_index, size_t a_index, size_t b_index, void *context)
{
    const s8_call *call = (const s8_call *)context;
    call->out[out_index] = call->op(call->a[a_index], call->b[b_index], call->params);
}

void helia_broadcast_s8(const int8_t *a,
                        const cmsis_nn_dims *a_dims,
                        const int8_t *b,
                        const cmsis_nn_dims *b_dims,
                        int8_t *out,
                        const cmsis_nn_dims *out_dims,
                        int8_t (*op)(int8_t a, int8_t b, const void *params),
                        const void *params)
{
    s8_call call = {a, b, out, op, params};
    helia_broadcast_walk(a_dims, b_dims, out_dims, visit_s8, &call);
}

/* ---- int16 ---------------------------------------------------------------------------------- */

int16_t helia_add_sub_s16(int16_t a, int16_t b, const helia_add_sub_quant *q, int subtract)
{
    const int32_t a_common = to_common_scale(a, 0, q->left_shift, q->input_1_mult, q->input_1_shift);
    const int32_t b_common = to_common_scale(b, 0, q->left_shift, q->input_2_mult, q->input_2_shift);
    const int32_t combined = subtract ? a_common - b_common : a_common + b_common;
    const int32_t result = helia_requantize(combined, q->out_mult, q->out_shift);
    return (int16_t)helia_clamp(result, q->out_activation_min, q->out_activation_max);
}

int16_t helia_mul_s16(int16_t a, int16_t b, const helia_mul_quant *q)
{
    /* |a * b| <= 2^30, so the raw product always fits. */
    const int32_t result = helia_requantize((int32_t)a * (int32_t)b, q->out_mult, q->out_shift);
    return (int16_t)helia_clamp(result, q->out_activation_min, q->out_activation_max);
}

typedef struct
{
    const int16_t *a;
    const int16_t *b;
    int16_t *out;
    helia_s16_op op;
    const void *quant;
} s16_call;

static void visit_s16(size_t out_index, size_t a_index, size_t b_index, void *context)
{
    const s16_call *call = (const s16_call *)context;
    const int16_t a = call->a[a_index];
    const int16_t b = call->b[b_index];
    if (call->op == HELIA_S16_MUL)
    {
        call->out[out_index] = helia_mul_s16(a, b, (const helia_mul_quant *)call->quant);
    }
    else
    {
        call->out[out_index] = helia_add_sub_s16(a, b, (const helia_add_sub_quant *)call->quant, call->op == HELIA_S16_SUB);
    }
}

void helia_broadcast_s16(const int16_t *a,
                         const cmsis_nn_dims *a_dims,
                         const int16_t *b,
                         const cmsis_nn_dims *b_dims,
                         int16_t *out,
                         const cmsis_nn_dims *out_dims,
                         helia_s16_op op,
                         const void *quant)
{
    s16_call call = {a, b, out, op, quant};
    helia_broadcast_walk(a_dims, b_dims, out_dims, visit_s16, &call);
}

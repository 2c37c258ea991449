/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_nn_lstm_step_f32, one time step of a float32 LSTM. */

#include "arm_nnfunctions.h"
#include "../support/flt_support.h"

#if ARM_NN_ENABLE_F32

/* 1 / (1 + exp(-x)) with ns-cmsis-nn's exp, whose argument is kept non-positive. */
static float32_t helia_lstm_sigmoid_f32(float32_t x)
{
    if (x >= 0.0f)
    {
        return 1.0f / (1.0f + helia_exp_f32(-x));
    }
    const float32_t e = helia_exp_f32(x);
    return e / (1.0f + e);
}

/* A dot product summed from zero, in index order. */
static float32_t helia_lstm_dot_f32(const float32_t *a, const float32_t *b, int32_t count)
{
    float32_t acc = 0.0f;
    for (int32_t i = 0; i < count; ++i)
    {
        acc += a[i] * b[i];
    }
    return acc;
}

/* Cell `cell` of one gate: activation(bias + W x + R h); a NULL part is left out. */
static float32_t helia_lstm_gate_f32(const cmsis_nn_lstm_gate_f32 *gate,
                                     const float32_t *x,
                                     const float32_t *h,
                                     int32_t input_size,
                                     int32_t hidden_size,
                                     int32_t cell)
{
    float32_t acc = gate->bias != NULL ? gate->bias[cell] : 0.0f;
    if (gate->input_weights != NULL)
    {
        acc += helia_lstm_dot_f32(x, gate->input_weights + cell * input_size, input_size);
    }
    if (h != NULL && gate->hidden_weights != NULL)
    {
        acc += helia_lstm_dot_f32(h, gate->hidden_weights + cell * hidden_size, hidden_size);
    }
    return gate->activation_type == ARM_NN_FLT_ACT_TANH ? helia_tanh_f32(acc) : helia_lstm_sigmoid_f32(acc);
}

/*
 * Per batch and cell: c = f * c + i * g (clipped when cell_clip > 0), h = o * tanh(c). tanh and exp
 * are ns-cmsis-nn's table approximations (see README), so this is its LSTM, not LiteRT's to the bit.
 * Input and hidden rows of consecutive batches lie batch_offset rows apart.
 */
arm_cmsis_nn_status arm_nn_lstm_step_f32(const float32_t *data_in,
                                         const float32_t *hidden_in,
                                         float32_t *hidden_out,
                                         const cmsis_nn_lstm_params_f32 *params,
                                         cmsis_nn_lstm_context_f32 *buffers,
                                         const int32_t batch_offset)
{
    if (data_in == NULL || hidden_out == NULL || params == NULL || buffers == NULL || buffers->cell_state == NULL ||
        batch_offset <= 0)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    const int32_t in_size = params->input_size;
    const int32_t hidden = params->hidden_size;
    const float32_t clip = params->cell_clip;
    for (int32_t b = 0; b < params->batch_size; ++b)
    {
        const float32_t *x = data_in + b * batch_offset * in_size;
        const float32_t *h = hidden_in != NULL ? hidden_in + b * batch_offset * hidden : NULL;
        float32_t *cell = buffers->cell_state + b * hidden;
        float32_t *out = hidden_out + b * batch_offset * hidden;
        for (int32_t k = 0; k < hidden; ++k)
        {
            const float32_t f = helia_lstm_gate_f32(&params->forget_gate, x, h, in_size, hidden, k);
            const float32_t i = helia_lstm_gate_f32(&params->input_gate, x, h, in_size, hidden, k);
            const float32_t g = helia_lstm_gate_f32(&params->cell_gate, x, h, in_size, hidden, k);
            const float32_t o = helia_lstm_gate_f32(&params->output_gate, x, h, in_size, hidden, k);
            float32_t c = f * cell[k] + i * g;
            if (clip > 0.0f)
            {
                c = c > clip ? clip : (c < -clip ? -clip : c);
            }
            cell[k] = c;
            out[k] = o * helia_tanh_f32(c);
        }
    }
    return ARM_CMSIS_NN_SUCCESS;
}

#endif /* ARM_NN_ENABLE_F32 */

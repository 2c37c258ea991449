/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_lstm_unidirectional_f32, a float32 LSTM over a whole sequence. */

#include <string.h>

#include "arm_nnfunctions.h"

#if ARM_NN_ENABLE_F32

/* Batch-major data, one batch at a time from its row of the carried state (see the s8 kernel). */
static arm_cmsis_nn_status helia_lstm_batch_major_f32(const float32_t *input,
                                                      float32_t *output,
                                                      const cmsis_nn_lstm_params_f32 *params,
                                                      const cmsis_nn_lstm_context_f32 *buffers)
{
    const int32_t steps = params->time_steps;
    const int32_t hidden = params->hidden_size;
    cmsis_nn_lstm_params_f32 one_batch = *params;
    one_batch.batch_size = 1;
    for (int32_t b = 0; b < params->batch_size; ++b)
    {
        cmsis_nn_lstm_context_f32 batch_buffers = *buffers;
        batch_buffers.cell_state = buffers->cell_state + b * hidden;
        const float32_t *hidden_in = buffers->hidden_state + b * hidden;
        for (int32_t t = 0; t < steps; ++t)
        {
            const int32_t row = b * steps + t;
            float32_t *hidden_out = output + row * hidden;
            const arm_cmsis_nn_status status = arm_nn_lstm_step_f32(input + row * params->input_size, hidden_in,
                                                                    hidden_out, &one_batch, &batch_buffers, 1);
            if (status != ARM_CMSIS_NN_SUCCESS)
            {
                return status;
            }
            hidden_in = hidden_out;
        }
        if (steps > 0)
        {
            memcpy(buffers->hidden_state + b * hidden, hidden_in, (size_t)hidden * sizeof(float32_t));
        }
    }
    return ARM_CMSIS_NN_SUCCESS;
}

/*
 * As arm_lstm_unidirectional_s8: with buffers->hidden_state the call continues the carried state
 * and writes the last hidden state back; without it both states start at zero. Stateless
 * batch-major data steps every batch at once (batch stride: time_steps rows).
 */
arm_cmsis_nn_status arm_lstm_unidirectional_f32(const float32_t *input,
                                                float32_t *output,
                                                const cmsis_nn_lstm_params_f32 *params,
                                                cmsis_nn_lstm_context_f32 *buffers)
{
    if (input == NULL || output == NULL || params == NULL || buffers == NULL || buffers->cell_state == NULL)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    const int32_t batches = params->batch_size;
    const int32_t steps = params->time_steps;
    const int32_t hidden = params->hidden_size;
    float32_t *state = buffers->hidden_state;
    if (state == NULL)
    {
        for (int32_t k = 0; k < batches * hidden; ++k)
        {
            buffers->cell_state[k] = 0.0f;
        }
    }
    if (!params->time_major && state != NULL)
    {
        return helia_lstm_batch_major_f32(input, output, params, buffers);
    }

    /* time-major: a step is batches consecutive rows; batch-major stateless: rows time_steps apart */
    const int32_t step_rows = params->time_major ? batches : 1;
    const int32_t batch_offset = params->time_major ? 1 : steps;
    const float32_t *hidden_in = state;
    for (int32_t t = 0; t < steps; ++t)
    {
        float32_t *hidden_out = output + t * step_rows * hidden;
        const arm_cmsis_nn_status status = arm_nn_lstm_step_f32(input + t * step_rows * params->input_size, hidden_in,
                                                                hidden_out, params, buffers, batch_offset);
        if (status != ARM_CMSIS_NN_SUCCESS)
        {
            return status;
        }
        hidden_in = hidden_out;
    }
    if (state != NULL && steps > 0)
    {
        memcpy(state, hidden_in, (size_t)(batches * hidden) * sizeof(float32_t));
    }
    return ARM_CMSIS_NN_SUCCESS;
}

#endif /* ARM_NN_ENABLE_F32 */

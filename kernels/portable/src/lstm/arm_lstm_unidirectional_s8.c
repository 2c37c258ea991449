/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_lstm_unidirectional_s8, an int8 LSTM over a whole sequence. */

#include <string.h>

#include "arm_nnfunctions.h"

/*
 * Each step's output is the next step's hidden input. With buffers->hidden_state the call continues
 * from the state a previous call left (hidden_state and cell_state), and writes the last hidden
 * state back; without it the sequence starts from zeros (no recurrent term, a cleared cell state).
 *
 * Time-major data steps all batches together. Batch-major data is run one batch at a time, so
 * that the step's input and hidden rows share one stride (the hidden state is [batch][hidden]).
 */
arm_cmsis_nn_status arm_lstm_unidirectional_s8(const int8_t *input,
                                               int8_t *output,
                                               const cmsis_nn_lstm_params *params,
                                               cmsis_nn_lstm_context *buffers)
{
    const int32_t batches = params->batch_size;
    const int32_t steps = params->time_steps;
    const int32_t in_size = params->input_size;
    const int32_t hidden = params->hidden_size;
    int8_t *state = (int8_t *)buffers->hidden_state;

    if (state == NULL)
    {
        memset(buffers->cell_state, 0, (size_t)(batches * hidden) * sizeof(int16_t));
    }

    if (params->time_major)
    {
        const int8_t *hidden_in = state;
        for (int32_t t = 0; t < steps; ++t)
        {
            int8_t *hidden_out = output + t * batches * hidden;
            const arm_cmsis_nn_status status =
                arm_nn_lstm_step_s8(input + t * batches * in_size, hidden_in, hidden_out, params, buffers, 1);
            if (status != ARM_CMSIS_NN_SUCCESS)
            {
                return status;
            }
            hidden_in = hidden_out;
        }
        if (state != NULL && steps > 0)
        {
            memcpy(state, hidden_in, (size_t)(batches * hidden));
        }
        return ARM_CMSIS_NN_SUCCESS;
    }

    cmsis_nn_lstm_params one_batch = *params;
    one_batch.batch_size = 1;
    for (int32_t b = 0; b < batches; ++b)
    {
        cmsis_nn_lstm_context batch_buffers = *buffers;
        batch_buffers.cell_state = (int16_t *)buffers->cell_state + b * hidden;
        const int8_t *hidden_in = state != NULL ? state + b * hidden : NULL;
        for (int32_t t = 0; t < steps; ++t)
        {
            const int32_t row = b * steps + t;
            int8_t *hidden_out = output + row * hidden;
            const arm_cmsis_nn_status status =
                arm_nn_lstm_step_s8(input + row * in_size, hidden_in, hidden_out, &one_batch, &batch_buffers, 1);
            if (status != ARM_CMSIS_NN_SUCCESS)
            {
                return status;
            }
            hidden_in = hidden_out;
        }
        if (state != NULL && steps > 0)
        {
            memcpy(state + b * hidden, hidden_in, (size_t)hidden);
        }
    }
    return ARM_CMSIS_NN_SUCCESS;
}

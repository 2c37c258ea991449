/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_nn_lstm_calculate_gate_s8_s16, one gate of an int8 LSTM step. */

#include <string.h>

#include "arm_nnfunctions.h"

/*
 * gate = activation(W x + R h) in Q0.15, for every batch. Both products are requantized to the
 * gate's Q3.12 separately and summed with saturation; without a hidden state (the first step of a
 * stateless call) the recurrent term is left out. The activation reads Q3.12 (left shift 0).
 */
arm_cmsis_nn_status arm_nn_lstm_calculate_gate_s8_s16(const int8_t *data_in,
                                                      const int8_t *hidden_in,
                                                      const cmsis_nn_lstm_gate *gate_data,
                                                      const cmsis_nn_lstm_params *params,
                                                      int16_t *output,
                                                      const int32_t batch_offset)
{
    const int32_t size = params->hidden_size * params->batch_size;
    memset(output, 0, (size_t)size * sizeof(int16_t));
    arm_nn_vec_mat_mul_result_acc_s8_s16(data_in, (const int8_t *)gate_data->input_weights,
                                         (const int32_t *)gate_data->input_effective_bias, output,
                                         gate_data->input_multiplier, gate_data->input_shift, params->input_size,
                                         params->hidden_size, params->batch_size, batch_offset);
    if (hidden_in != NULL)
    {
        arm_nn_vec_mat_mul_result_acc_s8_s16(hidden_in, (const int8_t *)gate_data->hidden_weights,
                                             (const int32_t *)gate_data->hidden_effective_bias, output,
                                             gate_data->hidden_multiplier, gate_data->hidden_shift,
                                             params->hidden_size, params->hidden_size, params->batch_size,
                                             batch_offset);
    }
    arm_nn_activation_s16(output, output, size, 0, gate_data->activation_type);
    return ARM_CMSIS_NN_SUCCESS;
}

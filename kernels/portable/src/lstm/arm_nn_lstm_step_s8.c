/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_nn_lstm_step_s8, one time step of an int8 LSTM (int16 cell state). */

#include "arm_nnfunctions.h"

/*
 * c = f * c + i * g (clipped), h = o * tanh(c), with f, i, o sigmoids and g a tanh of the gates.
 * Two int16 buffers suffice: temp1 holds f, then i, then o; temp2 holds g, then tanh(c). The order
 * of the calls follows from that reuse (f * c is folded into c before i is computed).
 */
arm_cmsis_nn_status arm_nn_lstm_step_s8(const int8_t *data_in,
                                        const int8_t *hidden_in,
                                        int8_t *hidden_out,
                                        const cmsis_nn_lstm_params *params,
                                        cmsis_nn_lstm_context *buffers,
                                        const int32_t batch_offset)
{
    int16_t *temp1 = (int16_t *)buffers->temp1;
    int16_t *temp2 = (int16_t *)buffers->temp2;
    int16_t *cell = (int16_t *)buffers->cell_state;
    const int32_t size = params->hidden_size * params->batch_size;

    /* c = f * c */
    arm_nn_lstm_calculate_gate_s8_s16(data_in, hidden_in, &params->forget_gate, params, temp1, batch_offset);
    arm_elementwise_mul_s16(temp1, cell, 0, 0, cell, 0, params->forget_to_cell_multiplier,
                            params->forget_to_cell_shift, INT16_MIN, INT16_MAX, size);

    /* c += i * g, clipped */
    arm_nn_lstm_calculate_gate_s8_s16(data_in, hidden_in, &params->input_gate, params, temp1, batch_offset);
    arm_nn_lstm_calculate_gate_s8_s16(data_in, hidden_in, &params->cell_gate, params, temp2, batch_offset);
    arm_elementwise_mul_acc_s16(temp1, temp2, 0, 0, cell, 0, params->input_to_cell_multiplier,
                                params->input_to_cell_shift, -params->cell_clip, params->cell_clip, size);

    /* h = o * tanh(c); the cell's scale 2^cell_scale_power is Q3.12 shifted by cell_scale_power + 12 */
    arm_nn_lstm_calculate_gate_s8_s16(data_in, hidden_in, &params->output_gate, params, temp1, batch_offset);
    arm_nn_activation_s16(cell, temp2, size, params->cell_scale_power + 12, ARM_TANH);
    arm_elementwise_mul_s16_s8(temp1, temp2, hidden_out, params->output_offset, params->output_multiplier,
                               params->output_shift, params->hidden_size, params->batch_size, batch_offset);
    return ARM_CMSIS_NN_SUCCESS;
}

/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: int16 FULLY_CONNECTED scratch sizers, as each ns-cmsis-nn build reports them. */

#include "arm_nnfunctions.h"

int32_t arm_fully_connected_s16_get_buffer_size(const cmsis_nn_dims *filter_dims)
{
    (void)filter_dims;
    return 0;
}

int32_t arm_fully_connected_s16_get_buffer_size_dsp(const cmsis_nn_dims *filter_dims)
{
    return arm_fully_connected_s16_get_buffer_size(filter_dims);
}

int32_t arm_fully_connected_s16_get_buffer_size_mve(const cmsis_nn_dims *filter_dims)
{
    return arm_fully_connected_s16_get_buffer_size(filter_dims);
}

/* Every build keeps one reduced int32 multiplier per output channel (filter_dims->c). */
int32_t arm_fully_connected_per_channel_s16_get_buffer_size(const cmsis_nn_dims *filter_dims)
{
    return filter_dims->c * (int32_t)sizeof(int32_t);
}

int32_t arm_fully_connected_per_channel_s16_get_buffer_size_dsp(const cmsis_nn_dims *filter_dims)
{
    return arm_fully_connected_per_channel_s16_get_buffer_size(filter_dims);
}

int32_t arm_fully_connected_per_channel_s16_get_buffer_size_mve(const cmsis_nn_dims *filter_dims)
{
    return arm_fully_connected_per_channel_s16_get_buffer_size(filter_dims);
}

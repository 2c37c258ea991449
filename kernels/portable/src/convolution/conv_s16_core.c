/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: bias and requantization rules shared by the int16 CONV_2D entries. */

#include "conv_s16_core.h"

#include "../support/fixed_point.h"

int64_t helia_conv_s16_bias(const cmsis_nn_bias_data *bias_data, int32_t oc)
{
    if (bias_data == NULL || bias_data->data == NULL)
    {
        return 0;
    }
    if (bias_data->is_int32_bias)
    {
        return ((const int32_t *)bias_data->data)[oc];
    }
    return ((const int64_t *)bias_data->data)[oc];
}

int32_t helia_conv_s16_requantize(int64_t acc, int int32_route, int32_t multiplier, int32_t shift)
{
    if (int32_route)
    {
        return helia_requantize(helia_wrap_s32(acc), multiplier, shift);
    }
    return helia_requantize_s64(acc, helia_reduce_multiplier(multiplier), shift);
}

int16_t helia_conv_s16_activate(int32_t value, const cmsis_nn_activation *activation)
{
    return (int16_t)helia_clamp(value, activation->min, activation->max);
}

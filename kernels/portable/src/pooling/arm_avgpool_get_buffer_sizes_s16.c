/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: int16 AVERAGE_POOL_2D scratch sizers, as each ns-cmsis-nn build reports them. */

#include "arm_nnfunctions.h"

int32_t arm_avgpool_s16_get_buffer_size(const int dim_dst_width, const int ch_src)
{
    (void)dim_dst_width;
    (void)ch_src;
    return 0;
}

/* The DSP build accumulates one int32 per channel. */
int32_t arm_avgpool_s16_get_buffer_size_dsp(const int dim_dst_width, const int ch_src)
{
    (void)dim_dst_width;
    return ch_src * (int32_t)sizeof(int32_t);
}

int32_t arm_avgpool_s16_get_buffer_size_mve(const int dim_dst_width, const int ch_src)
{
    (void)dim_dst_width;
    (void)ch_src;
    return 0;
}

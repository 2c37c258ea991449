/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_comparison_s16 and its six named forms (EQUAL ... LESS_EQUAL). */

#include "arm_nnfunctions.h"
#include "comparison_core.h"

/* ctx is not read (no scratch). See comparison_core.h for the arithmetic and the broadcasting. */
arm_cmsis_nn_status arm_comparison_s16(const cmsis_nn_context *ctx,
    const int16_t *input_1_data,
    const cmsis_nn_dims *input_1_dims,
    const int16_t *input_2_data,
    const cmsis_nn_dims *input_2_dims,
    bool *output_data,
    const cmsis_nn_dims *output_dims,
    const int32_t input_1_offset,
    const int32_t input_1_mult,
    const int32_t input_1_shift,
    const int32_t input_2_offset,
    const int32_t input_2_mult,
    const int32_t input_2_shift,
    const int32_t left_shift,
    arm_nn_compare_operation operation)
{
    const helia_compare_scaling scaling_1 = {input_1_offset, input_1_mult, input_1_shift};
    const helia_compare_scaling scaling_2 = {input_2_offset, input_2_mult, input_2_shift};
    (void)ctx;
    return helia_comparison(input_1_data, input_1_dims, &scaling_1, input_2_data, input_2_dims, &scaling_2, 16,
                            left_shift, operation, output_data, output_dims);
}

arm_cmsis_nn_status arm_equal_s16(const cmsis_nn_context *ctx,
    const int16_t *input_1_data,
    const cmsis_nn_dims *input_1_dims,
    const int16_t *input_2_data,
    const cmsis_nn_dims *input_2_dims,
    bool *output_data,
    const cmsis_nn_dims *output_dims,
    const int32_t input_1_offset,
    const int32_t input_1_mult,
    const int32_t input_1_shift,
    const int32_t input_2_offset,
    const int32_t input_2_mult,
    const int32_t input_2_shift,
    const int32_t left_shift)
{
    return arm_comparison_s16(ctx, input_1_data, input_1_dims, input_2_data, input_2_dims, output_data, output_dims,
        input_1_offset, input_1_mult, input_1_shift, input_2_offset, input_2_mult, input_2_shift, left_shift,
        ARM_COMPARE_EQUAL);
}

arm_cmsis_nn_status arm_not_equal_s16(const cmsis_nn_context *ctx,
    const int16_t *input_1_data,
    const cmsis_nn_dims *input_1_dims,
    const int16_t *input_2_data,
    const cmsis_nn_dims *input_2_dims,
    bool *output_data,
    const cmsis_nn_dims *output_dims,
    const int32_t input_1_offset,
    const int32_t input_1_mult,
    const int32_t input_1_shift,
    const int32_t input_2_offset,
    const int32_t input_2_mult,
    const int32_t input_2_shift,
    const int32_t left_shift)
{
    return arm_comparison_s16(ctx, input_1_data, input_1_dims, input_2_data, input_2_dims, output_data, output_dims,
        input_1_offset, input_1_mult, input_1_shift, input_2_offset, input_2_mult, input_2_shift, left_shift,
        ARM_COMPARE_NOT_EQUAL);
}

arm_cmsis_nn_status arm_greater_s16(const cmsis_nn_context *ctx,
    const int16_t *input_1_data,
    const cmsis_nn_dims *input_1_dims,
    const int16_t *input_2_data,
    const cmsis_nn_dims *input_2_dims,
    bool *output_data,
    const cmsis_nn_dims *output_dims,
    const int32_t input_1_offset,
    const int32_t input_1_mult,
    const int32_t input_1_shift,
    const int32_t input_2_offset,
    const int32_t input_2_mult,
    const int32_t input_2_shift,
    const int32_t left_shift)
{
    return arm_comparison_s16(ctx, input_1_data, input_1_dims, input_2_data, input_2_dims, output_data, output_dims,
        input_1_offset, input_1_mult, input_1_shift, input_2_offset, input_2_mult, input_2_shift, left_shift,
        ARM_COMPARE_GREATER);
}

arm_cmsis_nn_status arm_greater_equal_s16(const cmsis_nn_context *ctx,
    const int16_t *input_1_data,
    const cmsis_nn_dims *input_1_dims,
    const int16_t *input_2_data,
    const cmsis_nn_dims *input_2_dims,
    bool *output_data,
    const cmsis_nn_dims *output_dims,
    const int32_t input_1_offset,
    const int32_t input_1_mult,
    const int32_t input_1_shift,
    const int32_t input_2_offset,
    const int32_t input_2_mult,
    const int32_t input_2_shift,
    const int32_t left_shift)
{
    return arm_comparison_s16(ctx, input_1_data, input_1_dims, input_2_data, input_2_dims, output_data, output_dims,
        input_1_offset, input_1_mult, input_1_shift, input_2_offset, input_2_mult, input_2_shift, left_shift,
        ARM_COMPARE_GREATER_EQUAL);
}

arm_cmsis_nn_status arm_less_s16(const cmsis_nn_context *ctx,
    const int16_t *input_1_data,
    const cmsis_nn_dims *input_1_dims,
    const int16_t *input_2_data,
    const cmsis_nn_dims *input_2_dims,
    bool *output_data,
    const cmsis_nn_dims *output_dims,
    const int32_t input_1_offset,
    const int32_t input_1_mult,
    const int32_t input_1_shift,
    const int32_t input_2_offset,
    const int32_t input_2_mult,
    const int32_t input_2_shift,
    const int32_t left_shift)
{
    return arm_comparison_s16(ctx, input_1_data, input_1_dims, input_2_data, input_2_dims, output_data, output_dims,
        input_1_offset, input_1_mult, input_1_shift, input_2_offset, input_2_mult, input_2_shift, left_shift,
        ARM_COMPARE_LESS);
}

arm_cmsis_nn_status arm_less_equal_s16(const cmsis_nn_context *ctx,
    const int16_t *input_1_data,
    const cmsis_nn_dims *input_1_dims,
    const int16_t *input_2_data,
    const cmsis_nn_dims *input_2_dims,
    bool *output_data,
    const cmsis_nn_dims *output_dims,
    const int32_t input_1_offset,
    const int32_t input_1_mult,
    const int32_t input_1_shift,
    const int32_t input_2_offset,
    const int32_t input_2_mult,
    const int32_t input_2_shift,
    const int32_t left_shift)
{
    return arm_comparison_s16(ctx, input_1_data, input_1_dims, input_2_data, input_2_dims, output_data, output_dims,
        input_1_offset, input_1_mult, input_1_shift, input_2_offset, input_2_mult, input_2_shift, left_shift,
        ARM_COMPARE_LESS_EQUAL);
}

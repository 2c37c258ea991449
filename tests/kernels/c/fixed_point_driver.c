/* SPDX-License-Identifier: Apache-2.0 */
/* Test driver for the portable kernels' private fixed-point helpers: "<helper> <args...>" in, result out. */

#include <stdio.h>
#include <string.h>

#include "support/fixed_point.h"

#define DRIVER_NAME "fixed_point_driver"
#include "driver_io.h"

int main(void)
{
    char name[64];
    while (scanf("%63s", name) == 1)
    {
        long long result;
        if (strcmp(name, "requantize") == 0)
        {
            const int32_t x = read_int32();
            const int32_t m = read_int32();
            result = helia_requantize(x, m, read_int32());
        }
        else if (strcmp(name, "sat_rounding_doubling_high_mul") == 0)
        {
            const int32_t a = read_int32();
            result = helia_sat_rounding_doubling_high_mul(a, read_int32());
        }
        else if (strcmp(name, "rounding_doubling_high_mul") == 0)
        {
            const int32_t a = read_int32();
            result = helia_rounding_doubling_high_mul(a, read_int32());
        }
        else if (strcmp(name, "rounding_divide_by_pot") == 0)
        {
            const int32_t x = read_int32();
            result = helia_rounding_divide_by_pot(x, read_int32());
        }
        else if (strcmp(name, "saturating_mul_by_pot") == 0)
        {
            const int32_t x = read_int32();
            result = helia_saturating_mul_by_pot(x, read_int32());
        }
        else if (strcmp(name, "exp_on_negative_values") == 0)
        {
            result = helia_exp_on_negative_values(read_int32());
        }
        else if (strcmp(name, "one_over_one_plus_x") == 0)
        {
            result = helia_one_over_one_plus_x(read_int32());
        }
        else if (strcmp(name, "count_leading_zeros") == 0)
        {
            result = helia_count_leading_zeros((uint32_t)read_integer());
        }
        else if (strcmp(name, "sat_rounding_doubling_high_mul_s16") == 0)
        {
            const int16_t a = (int16_t)read_integer();
            result = helia_sat_rounding_doubling_high_mul_s16(a, (int16_t)read_integer());
        }
        else if (strcmp(name, "sat_truncating_doubling_high_mul_s16") == 0)
        {
            const int16_t a = (int16_t)read_integer();
            result = helia_sat_truncating_doubling_high_mul_s16(a, (int16_t)read_integer());
        }
        else if (strcmp(name, "saturating_shift_left_s16") == 0)
        {
            const int16_t x = (int16_t)read_integer();
            result = helia_saturating_shift_left_s16(x, read_int32());
        }
        else if (strcmp(name, "requantize_s64") == 0)
        {
            const int64_t x = (int64_t)read_integer();
            const int32_t m = read_int32();
            result = helia_requantize_s64(x, helia_reduce_multiplier(m), read_int32()); /* m: the Q31 multiplier */
        }
        else if (strcmp(name, "reduce_multiplier") == 0)
        {
            result = helia_reduce_multiplier(read_int32());
        }
        else if (strcmp(name, "wrap_s32") == 0)
        {
            result = helia_wrap_s32((int64_t)read_integer());
        }
        else if (strcmp(name, "add_wrapping") == 0)
        {
            const int32_t a = read_int32();
            result = helia_add_wrapping(a, read_int32());
        }
        else if (strcmp(name, "mul_wrapping") == 0)
        {
            const int32_t a = read_int32();
            result = helia_mul_wrapping(a, read_int32());
        }
        else if (strcmp(name, "wrap_s16") == 0)
        {
            result = helia_wrap_s16(read_int32());
        }
        else
        {
            fprintf(stderr, "fixed_point_driver: unknown helper %s\n", name);
            return 2;
        }
        printf("%lld\n", result);
    }
    return 0;
}

/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot Helium kernels: the 2 x 2 matrix-product tile shared by the convolutions (two rows of
 * input values by two filter rows, VMLADAVA over sixteen bytes per step) and the accumulators'
 * starting value. */

#ifndef HELIA_HELIUM_MVE_TILE_H
#define HELIA_HELIUM_MVE_TILE_H

#include <arm_mve.h>
#include <stddef.h>

#include "mve_requantize.h"

/* bias + input_offset * sum(filter row), the accumulator's starting value. */
HELIA_MVE_INLINE int32_t helia_mve_row_start(const int8_t *filter_row, int32_t depth, const int32_t *bias,
                                             int32_t channel, int32_t input_offset)
{
    int32_t sum = 0;
    for (int32_t k = 0; k < depth; k += 16)
    {
        const mve_pred16_t lanes = vctp8q((uint32_t)(depth - k));
        sum = vaddvaq_p_s8(sum, vldrbq_z_s8(filter_row + k, lanes), lanes);
    }
    return (bias != NULL ? bias[channel] : 0) + input_offset * sum;
}

/* Sums of a 2 x 2 tile: pixels x0, x1 by filter rows w0, w1 over `depth` channels, on top of the
 * starting values; returned as one vector (x0 w0, x0 w1, x1 w0, x1 w1). */
HELIA_MVE_INLINE int32x4_t helia_mve_tile_2x2(const int8_t *x0, const int8_t *x1, const int8_t *w0,
                                              const int8_t *w1, int32_t depth, int32_t start_0, int32_t start_1)
{
    int32_t acc_00 = start_0;
    int32_t acc_01 = start_1;
    int32_t acc_10 = start_0;
    int32_t acc_11 = start_1;
    int32x4_t sums;
    /* Tail-predicated loop over the depth, sixteen channels per step; inactive lanes load zeros and
     * add nothing. */
    __asm volatile("   wlstp.8         lr, %[count], 1f         \n"
                   "2:                                          \n"
                   "   vldrb.8         q0, [%[w0]], #16         \n"
                   "   vldrb.8         q1, [%[x0]], #16         \n"
                   "   vmladava.s8     %[acc_00], q0, q1        \n"
                   "   vldrb.8         q2, [%[x1]], #16         \n"
                   "   vmladava.s8     %[acc_10], q0, q2        \n"
                   "   vldrb.8         q0, [%[w1]], #16         \n"
                   "   vmladava.s8     %[acc_01], q0, q1        \n"
                   "   vmladava.s8     %[acc_11], q0, q2        \n"
                   "   letp            lr, 2b                   \n"
                   "1:                                          \n"
                   "   vmov            %q[sums][2], %q[sums][0], %[acc_00], %[acc_10] \n"
                   "   vmov            %q[sums][3], %q[sums][1], %[acc_01], %[acc_11] \n"
                   : [w0] "+r"(w0), [w1] "+r"(w1), [x0] "+r"(x0), [x1] "+r"(x1), [acc_00] "+Te"(acc_00),
                     [acc_01] "+Te"(acc_01), [acc_10] "+Te"(acc_10), [acc_11] "+Te"(acc_11), [sums] "=w"(sums)
                   : [count] "r"(depth)
                   : "q0", "q1", "q2", "memory", "r14");
    return sums;
}

#endif /* HELIA_HELIUM_MVE_TILE_H */

/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: private batch walk of arm_batch_matmul_s8 / _s16 (broadcast over n and h). */

#include "batch_matmul_walk.h"

/* An operand's step along a batch axis: 0 when it is broadcast (size 1 against a larger output). */
static int32_t helia_bmm_step(int32_t size, int32_t out_size, int32_t stride)
{
    return (size == 1 && out_size != 1) ? 0 : stride;
}

arm_cmsis_nn_status helia_bmm_make_walk(const cmsis_nn_dims *lhs,
                                        const cmsis_nn_dims *rhs,
                                        const cmsis_nn_dims *out,
                                        helia_bmm_walk *walk)
{
    if (lhs == NULL || rhs == NULL || out == NULL || lhs->c != rhs->c || out->w != lhs->w || out->c != rhs->w)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    const int32_t ok_n = (lhs->n == out->n || lhs->n == 1) && (rhs->n == out->n || rhs->n == 1);
    const int32_t ok_h = (lhs->h == out->h || lhs->h == 1) && (rhs->h == out->h || rhs->h == 1);
    if (!ok_n || !ok_h)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    const int32_t lhs_matrix = lhs->w * lhs->c;
    const int32_t rhs_matrix = rhs->w * rhs->c;
    walk->lhs_h_step = helia_bmm_step(lhs->h, out->h, lhs_matrix);
    walk->lhs_n_step = helia_bmm_step(lhs->n, out->n, lhs_matrix * lhs->h);
    walk->rhs_h_step = helia_bmm_step(rhs->h, out->h, rhs_matrix);
    walk->rhs_n_step = helia_bmm_step(rhs->n, out->n, rhs_matrix * rhs->h);
    return ARM_CMSIS_NN_SUCCESS;
}

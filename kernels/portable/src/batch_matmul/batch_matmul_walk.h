/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: private batch walk of arm_batch_matmul_s8 / _s16 (broadcast over n and h). */

#ifndef HELIA_PORTABLE_BATCH_MATMUL_WALK_H
#define HELIA_PORTABLE_BATCH_MATMUL_WALK_H

#include "arm_nnfunctions.h"

/*
 * Where output matrix (n, h) finds its operands: element offsets of the LHS matrix (w x c) and the
 * transposed RHS matrix (w x c) in their tensors. A batch axis of size 1 in one operand is broadcast
 * against the other's. ARM_CMSIS_NN_ARG_ERROR when inner dimensions, rows or batch axes do not agree.
 */
typedef struct
{
    int32_t lhs_n_step;
    int32_t lhs_h_step;
    int32_t rhs_n_step;
    int32_t rhs_h_step;
} helia_bmm_walk;

arm_cmsis_nn_status helia_bmm_make_walk(const cmsis_nn_dims *lhs,
                                        const cmsis_nn_dims *rhs,
                                        const cmsis_nn_dims *out,
                                        helia_bmm_walk *walk);

#endif /* HELIA_PORTABLE_BATCH_MATMUL_WALK_H */

/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_transpose_f16, TRANSPOSE of float16 tensors with 1 to 4 dimensions. */

#include "arm_nnfunctions.h"

#if ARM_NN_ENABLE_F16

typedef float16_t flt_t;
typedef cmsis_nn_transpose_params_f16 flt_transpose_params_t;
#define ARM_TRANSPOSE_FLT arm_transpose_f16
#include "arm_transpose_flt_body.h"

#endif /* ARM_NN_ENABLE_F16 */

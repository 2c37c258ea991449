/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: basic integer types and Q-format limits used by the ns-cmsis-nn API. */

#ifndef ARM_NN_MATH_TYPES_H
#define ARM_NN_MATH_TYPES_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "Internal/arm_nn_config.h"

#if ARM_NN_FLOAT_API_ENABLED
    #include "arm_nn_math_types_flt.h"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Largest and smallest values of the q31 / q15 / q7 fixed-point formats. */
#define NN_Q31_MAX ((int32_t)(0x7FFFFFFFL))
#define NN_Q15_MAX ((int16_t)(0x7FFF))
#define NN_Q7_MAX ((int8_t)(0x7F))
#define NN_Q31_MIN ((int32_t)(0x80000000L))
#define NN_Q15_MIN ((int16_t)(0x8000))
#define NN_Q7_MIN ((int8_t)(0x80))

#ifdef __cplusplus
}
#endif

#endif /* ARM_NN_MATH_TYPES_H */

/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: the float32_t / float16_t types and finite limits of the ns-cmsis-nn float API. */

#ifndef ARM_NN_MATH_TYPES_FLT_H
#define ARM_NN_MATH_TYPES_FLT_H

#ifndef ARM_NN_MATH_TYPES_H
    #include "arm_nn_math_types.h"
#endif

/* On Helium cores with float support, float16_t (and float32_t) come from the compiler's arm_mve.h,
 * exactly as ns-cmsis-nn gets them, so a module sees one type whichever library it links. */
#if ARM_NN_FLOAT_API_ENABLED && defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 2)
    #include <arm_mve.h>
#endif

#if ARM_NN_FLOAT_API_ENABLED
/** 32-bit IEEE float. */
typedef float float32_t;

/** Largest finite float32 (and its negation, the lowest). */
    #define ARM_NN_F32_FINITE_MAX ((float32_t)__FLT_MAX__)
    #define ARM_NN_F32_FINITE_LOWEST (-ARM_NN_F32_FINITE_MAX)
#endif

#if ARM_NN_ENABLE_F16
    /* float16_t is IEEE binary16: Arm's __fp16 where the compiler has it, else C's _Float16 (e.g. GCC on
     * x86-64, where arithmetic on it is carried out in float and rounded back at each assignment or cast). */
    #if !defined(ARM_FLOAT16_SUPPORTED)
        #if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 2)
            #define ARM_FLOAT16_SUPPORTED
        #elif defined(__ARM_FP16_FORMAT_IEEE) || defined(__ARM_FP16_FORMAT_ALTERNATIVE) || defined(__FLT16_MAX__)
            #define ARM_FLOAT16_SUPPORTED
        #endif
    #endif

    #if !defined(ARM_FLOAT16_SUPPORTED)
        #error "ARM_NN_ENABLE_F16 requires toolchain support for float16_t"
    #endif

    #if !(defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 2))
        #if defined(__ARM_FP16_FORMAT_IEEE) || defined(__ARM_FP16_FORMAT_ALTERNATIVE)
typedef __fp16 float16_t;
        #elif defined(__FLT16_MAX__)
typedef _Float16 float16_t;
        #else
            #error "ARM_NN_ENABLE_F16 requires toolchain support for float16_t"
        #endif
    #endif

    /* Largest finite float16 (65504) and the lowest, -65504. */
    #if defined(__FLT16_MAX__)
        #define ARM_NN_F16_FINITE_MAX ((float16_t)__FLT16_MAX__)
    #else
        #define ARM_NN_F16_FINITE_MAX ((float16_t)65504.0f)
    #endif
    #define ARM_NN_F16_FINITE_LOWEST ((float16_t)-ARM_NN_F16_FINITE_MAX)
#endif

#endif /* ARM_NN_MATH_TYPES_FLT_H */

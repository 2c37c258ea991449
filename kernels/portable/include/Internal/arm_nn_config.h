/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: the build switches of the ns-cmsis-nn v7.29.2 API (float support). */

#ifndef ARM_NN_CONFIG_H
#define ARM_NN_CONFIG_H

/*
 * The float32 and float16 entry points exist only when the build enables them, as in ns-cmsis-nn:
 * define ARM_NN_ENABLE_F32=1 and/or ARM_NN_ENABLE_F16=1 for the library and for the code calling
 * it. Both default to 0, so an integer-only module sees no float declarations at all.
 */
#ifndef ARM_NN_ENABLE_F32
    #define ARM_NN_ENABLE_F32 0
#endif

#ifndef ARM_NN_ENABLE_F16
    #define ARM_NN_ENABLE_F16 0
#endif

#define ARM_NN_FLOAT_API_ENABLED (ARM_NN_ENABLE_F32 || ARM_NN_ENABLE_F16)

/* ns-cmsis-nn's two exp() approximations for softmax and sigmoid; the LUT one is the default. */
#if defined(ARM_NN_USE_EXP_LUT) && defined(ARM_NN_USE_EXP_TAYLOR)
    #error "ARM_NN_USE_EXP_LUT and ARM_NN_USE_EXP_TAYLOR are mutually exclusive"
#endif

#endif /* ARM_NN_CONFIG_H */

/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: private lookup tables of the float exp() and tanh() approximations. */

#ifndef HELIA_PORTABLE_FLT_TABLES_H
#define HELIA_PORTABLE_FLT_TABLES_H

#include "arm_nnfunctions.h"

#define HELIA_FLT_TABLE_ENTRIES (257)

#if ARM_NN_ENABLE_F32
extern const float32_t helia_exp2_table_f32[HELIA_FLT_TABLE_ENTRIES];
extern const float32_t helia_tanh_table_f32[HELIA_FLT_TABLE_ENTRIES];
#endif

#if ARM_NN_ENABLE_F16
extern const uint16_t helia_exp2_table_f16[HELIA_FLT_TABLE_ENTRIES];
#endif

#endif /* HELIA_PORTABLE_FLT_TABLES_H */

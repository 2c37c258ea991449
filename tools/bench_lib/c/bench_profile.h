/* SPDX-License-Identifier: Apache-2.0 */
/* Per-operator and per-kernel-call timing for the benchmark firmware. Force-included (-include)
 * into the module when HELIA_BENCH_PROFILE is defined, it fills the module's HELIA_OP_BEGIN/END
 * hooks; the kernel calls are timed by linker-wrapped entry points (bench_wraps.c). Without
 * HELIA_BENCH_PROFILE everything here is empty, so the plain firmware times only model_run. */
#ifndef HELIA_BENCH_PROFILE_H_
#define HELIA_BENCH_PROFILE_H_

#include <stdint.h>

#ifdef HELIA_BENCH_PROFILE
void helia_bench_op_begin(int32_t index);
void helia_bench_op_end(int32_t index);
void helia_bench_kernel_enter(void);
void helia_bench_kernel_leave(void);
void helia_bench_profile_reset(void);
void helia_bench_profile_settle(void);
void helia_bench_profile_print(void);
#define HELIA_OP_BEGIN(index) helia_bench_op_begin(index)
#define HELIA_OP_END(index) helia_bench_op_end(index)
/* The timing inside makes this model_run longer than a plain one: its report says so. */
#define HELIA_BENCH_RUN_NAME "model_run with its kernel calls timed"
#else
#define HELIA_BENCH_RUN_NAME "model_run"
#define helia_bench_profile_reset() ((void)0)
#define helia_bench_profile_settle() ((void)0)
#define helia_bench_profile_print() ((void)0)
#endif

#endif /* HELIA_BENCH_PROFILE_H_ */

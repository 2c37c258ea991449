/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: TensorFlow Lite Micro's Signal operators (the audio front end). */

/*
 * ns-cmsis-nn has no kernels for TFLM's Signal custom operators (SignalWindow, SignalRfft,
 * SignalFilterBank, ...), so these are helia-aot's own API, named helia_signal_<operator>_<types>.
 * Each computes exactly what TFLM's reference kernel (signal/src, signal/micro/kernels) computes,
 * bit for bit: integer arithmetic only, no libm, no dynamic memory. Parameters TFLM reads from the
 * operator's FlexBuffer options are plain arguments here; the compiler passes them as constants.
 * A kernel returns 0 on success and -1 when an argument is out of its documented range (as
 * arm_cmsis_nn_status: ARM_CMSIS_NN_SUCCESS / ARM_CMSIS_NN_ARG_ERROR).
 * See kernels/portable/README.md ("TFLM Signal kernels") for the conventions.
 */

#ifndef HELIA_SIGNAL_H
#define HELIA_SIGNAL_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Each helper appends its operators' declarations below in one block with a header comment. */

#ifdef __cplusplus
}
#endif

#endif /* HELIA_SIGNAL_H */

/* SPDX-License-Identifier: Apache-2.0 */
/* Self-test: MVE (Helium) integer and floating-point intrinsics execute and give the right results. */
#include <arm_mve.h>
#include <stdio.h>

int main(void) {
  const int8_t a_values[16] = {1, -2, 3, -4, 5, -6, 7, -8, 9, -10, 11, -12, 13, -14, 15, -16};
  const int8_t b_values[16] = {2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5};
  int8x16_t a = vld1q_s8(a_values);
  int8x16_t b = vld1q_s8(b_values);
  /* Multiply-accumulate across lanes: sum(a[i] * b[i]) by hand: each group of four lanes gives -4, -6, -8, -10: -28. */
  int32_t dot = vmladavq_s8(a, b);
  int32_t expected_dot = 0;
  for (int i = 0; i < 16; ++i) {
    expected_dot += a_values[i] * b_values[i];
  }
  /* Saturating add on int8 lanes: 100 + 100 saturates to 127. */
  int8x16_t saturated = vqaddq_s8(vdupq_n_s8(100), vdupq_n_s8(100));
  /* Floating point lanes (MVE-F): 1.5 * 4.0 = 6.0. */
  float32x4_t product = vmulq_f32(vdupq_n_f32(1.5f), vdupq_n_f32(4.0f));

  int failures = 0;
  if (dot != -28 || dot != expected_dot) {
    printf("FAIL: vmladavq_s8 gave %ld, expected -28\n", (long)dot);
    ++failures;
  }
  if (vgetq_lane_s8(saturated, 7) != 127) {
    printf("FAIL: vqaddq_s8 gave %d, expected 127\n", vgetq_lane_s8(saturated, 7));
    ++failures;
  }
  if (vgetq_lane_f32(product, 3) != 6.0f) {
    printf("FAIL: vmulq_f32 lane 3 is not 6.0\n");
    ++failures;
  }
  printf("mve self-test: %d failure(s)\n", failures);
  return failures == 0 ? 0 : 1;
}

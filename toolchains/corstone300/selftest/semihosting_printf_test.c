/* SPDX-License-Identifier: Apache-2.0 */
/* Self-test: printf over semihosting reaches the test log (the test rule looks for this line). */
#include <stdio.h>

int main(void) {
  printf("helia semihosting: hello from %s, %d + %d = %d\n", "cortex-m55", 40, 2, 40 + 2);
  return 0;
}

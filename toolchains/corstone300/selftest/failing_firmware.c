/* SPDX-License-Identifier: Apache-2.0 */
/* Self-test: a firmware that fails with exit code 3. Its test expects exactly that code, which
 * proves a non-zero exit reaches Bazel as a failure rather than being swallowed. */
#include <stdio.h>

int main(void) {
  printf("failing on purpose with exit code 3\n");
  return 3;
}

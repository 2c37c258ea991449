/* SPDX-License-Identifier: Apache-2.0 */
/* Minimal firmware for code-size measurement: uses the module's whole C API once, so the linker
 * keeps exactly what an application calling the module would keep. Never run. */

#include <stdint.h>

#include "net_model.h"

static net_model_context_t ctx;

int main(void) {
  if (net_model_init(&ctx) != 0) {
    return 1;
  }
  volatile uint8_t *input = (volatile uint8_t *)net_model_input(&ctx, 0);
  input[0] = (uint8_t)net_model_input_bytes(0);
  if (net_model_run(&ctx) != 0) {
    return 2;
  }
  return ((volatile uint8_t *)net_model_output(&ctx, 0))[0] + net_model_output_bytes(0);
}

# SPDX-License-Identifier: Apache-2.0
"""The e2e harness itself: a hand-written stand-in module with the generated C API runs clean, and
the same module with an out-of-bounds read, a signed overflow or the wrong output size is caught.
This is what makes "zero ASan/UBSan reports" a measurement rather than an assumption."""

from __future__ import annotations

import pathlib

import numpy as np
import pytest

from tests.e2e import harness
from tests.modelgen import ModelBuilder

_HEADER = """/* SPDX-License-Identifier: Apache-2.0 */
/* Stand-in for a generated module: the e2e C API around a copy of 4 int8 values. */
#include <stdint.h>
#define E2E_NUM_INPUTS (1)
#define E2E_NUM_OUTPUTS (1)
typedef struct { int32_t ready; } e2e_model_context_t;
int32_t e2e_model_init(e2e_model_context_t *ctx);
int32_t e2e_model_run(e2e_model_context_t *ctx);
void *e2e_model_input(e2e_model_context_t *ctx, int32_t i);
void *e2e_model_output(e2e_model_context_t *ctx, int32_t i);
int32_t e2e_model_input_bytes(int32_t i);
int32_t e2e_model_output_bytes(int32_t i);
"""

_SOURCE = """/* SPDX-License-Identifier: Apache-2.0 */
/* Stand-in module body; FAULT selects a deliberate defect. */
#include <limits.h>
#include <stddef.h>
#include "e2e_model.h"
static int8_t in_buf[4];
static int8_t out_buf[4];
int32_t e2e_model_init(e2e_model_context_t *ctx) { ctx->ready = 1; return 0; }
int32_t e2e_model_run(e2e_model_context_t *ctx) {
  if (!ctx->ready) { return 2; }
  for (int32_t k = 0; k < 4; ++k) {
#if FAULT == 1
    int8_t *volatile source = in_buf;            /* opaque pointer: UBSan cannot size it, ASan sees */
    out_buf[k] = source[k + 1];                  /* in_buf[4]: global buffer overflow */
#elif FAULT == 2
    volatile int32_t base = INT_MAX;             /* volatile: no folding at compile time */
    int32_t big = base + 1 + (in_buf[k] & 1);    /* always overflows */
    out_buf[k] = (int8_t)(big & 0x7f);
#else
    out_buf[k] = in_buf[k];
#endif
  }
  return 0;
}
void *e2e_model_input(e2e_model_context_t *ctx, int32_t i) { return ctx && i == 0 ? in_buf : NULL; }
void *e2e_model_output(e2e_model_context_t *ctx, int32_t i) { return ctx && i == 0 ? out_buf : NULL; }
int32_t e2e_model_input_bytes(int32_t i) { return i == 0 ? 4 : -1; }
int32_t e2e_model_output_bytes(int32_t i) { return i == 0 ? OUTPUT_BYTES : -1; }
"""


def _identity_model() -> harness.ModelUnderTest:
    builder = ModelBuilder(description="e2e harness self-check")
    x = builder.input("x", (1, 4), scale=0.1, zero_point=0)
    y = builder.tensor("y", (1, 4), scale=0.1, zero_point=0)
    builder.op("RESHAPE", [x, builder.const("shape", np.array([1, 4], dtype=np.int32))], [y],
               options={"new_shape": [1, 4]})
    builder.output(y)
    return harness.ModelUnderTest(name="selfcheck", kind="case", model_bytes=builder.build(),
                                  seed=7, tolerance=0)


def _stand_in(tmp: pathlib.Path, fault: int, output_bytes: int = 4) -> pathlib.Path:
    module = tmp / f"module_{fault}_{output_bytes}"
    (module / "include").mkdir(parents=True)
    (module / "src").mkdir()
    (module / "include" / "e2e_model.h").write_text(_HEADER)
    (module / "src" / "model.c").write_text(
        f"#define FAULT {fault}\n#define OUTPUT_BYTES {output_bytes}\n" + _SOURCE)
    return module


@pytest.fixture(scope="module")
def model():
    return _identity_model()


def _build_and_run(e2e, tmp_path, model, fault, output_bytes=4):
    exe = harness.build_host_executable(_stand_in(tmp_path, fault, output_bytes),
                                        e2e.portable_host_library(), tmp_path / "harness")
    return harness.run_host_executable(exe, model)


def test_clean_stand_in_reproduces_litert(e2e, tmp_path, model):
    outputs = _build_and_run(e2e, tmp_path, model, fault=0)
    assert len(outputs) == harness.NUM_SAMPLES
    assert harness.per_output_max_diff(outputs, model.reference) == [0.0]


def test_out_of_bounds_read_is_a_failure(e2e, tmp_path, model):
    with pytest.raises(harness.SanitizerError, match="global-buffer-overflow"):
        _build_and_run(e2e, tmp_path, model, fault=1)


def test_signed_overflow_is_a_failure(e2e, tmp_path, model):
    with pytest.raises(harness.SanitizerError, match="signed integer overflow"):
        _build_and_run(e2e, tmp_path, model, fault=2)


def test_output_size_mismatch_is_a_failure(e2e, tmp_path, model):
    with pytest.raises(harness.E2EError, match=r"module I/O sizes .* differ from the model's"):
        _build_and_run(e2e, tmp_path, model, fault=0, output_bytes=3)


def test_missing_arm_tools_give_a_skip_reason(monkeypatch):
    monkeypatch.setattr(harness.shutil, "which",
                        lambda tool: None if tool == harness.ARM_CC else f"/usr/bin/{tool}")
    reason = harness.arm_tools()
    assert isinstance(reason, str) and "arm-none-eabi-gcc not on PATH" in reason


def test_ns_cmsis_nn_dir_without_headers_is_an_error(monkeypatch, tmp_path):
    monkeypatch.setenv(harness.NS_CMSIS_NN_ENV, str(tmp_path))
    with pytest.raises(harness.E2EError, match="has no Include/arm_nnfunctions.h"):
        harness.ns_cmsis_nn_dir()


def test_reset_check_catches_a_first_output_that_does_not_repeat():
    first = [np.array([1, 2, 3], np.int8)]
    harness.check_reset_repeats("m", first, [first[0].copy()])
    with pytest.raises(harness.E2EError, match="output 0 of the first sample does not repeat"):
        harness.check_reset_repeats("m", first, [np.array([1, 2, 4], np.int8)])

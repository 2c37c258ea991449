# SPDX-License-Identifier: Apache-2.0
"""The generated module's C API as firmware calls it: status codes for a NULL context, a run before
init and a bad caller-owned arena, and a caller-owned arena (`module.arena: caller`) that runs and
matches LiteRT. Built with the host gcc against the portable kernels, under ASan/UBSan."""

from __future__ import annotations

import subprocess

import numpy as np
import pytest

import helia_aot
from tests.e2e import harness
from tests.modelgen.cases import CASES_DIR
from tests.sanitizers import SANITIZERS

from .helpers import portable_kernels_dir, require_gcc

CASE = CASES_DIR / "conv_2d_3x3_stride2_same.yaml"

_MAIN = r"""
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "api_model.h"

#define CHECK(expr) do { if (!(expr)) { fprintf(stderr, "failed: %s\n", #expr); return 1; } } while (0)

static uint8_t storage[API_ARENA_BYTES + 2 * API_ARENA_ALIGNMENT];

int main(void)
{
    api_model_context_t ctx;
    uint8_t *aligned = storage + (API_ARENA_ALIGNMENT - ((uintptr_t)storage % API_ARENA_ALIGNMENT)) % API_ARENA_ALIGNMENT;

    CHECK(api_model_init(NULL) == API_STATUS_NULL_CONTEXT);
    CHECK(api_model_run(NULL) == API_STATUS_NULL_CONTEXT);
    CHECK(api_model_bind_arena(NULL, aligned, API_ARENA_BYTES) == API_STATUS_NULL_CONTEXT);
    memset(&ctx, 0, sizeof(ctx));
    CHECK(api_model_run(&ctx) == API_STATUS_NOT_INITIALIZED);
    CHECK(api_model_input(&ctx, 0) == NULL);
    CHECK(api_model_init(&ctx) == API_STATUS_BAD_ARENA);          /* no arena bound */
    CHECK(api_model_run(&ctx) == API_STATUS_NOT_INITIALIZED);     /* a failed init leaves it unusable */
    CHECK(api_model_bind_arena(&ctx, NULL, API_ARENA_BYTES) == API_STATUS_BAD_ARENA);
    CHECK(api_model_bind_arena(&ctx, aligned, API_ARENA_BYTES - 1) == API_STATUS_BAD_ARENA);
#if API_ARENA_ALIGNMENT > 1
    CHECK(api_model_bind_arena(&ctx, aligned + 1, API_ARENA_BYTES) == API_STATUS_BAD_ARENA);
#endif
    CHECK(api_model_init(&ctx) == API_STATUS_BAD_ARENA);
    CHECK(api_model_bind_arena(&ctx, aligned, API_ARENA_BYTES) == API_STATUS_OK);
    CHECK(api_model_init(&ctx) == API_STATUS_OK);
    CHECK(api_model_input(&ctx, 1) == NULL && api_model_input_bytes(1) == -1);

    for (;;)
    {
        int32_t in_bytes = api_model_input_bytes(0);
        if (fread(api_model_input(&ctx, 0), 1, (size_t)in_bytes, stdin) != (size_t)in_bytes)
        {
            break;
        }
        CHECK(api_model_run(&ctx) == API_STATUS_OK);
        CHECK(ctx.failed_operator == -1);
        fwrite(api_model_output(&ctx, 0), 1, (size_t)api_model_output_bytes(0), stdout);
    }
    return 0;
}
"""


@pytest.fixture(scope="module")
def api_program(tmp_path_factory):
    gcc = require_gcc()
    kernels = portable_kernels_dir()
    work = tmp_path_factory.mktemp("api")
    model = harness.case_model(CASE)
    out = work / "module"
    helia_aot.convert(model.model_bytes, out, target="host", prefix="api", kernel_library="portable",
                      config={"module": {"arena": "caller"}})
    (work / "main.c").write_text(_MAIN)
    sources = [str(p) for p in sorted(out.glob("src/*.c"))] + [str(work / "main.c")]
    sources += [str(p) for p in sorted((kernels / "src").rglob("*.c"))]
    exe = work / "api"
    proc = subprocess.run([gcc, "-std=c99", "-O1", "-g", "-Wall", "-Wextra", "-Werror", *SANITIZERS,
                           *sources, "-I", str(out / "include"),
                           "-I", str(kernels / "include"), "-I", str(kernels / "src"), "-o", str(exe), "-lm"],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-4000:]
    return exe, model


def test_status_codes_and_caller_arena_match_litert(api_program):
    exe, model = api_program
    stdin = b"".join(np.ascontiguousarray(sample[0]).tobytes() for sample in model.samples)
    proc = subprocess.run([str(exe)], input=stdin, capture_output=True, timeout=120)
    assert proc.returncode == 0, proc.stderr.decode(errors="replace")
    info = model.output_infos[0]
    got = np.frombuffer(proc.stdout, dtype=info.dtype).reshape(len(model.samples), *info.shape)
    want = np.stack([ref[0] for ref in model.reference])
    assert got.shape == want.shape
    assert harness.max_abs_diff(got, want) <= model.tolerance

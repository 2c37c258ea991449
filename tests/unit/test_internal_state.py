# SPDX-License-Identifier: Apache-2.0
"""Internal operator state (Lowered.state): bytes an operator keeps across runs that are no model tensor
(TFLM kernels' persistent buffers), placed in the persistent arena after the variable tensors, recorded
in the plan, zeroed by <prefix>_model_init and <prefix>_model_reset."""

from __future__ import annotations

import subprocess

import jinja2
import pytest

import helia_aot
from helia_aot.emit import c_syntax as codegen
from helia_aot import ops
from helia_aot.ops import base
from helia_aot.ops.base import Lowered, OpLowering, Operand, StateBuffer, Variant
from helia_aot.record.plan_model import plan_schema
from helia_aot.record.schema import validate
from tests.modelgen import ModelBuilder
from tests.sanitizers import SANITIZERS

from .helpers import REPO, compile_c, require_gcc

FLAGS = ["-std=c99", "-Wall", "-Wextra", "-Werror", *SANITIZERS, "-O1", "-g"]
FAKE_OP = "CUMSUM"  # a builtin no module lowers; the tests lend it a stateful module of their own
N = 6
TEMPLATE = """\
    int32_t *acc = {{ state("acc", "int32_t") }};
    const int32_t *x = {{ tensor(p.input) }};
    int32_t *y = {{ tensor(p.output) }};
    for (int32_t i = 0; i < {{ p.n }}; ++i)
    {
        acc[i] = (int32_t)((uint32_t)acc[i] + (uint32_t)x[i]);
        y[i] = acc[i];
    }
    return ARM_CMSIS_NN_SUCCESS;
"""


class RunningSum(OpLowering):
    """Test operator: output = the sum of every input since the last reset, the sum kept as internal
    state (no tensor holds it)."""

    op_types = (FAKE_OP,)
    options_table = "CumsumOptions"
    variants = (Variant("int32", (Operand("input", ("int32",)),), (Operand("output", ("int32",)),),
                        template="test_running_sum.c.j2"),)

    def lower(self, ctx):
        x, y = ctx.inp(0), ctx.out()
        return Lowered(params=dict(input=x.index, output=y.index, n=x.nbytes // 4),
                       state=[StateBuffer("acc", x.nbytes, "the running sum")])


@pytest.fixture
def running_sum(monkeypatch):
    ops.load_all()
    monkeypatch.setitem(base._REGISTRY, FAKE_OP, RunningSum())
    loader = jinja2.ChoiceLoader([jinja2.DictLoader({"test_running_sum.c.j2": TEMPLATE}), codegen._ENV.loader])
    monkeypatch.setattr(codegen._ENV, "loader", loader)


def model(count: int = 1) -> bytes:
    b = ModelBuilder()
    x = b.input("x", [1, N], "int32")
    for k in range(count):
        y = b.tensor(f"y{k}", [1, N], "int32")
        b.op(FAKE_OP, [x], [y], version=1)
        b.output(y)
    return b.build()


def test_plan_records_internal_state_after_each_other(tmp_path, running_sum):
    result = helia_aot.convert(model(2), tmp_path / "m", target="corstone300", prefix="m")
    memory = result.plan["memory"]
    assert validate(result.plan, plan_schema()) == []
    alignment = memory["arena_alignment"]
    ids = [op["id"] for op in result.plan["operators"]]
    stride = (N * 4 + alignment - 1) // alignment * alignment
    assert memory["persistent_buffers"] == [
        {"name": f"{ids[0]}/acc", "tensor": "", "offset": 0, "bytes": N * 4, "initial": "zero"},
        {"name": f"{ids[1]}/acc", "tensor": "", "offset": stride, "bytes": N * 4, "initial": "zero"}]
    assert memory["persistent_bytes"] == 2 * stride
    source = (tmp_path / "m" / "src" / "m_model.c").read_text()
    assert "(int32_t *)(persistent + 0)" in source and f"(int32_t *)(persistent + {stride})" in source
    assert f"operator state {ids[1]}/acc: zero" in source
    assert f"memset(ctx->persistent + {stride}, 0, {N * 4});" in source


DRIVER = r"""
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "m_model.h"

int main(void) {
  static m_model_context_t ctx;
  int failed = 0;
  if (m_model_init(&ctx) != 0) return 10;
  for (int round = 0; round < 2; ++round) {
    for (int32_t s = 1; s <= 4; ++s) {
      int32_t *x = (int32_t *)m_model_input(&ctx, 0);
      for (int i = 0; i < %(n)d; ++i) x[i] = s * (i + 1);
      if (m_model_run(&ctx) != 0) return 11;
      const int32_t *y = (const int32_t *)m_model_output(&ctx, 0);
      for (int i = 0; i < %(n)d; ++i) failed |= y[i] != s * (s + 1) / 2 * (i + 1);
    }
    if (m_model_reset(&ctx) != 0) return 12;  /* the next round starts from zero again */
  }
  printf(failed ? "FAIL\n" : "PASS\n");
  return failed;
}
"""


def test_internal_state_survives_runs_and_resets(tmp_path, running_sum):
    gcc = require_gcc()
    out = tmp_path / "m"
    helia_aot.convert(model(), out, target="host", kernel_library="portable", prefix="m")
    driver = tmp_path / "driver.c"
    driver.write_text(DRIVER % {"n": N})
    exe = tmp_path / "driver"
    cmd = [gcc, *FLAGS, "-I", str(out / "include"), "-I", str(REPO / "kernels" / "portable" / "include"),
           *map(str, sorted((out / "src").glob("*.c"))), str(driver), "-o", str(exe)]
    proc = compile_c(cmd)
    assert proc.returncode == 0, proc.stderr
    run = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0 and run.stdout.strip().endswith("PASS"), run.stdout + run.stderr

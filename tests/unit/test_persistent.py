# SPDX-License-Identifier: Apache-2.0
"""The persistent arena: variable tensors (operator state) placed apart from the scratch arena,
kept across <prefix>_model_run calls and restored by <prefix>_model_reset; stateless modules
unchanged."""

from __future__ import annotations

import subprocess

import numpy as np
import pytest

import helia_aot
from helia_aot import ops
from helia_aot.errors import InvalidConfigError, UnsupportedModelError
from helia_aot.ops import base
from helia_aot.ops.base import Lowered, OpLowering, Operand, Variant, q
from helia_aot.record.plan_model import plan_schema, report_schema
from helia_aot.record.schema import validate
from tests.modelgen import ModelBuilder
from tests.sanitizers import SANITIZERS

from .helpers import REPO, compile_c, require_gcc

FLAGS = ["-std=c99", "-Wall", "-Wextra", "-Werror", *SANITIZERS, "-O1", "-g"]
# A builtin no operator module lowers; the tests lend it a stateful module of their own.
FAKE_OP = "CUMSUM"


class DelayLine(OpLowering):
    """Test operator keeping state: output = the state, then state = input (a one-step delay), so
    run k returns the input of run k - 1 and the first run after a reset the state's reset value."""

    op_types = (FAKE_OP,)
    options_table = "CumsumOptions"
    keeps_state = True
    variants = (Variant("int8", (q("input", "int8"), Operand("state", ("int8", "int16", "float32"))),
                        (Operand("output", ("int8", "int16", "float32")),), template="copy_bytes.c.j2"),)

    def lower(self, ctx):
        x, state, out = ctx.inp(0), ctx.inp(1), ctx.out()
        return Lowered(params={"copies": [dict(dst=out.index, src=state.index, bytes=out.nbytes),
                                          dict(dst=state.index, src=x.index, bytes=x.nbytes)]})


@pytest.fixture
def delay_op(monkeypatch):
    ops.load_all()
    monkeypatch.setitem(base._REGISTRY, FAKE_OP, DelayLine())


N = 8
STATE_ZP = 5


def delay_model(state_dtype: str = "int8", second_state: bool = False) -> bytes:
    b = ModelBuilder()
    x = b.input("x", [1, N], "int8", 0.5, STATE_ZP)
    kw = dict(scale=0.5, zero_point=STATE_ZP) if state_dtype == "int8" else {}
    state = b.tensor("state", [1, N], state_dtype, variable=True, **kw)
    y = b.tensor("y", [1, N], state_dtype, **kw)
    b.op(FAKE_OP, [x, state], [y], version=1)
    b.output(y)
    if second_state:
        s2 = b.tensor("state2", [1, N], "int16", variable=True)
        y2 = b.tensor("y2", [1, N], "int16")
        b.op(FAKE_OP, [x, s2], [y2], version=1)
        b.output(y2)
    return b.build()


def test_plan_and_report_list_the_persistent_arena(tmp_path, delay_op):
    result = helia_aot.convert(delay_model(second_state=True), tmp_path / "m", target="corstone300")
    plan, report = result.plan, result.report
    assert validate(plan, plan_schema()) == []
    assert validate(report, report_schema()) == []
    memory = plan["memory"]
    alignment = memory["arena_alignment"]
    assert memory["persistent_memory"] == memory["scratch_memory"]
    assert [(b["tensor"], b["offset"], b["bytes"], b["initial"]) for b in memory["persistent_buffers"]] == [
        ("state", 0, N, "zero_point"), ("state2", alignment, 2 * N, "zero")]
    assert memory["persistent_bytes"] == alignment + ((2 * N + alignment - 1) // alignment) * alignment
    # State never shares the scratch arena.
    scratch_tensors = {t for b in memory["buffers"] for t in b["tensors"]}
    assert not scratch_tensors & {"state", "state2"}
    persistent = [a for a in report["arenas"] if a["kind"] == "persistent"]
    assert persistent == [{"memory": memory["persistent_memory"], "kind": "persistent",
                           "bytes": memory["persistent_bytes"]}]


def test_persistent_memory_is_configurable_and_checked(tmp_path, delay_op):
    result = helia_aot.convert(delay_model(), tmp_path / "m", target="corstone300",
                               config={"memory": {"persistent_memory": "sram"}})
    assert result.plan["memory"]["persistent_memory"] == "SRAM"
    assert [a["memory"] for a in result.report["arenas"] if a["kind"] == "persistent"] == ["SRAM"]
    with pytest.raises(InvalidConfigError, match="persistent_memory 'SRAMX' is not a memory"):
        helia_aot.convert(delay_model(), tmp_path / "x", target="corstone300",
                          config={"memory": {"persistent_memory": "SRAMX"}})
    with pytest.raises(InvalidConfigError, match="persistent_memory .* is read-only"):
        helia_aot.convert(delay_model(), tmp_path / "x", target="apollo510_evb",
                          config={"memory": {"persistent_memory": "MRAM"}})


DRIVER = r"""
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "m_model.h"

static int check(const int8_t *got, const int8_t *want, const char *what) {
  if (memcmp(got, want, %(n)d) != 0) {
    printf("FAIL %%s:", what);
    for (int i = 0; i < %(n)d; ++i) printf(" %%d/%%d", got[i], want[i]);
    printf("\n");
    return 1;
  }
  return 0;
}

int main(void) {
  static m_model_context_t ctx;
  int8_t zp[%(n)d], in[3][%(n)d];
  int failed = 0;
  memset(&ctx, 0, sizeof ctx);
  memset(zp, %(zp)d, sizeof zp);
  for (int s = 0; s < 3; ++s)
    for (int i = 0; i < %(n)d; ++i) in[s][i] = (int8_t)(s * 16 + i - 20);
#ifdef CALLER
  static uint64_t arena[(M_ARENA_BYTES + 7) / 8 + 1], state[(M_PERSISTENT_BYTES + 7) / 8 + 1];
  if (m_model_init(&ctx) != M_STATUS_BAD_ARENA) return 10;
  if (m_model_bind_arena(&ctx, arena, M_ARENA_BYTES) != 0) return 11;
  if (m_model_init(&ctx) != M_STATUS_BAD_ARENA) return 12; /* no persistent memory yet */
  if (m_model_bind_persistent(&ctx, (uint8_t *)state + 1, M_PERSISTENT_BYTES) != M_STATUS_BAD_ARENA) return 13;
  if (m_model_bind_persistent(&ctx, state, M_PERSISTENT_BYTES - 1) != M_STATUS_BAD_ARENA) return 14;
  if (m_model_bind_persistent(&ctx, state, M_PERSISTENT_BYTES) != 0) return 15;
  memset(state, 0x7f, sizeof state); /* init must reset it */
#endif
  if (m_model_reset(NULL) != M_STATUS_NULL_CONTEXT) return 20;
  if (m_model_reset(&ctx) != M_STATUS_NOT_INITIALIZED) return 21;
  if (m_model_init(&ctx) != 0) return 22;
  for (int round = 0; round < 2; ++round) {
    for (int s = 0; s < 3; ++s) {
      memcpy(m_model_input(&ctx, 0), in[s], %(n)d);
      if (m_model_run(&ctx) != 0) return 23;
      failed |= check((const int8_t *)m_model_output(&ctx, 0), s == 0 ? zp : in[s - 1], "sequence");
    }
    /* a second sequence after a reset starts over exactly */
    if (m_model_reset(&ctx) != 0) return 24;
  }
  /* init also resets: the state left by a run is gone */
  memcpy(m_model_input(&ctx, 0), in[2], %(n)d);
  if (m_model_run(&ctx) != 0) return 25;
  if (m_model_init(&ctx) != 0) return 26;
  if (m_model_run(&ctx) != 0) return 27;
  failed |= check((const int8_t *)m_model_output(&ctx, 0), zp, "after init");
  printf(failed ? "FAIL\n" : "PASS\n");
  return failed;
}
"""


@pytest.mark.parametrize("arena", ["static", "caller"])
def test_state_survives_runs_and_reset_restores_it(tmp_path, delay_op, arena):
    gcc = require_gcc()
    out = tmp_path / "m"
    helia_aot.convert(delay_model(), out, target="host", kernel_library="portable", prefix="m",
                      config={"module": {"arena": arena}})
    header = (out / "include" / "m_model.h").read_text()
    assert "m_model_reset" in header and "M_PERSISTENT_BYTES" in header
    driver = tmp_path / "driver.c"
    driver.write_text(DRIVER % {"n": N, "zp": STATE_ZP})
    exe = tmp_path / "driver"
    cmd = [gcc, *FLAGS, *(["-DCALLER"] if arena == "caller" else []), "-I", str(out / "include"),
           "-I", str(REPO / "kernels" / "portable" / "include"), *map(str, sorted((out / "src").glob("*.c"))),
           str(driver), "-o", str(exe)]
    proc = compile_c(cmd)
    assert proc.returncode == 0, proc.stderr
    run = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0 and run.stdout.strip().endswith("PASS"), run.stdout + run.stderr


def test_stateless_module_has_no_persistent_api(tmp_path):
    b = ModelBuilder()
    x = b.input("x", [1, N], "int8", 0.5, 0)
    y = b.tensor("y", [1, N], "int8", 0.5, 0)
    b.op("RELU", [x], [y])
    b.output(y)
    result = helia_aot.convert(b.build(), tmp_path / "m", target="corstone300", prefix="m")
    header = (tmp_path / "m" / "include" / "m_model.h").read_text()
    source = (tmp_path / "m" / "src" / "m_model.c").read_text()
    for text in (header, source):
        assert "persistent" not in text and "reset" not in text
    assert result.plan["memory"]["persistent_bytes"] == 0 and result.plan["memory"]["persistent_buffers"] == []
    assert [a["bytes"] for a in result.report["arenas"] if a["kind"] == "persistent"] == [0]


def test_variable_read_by_a_stateless_operator_is_refused(tmp_path):
    b = ModelBuilder()
    x = b.input("x", [1, N], "int8", 0.5, 0)
    state = b.tensor("state", [1, N], "int8", 0.5, 0, variable=True)
    y = b.tensor("y", [1, N], "int8", 0.5, 0)
    b.op("ADD", [x, state], [y])
    b.output(y)
    with pytest.raises(UnsupportedModelError, match="reads variable tensor 'state'.*only operators that keep state"):
        helia_aot.convert(b.build(), tmp_path / "m")


def test_variable_graph_input_is_refused(tmp_path, delay_op):
    b = ModelBuilder()
    x = b.input("x", [1, N], "int8", 0.5, 0)
    b._tensors[x.index].isVariable = True
    y = b.tensor("y", [1, N], "int8", 0.5, 0)
    b.op("RELU", [x], [y])
    b.output(y)
    with pytest.raises(UnsupportedModelError, match="variable tensor .* graph input or output"):
        helia_aot.convert(b.build(), tmp_path / "m")


def test_int8_state_resets_to_its_zero_point_like_litert():
    """LiteRT's reset value, checked on LiteRT itself: an int8 variable tensor reads as its zero point
    before the first invoke."""
    from tests.modelgen.litert import make_interpreter
    b = ModelBuilder()
    x = b.input("x", [1, N], "int8", 0.5, STATE_ZP)
    state = b.tensor("state", [1, N], "int8", 0.5, STATE_ZP, variable=True)
    y = b.tensor("y", [1, N], "int8", 0.5, STATE_ZP)
    b.op("ADD", [x, state], [y])
    b.output(y)
    interp = make_interpreter(b.build())
    interp.reset_all_variables()
    detail = [d for d in interp.get_tensor_details() if d["name"] == "state"][0]
    assert np.all(interp.get_tensor(detail["index"]) == STATE_ZP)

# SPDX-License-Identifier: Apache-2.0
"""Golden tests over sequences (test.iterations): each sample is a sequence of invocations of one
LiteRT interpreter, the C harness resets a stateful module before each sequence, compares every
invocation, and checks that after a reset the first invocation repeats exactly."""

from __future__ import annotations

import numpy as np
import pytest

import helia_aot
from helia_aot.errors import InvalidConfigError
from tests.modelgen import ModelBuilder, stateful
from tests.sanitizers import SANITIZERS

from .helpers import REPO, compile_c, require_gcc

SANITIZE = SANITIZERS


def _run_harness(tmp_path, out, caller: bool = False, kernel_dirs=("elementwise", "support")) -> str:
    gcc = require_gcc()
    kernels = REPO / "kernels" / "portable"
    sources = [str(p) for p in sorted(out.glob("src/*.c")) + sorted(out.glob("test/*.c"))]
    sources += [str(p) for d in kernel_dirs for p in sorted((kernels / "src" / d).rglob("*.c"))]
    exe = tmp_path / "run"
    flags = ["-std=c99", "-Wall", "-Wextra", "-Werror", "-O1", *SANITIZE, "-DARM_NN_ENABLE_F32=1"]
    if caller:
        flags.append("-DM_TEST_CALLER_ARENA")
    proc = compile_c(["gcc", *flags, *sources, "-I", str(out / "include"), "-I", str(kernels / "include"),
                      "-I", str(kernels / "src"), "-o", str(exe), "-lm"])
    assert proc.returncode == 0, proc.stderr[-3000:]
    run = compile_c([str(exe)])
    assert run.returncode == 0, run.stdout + run.stderr
    return run.stdout


@pytest.mark.parametrize("dtype", ["int8", "float32"])
@pytest.mark.parametrize("arena", ["static", "caller"])
def test_stateful_golden_test_runs_sequences_and_checks_the_reset(tmp_path, dtype, arena):
    out = tmp_path / "m"
    helia_aot.convert(stateful.accumulator(dtype), out, prefix="m", target="host", kernel_library="portable",
                      with_test_data=True, num_test_samples=3, iterations=4, config={"module": {"arena": arena}})
    stdout = _run_harness(tmp_path, out, caller=arena == "caller")
    lines = stdout.splitlines()
    assert "sequences: 3 samples of 4 invocations each" in lines
    assert "reset: the first invocation repeats exactly" in lines
    assert lines[-1].startswith("PASS: 3 samples")


def test_golden_sequences_restart_from_the_initial_state(tmp_path):
    """Within a sample the accumulator sums its inputs; every sample starts again from the value
    CALL_ONCE assigns (0.5), as a new interpreter does."""
    out = tmp_path / "m"
    helia_aot.convert(stateful.accumulator("float32", initial=0.5), out, with_test_data=True, num_test_samples=3,
                      iterations=5)
    golden = np.load(out / "test" / "golden.npz")
    x = golden["input_0"].astype(np.float64).reshape(3, 5, -1)
    y = golden["output_0"].astype(np.float64).reshape(3, 5, -1)
    np.testing.assert_allclose(y, 0.5 + np.cumsum(x, axis=1), rtol=0, atol=1e-5)


def test_stateless_golden_harness_unchanged_by_default(tmp_path):
    b = ModelBuilder()
    x = b.input("x", [1, 4], "int8", 0.5, 0)
    y = b.tensor("y", [1, 4], "int8", 0.5, 0)
    b.op("RELU", [x], [y])
    b.output(y)
    out = tmp_path / "m"
    helia_aot.convert(b.build(), out, prefix="m", with_test_data=True)
    main = (out / "test" / "m_test_main.c").read_text()
    assert "ITERATIONS" not in main and "reset" not in main
    helia_aot.convert(b.build(), out, prefix="m", with_test_data=True, iterations=3, num_test_samples=2)
    main = (out / "test" / "m_test_main.c").read_text()
    assert "#define ITERATIONS (3)" in main and "_model_reset" not in main
    assert np.load(out / "test" / "golden.npz")["input_0"].shape == (6, 1, 4)


def test_iterations_is_range_checked(tmp_path):
    with pytest.raises(InvalidConfigError, match="test.iterations must be between 1 and 10000"):
        helia_aot.convert(stateful.accumulator("float32"), tmp_path / "m", config={"test": {"iterations": 0}})


@pytest.mark.parametrize("case", ["svdf_rank2_batch2", "svdf_float32_rank2_batch2_no_bias"])
def test_svdf_golden_test_over_sequences(tmp_path, case):
    """SVDF against LiteRT's golden sequences (5 samples of 6 invocations), reset between them."""
    from tests.modelgen.cases import CASES_DIR, build_case_model, load_case
    out = tmp_path / "m"
    model = build_case_model(load_case(CASES_DIR / f"{case}.yaml"))
    helia_aot.convert(model, out, prefix="m", target="host", kernel_library="portable", with_test_data=True,
                      num_test_samples=5, iterations=6)
    lines = _run_harness(tmp_path, out, kernel_dirs=("svdf", "support")).splitlines()
    assert "sequences: 5 samples of 6 invocations each" in lines
    assert "reset: the first invocation repeats exactly" in lines
    assert lines[-1].startswith("PASS: 5 samples")

# SPDX-License-Identifier: Apache-2.0
"""MLPerf Tiny modules converted for corstone300, cross-compiled for the Cortex-M55 and run on QEMU
mps3-an547: outputs bit-identical to the host run with the same (portable) kernels, and one
model_run's instruction count. With HELIA_NS_CMSIS_NN_DIR set, the same firmware built against
ns-cmsis-nn for the Cortex-M55 (MVE): integer models bit-identical to the host run (the MVE kernels
compute the plain-C integer arithmetic), float models within the MLPerf bound of LiteRT with the same
arg-max (Helium sums in another order, so the last bits move)."""

from __future__ import annotations

import pytest

from tests.e2e import harness
from tests.e2e.conftest import mlperf_model_or_skip

MODELS = list(harness.MLPERF_MODELS)


def _differences_text(differences: dict[int, str]) -> str:
    return "; ".join(f"output {o}: {d}" for o, d in differences.items())


@pytest.mark.parametrize("name", MODELS)
def test_corstone300_portable_matches_host(e2e, arm_tools, name, record_property):
    cc, ar, qemu = arm_tools
    model = mlperf_model_or_skip(e2e, name)
    host = e2e.host_outputs(model, e2e.portable_host_library())
    run = e2e.qemu_run(model, e2e.portable_arm_library(cc, ar), cc, qemu)
    differences = harness.bit_differences(run.outputs, host)
    print(f"\n{name}: corstone300 (QEMU, portable kernels) vs host over {len(model.samples)} "
          f"inputs: {'bit-identical' if not differences else _differences_text(differences)}; "
          f"one model_run = {run.instructions} instructions")
    record_property("instructions", run.instructions)
    e2e.record("corstone300 QEMU, portable kernels", name, bit_identical_to_host=not differences,
               instructions=run.instructions, differences=_differences_text(differences))
    assert run.instructions > 0, f"{name}: the instruction counter read zero"
    assert not differences, (f"{name}: Cortex-M55 outputs differ from the host run: "
                             f"{_differences_text(differences)}")


@pytest.mark.parametrize("name", MODELS)
def test_corstone300_ns_cmsis_nn_mve(e2e, arm_tools, ns_cmsis_nn_root, name,
                                            record_property):
    cc, ar, qemu = arm_tools
    model = mlperf_model_or_skip(e2e, name)
    host = e2e.host_outputs(model, e2e.portable_host_library())
    run = e2e.qemu_run(model, e2e.ns_cmsis_nn_arm_library(ns_cmsis_nn_root, cc, ar), cc, qemu)
    differences = harness.bit_differences(run.outputs, host)
    print(f"\n{name}: corstone300 (QEMU, ns-cmsis-nn MVE) vs host over {len(model.samples)} "
          f"inputs: {'bit-identical' if not differences else _differences_text(differences)}; "
          f"one model_run = {run.instructions} instructions")
    record_property("instructions", run.instructions)
    e2e.record("corstone300 QEMU, ns-cmsis-nn MVE (reported)", name,
               bit_identical_to_host=not differences, instructions=run.instructions,
               differences=_differences_text(differences))
    assert run.instructions > 0, f"{name}: the instruction counter read zero"
    if all(info.dtype.kind in "iu" for info in model.output_infos):
        assert not differences, (f"{name}: MVE outputs differ from the host run: "
                                 f"{_differences_text(differences)}")
        return
    diffs = harness.per_output_max_diff(run.outputs, model.reference)
    bounds = model.bounds()
    assert all(d <= b for d, b in zip(diffs, bounds)), f"{name}: MVE outputs {diffs} vs LiteRT, bounds {bounds}"
    if model.classifier:
        disagreeing = harness.argmax_agreement(run.outputs, model.reference)
        assert not disagreeing, f"{name}: MVE arg-max differs from LiteRT's on samples {disagreeing}"

# SPDX-License-Identifier: Apache-2.0
"""MLPerf Tiny and TFLM example modules converted for corstone300, cross-compiled for the Cortex-M55 and
run on QEMU mps3-an547: outputs bit-identical to the host run with the same (portable) kernels, and
one model_run's instruction count; models whose bar is TFLM bit for bit (tflm.BIT_IDENTICAL_MODELS)
also bit-identical to TFLM on QEMU. With HELIA_NS_CMSIS_NN_DIR set, the same firmware built against
ns-cmsis-nn for the Cortex-M55 (MVE): integer models bit-identical to the host run (the MVE kernels
compute the plain-C integer arithmetic) and, where that is the bar, to TFLM; float models within the
MLPerf bound of LiteRT with the same arg-max (Helium sums in another order, so the last bits move)."""

from __future__ import annotations

import pytest

from tests.e2e import harness, tflm
from tests.e2e.tflm import shared_model_or_skip

MODELS = [*harness.MLPERF_MODELS, *tflm.TFLM_MODELS]


def _differences_text(differences: dict[int, str]) -> str:
    return "; ".join(f"output {o}: {d}" for o, d in differences.items())


@pytest.mark.parametrize("name", MODELS)
def test_corstone300_portable_matches_host(e2e, arm_tools, name, record_property):
    cc, ar, qemu = arm_tools
    model = shared_model_or_skip(e2e, name)
    host = e2e.host_outputs(model, e2e.portable_host_library())
    run = e2e.qemu_run(model, e2e.portable_arm_library(cc, ar), cc, qemu)
    differences = harness.bit_differences(run.outputs, host)
    against_tflm = _against_tflm(model, run)
    print(f"\n{name}: corstone300 (QEMU, portable kernels) vs host over {len(model.samples)} "
          f"inputs: {'bit-identical' if not differences else _differences_text(differences)}; "
          f"one model_run = {run.instructions} instructions"
          + (f"; vs TFLM: {_differences_text(against_tflm) or 'bit-identical'}" if against_tflm is not None else ""))
    record_property("instructions", run.instructions)
    e2e.record("corstone300 QEMU, portable kernels", name, bit_identical_to_host=not differences,
               instructions=run.instructions, differences=_differences_text(differences),
               **({} if against_tflm is None else {"bit_identical_to_tflm": not against_tflm}))
    assert run.instructions > 0, f"{name}: the instruction counter read zero"
    assert not differences, (f"{name}: Cortex-M55 outputs differ from the host run: "
                             f"{_differences_text(differences)}")
    assert not against_tflm, f"{name}: Cortex-M55 outputs differ from TFLM's: {_differences_text(against_tflm)}"


def _against_tflm(model: harness.ModelUnderTest, run: harness.QemuRun) -> dict[int, str] | None:
    """Per output, how the QEMU run differs from TFLM (models held to TFLM bit for bit; else None)."""
    if model.name not in tflm.BIT_IDENTICAL_MODELS:
        return None
    return harness.bit_differences(run.outputs, model.tflm_reference)


@pytest.mark.parametrize("name", MODELS)
def test_corstone300_ns_cmsis_nn_mve(e2e, arm_tools, ns_cmsis_nn_root, name,
                                            record_property):
    cc, ar, qemu = arm_tools
    model = shared_model_or_skip(e2e, name)
    host = e2e.host_outputs(model, e2e.portable_host_library())
    run = e2e.qemu_run(model, e2e.ns_cmsis_nn_arm_library(ns_cmsis_nn_root, cc, ar), cc, qemu)
    differences = harness.bit_differences(run.outputs, host)
    print(f"\n{name}: corstone300 (QEMU, ns-cmsis-nn MVE) vs host over {len(model.samples)} "
          f"inputs: {'bit-identical' if not differences else _differences_text(differences)}; "
          f"one model_run = {run.instructions} instructions")
    record_property("instructions", run.instructions)
    against_tflm = _against_tflm(model, run)
    e2e.record("corstone300 QEMU, ns-cmsis-nn MVE (reported)", name,
               bit_identical_to_host=not differences, instructions=run.instructions,
               differences=_differences_text(differences),
               **({} if against_tflm is None else {"bit_identical_to_tflm": not against_tflm}))
    assert run.instructions > 0, f"{name}: the instruction counter read zero"
    if all(info.dtype.kind in "iu" for info in model.output_infos):
        assert not differences, (f"{name}: MVE outputs differ from the host run: "
                                 f"{_differences_text(differences)}")
        assert not against_tflm, f"{name}: MVE outputs differ from TFLM's: {_differences_text(against_tflm)}"
        return
    diffs = harness.per_output_max_diff(run.outputs, model.reference)
    bounds = model.bounds()
    assert all(d <= b for d, b in zip(diffs, bounds)), f"{name}: MVE outputs {diffs} vs LiteRT, bounds {bounds}"
    if model.classifier:
        disagreeing = harness.argmax_agreement(run.outputs, model.reference)
        assert not disagreeing, f"{name}: MVE arg-max differs from LiteRT's on samples {disagreeing}"

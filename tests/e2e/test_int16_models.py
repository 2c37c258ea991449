# SPDX-License-Identifier: Apache-2.0
"""Multi-layer int16 (A16W8) networks as audio encoder-decoders build them (tests/modelgen/int16_models.py):
on the host with the portable kernels under ASan/UBSan against LiteRT's reference kernels; for corstone300
on QEMU mps3-an547, bit-identical to the host run; with ns-cmsis-nn configured, bit-identical to it."""

from __future__ import annotations

import pytest

from tests.e2e import harness
from tests.modelgen import int16_models

NAMES = list(int16_models.NAMES)


def test_three_networks_at_least():
    assert len(NAMES) >= 3


@pytest.mark.parametrize("name", NAMES)
def test_int16_network_matches_litert(e2e, name, record_property):
    model = e2e.int16(name)
    outputs = e2e.host_outputs(model, e2e.portable_host_library())
    diffs = harness.per_output_max_diff(outputs, model.reference)
    fields = {"max_abs_diff": diffs, "samples": len(model.samples)}
    message = f"\n{model.name}: max |diff| per output vs LiteRT over {len(model.samples)} inputs: {diffs}"
    first = None
    if max(diffs) > 1:
        per_op = harness.operator_diffs(e2e, model, e2e.portable_host_library())
        first = harness.first_divergence(per_op)
        fields["first_divergence"] = str(first)
        message += "; operators differing from LiteRT: " + ", ".join(str(d) for d in per_op if d.max_abs_diff)
    print(message)
    record_property("max_abs_diff", diffs)
    e2e.record("int16 networks vs LiteRT", model.name, **fields)
    if max(diffs) <= 1:
        return
    assert first is not None and first.op_type == "FULLY_CONNECTED" and first.max_abs_diff <= 1, (
        f"{model.name}: max |diff| {diffs} exceeds one code and does not start at the known one-code "
        f"FULLY_CONNECTED difference (first divergence: {first})")
    assert max(diffs) <= model.tolerance, f"{model.name}: max |diff| {diffs} exceeds {model.tolerance} codes"


@pytest.mark.parametrize("name", NAMES)
def test_int16_network_on_corstone300_matches_host(e2e, arm_tools, name, record_property):
    cc, ar, qemu = arm_tools
    model = e2e.int16(name)
    host = e2e.host_outputs(model, e2e.portable_host_library())
    run = e2e.qemu_run(model, e2e.portable_arm_library(cc, ar), cc, qemu)
    differences = harness.bit_differences(run.outputs, host)
    print(f"\n{model.name}: corstone300 (QEMU, portable kernels) vs host: "
          f"{'bit-identical' if not differences else differences}; one model_run = {run.instructions} instructions")
    record_property("instructions", run.instructions)
    e2e.record("corstone300 QEMU, portable kernels", model.name, bit_identical_to_host=not differences,
               instructions=run.instructions)
    assert run.instructions > 0
    assert not differences, f"{model.name}: Cortex-M55 outputs differ from the host run: {differences}"


@pytest.mark.parametrize("name", NAMES)
def test_int16_network_portable_matches_ns_cmsis_nn(e2e, ns_cmsis_nn_root, name):
    model = e2e.int16(name)
    portable = e2e.host_outputs(model, e2e.portable_host_library())
    reference = e2e.host_outputs(model, e2e.ns_cmsis_nn_host_library(ns_cmsis_nn_root))
    differences = harness.bit_differences(portable, reference)
    e2e.record("portable vs ns-cmsis-nn (host)", model.name, bit_identical=not differences)
    assert not differences, f"{model.name}: portable kernels and ns-cmsis-nn differ: {differences}"

# SPDX-License-Identifier: Apache-2.0
"""The four MLPerf Tiny int8 models: the module built with the portable kernels (host gcc,
ASan/UBSan) stays within MLPERF_TOLERANCE codes of LiteRT's reference kernels at every output on
NUM_SAMPLES seeded inputs, and classifiers pick the same class as LiteRT on every input."""

from __future__ import annotations

import pytest

from tests.e2e import harness
from tests.e2e.conftest import mlperf_model_or_skip

MODELS = list(harness.MLPERF_MODELS)


@pytest.mark.parametrize("name", MODELS)
def test_mlperf_model_matches_litert(e2e, name, record_property):
    model = mlperf_model_or_skip(e2e, name)
    outputs = e2e.host_outputs(model, e2e.portable_host_library())
    diffs = harness.per_output_max_diff(outputs, model.reference)
    fields = {"max_abs_diff": diffs, "samples": len(model.samples)}
    message = f"\n{name}: max |diff| per output vs LiteRT over {len(model.samples)} inputs: {diffs}"
    mismatched = []
    if model.classifier:
        mismatched = harness.argmax_agreement(outputs, model.reference)
        agree = len(model.samples) - len(mismatched)
        fields["argmax_agree"] = f"{agree}/{len(model.samples)}"
        message += f"; arg-max agrees on {agree}/{len(model.samples)}"
    diagnosis = ""
    if max(diffs) > 0:
        # Name where the module first departs from LiteRT, and what each operator after it adds.
        per_op = harness.operator_diffs(e2e, model, e2e.portable_host_library())
        first = harness.first_divergence(per_op)
        diverging = [str(d) for d in per_op if d.max_abs_diff > 0]
        fields["first_divergence"] = str(first) if first else "none (only at model outputs)"
        diagnosis = "; operators differing from LiteRT: " + ", ".join(diverging)
        message += diagnosis
    print(message)
    record_property("max_abs_diff", diffs)
    e2e.record("MLPerf Tiny vs LiteRT", name, **fields)
    for index, diff in enumerate(diffs):
        assert diff <= harness.MLPERF_TOLERANCE, (
            f"{name} output {index}: max |diff| {diff:g} against LiteRT exceeds "
            f"{harness.MLPERF_TOLERANCE} codes{diagnosis}")
    assert not mismatched, f"{name}: arg-max differs from LiteRT's on samples {mismatched}"

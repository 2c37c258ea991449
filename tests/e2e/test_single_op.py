# SPDX-License-Identifier: Apache-2.0
"""Every single-operator case: the module built with the portable kernels (host gcc, ASan/UBSan)
matches LiteRT's reference kernels within the case's tolerance on NUM_SAMPLES seeded inputs."""

from __future__ import annotations

import pytest

from tests.e2e import harness
from tests.modelgen.cases import all_case_paths, is_float16_case, load_case

# The acceptance bound for single-operator integer (int8, int16, int32) outputs, whatever a case file says.
INTEGER_CASE_BOUND = 1
# The acceptance bound for FP32 cases (<op>_float32_*.yaml): max |diff| at most this fraction of the
# output's range over the samples, whatever a case file says.
FP32_CASE_RELATIVE_BOUND = 1e-5
FP32_VARIANT_PREFIX = "float32"

# Native FP16 cases run in test_float16.py: LiteRT runs their FP32 originals, not the case model.
CASE_PATHS = [p for p in all_case_paths() if not is_float16_case(load_case(p))]


def test_every_case_file_is_collected():
    assert len(CASE_PATHS) >= 25, f"only {len(CASE_PATHS)} case files found"


@pytest.mark.parametrize("path", CASE_PATHS, ids=[p.stem for p in CASE_PATHS])
def test_case_matches_litert(e2e, path, record_property):
    model = e2e.case(path)
    outputs = e2e.host_outputs(model, e2e.portable_host_library())
    diffs = harness.per_output_max_diff(outputs, model.reference)
    float_outputs = [info.dtype.kind == "f" for info in model.output_infos]
    ranges = harness.output_ranges(model.reference)
    bounds = model.bounds()
    fp32_case = model.case.variant.startswith(FP32_VARIANT_PREFIX)
    if fp32_case:
        assert model.relative_tolerance is not None, f"{model.name}: an FP32 case states a relative_tolerance"
        bounds = [min(b, FP32_CASE_RELATIVE_BOUND * r) if f else b for b, r, f in zip(bounds, ranges, float_outputs)]
    fields = dict(max_abs_diff=diffs, tolerance=model.tolerance, samples=len(model.samples))
    message = f"{diffs} (tolerance {model.tolerance:g})"
    if model.relative_tolerance is not None:
        relative = [d / r if r else 0.0 for d, r in zip(diffs, ranges)]
        fields.update(output_range=ranges, relative_diff=relative, relative_tolerance=model.relative_tolerance)
        message = (f"{diffs}, output range {ranges}, max |diff| / range {[f'{v:.3g}' for v in relative]} "
                   f"(relative tolerance {model.relative_tolerance:g})")
    print(f"\n{model.name}: max |diff| per output vs LiteRT over {len(model.samples)} inputs: {message}")
    record_property("max_abs_diff", diffs)
    e2e.record("single-op vs LiteRT", model.name, **fields)
    for index, (diff, is_float, bound) in enumerate(zip(diffs, float_outputs, bounds)):
        if not is_float:
            bound = min(bound, INTEGER_CASE_BOUND)
        assert diff <= bound, (f"{model.name} output {index}: max |diff| {diff:g} against LiteRT "
                               f"exceeds {bound:g} ({model.case.tolerance_reason})")

# SPDX-License-Identifier: Apache-2.0
"""Every single-operator case: the module built with the portable kernels (host gcc, ASan/UBSan)
matches LiteRT's reference kernels within the case's tolerance on NUM_SAMPLES seeded inputs."""

from __future__ import annotations

import pytest

from tests.e2e import harness
from tests.modelgen.cases import all_case_paths, is_float16_case, load_case

# The acceptance bound for single-operator integer (int8, int16, int32) outputs, whatever a case file says.
INTEGER_CASE_BOUND = 1

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
    print(f"\n{model.name}: max |diff| per output vs LiteRT over {len(model.samples)} inputs: "
          f"{diffs} (tolerance {model.tolerance:g})")
    record_property("max_abs_diff", diffs)
    e2e.record("single-op vs LiteRT", model.name, max_abs_diff=diffs,
               tolerance=model.tolerance, samples=len(model.samples))
    for index, (diff, is_float) in enumerate(zip(diffs, float_outputs)):
        bound = model.tolerance if is_float else min(model.tolerance, INTEGER_CASE_BOUND)
        assert diff <= bound, (f"{model.name} output {index}: max |diff| {diff:g} against LiteRT "
                               f"exceeds {bound:g} ({model.case.tolerance_reason})")

# SPDX-License-Identifier: Apache-2.0
"""Portable kernels vs ns-cmsis-nn on the host: the same generated module, built once against each
library, gives bit-identical outputs on every case and MLPerf Tiny model (HELIA_NS_CMSIS_NN_DIR)."""

from __future__ import annotations

import pytest

from tests.e2e import harness
from tests.e2e.conftest import mlperf_model_or_skip
from tests.e2e.test_float16 import float16_case
from tests.modelgen.cases import all_case_paths, is_float16_case, load_case

CASE_PATHS = all_case_paths()


def _check_parity(e2e, model: harness.ModelUnderTest, root, record_property) -> None:
    portable = e2e.host_outputs(model, e2e.portable_host_library())
    reference = e2e.host_outputs(model, e2e.ns_cmsis_nn_host_library(root))
    differences = harness.bit_differences(portable, reference)
    print(f"\n{model.name}: portable vs ns-cmsis-nn (host) over {len(model.samples)} inputs: "
          + ("bit-identical" if not differences else str(differences)))
    record_property("ns_cmsis_nn_differences", differences)
    e2e.record("portable vs ns-cmsis-nn (host)", model.name,
               bit_identical=not differences,
               differences="; ".join(f"output {o}: {d}" for o, d in differences.items()))
    assert not differences, (f"{model.name}: portable kernels and ns-cmsis-nn differ: "
                             + "; ".join(f"output {o}: {d}" for o, d in differences.items()))


@pytest.mark.parametrize("path", CASE_PATHS, ids=[p.stem for p in CASE_PATHS])
def test_case_bit_identical_to_ns_cmsis_nn(e2e, ns_cmsis_nn_root, path, record_property):
    # A native FP16 case takes its float16 inputs from its FP32 original (LiteRT cannot load the FP16 model).
    model = float16_case(e2e, path) if is_float16_case(load_case(path)) else e2e.case(path)
    _check_parity(e2e, model, ns_cmsis_nn_root, record_property)


@pytest.mark.parametrize("name", list(harness.MLPERF_MODELS))
def test_mlperf_bit_identical_to_ns_cmsis_nn(e2e, ns_cmsis_nn_root, name, record_property):
    _check_parity(e2e, mlperf_model_or_skip(e2e, name), ns_cmsis_nn_root, record_property)

# SPDX-License-Identifier: Apache-2.0
"""Differential validation of operator rules (tests/e2e/differential.py): per operator, CASES_PER_OPERATOR
generated cases around its rules' boundaries, each asked of LiteRT (TFLM where LiteRT cannot load it) and
of helia-aot. Where a reference runs a case helia-aot converts it and matches (host build, portable kernels,
ASan/UBSan), or refuses it by a rule whose declared source is a documented limit; where the references
refuse it helia-aot refuses it in one line. More cases: tools/differential --cases N."""

from __future__ import annotations

import pytest

from tests.e2e import differential

CASES_PER_OPERATOR = 12


@pytest.mark.parametrize("op", list(differential.GENERATORS))
def test_operator_rules_agree_with_the_references(e2e, op):
    outcomes = differential.run_operator(op, CASES_PER_OPERATOR, e2e, e2e.portable_host_library())
    counts = differential.tally(outcomes)
    print("\n" + "\n".join(differential.table({op: counts})))
    for limit in sorted(counts.limits):
        print(f"{op}: refused as a documented limit: {limit}")
    e2e.record("differential", op, **{name: value for name, value in zip(differential.HEADER[1:], counts.row())})
    broken = [f"{o.case.name} ({o.case.boundary}): {o.problem}" for o in outcomes if o.problem]
    assert not broken, "\n".join(broken)
    assert counts.generated == CASES_PER_OPERATOR, f"{op}: generated {counts.generated} cases"
    # Not vacuous: some case ran on a reference and matched, and the walk reached a refusal too.
    assert counts.converted_and_matched >= 1, f"{op}: no case converted and matched"
    assert counts.refused_by_both_and_us + counts.reference_runs_we_refuse_as_limit \
        + counts.litert_runs_we_refuse_as_tflm >= 1, f"{op}: the walk reached no rule boundary"

# SPDX-License-Identifier: Apache-2.0
"""Differential case generators beyond the first nineteen operators (tests/e2e/differential.py), one module
per operator family so each family's walks read together. Each module defines GENERATORS (operator type
-> generator) and may lower its operators' per-operator CI case count in CI_CASES."""

from __future__ import annotations

from tests.e2e.differential_ops import elementwise, other, shaping

FAMILIES = (elementwise, shaping, other)

# SPDX-License-Identifier: Apache-2.0
"""Differential case generators: the elementwise operators."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np

from tests.e2e.differential import Case

GENERATORS: dict[str, Callable[[np.random.Generator, int], Iterator[Case]]] = {}
# Cases per operator in CI where fewer than tests/e2e/test_differential.py's default keep the suite in budget.
CI_CASES: dict[str, int] = {}

# SPDX-License-Identifier: Apache-2.0
"""The hypothesis profile of the property-based tests: derandomized (the same examples on every run, so CI
reproduces a failure), no example database written into the repository, no per-example deadline (the
machines are shared). Each test states its own example count."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, settings
from hypothesis.configuration import set_hypothesis_home_dir

# Hypothesis writes failure patches under its home directory even without a database: keep it out of the tree.
set_hypothesis_home_dir(str(Path(tempfile.gettempdir()) / "helia-hypothesis"))

settings.register_profile("helia", derandomize=True, database=None, deadline=None, print_blob=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("helia")

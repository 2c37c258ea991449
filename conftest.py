# SPDX-License-Identifier: Apache-2.0
# Repo-root pytest hook: makes `helia_aot` and `tests.modelgen` importable without installing.
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

# SPDX-License-Identifier: Apache-2.0
"""pytest tests of the test model builder (tests/modelgen)."""

# SPDX-License-Identifier: Apache-2.0
"""Unit tests of the helia_aot compiler."""

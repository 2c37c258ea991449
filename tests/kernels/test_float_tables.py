# SPDX-License-Identifier: Apache-2.0
"""The float exp / tanh tables in kernels/portable/src/support/flt_tables.c hold the values of their formulas."""

from __future__ import annotations

import re

import numpy as np

import flt_tables
import kernel_build as kb

TABLES_C = kb.PORTABLE_SRC / "support" / "flt_tables.c"


def c_table(name: str) -> list[str]:
    body = TABLES_C.read_text().split(name, 1)[1].split("{", 1)[1].split("}", 1)[0]
    return [token.strip() for token in body.split(",") if token.strip()]


def test_float32_tables_match_their_formulas():
    exp2 = np.array([float.fromhex(v.rstrip("f")) for v in c_table("helia_exp2_table_f32")], dtype=np.float32)
    tanh = np.array([float.fromhex(v.rstrip("f")) for v in c_table("helia_tanh_table_f32")], dtype=np.float32)
    np.testing.assert_array_equal(exp2, flt_tables.exp2_f32())
    np.testing.assert_array_equal(tanh, flt_tables.tanh_f32())
    assert exp2[0] == 1.0 and exp2[256] == 2.0 and abs(tanh[256] - np.tanh(4.0)) < 1e-7


def test_float16_table_matches_its_formula():
    bits = np.array([int(v.rstrip("u"), 16) for v in c_table("helia_exp2_table_f16")], dtype=np.uint16)
    np.testing.assert_array_equal(bits, flt_tables.exp2_f16_bits())
    assert bits[0] == 0x3C00 and bits[256] == 0x4000  # 1.0 and 2.0


def test_tables_have_257_hexadecimal_entries():
    for name in ("helia_exp2_table_f32", "helia_tanh_table_f32", "helia_exp2_table_f16"):
        entries = c_table(name)
        assert len(entries) == 257
        assert all(re.fullmatch(r"-?0x[0-9a-fA-F.]+(p[+-]\d+f|u)", e) for e in entries), name

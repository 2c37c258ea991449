# SPDX-License-Identifier: Apache-2.0
"""C literals of constant arrays and strings (helia_aot/emit/c_syntax.py), read back as a C compiler reads
them: each float literal is the same float32, each integer the same integer (INT32_MIN / INT64_MIN written so
that no literal overflows), and a string's octal escapes are the name's UTF-8 bytes, lone surrogates too."""

from __future__ import annotations

import re

import numpy as np

from helia_aot.emit import c_syntax


def _items(body: str) -> list[str]:
    return [s.strip() for s in body.replace("\n", " ").split(",") if s.strip()]


def test_float_literals_read_back_to_the_same_float32():
    values = np.array([1.5, -0.25, 3.0, 1e-30, -7.1e12], np.float32)
    items = _items(c_syntax.format_array_body(values, "float"))
    assert all(s.endswith("f") for s in items)
    assert [np.float32(float(s[:-1])) for s in items] == values.tolist()


def test_integer_literals_are_exact_and_never_overflow():
    values = np.array([-2147483648, -2147483647, 0, 2147483647], np.int32)
    items = _items(c_syntax.format_array_body(values, "int32_t"))
    assert items == ["(-2147483647 - 1)", "-2147483647", "0", "2147483647"]
    wide = _items(c_syntax.format_array_body(np.array([-2**63, 5], np.int64), "int64_t"))
    assert wide == ["(-9223372036854775807LL - 1)", "5LL"]


def test_a_lone_surrogate_in_a_name_is_escaped_as_its_bytes():
    text = c_syntax.c_string_text("a\ud800b\"")
    assert text == "a\\355\\240\\200b\\042"
    assert bytes(int(o, 8) for o in re.findall(r"\\(\d{3})", text)) == "\ud800\"".encode("utf-8", "surrogatepass")

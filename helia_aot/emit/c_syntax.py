# SPDX-License-Identifier: Apache-2.0
"""C code generation with jinja2: renders the IR + plan into the module's files (never decides)."""

from __future__ import annotations

from pathlib import Path

import jinja2
import numpy as np

from helia_aot.ir.dtypes import C_TYPES

_PKG = Path(__file__).resolve().parents[1]
_ENV = jinja2.Environment(
    loader=jinja2.FileSystemLoader([str(_PKG / "emit" / "templates"), str(_PKG / "ops" / "templates")]),
    trim_blocks=True,
    lstrip_blocks=True,
    keep_trailing_newline=True,
    undefined=jinja2.StrictUndefined,
    autoescape=False,
)

# Characters that may stand for themselves inside a generated comment: printable ASCII except the
# backslash (a line splice before a newline, and our escape character).
_COMMENT_SAFE = frozenset(chr(c) for c in range(0x20, 0x7F)) - {"\\"}
# Longer text keeps its head and tail around a note of what was left out.
COMMENT_TEXT_LIMIT = 1024


def c_comment_text(text) -> str:
    """``text`` made safe to place inside a C block comment: the one way any string the model (or a
    user) supplies reaches generated C.

    Everything outside printable ASCII (newlines, control bytes, non-ASCII UTF-8), the backslash,
    and any character that would form ``/*``, ``*/`` or a ``??`` trigraph, also with the template
    text on either side, is written as ``\\xNN`` per UTF-8 byte. The result cannot end the comment,
    open a nested one, splice lines or start a preprocessor line, and it reads back unambiguously.
    """
    text = str(text)
    if len(text) > COMMENT_TEXT_LIMIT:
        half = COMMENT_TEXT_LIMIT // 2
        text = f"{text[:half]} ...[{len(text) - 2 * half} characters left out]... {text[-half:]}"
    last = len(text) - 1
    out = []
    for i, ch in enumerate(text):
        before = text[i - 1] if i > 0 else None
        after = text[i + 1] if i < last else None
        edge = i == 0 or i == last
        if (ch not in _COMMENT_SAFE
                or (ch == "/" and (edge or before == "*" or after == "*"))
                or (ch == "*" and edge)
                or (ch == "?" and (edge or after == "?"))):
            out.append("".join(f"\\x{b:02x}" for b in ch.encode("utf-8", "surrogatepass")))
        else:
            out.append(ch)
    return "".join(out)


_ENV.filters["c_comment"] = c_comment_text

# Characters that may stand for themselves inside a generated string literal: printable ASCII except
# the backslash and the double quote (they end or escape the literal) and the question mark (a `??`
# trigraph).
_STRING_SAFE = frozenset(chr(c) for c in range(0x20, 0x7F)) - {"\\", '"', "?"}


def c_string_text(text) -> str:
    """``text`` as the inside of a C string literal whose bytes are its UTF-8 bytes: the one way a
    string the model supplies (a tensor name, an operator id) reaches generated C as data.

    Every byte outside ``_STRING_SAFE`` is a three-digit octal escape, which, unlike ``\\x``, ends
    after its digits whatever character follows. Nothing is left out: the C string equals the name
    (up to a NUL byte, where the C string ends).
    """
    return "".join(ch if ch in _STRING_SAFE else "".join(f"\\{b:03o}" for b in ch.encode("utf-8", "surrogatepass"))
                   for ch in str(text))


_ENV.filters["c_string"] = c_string_text

CONSTANT_ALIGNMENT = 16
_PER_LINE = {"int8_t": 24, "uint8_t": 24, "uint32_t": 8, "int16_t": 16, "int32_t": 8, "int64_t": 4, "float": 6,
             "float16_t": 6, "uint16_t": 16, "uint64_t": 4}


def _c_literal_list(values: np.ndarray, ctype: str) -> list[str]:
    flat = np.asarray(values).reshape(-1)
    if ctype in ("float", "float16_t"):
        # A float16 value is exactly a float32 one, so its float literal converts back exactly.
        items = [_c_float(float(v)) for v in flat.tolist()]
    else:
        items = [str(int(v)) for v in flat.tolist()]
        if ctype == "int32_t":
            items = ["(-2147483647 - 1)" if s == "-2147483648" else s for s in items]
        elif ctype == "int64_t":
            items = ["(-9223372036854775807LL - 1)" if s == "-9223372036854775808" else s + "LL" for s in items]
        elif ctype in ("uint32_t", "uint64_t"):
            # Unsigned suffixes: a decimal literal above the signed long long range is otherwise an error.
            suffix = "u" if ctype == "uint32_t" else "ULL"
            items = [s + suffix for s in items]
    return items


def _c_float(v: float) -> str:
    if v != v or v in (float("inf"), float("-inf")):
        raise ValueError("non-finite float constant")
    text = repr(float(np.float32(v)))
    if "e" not in text and "." not in text:
        text += ".0"
    return text + "f"


def c_float(v: float) -> str:
    """A float32 value as a C literal that reads back as the same float."""
    return _c_float(v)


def format_array_body(values: np.ndarray, ctype: str) -> str:
    items = _c_literal_list(values, ctype)
    if not items:
        return "    0"
    per = _PER_LINE.get(ctype, 8)
    lines = ["    " + ", ".join(items[i:i + per]) + "," for i in range(0, len(items), per)]
    return "\n".join(lines)


def render(template: str, **values) -> str:
    return _ENV.get_template(template).render(**values)


def c_type(dtype: str) -> str:
    return C_TYPES[dtype]

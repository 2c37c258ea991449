# SPDX-License-Identifier: Apache-2.0
"""Typed errors of helia_aot: every failure a user can cause is one of these, never a traceback."""

import difflib
import reprlib


def printable(text: str) -> str:
    """``text`` as one printable line: a name from the model must not start a new line, move the
    terminal's cursor or reorder text (control, format and separator characters are escaped)."""
    return "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii") for ch in text)


class HeliaError(Exception):
    """Base of every error helia_aot raises on purpose.

    The message says what is wrong and where; ``hint`` says what to do. ``str()`` joins
    both, which is the one line the CLI prints after ``error: <ClassName>:``, with whatever the
    message quotes from the model made printable.
    """

    def __init__(self, message: str, hint: str = ""):
        super().__init__(message)
        self.message = message.rstrip(".")
        self.hint = hint

    def __str__(self) -> str:
        if self.hint:
            return printable(f"{self.message}. {self.hint}")
        return printable(f"{self.message}.")


class InvalidModelError(HeliaError):
    """The model file is missing, empty, truncated or not a LiteRT flatbuffer."""


class UnsupportedModelError(HeliaError):
    """The model is well formed but uses an operator, dtype or attribute we do not lower."""


class InvalidConfigError(HeliaError):
    """The YAML/dict configuration has an unknown key, a wrong type or a bad value."""


class UnknownTargetError(HeliaError):
    """The target name is neither registered nor defined by a custom target file."""


class InvalidPrefixError(HeliaError):
    """The module prefix is not a valid C identifier."""


class OutputDirError(HeliaError):
    """The output directory cannot be written (exists as a file, permissions, ...)."""


def closest(name, choices) -> str | None:
    """The choice a misspelt ``name`` most likely meant, if any is close."""
    if not isinstance(name, (str, int, float)) or len(str(name)) > 200:
        return None  # no name to correct (and str() of a nested value is unbounded)
    found = difflib.get_close_matches(str(name), [str(c) for c in choices], n=1, cutoff=0.6)
    return found[0] if found else None


def rename_hint(name, choices, otherwise: str, qualify: str = "") -> str:
    best = closest(name, choices)
    return f"Did you mean {qualify}{best}?" if best is not None else otherwise


def warning(what: str, to_do: str) -> str:
    """A warning as the report records it and the CLI prints it after `warning: `: what happened, then
    what the user can do about it. Every warning helia_aot gives is made here, so none lacks the second."""
    return printable(f"{what.rstrip('.')}; {to_do.rstrip('.')}")


def close_operator_types(name, supported) -> list[str]:
    """The operator types a misspelt or shortened type most likely meant (at most three): close
    spellings (CONV2D: CONV_2D) and the types whose words include all of the name's (LSTM:
    UNIDIRECTIONAL_SEQUENCE_LSTM), which a spelling distance alone misses."""
    if not isinstance(name, str) or not name or len(name) > 200:
        return []
    upper = name.upper()
    found = difflib.get_close_matches(upper, list(supported), n=3, cutoff=0.6)
    words = {w for w in upper.replace("-", "_").split("_") if w}
    found += [s for s in supported if s not in found and words and words <= set(s.split("_"))]
    return found[:3]


def operator_hint(name, supported, otherwise: str) -> str:
    """'Did you mean X?' (or 'X, Y or Z?') for an operator type, else `otherwise`."""
    found = close_operator_types(name, supported)
    if not found:
        return otherwise
    listed = found[0] if len(found) == 1 else f"{', '.join(found[:-1])} or {found[-1]}"
    return f"Did you mean {listed}?"


_BRIEF = reprlib.Repr(maxlevel=2, maxtuple=6, maxlist=6, maxarray=6, maxdict=6, maxset=6, maxfrozenset=6,
                      maxdeque=6, maxstring=80, maxlong=40, maxother=80)


def brief(value) -> str:
    """repr() of a value a user gave, at most about a hundred characters whatever its size or depth: an
    error message quotes what is wrong, never all of it (a value may be a huge or deeply nested one)."""
    return _BRIEF.repr(value)

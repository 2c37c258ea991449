# SPDX-License-Identifier: Apache-2.0
"""The functions an ns-cmsis-nn release declares in its public headers, as the data file the compiler
reads to know which entries that library provides (helia_aot/library/ns_cmsis_nn_entries/<version>.json).

    python3 tools/ns_cmsis_nn_entries.py --write DIR   regenerate the file of DIR's release
    python3 tools/ns_cmsis_nn_entries.py --check DIR   exit 1 (and print the difference) when it is stale

DIR is an ns-cmsis-nn checkout; its release is read from Include/arm_nn_types.h's version macros.
Only function names are recorded (API facts): a declaration or inline definition at file scope of
Include/*.h. Include/Internal holds the library's private headers, which a module never includes.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DATA_DIR = REPO / "helia_aot" / "library" / "ns_cmsis_nn_entries"

_COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
_DIRECTIVE = re.compile(r"^[ \t]*#(?:[^\n]*\\\n)*[^\n]*", re.M)
_TOKEN = re.compile(r'"(?:\\.|[^"\\])*"|[A-Za-z_]\w*|\S')
_VERSION = re.compile(r"#define\s+NS_CMSIS_NN_VERSION_(MAJOR|MINOR|PATCH)\s+\(?\s*(\d+)")


class EntriesError(Exception):
    """DIR is no ns-cmsis-nn checkout this tool can read."""


def file_scope_functions(text: str) -> set[str]:
    """Names of the functions declared or defined at file scope of a C header: an identifier followed by
    `(` outside any braces and parentheses, after a type (an identifier or `*`), never a macro call's
    argument, an initializer nor a typedef. Comments and preprocessor lines are dropped first;
    `extern "C" {` braces are not scopes."""
    text = _DIRECTIVE.sub("", _COMMENT.sub(" ", text))
    tokens = _TOKEN.findall(text)
    names: set[str] = set()
    braces = parens = 0
    previous = ""
    typedef = False  # inside a typedef: its names are types, never functions
    for k, token in enumerate(tokens):
        if braces == 0 and parens == 0 and token in ("typedef", ";"):
            typedef = token == "typedef"
        if token == "extern" and k + 2 < len(tokens) and tokens[k + 1] == '"C"' and tokens[k + 2] == "{":
            braces -= 1  # its `{` follows; cancelled here so the declarations inside stay at file scope
        elif token == "{":
            braces += 1
        elif token == "}":
            braces = max(braces - 1, 0)  # the `}` closing extern "C" (its opening brace was not counted)
        elif token == "(":
            parens += 1
        elif token == ")":
            parens -= 1
        elif (braces == 0 and parens == 0 and not typedef and k + 1 < len(tokens) and tokens[k + 1] == "("
              and re.fullmatch(r"[A-Za-z_]\w*", token) and (previous == "*" or re.fullmatch(r"\w+", previous))):
            names.add(token)
        previous = token
    return names


def release(ns_dir: Path) -> str:
    header = ns_dir / "Include" / "arm_nn_types.h"
    if not header.is_file():
        raise EntriesError(f"{ns_dir} is not an ns-cmsis-nn checkout (no Include/arm_nn_types.h)")
    parts = dict(_VERSION.findall(header.read_text(encoding="utf-8", errors="replace")))
    if set(parts) != {"MAJOR", "MINOR", "PATCH"}:
        raise EntriesError(f"{header} defines no NS_CMSIS_NN_VERSION_MAJOR/MINOR/PATCH")
    return f"{int(parts['MAJOR'])}.{int(parts['MINOR'])}.{int(parts['PATCH'])}"


def entries(ns_dir: Path) -> list[str]:
    """Every arm_* function the public headers of the checkout declare, sorted."""
    names: set[str] = set()
    for header in sorted((ns_dir / "Include").glob("*.h")):
        names |= file_scope_functions(header.read_text(encoding="utf-8", errors="replace"))
    return sorted(n for n in names if n.startswith("arm_"))


def _shown(path: Path) -> str:
    return str(path.relative_to(REPO)) if path.is_relative_to(REPO) else str(path)


def data_file(version: str) -> Path:
    return DATA_DIR / f"{version}.json"


def render(version: str, names: list[str]) -> str:
    document = {"library": "ns-cmsis-nn", "version": version,
                "generated_by": "tools/ns_cmsis_nn_entries.py (functions of Include/*.h)", "entries": names}
    return json.dumps(document, indent=1) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--check", metavar="DIR", type=Path, help="compare DIR's entries with the data file")
    mode.add_argument("--write", metavar="DIR", type=Path, help="write the data file of DIR's release")
    args = parser.parse_args(argv)
    ns_dir = args.check or args.write
    try:
        version = release(ns_dir)
        expected = render(version, entries(ns_dir))
    except (EntriesError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    path = data_file(version)
    if args.write:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(expected, encoding="utf-8")
        print(f"wrote {_shown(path)}")
        return 0
    if not path.is_file():
        print(f"error: no entry list for ns-cmsis-nn {version} ({_shown(path)}); run --write", file=sys.stderr)
        return 1
    recorded = json.loads(path.read_text(encoding="utf-8"))["entries"]
    found = json.loads(expected)["entries"]
    if recorded != found:
        print(f"{_shown(path)} is stale for {ns_dir}: missing {sorted(set(found) - set(recorded))}, "
              f"extra {sorted(set(recorded) - set(found))}; run --write", file=sys.stderr)
        return 1
    print(f"{_shown(path)}: {len(found)} entries, as {ns_dir} declares")
    return 0


if __name__ == "__main__":
    sys.exit(main())

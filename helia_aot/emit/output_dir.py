# SPDX-License-Identifier: Apache-2.0
"""Writing a module into OUTDIR: every file into a fresh temporary directory beside it, then one
rename, so OUTDIR holds a whole module or none (never a half-written one)."""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from pathlib import Path
from typing import Callable

from helia_aot.errors import OutputDirError


# What a conversion writes into OUTDIR; an existing OUTDIR holding anything else is not replaced.
_OWN_ENTRY = re.compile(r"^(include|src|test|[A-Za-z_][A-Za-z0-9_]*_(plan|report)\.json|"
                        r"[A-Za-z_][A-Za-z0-9_]*_report\.html|CMakeLists\.txt)$")


def _check_replaceable(final: Path) -> None:
    """OUTDIR is replaced as a whole: refuse one that holds files we did not write (`-o .`)."""
    try:
        foreign = sorted(p.name for p in final.iterdir() if not _OWN_ENTRY.match(p.name))
    except OSError as exc:
        raise OutputDirError(f"cannot list output directory {final}: {exc.strerror}",
                             "Check the -o path and its permissions") from None
    if foreign:
        more = f" and {len(foreign) - 1} more" if len(foreign) > 1 else ""
        raise OutputDirError(f"output directory {final} holds {foreign[0]!r}{more}, which helia_aot did not write, "
                             "and would be replaced as a whole", "Choose a new or empty directory")


def _replace_dir(tmp: Path, final: Path) -> None:
    """Move the finished temp dir into place; the old OUTDIR (if any) is swapped out, never mixed."""
    if final.exists() and not final.is_dir():
        raise OutputDirError(f"output path {final} exists and is not a directory", "Choose another -o path")
    backup = None
    try:
        if final.exists():
            _check_replaceable(final)
            backup = Path(tempfile.mkdtemp(prefix=f".{final.name}.old-", dir=final.parent))
            backup.rmdir()
            os.rename(final, backup)
        try:
            os.rename(tmp, final)
        except OSError:
            if backup is not None:
                os.rename(backup, final)
            raise
    except OSError as exc:
        raise OutputDirError(f"cannot replace output directory {final}: {exc.strerror}",
                             "Check the -o path and its permissions") from None
    if backup is not None:
        shutil.rmtree(backup, ignore_errors=True)


def write(output_dir, files: dict[str, str], write_more: Callable[[Path], list[str]] | None = None) -> tuple[Path, list[str]]:
    """`files` (relative path -> text) written into OUTDIR as a whole; `write_more(tmp)` adds files
    of its own (golden test data) and returns their relative paths. Returns OUTDIR and every path."""
    out = Path(output_dir).resolve()
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.tmp-", dir=out.parent))
    except OSError as exc:
        raise OutputDirError(f"cannot create output directory next to {out}: {exc.strerror}",
                             "Check the -o path and its permissions") from None
    try:
        for rel, text in files.items():
            path = tmp / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")  # JSON carries model names as UTF-8, whatever the locale
        written = list(files)
        if write_more is not None:
            written += write_more(tmp)
        os.chmod(tmp, 0o755)
        _replace_dir(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return out, written

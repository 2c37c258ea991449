# SPDX-License-Identifier: Apache-2.0
"""Writing a module into OUTDIR: every file into a fresh temporary directory beside it, then one
rename, so OUTDIR holds a whole module or none (never a half-written one).

An existing OUTDIR is replaced only when a conversion wrote it: its manifest (MANIFEST, the sha256 of
every file written) must list every file it holds, unchanged; empty folders (Bazel creates the declared
`include/` and `src/` before the action runs) are no one's work. Anything else is refused before a
byte is written: a file the manifest does not list or that changed since, a symbolic link, an OUTDIR
holding one of the conversion's inputs (model, configuration, plan, target file), a filesystem root. A
manifest naming any path outside OUTDIR (absolute, or through `..`) is not one a conversion wrote.
Temporary folders carry the writing process's id, so the next conversion into the same OUTDIR removes
those a killed run left behind.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import contextlib
import shutil
import signal
import stat
import tempfile
import threading
from pathlib import Path
from typing import Callable, Iterable

from helia_aot.errors import OutputDirError

MANIFEST = ".helia-aot-manifest.json"
MANIFEST_LIMIT = 1 << 20  # a manifest lists a module's few dozen files; anything larger is not ours
_HINT = "Choose a new or empty directory, or one an earlier conversion wrote"


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _read_manifest(final: Path) -> dict[str, str] | None:
    """rel path -> sha256 of what the conversion that wrote `final` wrote; None without a manifest (or
    with one that is not ours)."""
    path = final / MANIFEST
    try:
        info = path.lstat()
    except OSError:
        return None
    if not stat.S_ISREG(info.st_mode) or info.st_size > MANIFEST_LIMIT:
        return None
    try:
        doc = json.loads(path.read_bytes().decode("utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return None
    files = doc.get("files") if isinstance(doc, dict) else None
    if not isinstance(files, dict) or not all(isinstance(k, str) and isinstance(v, str) and _inside(k)
                                              for k, v in files.items()):
        return None  # a conversion lists only the relative paths it wrote inside OUTDIR
    return files


def _inside(rel: str) -> bool:
    """A relative path that stays inside the folder it is relative to, spelled as a manifest spells it."""
    return bool(rel) and not rel.startswith("/") and all(part not in ("", ".", "..") for part in rel.split("/"))


def _refuse(final: Path, found: list[str], why: str) -> None:
    more = f" and {len(found) - 1} more" if len(found) > 1 else ""
    raise OutputDirError(f"output directory {final} holds {found[0]!r}{more}, {why}, and would be replaced as a "
                         "whole", _HINT)


def check_replaceable(final: Path) -> None:
    """Refuse an existing OUTDIR that holds anything a conversion did not write, unchanged."""
    try:
        info = final.lstat()
    except FileNotFoundError:
        return
    except OSError as exc:
        raise OutputDirError(f"cannot inspect output path {final}: {exc.strerror}", "Check the -o path") from None
    if stat.S_ISLNK(info.st_mode) or not stat.S_ISDIR(info.st_mode):
        raise OutputDirError(f"output path {final} exists and is not a directory", "Choose another -o path")
    manifest = _read_manifest(final) or {}
    foreign, changed = [], []
    try:
        for top, dirs, names in os.walk(final):
            for name in sorted(dirs + names):
                path = Path(top) / name
                rel = path.relative_to(final).as_posix()
                mode = path.lstat().st_mode
                if stat.S_ISDIR(mode):
                    continue  # judged by what it holds: an empty folder holds nothing of anyone's
                if rel == MANIFEST and manifest:
                    continue
                if not stat.S_ISREG(mode) or rel not in manifest:
                    foreign.append(rel)
                elif _sha256(path) != manifest[rel]:
                    changed.append(rel)
    except OSError as exc:
        raise OutputDirError(f"cannot list output directory {final}: {exc.strerror}",
                             "Check the -o path and its permissions") from None
    if foreign:
        _refuse(final, sorted(foreign), "which helia_aot did not write")
    if changed:
        _refuse(final, sorted(changed), "changed since helia_aot wrote it")


def check_destination(output_dir, inputs: Iterable[str | os.PathLike | None] = ()) -> Path:
    """OUTDIR made absolute, refused before any work when it is a filesystem root, holds one of the
    conversion's own inputs (the model, the configuration, a plan or target file: replacing OUTDIR
    would delete them) or is not replaceable."""
    out = Path(os.path.abspath(output_dir))
    if out.parent == out:
        raise OutputDirError(f"output directory {out} is a filesystem root", "Choose a folder for the module")
    real = Path(os.path.realpath(out))
    for item in inputs:
        if item is None:
            continue
        source = Path(os.path.realpath(item))
        if source == real or real in source.parents:
            raise OutputDirError(f"output directory {out} holds {source}, an input of this conversion, and would "
                                 "be replaced as a whole", "Write the module to a folder of its own")
    check_replaceable(out)
    return out


# Our temporary folders beside OUTDIR: .NAME.tmp-PID-XXXX (being written), .NAME.old-PID-XXXX (the
# previous OUTDIR during the swap).
def _ours(out: Path) -> re.Pattern:
    return re.compile(rf"\.{re.escape(out.name)}\.(?:tmp|old)-(\d+)-[A-Za-z0-9_]+\Z")


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process
    return True


def remove_stale(out: Path) -> list[str]:
    """Remove the temporary folders beside `out` whose writing process is gone (killed mid-write);
    returns the names of those that could not be removed."""
    pattern, left = _ours(out), []
    try:
        siblings = list(out.parent.iterdir())
    except OSError:
        return left
    for entry in siblings:
        found = pattern.fullmatch(entry.name)
        if found is None or _alive(int(found.group(1))) or entry.is_symlink() or not entry.is_dir():
            continue
        shutil.rmtree(entry, ignore_errors=True)
        if entry.exists():
            left.append(entry.name)
    return left


_HELD = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)


@contextlib.contextmanager
def _signals_held():
    """SIGTERM, SIGHUP and SIGINT wait until the block is done: a temporary folder is created and named
    in one step, and the old OUTDIR swapped out and the new one in as another, so a signal never leaves
    a folder no exit path knows about (nor OUTDIR moved aside for good).

    Masking the signals in this thread is not enough: another thread (the golden reference's, a math
    library's) takes a process-directed signal, and Python then runs the handler in this thread at the
    next bytecode, inside the block. So, in the main thread, each handler (Python's or the default) is
    also replaced by one that only notes the signal, and the signal is raised again after the block,
    under the handler it had."""
    noted: list[int] = []
    replaced = {}
    if threading.current_thread() is threading.main_thread():
        for signum in _HELD:
            handler = signal.getsignal(signum)
            if handler is not None and handler != signal.SIG_IGN:
                replaced[signum] = handler
                signal.signal(signum, lambda number, _frame: noted.append(number))
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, set(_HELD))
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)
        for signum, handler in replaced.items():
            signal.signal(signum, handler)
        if noted:
            signal.raise_signal(noted[0])


def _replace_dir(tmp: Path, final: Path) -> None:
    """Move the finished temp dir into place; the old OUTDIR (if any) is swapped out, never mixed."""
    check_replaceable(final)
    backup = None
    try:
        if final.exists():
            backup = Path(tempfile.mkdtemp(prefix=f".{final.name}.old-{os.getpid()}-", dir=final.parent))
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


def write(out: Path, files: dict[str, str], write_more: Callable[[Path], list[str]] | None = None
          ) -> tuple[Path, list[str]]:
    """`files` (relative path -> text) written as a whole into `out`, an OUTDIR check_destination
    accepted (the swap checks it is still replaceable), with the manifest; `write_more(tmp)` adds files
    of its own (golden test data) and returns their relative paths. Returns OUTDIR and every path
    written (the manifest last)."""
    tmp = None
    try:
        try:
            out.parent.mkdir(parents=True, exist_ok=True)
            # In the held block: a signal waiting there is raised at its end, once `tmp` is set and no
            # stale folder is half removed.
            with _signals_held():
                remove_stale(out)
                tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.tmp-{os.getpid()}-", dir=out.parent))
        except OSError as exc:
            raise OutputDirError(f"cannot create output directory next to {out}: {exc.strerror}",
                                 "Check the -o path and its permissions") from None
        for rel, text in files.items():
            path = tmp / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")  # JSON carries model names as UTF-8, whatever the locale
        written = list(files)
        if write_more is not None:
            written += write_more(tmp)
        manifest = {"generator": "helia-aot", "files": {rel: _sha256(tmp / rel) for rel in sorted(written)}}
        (tmp / MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
        os.chmod(tmp, 0o755)
        with _signals_held():
            _replace_dir(tmp, out)
    except BaseException:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)
        raise
    return out, [*written, MANIFEST]

# SPDX-License-Identifier: Apache-2.0
"""Reading a file the user names (a model, a configuration, a target file, a plan, a report): regular
files only, and never more than a limit, so /dev/zero, a FIFO or a runaway file is one typed error
instead of a hang or all the machine's memory."""

from __future__ import annotations

import os
import stat
from typing import Callable

from helia_aot.errors import HeliaError

MIB = 1 << 20
# A microcontroller model is a few MB (the largest MobileNet-style networks a Cortex-M runs, tens).
MODEL_LIMIT = 256 * MIB
# Plans and reports are a few hundred KB even for large models.
PLAN_LIMIT = 64 * MIB
# Configuration and target files are a few KB.
YAML_LIMIT = 1 * MIB


def read_bytes(path, what: str, limit: int, error: Callable[[str, str], HeliaError], hint: str) -> bytes:
    """The bytes of the regular file at `path`, at most `limit`; `error(message, hint)` makes the
    typed error (naming `what` and the file) for a missing, unreadable, special or oversized file."""
    try:
        # O_NONBLOCK: opening a FIFO without a writer returns at once (then fstat refuses it).
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise error(f"{what} {path} does not exist", hint) from None
    except IsADirectoryError:
        raise error(f"{what} {path} is a directory", hint) from None
    except OSError as exc:
        raise error(f"cannot read {what} {path}: {exc.strerror}", "Check the file's permissions") from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise error(f"{what} {path} is a directory", hint)
        if not stat.S_ISREG(info.st_mode):
            raise error(f"{what} {path} is not a regular file (a device, FIFO or socket)", hint)
        if info.st_size > limit:
            raise error(f"{what} {path} is {info.st_size} bytes, more than the {limit} this release reads", hint)
        os.set_blocking(fd, True)
        chunks, total = [], 0
        while total <= limit:
            chunk = os.read(fd, min(MIB, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > limit:  # it grew while being read
            raise error(f"{what} {path} is more than the {limit} bytes this release reads", hint)
        return b"".join(chunks)
    except OSError as exc:
        raise error(f"cannot read {what} {path}: {exc.strerror}", "Check the file's permissions") from None
    finally:
        os.close(fd)

# SPDX-License-Identifier: Apache-2.0
"""pytest plugin for tools/mutate_kernels.py --suite helium (loaded with -p, tools/ on PYTHONPATH).

- A parity firmware that a mutant hangs is stopped after HELIA_MUTATION_QEMU_TIMEOUT_S seconds (the test
  then fails: killed), not after QEMU's usual limit, sized for the slowest healthy firmware.
- Objects are kept in HELIA_KERNEL_OBJECT_CACHE, keyed by the compile flags, the source and every header
  a firmware may include, so a mutant recompiles the file it changed, not the whole firmware."""

from __future__ import annotations

import functools
import hashlib
import os
import shutil
from pathlib import Path

from bench_lib import helium, toolchain

_compile_c = toolchain.compile_c


@functools.lru_cache(maxsize=None)
def _headers_digest() -> str:
    digest = hashlib.sha256()
    roots = [toolchain.REPO / "kernels", toolchain.CORSTONE300_DIR]
    for header in sorted(h for root in roots for h in root.rglob("*.h")):
        digest.update(str(header).encode() + b"\0" + header.read_bytes())
    return digest.hexdigest()


def _cached_compile_c(source: Path, obj: Path, flags: list[str], what: str) -> Path:
    cache = Path(os.environ["HELIA_KERNEL_OBJECT_CACHE"]) / "helium"
    key = hashlib.sha256("\0".join([*map(str, flags), _headers_digest()]).encode()
                         + Path(source).read_bytes()).hexdigest()
    cached = cache / f"{key}.o"
    if cached.exists():
        obj.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(cached, obj)
        return obj
    _compile_c(source, obj, flags, what)
    cache.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(obj, cached)
    return obj


def pytest_configure(config):
    del config
    helium.run.__kwdefaults__["timeout"] = float(os.environ["HELIA_MUTATION_QEMU_TIMEOUT_S"])
    if os.environ.get("HELIA_KERNEL_OBJECT_CACHE"):
        toolchain.compile_c = _cached_compile_c

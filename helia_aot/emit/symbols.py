# SPDX-License-Identifier: Apache-2.0
"""Every C identifier the compiler derives, in one place: the module's arrays, arenas, staged copies
and stream sources. A name from the configuration (a memory) is slugged; a model's names never
become identifiers (they reach the C only inside comments and escaped string literals).

Each family has a word of its own after the prefix, so no two families, and no name a template
defines (`<prefix>_model_run`, `<prefix>_stream_pool`, ...), can spell the same identifier
(tests/unit/test_symbols.py); within a family, memories whose slugs agree are refused by the target
check (helia_aot/config/targets.py)."""

from __future__ import annotations

import re


def slug(name: str) -> str:
    """A memory's name as part of an identifier or section name: lower case, other characters '_'."""
    return re.sub(r"[^a-z0-9_]", "_", name.lower())


def scratch_arena_symbol(prefix: str) -> str:
    """The module's own scratch arena (module.arena static)."""
    return f"{prefix}_arena"


def stream_pool_symbol(prefix: str) -> str:
    return f"{prefix}_stream_pool"


def tensor_symbol(prefix: str, t: int) -> str:
    return f"{prefix}_t{t}"


def derived_symbol(prefix: str, position: int, suffix: str) -> str:
    return f"{prefix}_op{position}_{suffix}"


def persistent_init_symbol(prefix: str, t: int) -> str:
    return f"{prefix}_v{t}_initial"


def staged_symbol(symbol: str) -> str:
    return f"{symbol}_staged"


def arena_symbol(prefix: str, memory: str) -> str:
    return f"{prefix}_arena_{slug(memory)}"


def stream_source_symbol(prefix: str, memory: str) -> str:
    # "src_" keeps a memory's name out of the stream names the module defines itself (a memory called
    # POOL gave <prefix>_stream_pool, the pool's own name).
    return f"{prefix}_stream_src_{slug(memory)}"

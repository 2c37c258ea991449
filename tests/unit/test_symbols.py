# SPDX-License-Identifier: Apache-2.0
"""One C name, one thing: no two identifier families of helia_aot/emit/symbols.py, and no name a
template defines, can spell the same identifier, whatever the memories are called."""

from __future__ import annotations

import re
from pathlib import Path

import helia_aot
from hypothesis import given, settings, strategies as st

from helia_aot.emit import symbols
from tests.unit import property_profile  # noqa: F401  (loads the project's hypothesis profile)
from tests.unit.test_placement import _fc_model

TEMPLATES = Path(helia_aot.__file__).parent
# `{{ prefix }}_name` not followed by more template text: a whole name the module defines.
_FIXED = re.compile(r"\{\{ ?prefix ?\}\}_(\w+)(?!\w|\{)")


def template_names(prefix: str) -> set[str]:
    names = set()
    for path in TEMPLATES.rglob("*.j2"):
        names |= {f"{prefix}_{suffix}" for suffix in _FIXED.findall(path.read_text())}
    return names


def test_the_template_names_are_found():
    # The property below is only as strong as this list.
    names = template_names("m")
    assert {"m_model_run", "m_stream_issue", "m_stream_wait", "m_arena"} <= names


def _name_tails() -> list[str]:
    """Every '_'-joined tail of the names the module defines (stream_pool, pool, model_run, run, ...):
    the memory names most likely to spell one of them."""
    names = template_names("m") | {symbols.scratch_arena_symbol("m"), symbols.stream_pool_symbol("m")}
    tails = set()
    for name in names:
        parts = name[len("m_"):].split("_")
        tails |= {"_".join(parts[i:]) for i in range(len(parts))}
    return sorted(tails)


# Memory names as a target file may give them: any printable text, or a tail of a name the module
# defines; the target check keeps their slugs distinct (helia_aot/config/targets.py), so the property does too.
_memory_name = st.one_of(st.sampled_from(_name_tails()).map(str.upper),
                         st.text(st.characters(min_codepoint=32, max_codepoint=126), min_size=1, max_size=12))
_memories = st.lists(_memory_name, min_size=1, max_size=6).filter(
    lambda ms: len({symbols.slug(m) for m in ms}) == len(ms))
_suffixes = st.lists(st.from_regex(r"[a-z][a-z0-9]{0,7}", fullmatch=True), max_size=4, unique=True)


@settings(max_examples=300)
@given(memories=_memories, tensors=st.lists(st.integers(0, 10_000), max_size=8, unique=True),
       positions=st.lists(st.integers(0, 500), max_size=4, unique=True), suffixes=_suffixes)
def test_no_two_things_share_a_c_name(memories, tensors, positions, suffixes):
    prefix = "m"
    # The templates spell the module's one scratch arena and stream pool themselves: those are the
    # symbols' own names, not a second thing.
    one_of_a_kind = {symbols.scratch_arena_symbol(prefix): "the scratch arena",
                     symbols.stream_pool_symbol(prefix): "the stream pool"}
    owners: dict[str, str] = {name: f"template name {name}" for name in template_names(prefix)}
    owners.update(one_of_a_kind)

    def claim(name: str, owner: str) -> None:
        assert re.fullmatch(r"[A-Za-z_]\w*", name), f"{owner} gives {name!r}, not a C identifier"
        other = owners.setdefault(name, owner)
        assert other == owner, f"{owner} and {other} both are {name}"

    for m in memories:
        claim(symbols.arena_symbol(prefix, m), f"memory {m!r}'s arena")
        claim(symbols.stream_source_symbol(prefix, m), f"memory {m!r}'s stream source")
    constants = []
    for t in tensors:
        constants.append(symbols.tensor_symbol(prefix, t))
        claim(constants[-1], f"tensor {t}")
        claim(symbols.persistent_init_symbol(prefix, t), f"tensor {t}'s initial value")
    for p in positions:
        for s in suffixes:
            constants.append(symbols.derived_symbol(prefix, p, s))
            claim(constants[-1], f"operator {p}'s {s}")
    for c in constants:
        claim(symbols.staged_symbol(c), f"the staged copy of {c}")


def test_a_memory_called_pool_streams_from_its_own_array(tmp_path):
    # The reproduction of the class: a constant memory named POOL gave <prefix>_stream_pool, the pool's
    # own name, and the module copied the pool onto itself.
    custom = {"name": "two", "cpu": "cortex-m55", "capabilities": ["dsp", "mve"],
              "memories": [{"name": "DTCM", "size": 1 << 20}, {"name": "POOL", "size": 1 << 20, "writable": False}],
              "scratch_memory": "DTCM", "constant_memory": "POOL"}
    helia_aot.convert(_fc_model(layers=2, width=32), tmp_path / "o", config={
        "target": {"name": "two", "custom": custom},
        "memory": {"tensors": [{"type": "constant", "attributes": {"residency": "stream"}}],
                   "stream_pool": {"memory": "DTCM", "bytes": 4096}}})
    model_c = (tmp_path / "o" / "src" / "model_model.c").read_text()
    copies = re.findall(r"memcpy\((\w+) \+ \d+, (\w+) \+ \d+", model_c)
    assert copies and all(dst == "model_stream_pool" and src == "model_stream_src_pool" for dst, src in copies)

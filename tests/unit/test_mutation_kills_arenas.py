# SPDX-License-Identifier: Apache-2.0
"""helia_aot/memory/arenas.py check_addressable, which no test reached before the 2026-12-02 mutation sample
(tests/MUTATION.md): every arena and the constants may be LARGEST_BLOCK bytes and no more, and the first
block over it is refused naming what it is, its memory and its size."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from helia_aot.errors import UnsupportedModelError
from helia_aot.memory.arenas import LARGEST_BLOCK, check_addressable

_HINT = "Check the model's tensor shapes; no Cortex-M memory holds it"


def _layout(scratch=0, extra=(), persistent=0):
    return SimpleNamespace(arena=SimpleNamespace(arena_bytes=scratch),
                           extra=[(memory, SimpleNamespace(arena_bytes=n)) for memory, n in extra],
                           persistent_memory="ISRAM", persistent_bytes=persistent)


_OPTIONS = SimpleNamespace(target=SimpleNamespace(scratch_memory="DTCM", constant_memory="SRAM"))


def test_every_block_may_be_the_largest_addressable_size():
    assert LARGEST_BLOCK == 2**31 - 1
    layout = _layout(LARGEST_BLOCK, [("SRAM", LARGEST_BLOCK), ("DDR", LARGEST_BLOCK)], LARGEST_BLOCK)
    check_addressable(layout, LARGEST_BLOCK, _OPTIONS)


@pytest.mark.parametrize("layout, constants, what", [
    (_layout(scratch=LARGEST_BLOCK + 1), 0, "scratch arena in DTCM"),
    (_layout(extra=[("SRAM", 16), ("DDR", LARGEST_BLOCK + 1)]), 0, "activation arena in DDR"),
    (_layout(persistent=LARGEST_BLOCK + 1), 0, "persistent arena in ISRAM"),
    (_layout(), LARGEST_BLOCK + 1, "constants in SRAM"),
    # The first block over the limit is the one named.
    (_layout(scratch=LARGEST_BLOCK + 1, persistent=LARGEST_BLOCK + 2), LARGEST_BLOCK + 3, "scratch arena in DTCM"),
    (_layout(extra=[("SRAM", LARGEST_BLOCK + 1)], persistent=LARGEST_BLOCK + 2), 0, "activation arena in SRAM"),
])
def test_a_block_past_the_limit_is_refused_naming_it(layout, constants, what):
    with pytest.raises(UnsupportedModelError) as info:
        check_addressable(layout, constants, _OPTIONS)
    size = LARGEST_BLOCK + 1
    assert info.value.message == (f"{what} would be {size} B, more than {LARGEST_BLOCK} B, the largest block a module "
                                  "addresses (offsets are int32_t)")
    assert info.value.hint == _HINT


def test_the_kernel_choice_plans_arenas_under_activation_rules(tmp_path):
    """The kernel choice weighs each option's arena by plan_arenas without the conversion's placer: the rules
    are applied afresh to this graph (the choice is still made, the activations land where the rule says)."""
    import helia_aot

    from .test_operator_overrides import MODEL
    rules = {"tensors": [{"type": "activation", "attributes": {"memory": "SRAM"}}]}
    result = helia_aot.convert(MODEL, tmp_path / "o", target="corstone300", config={"memory": rules})
    reasons = [op["kernel"]["choice"]["reason"] for op in result.plan["operators"] if op["kernel"]["choice"]]
    assert reasons and set(reasons) == {"cost_model"}
    arenas = {a["memory"]: a for a in result.plan["memory"]["arenas"]}
    assert arenas["SRAM"]["kind"] == "activation" and arenas["SRAM"]["buffers"]

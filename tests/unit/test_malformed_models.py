# SPDX-License-Identifier: Apache-2.0
"""Damaged models never escape as a traceback: seeded truncations and byte flips of the KWS model
either convert or raise one of helia_aot's typed errors, and a failed conversion leaves no output
directory behind."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import helia_aot

_MODEL = Path(__file__).resolve().parents[2] / "models" / "kws.tflite"
_SEED = 20261130


def _damaged_models() -> list[tuple[str, bytes]]:
    data = _MODEL.read_bytes()
    rng = random.Random(_SEED)
    cases = [(f"truncated_to_{n}", data[:n]) for n in sorted(rng.sample(range(len(data)), 40))]
    for index in range(80):
        damaged = bytearray(data)
        for _ in range(rng.randint(1, 8)):
            damaged[rng.randrange(len(damaged))] = rng.randrange(256)
        cases.append((f"flipped_{index}", bytes(damaged)))
    return cases


@pytest.mark.parametrize("name,blob", _damaged_models(), ids=[name for name, _ in _damaged_models()])
def test_damaged_model_converts_or_raises_a_typed_error(tmp_path, name, blob):
    out = tmp_path / "module"
    try:
        helia_aot.convert(blob, out, prefix="damaged", target="host")
    except (helia_aot.InvalidModelError, helia_aot.UnsupportedModelError) as error:
        assert str(error).strip(), f"{name}: empty error message"
        assert not out.exists(), f"{name}: a failed conversion left {out} behind"
        assert list(tmp_path.iterdir()) == [], f"{name}: temporary files left: {list(tmp_path.iterdir())}"
    else:
        assert (out / "include" / "damaged_model.h").is_file()

# SPDX-License-Identifier: Apache-2.0
"""CAST between every pair of int8, uint8, int16, uint16, int32, uint32, int64, float32 and bool on chosen values (the
limits, one past them, NaN, infinities, fractions near the truncation points, integers float32 cannot
hold) must be bit-identical to LiteRT's reference kernel: the single-operator cases draw float inputs from
[-1, 1) only, which never reach wrapping, saturation or NaN. One model holds all 81 casts; it runs on the
host with the portable kernels under ASan/UBSan."""

from __future__ import annotations

import numpy as np

from tests.e2e import harness
from tests.modelgen import ModelBuilder

DTYPES = ("int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "float32", "bool")
COUNT = 40

_F32 = [0.0, -0.0, 0.4, -0.6, 0.99999994, -0.99999994, 1.5, -1.5, 127.9, 128.0, 128.5, -128.9, -129.0, -129.5,
        255.9, 256.0, -1.0, -0.999, 32767.9, 32768.0, -32768.9, -32769.0, 2147483520.0, 2147483648.0,
        -2147483648.0, -2147483904.0, 9.2233715e18, 9.223372e18, 1e19, -1e19, 3e9, -3e9, 1e-45, -1e-45,
        np.nan, -np.nan, np.inf, -np.inf, 65535.99, 16777217.0]
_SPECIAL = {
    "int8": [-128, -127, -1, 0, 1, 127, 126, 64],
    "uint8": [0, 1, 127, 128, 129, 254, 255],
    "int16": [-32768, -32767, -129, -128, -1, 0, 1, 127, 128, 255, 256, 32767],
    "uint16": [0, 1, 127, 128, 255, 256, 32767, 32768, 32769, 65534, 65535],
    "uint32": [0, 1, 255, 256, 65535, 65536, 2**31 - 1, 2**31, 2**31 + 1, 16777217, 4294967040, 2**32 - 1],
    "int32": [-2**31, -2**31 + 1, -32769, -32768, -129, -1, 0, 1, 255, 256, 65535, 65536, 70000, 16777217,
              16777219, 2**31 - 1, 2**31 - 64, 123456789],
    "int64": [-2**63, -2**63 + 1, -2**31 - 1, -2**31, -1, 0, 1, 2**31 - 1, 2**31, 2**32 + 5, 2**40 + 5,
              2**53 + 1, 2**62 + 12345, 2**63 - 1, 16777217, -9007199254740993],
    "float32": _F32,
    "bool": [True, False, True, True, False],
}


def _values(dtype: str, rng: np.random.Generator, special: bool) -> np.ndarray:
    if dtype == "bool":
        values = rng.integers(0, 2, size=COUNT).astype(bool)
    elif dtype == "float32":
        values = (rng.standard_normal(COUNT) * 10.0 ** rng.integers(0, 20, size=COUNT)).astype(np.float32)
    else:
        info = np.iinfo(dtype)
        values = rng.integers(info.min, info.max, size=COUNT, endpoint=True, dtype=np.int64).astype(dtype)
    if special:
        chosen = np.asarray(_SPECIAL[dtype]).astype(dtype)
        values[:len(chosen)] = chosen
    return values


def _all_pairs_model() -> bytes:
    b = ModelBuilder(description="helia-aot: CAST between every pair of dtypes")
    inputs = {d: b.input(f"x_{d}", [COUNT], d) for d in DTYPES}
    for src in DTYPES:
        for dst in DTYPES:
            y = b.tensor(f"{src}_to_{dst}", [COUNT], dst)
            b.output(y)
            b.op("CAST", [inputs[src]], [y])
    return b.build()


def test_cast_every_pair_matches_litert_bit_for_bit(e2e):
    model = harness.ModelUnderTest(name="cast_all_pairs", kind="case", model_bytes=_all_pairs_model(), seed=0,
                                   tolerance=0)
    rng = np.random.default_rng(2024)
    model.samples = [[_values(d, rng, special=(s == 0)) for d in DTYPES] for s in range(3)]
    got = e2e.host_outputs(model, e2e.portable_host_library())
    want = model.reference
    names = [f"{s}_to_{d}" for s in DTYPES for d in DTYPES]
    differing = {}
    for o, name in enumerate(names):
        for g, w in zip(got, want):
            if g[o].dtype != w[o].dtype or g[o].tobytes() != w[o].tobytes():
                bad = np.flatnonzero(g[o].view(np.uint8) != w[o].view(np.uint8))
                differing[name] = f"first differing byte {bad[:1].tolist()}: got {g[o][:6]}, LiteRT {w[o][:6]}"
    assert not differing, differing

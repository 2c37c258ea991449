# SPDX-License-Identifier: Apache-2.0
"""Operator lowerings: one module per operator (pad.py also takes PADV2, its variant with a padding value),
each registering its OpLowering with @register, beside `base` (the contract and the registry) and the
`shared` subpackage (what several of them share; it registers nothing). `load_all` imports every module
here, so adding an operator never touches a central switch."""

from __future__ import annotations

import importlib
import pkgutil

from helia_aot.ops.base import OpLowering, Variant, registry

_loaded = False


def load_all() -> dict[str, OpLowering]:
    global _loaded
    if not _loaded:
        for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
            if not info.ispkg and info.name != "base":
                importlib.import_module(f"{__name__}.{info.name}")
        _loaded = True
    return registry()


def get(op_type: str) -> OpLowering | None:
    return load_all().get(op_type)


def supported_operators() -> list[str]:
    return sorted(load_all())


def catalog() -> list[tuple[str, Variant]]:
    """Every (operator type, variant) the compiler lowers, sorted: the data the validator uses."""
    return [(op_type, v) for op_type, module in sorted(load_all().items()) for v in module.variants]


def stateful_operators() -> list[str]:
    """Operator types whose module keeps state in variable tensors (OpLowering.keeps_state)."""
    return sorted(op_type for op_type, module in load_all().items() if module.keeps_state) or ["none"]

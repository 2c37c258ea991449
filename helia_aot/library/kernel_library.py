# SPDX-License-Identifier: Apache-2.0
"""The kernel library a module links, handed to every lowering.

Entry choice, scratch sizes and precomputed weight sums all depend on the library that will
actually run: ns-cmsis-nn's Helium, DSP or plain-C build, or our portable kernels (ns-cmsis-nn's
API, plain-C dispatch, no scratch). A lowering never looks at the target for these decisions.
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from helia_aot.errors import InvalidConfigError
from helia_aot.config.targets import Target
from helia_aot.library import own_kernels
from helia_aot.version import ns_cmsis_nn_required_str

LIBRARIES = ("ns_cmsis_nn", "portable")
# The functions each ns-cmsis-nn release declares in its public headers, one file per release
# (<version>.json), written by tools/ns_cmsis_nn_entries.py from the release's Include/*.h.
ENTRIES_DIR = Path(__file__).resolve().parent / "ns_cmsis_nn_entries"
# Our own kernels, linked beside either library: the Signal kernels (helia_signal_*) and the kernel
# families of helia_aot.library.own_kernels (helia_mve_* on cores with MVE, helia_dsp_* on cores with
# the DSP extension). They are no part of ns-cmsis-nn's API.
OWN_KERNEL_PREFIX = "helia_"


@functools.lru_cache(maxsize=None)
def ns_cmsis_nn_entries(version: str) -> frozenset[str]:
    """The functions ns-cmsis-nn `version` declares (its recorded entry list)."""
    path = ENTRIES_DIR / f"{version}.json"
    try:
        return frozenset(json.loads(path.read_text(encoding="utf-8"))["entries"])
    except (OSError, ValueError, KeyError) as exc:
        raise InvalidConfigError(f"no readable entry list for ns-cmsis-nn {version} ({path.name}: {exc})",
                                 "Reinstall helia-aot, or write the list with tools/ns_cmsis_nn_entries.py "
                                 "--write <ns-cmsis-nn checkout>") from None


@dataclass(frozen=True)
class KernelLibrary:
    name: str  # "ns_cmsis_nn" or "portable"
    version: str  # the ns-cmsis-nn API release it provides
    build: str  # whose dispatch rules the module follows: "mve", "dsp" or "plain"
    needs_scratch: bool  # False: every ctx->buf may be NULL / 0 bytes
    wants_weight_sums: bool  # the Helium kernels read bias + offset * weight sums from a context
    # Our own Helium kernels (kernels/helium, helia_mve_* entries) link beside the library on a core
    # with MVE; their entries are then candidates (helia_aot.lowering.kernel_choice weighs them by cost).
    helium_kernels: bool = False
    # Our DSP kernels (kernels/dsp, helia_dsp_* entries) likewise, on a core with the DSP extension and
    # no MVE.
    dsp_kernels: bool = False
    # The ns-cmsis-nn API entries the library defines; None: every entry a variant declares (the portable
    # kernels, tests/kernels/test_exports.py). Lowering never calls an entry outside it.
    entries: frozenset[str] | None = None

    def provides(self, entry: str) -> bool:
        """Whether a module on this library may call `entry`: one of the library's, or of our own kernels
        linked beside it."""
        return entry.startswith(OWN_KERNEL_PREFIX) or self.entries is None or entry in self.entries

    def scratch(self, sizer: Callable[..., int], *args, **kwargs) -> int:
        """Bytes of ctx->buf an entry needs here: the library's own sizer for its build, 0 when the
        library needs none."""
        return int(sizer(self.build, *args, **kwargs)) if self.needs_scratch else 0

    @property
    def description(self) -> str:
        if self.name == "portable":
            return f"helia-aot portable kernels (ns-cmsis-nn {self.version} API, no scratch)"
        return f"ns-cmsis-nn {self.version}, {self.build} build"


def resolve(name: str | None, target: Target) -> KernelLibrary:
    """The library `name` as built for `target` (ns-cmsis-nn's build flavour follows the core)."""
    name = name or "ns_cmsis_nn"
    if name not in LIBRARIES:
        raise InvalidConfigError(f"kernel library {name!r} is unknown (known: {', '.join(LIBRARIES)})",
                                 "Use ns_cmsis_nn or portable")
    version = ns_cmsis_nn_required_str()
    # kernels/helium needs only the structs of arm_nn_types.h, which both libraries provide, and MVE
    # in the core: it links beside either library there. Beside the portable kernels it keeps their
    # promise (no scratch, bit-identical results) and only makes the layers it covers faster.
    # kernels/dsp, the same on a core with the DSP extension.
    families = own_kernels.families_for(target.capabilities)
    own = dict(helium_kernels=own_kernels.HELIUM in families, dsp_kernels=own_kernels.DSP in families)
    if name == "portable":
        # Both libraries provide every entry a variant declares (tests/kernels/test_exports.py).
        return KernelLibrary("portable", version, "plain", needs_scratch=False, wants_weight_sums=False, **own)
    build = target.kernel_build
    return KernelLibrary("ns_cmsis_nn", version, build, needs_scratch=True, wants_weight_sums=build == "mve",
                         entries=ns_cmsis_nn_entries(version), **own)


# ns-cmsis-nn declares its float API (arm_nnfunctions_flt.h) and compiles its float sources only
# under these switches; an entry of that API is named for its element type: _f32 or _f16 at the end
# with no integer type in the name (arm_dequantize_s16_f32 belongs to the integer API).
_FLOAT_API = re.compile(r"arm_(?!.*_s(?:4|8|16|32|64)_)\w*_(f32|f16)")
_SWITCHES = {"f32": "ARM_NN_ENABLE_F32", "f16": "ARM_NN_ENABLE_F16"}


def library_switches(symbols) -> list[str]:
    """The build switches the library and the module must both be compiled with for these kernel
    calls, sorted; empty for integer-only modules."""
    return sorted({_SWITCHES[m.group(1)] for s in symbols if (m := _FLOAT_API.fullmatch(s))})

# SPDX-License-Identifier: Apache-2.0
"""Our own kernel families: optimized kernels that link beside the kernel library on the cores whose
instructions they use, each taking ns-cmsis-nn's structs under its own entry prefix. Stated once here
for the compiler (which entries a lowering may offer), the emitter (the header a module includes, the
folder and CMake target it links) and the benchmark tools (what a firmware builds beside the library).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class KernelFamily:
    name: str  # "helium", "dsp"
    title: str  # how the generated README and comments name it
    prefix: str  # every entry's name starts with it
    header: str  # declares the entries; under <folder>/include
    folder: str  # relative to the helia-aot tree
    cmake_target: str  # kernels/<name>/CMakeLists.txt's alias target
    cores: str  # which cores it serves, for people

    @property
    def cmake_variable(self) -> str:
        """The generated CMakeLists.txt's cache variable suffix naming a user's own build of them."""
        return f"{self.name.upper()}_KERNELS"


HELIUM = KernelFamily("helium", "Helium", "helia_mve_", "helia_helium.h", "kernels/helium",
                      "helia::helium_kernels", "an MVE target only")
# The Armv7E-M / Armv8-M DSP extension (SXTAB16, SMLAD, ...): Cortex-M4, M7, M33, M35P. Cores with MVE
# take the Helium kernels instead.
DSP = KernelFamily("dsp", "DSP", "helia_dsp_", "helia_dsp.h", "kernels/dsp", "helia::dsp_kernels",
                   "a core with the DSP extension and no MVE")
FAMILIES = (HELIUM, DSP)


def families_for(capabilities) -> tuple[KernelFamily, ...]:
    """The families a core with these capabilities (helia_aot.config.targets) links."""
    if "mve" in capabilities:
        return (HELIUM,)
    if "dsp" in capabilities:
        return (DSP,)
    return ()


def family_of(entry: str) -> KernelFamily | None:
    return next((f for f in FAMILIES if entry.startswith(f.prefix)), None)


def families_called(symbols) -> tuple[KernelFamily, ...]:
    """The families whose entries are among `symbols`, in FAMILIES order."""
    called = {family_of(s) for s in symbols}
    return tuple(f for f in FAMILIES if f in called)

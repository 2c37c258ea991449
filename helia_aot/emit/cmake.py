# SPDX-License-Identifier: Apache-2.0
"""module.type: cmake: a CMakeLists.txt beside include/ and src/ defining the <prefix>_model library.

It links the kernel target a parent project provides (ns-cmsis-nn's ns::cmsis-nn) or helia-aot's
portable kernels, which kernels/portable ships as a CMake package (helia_portable_kernels), and, when
the module calls them, our Helium kernels (kernels/helium: helia::helium_kernels) and TFLM's Signal
kernels (which ns-cmsis-nn lacks: helia::signal_kernels, from kernels/portable).
"""

from __future__ import annotations

from helia_aot.emit import c_syntax as codegen
from helia_aot.emit.module import _LIBM_CALL, _SIGNAL_CALL, own_kernels_called, variant_switches
from helia_aot.library.kernel_library import library_switches
from helia_aot.version import __version__, ns_cmsis_nn_required_str


def cmake_lists(files: dict[str, str], steps, code, options, sha256: str, with_test_data: bool) -> str:
    """The CMakeLists.txt text for a module whose files (relative path -> text) are `files`."""
    prefix = options.prefix
    switches = sorted(set(library_switches(symbol for c in code for symbol in c.calls)) | set(variant_switches(steps)))
    return codegen.render(
        "CMakeLists.txt.j2", prefix=prefix, PREFIX=prefix.upper(), version=__version__, sha256=sha256,
        target=options.target.name, kernel_library=options.kernels.name,
        kernels_version=ns_cmsis_nn_required_str(),
        sources=sorted(rel[len("src/"):] for rel in files if rel.startswith("src/") and rel.endswith(".c")),
        switches=switches, libm=any(_LIBM_CALL.search(c.body or "") for c in code),
        own_kernels=own_kernels_called(code), signal=any(_SIGNAL_CALL.search(c.body or "") for c in code),
        test_main=with_test_data)

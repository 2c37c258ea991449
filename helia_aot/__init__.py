# SPDX-License-Identifier: Apache-2.0
"""helia_aot: ahead-of-time compiler from LiteRT models (int8, int16, float32, float16, hybrid) to
stand-alone C modules for Arm Cortex-M that call ns-cmsis-nn, our portable kernels or our Helium kernels.
The conversion is helia_aot/pipeline.py, read top to bottom; `convert` is its public entry."""

from helia_aot.pipeline import ConversionResult, convert
from helia_aot.errors import (HeliaError, InvalidConfigError, InvalidModelError, InvalidPrefixError, OutputDirError,
                              UnknownTargetError, UnsupportedModelError)
from helia_aot.version import __version__

__all__ = [
    "ConversionResult", "convert", "HeliaError", "InvalidConfigError", "InvalidModelError", "InvalidPrefixError",
    "OutputDirError", "UnknownTargetError", "UnsupportedModelError", "__version__",
]

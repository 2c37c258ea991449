# SPDX-License-Identifier: Apache-2.0
"""helia_aot: ahead-of-time compiler from LiteRT int8 models to C modules calling ns-cmsis-nn."""

from helia_aot.pipeline import ConversionResult, convert
from helia_aot.errors import (HeliaError, InvalidConfigError, InvalidModelError, InvalidPrefixError, OutputDirError,
                              UnknownTargetError, UnsupportedModelError)
from helia_aot.version import __version__

__all__ = [
    "ConversionResult", "convert", "HeliaError", "InvalidConfigError", "InvalidModelError", "InvalidPrefixError",
    "OutputDirError", "UnknownTargetError", "UnsupportedModelError", "__version__",
]

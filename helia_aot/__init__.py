# SPDX-License-Identifier: Apache-2.0
"""helia_aot: ahead-of-time compiler from LiteRT int8 models to C modules calling ns-cmsis-nn."""

from .compiler import ConversionResult, convert
from .errors import (HeliaError, InvalidConfigError, InvalidModelError, InvalidPrefixError, OutputDirError,
                     UnknownTargetError, UnsupportedModelError)
from .version import __version__

__all__ = [
    "ConversionResult", "convert", "HeliaError", "InvalidConfigError", "InvalidModelError", "InvalidPrefixError",
    "OutputDirError", "UnknownTargetError", "UnsupportedModelError", "__version__",
]

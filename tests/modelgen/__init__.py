# SPDX-License-Identifier: Apache-2.0
"""Test model builder: writes LiteRT .tflite models for helia-aot's tests."""

from tests.modelgen import quant
from tests.modelgen.builder import ModelBuilder, TensorRef
from tests.modelgen.errors import BuilderError, CaseFileError, ModelGenError

__all__ = ["ModelBuilder", "TensorRef", "quant", "BuilderError", "CaseFileError",
           "ModelGenError"]

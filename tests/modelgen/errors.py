# SPDX-License-Identifier: Apache-2.0
"""Typed errors raised by the test model builder and the case-file loader."""


class ModelGenError(ValueError):
    """Base class: a model or case description the builder cannot turn into a model."""


class BuilderError(ModelGenError):
    """A ModelBuilder call with an unknown operator, option, dtype or bad tensor data."""


class CaseFileError(ModelGenError):
    """A YAML case file that is missing a key, has an unknown key, or a bad value."""

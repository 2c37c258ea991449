# SPDX-License-Identifier: Apache-2.0
"""The module's files: C rendering, symbol names, templates and the CMake export."""

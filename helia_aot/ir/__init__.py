# SPDX-License-Identifier: Apache-2.0
"""The intermediate representation: graph, tensors, dtypes and quantization arithmetic."""

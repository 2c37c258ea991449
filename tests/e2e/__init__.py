# SPDX-License-Identifier: Apache-2.0
"""End-to-end verification of generated modules against LiteRT, ns-cmsis-nn and QEMU."""

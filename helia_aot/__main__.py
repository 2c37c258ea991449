# SPDX-License-Identifier: Apache-2.0
"""`python -m helia_aot` is the helia-aot command."""

from .cli import run

run()

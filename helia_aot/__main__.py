# SPDX-License-Identifier: Apache-2.0
"""`python -m helia_aot` is the helia-aot command."""

from helia_aot.cli import run

run()

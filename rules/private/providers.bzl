# SPDX-License-Identifier: Apache-2.0
"""Providers that flow between helia-aot rules."""

HeliaModuleInfo = provider(
    doc = "A generated helia-aot module: what it was made from and what the compiler decided.",
    fields = {
        "prefix": "C symbol prefix of the module (string).",
        "target": "helia-aot target name the module was generated for (string).",
        "model": "The .tflite model File.",
        "config": "The YAML configuration File, or None.",
        "plan": "The <prefix>_plan.json File (every choice the compiler made).",
        "report": "The <prefix>_report.json File (why).",
    },
)

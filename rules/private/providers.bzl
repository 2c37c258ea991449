# SPDX-License-Identifier: Apache-2.0
"""Providers that flow between helia-aot rules."""

HeliaModuleInfo = provider(
    doc = "A generated helia-aot module: what it was made from and what the compiler decided.",
    fields = {
        "prefix": "C symbol prefix of the module (string).",
        "target": "helia-aot target name the module was generated for (string).",
        "kernel_library": "Kernel library the module is planned for and links: ns_cmsis_nn or portable (string).",
        "model": "The .tflite model File.",
        "config": "The YAML configuration File, or None.",
        "input_plan": "The plan File the module was converted by (the attribute plan), or None.",
        "plan": "The <prefix>_plan.json File (every choice the compiler made).",
        "report": "The <prefix>_report.json File (why).",
        "report_html": "The <prefix>_report.html File: the plan and report as a self-contained page.",
    },
)

HeliaKernelLibraryInfo = provider(
    doc = "Which kernel library a cc target is, so modules are planned (entries, scratch) for it.",
    fields = {
        "name": "ns_cmsis_nn or portable (string), as helia-aot's module.kernel_library names it.",
    },
)

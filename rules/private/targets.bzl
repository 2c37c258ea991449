# SPDX-License-Identifier: Apache-2.0
"""Which helia-aot target suits which platform, for defaults and mismatch errors at analysis time.

Mirrors the CPU of each target in helia_aot/config/targets.py; tests/bazel checks the two agree.
"""

# helia-aot target name -> the core it runs on ("host" for a hosted build).
TARGET_CORES = {
    "corstone300": "cortex-m55",
    "apollo510_evb": "cortex-m55",
    "apollo4p_evb": "cortex-m4",
    "host": "host",
}

# The target a module gets when its rule does not name one, by the core being built for.
DEFAULT_TARGET_FOR_CORE = {
    "cortex-m55": "corstone300",
    "cortex-m4": "apollo4p_evb",
    "host": "host",
}

def platform_core(ctx):
    """The core of the platform being built for: cortex-m55, cortex-m4, or host."""
    if ctx.target_platform_has_constraint(ctx.attr._cortex_m55[platform_common.ConstraintValueInfo]):
        return "cortex-m55"
    if ctx.target_platform_has_constraint(ctx.attr._cortex_m4[platform_common.ConstraintValueInfo]):
        return "cortex-m4"
    return "host"

PLATFORM_CORE_ATTRS = {
    "_cortex_m55": attr.label(default = "//toolchains/constraints:cortex_m55"),
    "_cortex_m4": attr.label(default = "//toolchains/constraints:cortex_m4"),
}

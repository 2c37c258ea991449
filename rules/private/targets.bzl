# SPDX-License-Identifier: Apache-2.0
"""Which helia-aot target suits which platform, for defaults and mismatch errors at analysis time.

Derived from toolchains/arm_gnu/cores.bzl, the one table of core facts: its built-in targets
(TARGET_CORE_NAMES, which tests/bazel checks against helia_aot/config/targets.py), each core's CPU
name and default target, and the constraint of every core.
"""

load("//toolchains/arm_gnu:cores.bzl", "CORES", "TARGET_CORE_NAMES")

# helia-aot target name -> the core it runs on ("host" for a hosted build).
TARGET_CORES = dict(
    {target: CORES[name]["core"] for target, name in TARGET_CORE_NAMES.items()},
    host = "host",
)

# The target a module gets when its rule does not name one, by the core being built for. A core
# without one (no built-in target yet) needs the rule's target attribute.
DEFAULT_TARGET_FOR_CORE = dict(
    {core["core"]: core["default_target"] for core in CORES.values() if "default_target" in core},
    host = "host",
)

def platform_core(ctx):
    """The CPU name (cores.bzl "core", e.g. cortex-m33) of the platform being built for, or host."""
    for name, core in CORES.items():
        if ctx.target_platform_has_constraint(getattr(ctx.attr, "_core_" + name)[platform_common.ConstraintValueInfo]):
            return core["core"]
    return "host"

PLATFORM_CORE_ATTRS = {
    "_core_" + name: attr.label(default = "//toolchains/constraints:" + name)
    for name in CORES
}

# SPDX-License-Identifier: Apache-2.0
"""Analysis tests of helia_aot_module: the target follows the platform, and a mismatch fails."""

load("@bazel_skylib//lib:unittest.bzl", "analysistest", "asserts")
load("//rules:defs.bzl", "HeliaModuleInfo")

def _mismatch_fails_impl(ctx):
    env = analysistest.begin(ctx)
    asserts.expect_failure(env, "target 'apollo4p_evb' runs on cortex-m4, but this build is for a cortex-m55 platform")
    return analysistest.end(env)

target_mismatch_fails_test = analysistest.make(
    _mismatch_fails_impl,
    expect_failure = True,
    config_settings = {"//command_line_option:platforms": str(Label("//toolchains/platforms:corstone300"))},
)

def _no_default_target_fails_impl(ctx):
    env = analysistest.begin(ctx)
    asserts.expect_failure(env, "no built-in target runs on cortex-m85, the core of this build's platform. Set target")
    return analysistest.end(env)

# A core without a built-in target (cores.bzl default_target; the Cortex-M85, built here but run by no
# emulator) needs the rule's target and a config.
no_default_target_fails_test = analysistest.make(
    _no_default_target_fails_impl,
    expect_failure = True,
    config_settings = {"//command_line_option:platforms": str(Label("//toolchains/platforms:cortex_m85"))},
)

def _make_default_target_test(expected_target, platform):
    def _impl(ctx):
        env = analysistest.begin(ctx)
        info = analysistest.target_under_test(env)[HeliaModuleInfo]
        asserts.equals(env, expected_target, info.target)
        asserts.equals(env, "kws", info.prefix)
        return analysistest.end(env)

    settings = {"//command_line_option:platforms": str(Label(platform))} if platform else {}
    return analysistest.make(_impl, config_settings = settings)

default_target_corstone300_test = _make_default_target_test("corstone300", "//toolchains/platforms:corstone300")
default_target_cortex_m4_test = _make_default_target_test("apollo4p_evb", "//toolchains/platforms:cortex_m4")
default_target_cortex_m3_test = _make_default_target_test("mps2_an385", "//toolchains/platforms:cortex_m3")
default_target_host_test = _make_default_target_test("host", None)

# Bad attributes fail analysis with one message naming the attribute (not the conversion action).
def _make_failure_test(message):
    def _impl(ctx):
        env = analysistest.begin(ctx)
        asserts.expect_failure(env, message)
        return analysistest.end(env)

    return analysistest.make(_impl, expect_failure = True)

default_prefix_fails_test = _make_failure_test(
    "the default prefix, the target name 'kws-module', is not a C identifier (it contains '-')",
)
bad_prefix_fails_test = _make_failure_test(
    "attribute prefix '1kws' is not a C identifier (it does not start with a letter or underscore)",
)
unknown_target_fails_test = _make_failure_test(
    "attribute target 'corstone30' is not a built-in target (apollo3_evb, apollo3p_evb, apollo4l_evb, apollo4p_evb,",
)
zero_samples_fails_test = _make_failure_test("attribute num_samples is 0; it must be from 1 to 10000")
negative_tolerance_fails_test = _make_failure_test("attribute tolerance is -1; it must be at least 0")
negative_seed_fails_test = _make_failure_test("attribute seed is -1; it must be at least 0")

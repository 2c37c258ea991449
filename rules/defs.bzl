# SPDX-License-Identifier: Apache-2.0
"""Public API of helia-aot's Bazel rules.

    load("@helia_aot//rules:defs.bzl", "helia_aot_module", "helia_aot_golden_test")
"""

load("//rules/private:golden_test.bzl", _helia_aot_golden_test = "helia_aot_golden_test")
load("//rules/private:model_suite.bzl", _helia_aot_model_suite = "helia_aot_model_suite")
load("//rules/private:module.bzl", _helia_aot_module = "helia_aot_module")
load("//rules/private:providers.bzl", _HeliaModuleInfo = "HeliaModuleInfo")

helia_aot_module = _helia_aot_module
helia_aot_golden_test = _helia_aot_golden_test
helia_aot_model_suite = _helia_aot_model_suite
HeliaModuleInfo = _HeliaModuleInfo

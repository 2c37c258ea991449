# SPDX-License-Identifier: Apache-2.0
"""The int8 MLPerf Tiny models and TFLM's person_detect as a Bazel repository, @suite_models.

//models/suite compiles and golden-tests them. The files are never committed here; each is pinned by
its sha256 (the files the goldens were measured on) and taken from:
  - MLPerf Tiny's: `HELIA_MODELS_DIR` (tools/bazel sets it to ../shared/models/mlperf-tiny);
  - person_detect: `HELIA_TFLM_MODELS_DIR`, else the `tflm` folder beside `HELIA_MODELS_DIR` (as
    @tflm_models finds its files).
A local file whose sha256 differs is an error. A file found nowhere is, as in @tflm_models, a target no
platform is compatible with, so what uses it is skipped (Bazel says SKIPPED) and the rest of the build
is analysed. `defs.bzl` says why: SKIP_TAGS maps each file to the tags of the tests that need it
(tests/skip_policy.py's SKIP_TAG + MODELS_NOT_AVAILABLE reason; [] when the file is here).
"""

# name -> (folder variable, sha256).
SUITE_FILES = {
    "kws_ref_model.tflite": ("mlperf", "aeea436800704fce17b17292e4412630ad856e9d777c044c64ef748a880bd0ae"),
    "vww_96_int8.tflite": ("mlperf", "597a384c8c2c8a1276f04702f25013b7838f2f814f1ca7c174d295b73e3d6b7b"),
    "pretrainedResnet_quant.tflite": ("mlperf", "3c002613d1b2475eb51dd78dfb85a546c8ae658dee71cf6ade43b022fe205415"),
    "ad01_int8.tflite": ("mlperf", "87cf24194ef93d1d9b11a591d805526b98008e351655d29883c825c9c106ba24"),
    "person_detect.tflite": ("tflm", "808cfdfc0cf3a6fa6f6fa26bfa379ea97c16d5db7334637766e39c3408502e9d"),
}

# tests/skip_policy.py's MODELS_NOT_AVAILABLE and SKIP_TAG (tests/bazel/test_missing_models.py checks
# the summary of tools/run_tests reads them).
_REASON_PREFIX = "models not available: "
_SKIP_TAG = "helia-skip: "

_HOW = {
    "mlperf": "set HELIA_MODELS_DIR to the mlperf-tiny folder holding it",
    "tflm": "set HELIA_TFLM_MODELS_DIR to a folder holding it, or HELIA_MODELS_DIR to the mlperf-tiny folder beside such a tflm folder",
}

def _folders(rctx):
    """{"mlperf": folder or None, "tflm": folder or None}."""
    mlperf = rctx.os.environ.get("HELIA_MODELS_DIR", "").rstrip("/")
    tflm = rctx.os.environ.get("HELIA_TFLM_MODELS_DIR", "").rstrip("/")
    if not tflm and "/" in mlperf:
        tflm = mlperf.rsplit("/", 1)[0] + "/tflm"
    return {
        "mlperf": mlperf if mlperf and rctx.path(mlperf).exists else None,
        "tflm": tflm if tflm and rctx.path(tflm).exists else None,
    }

def _suite_models_repository_impl(rctx):
    folders = _folders(rctx)
    skip_tags = {}
    lines = [
        "# Written by helia-aot's third_party/suite_models/extension.bzl.",
        'package(default_visibility = ["//visibility:public"])',
        'constraint_setting(name = "suite_files")',
        'constraint_value(name = "not_available", constraint_setting = ":suite_files")',
    ]
    for name, (kind, sha256) in SUITE_FILES.items():
        folder = folders[kind]
        source = folder + "/" + name if folder else None
        if source and rctx.path(source).exists:
            # Without an expected sha256, download() reads the file and returns its sha256.
            result = rctx.download(url = "file://" + str(rctx.path(source)), output = name)
            if result.sha256 != sha256:
                fail("{} is not the {} the suite was measured on (sha256 must be {}); replace it.".format(source, name, sha256))
            lines.append("exports_files([{}])".format(repr(name)))
            skip_tags[name] = []
        else:
            reason = "{}{} for //models/suite ({})".format(_REASON_PREFIX, name, _HOW[kind])
            lines.append('filegroup(name = {}, target_compatible_with = [":not_available"])'.format(repr(name)))
            skip_tags[name] = [_SKIP_TAG + reason]
    rctx.file("BUILD.bazel", "\n".join(lines) + "\n")
    rctx.file("defs.bzl", "# Written by helia-aot's third_party/suite_models/extension.bzl.\n" +
                          "# File -> the skip tags of the tests that need it ([] when it is here).\n" +
                          "SKIP_TAGS = {}\n".format(repr(skip_tags)))

suite_models_repository = repository_rule(
    implementation = _suite_models_repository_impl,
    environ = ["HELIA_TFLM_MODELS_DIR", "HELIA_MODELS_DIR"],
    doc = "The int8 MLPerf Tiny models and TFLM's person_detect from local folders, each checked by sha256.",
)

def _suite_models_impl(module_ctx):
    suite_models_repository(name = "suite_models")

suite_models = module_extension(
    implementation = _suite_models_impl,
    doc = "Creates @suite_models: the models //models/suite compiles and golden-tests.",
)

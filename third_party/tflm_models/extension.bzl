# SPDX-License-Identifier: Apache-2.0
"""TensorFlow Lite Micro's micro_speech models and test clips as a Bazel repository, @tflm_models.

The files are TFLM's (Apache-2.0) and are never committed here. Each is pinned by its sha256 and
taken, in this order, from:
  1. `HELIA_TFLM_MODELS_DIR`, a local folder holding them;
  2. the `tflm` folder beside `HELIA_MODELS_DIR` (the MLPerf Tiny folder; the shared models are laid
     out as <shared>/models/{mlperf-tiny,tflm}, and tools/bazel sets HELIA_MODELS_DIR);
  3. TFLM's GitHub repository at the pinned commit.
A local file whose sha256 differs is an error (it is not the file the goldens were measured on).

When a file is found nowhere, the repository still exists, so `bazel build //...` and `bazel test //...`
analyse everything else: each missing file is a target that is incompatible with every platform, so
whatever uses it (all of //models/micro_speech) is skipped, and Bazel reports those tests SKIPPED,
not PASSED. `defs.bzl` says why: TFLM_FILES_MISSING is the one-line reason ("" when every file is
here) and SKIP_TAGS the tag that carries it on each test, which tools/run_tests' summary reads
(tools/lib/summarize_tests.py; the reason's prefix is tests/skip_policy.py's MODELS_NOT_AVAILABLE).
"""

TFLM_COMMIT = "90b983c2b3f1480642e040bbd2ddb37b998f3424"
_RAW_URL = "https://raw.githubusercontent.com/tensorflow/tflite-micro/{commit}/tensorflow/lite/micro/examples/micro_speech/{path}"

# name -> (path in TFLM's micro_speech example, sha256). The models' hashes are the ones
# ../shared/models/tflm/README.md records; the clips' were measured on the same files (equal to TFLM's
# blobs at TFLM_COMMIT).
TFLM_FILES = {
    "audio_preprocessor_int8.tflite": ("models/audio_preprocessor_int8.tflite", "278949d197166fb8b580c0bdc94e902fb709fec0569dcf5766816b28285440e5"),
    "micro_speech_quantized.tflite": ("models/micro_speech_quantized.tflite", "09e5e2a9dfb2d8ed78802bf18ce297bff54281a66ca18e0c23d69ca14f822a83"),
    "yes_1000ms.wav": ("testdata/yes_1000ms.wav", "b40e137a9d25bbdf135e03fa0f6bff4696d0bfc203aef8bc73b27c9428ba5a92"),
    "no_1000ms.wav": ("testdata/no_1000ms.wav", "21e2b640385e4a751d480a87ae5a1633a6ff00e838b0e2ad48b22f8034e946d8"),
    "silence_1000ms.wav": ("testdata/silence_1000ms.wav", "b2149db40d58f46ac63a510bd293bb7a9bf9e379429a79e7c5e3a8d66d55e7f0"),
    "noise_1000ms.wav": ("testdata/noise_1000ms.wav", "7f9cbb350f20ea8aafcd43a9386d8490241f9da64da6d3ad624e2aa36fe2029c"),
}

# The reason's prefix is tests/skip_policy.py's MODELS_NOT_AVAILABLE and the tag's is its SKIP_TAG:
# the summary of tools/run_tests matches both (tests/bazel/test_missing_models.py checks they agree).
_REASON_PREFIX = "models not available: "
_SKIP_TAG = "helia-skip: "

_DEFS_BZL = """\
# Written by helia-aot's third_party/tflm_models/extension.bzl.
# Why TFLM's micro_speech files are not all here ("" when they are).
TFLM_FILES_MISSING = {reason}

# Tags for each test that needs the files: they name the reason Bazel's SKIPPED does not give.
SKIP_TAGS = {tags}
"""

def _local_dir(rctx):
    """(folder, the variable it comes from) of the local copy to use, or (None, None)."""
    explicit = rctx.os.environ.get("HELIA_TFLM_MODELS_DIR", "")
    if explicit:
        return explicit.rstrip("/") or "/", "HELIA_TFLM_MODELS_DIR"
    mlperf = rctx.os.environ.get("HELIA_MODELS_DIR", "").rstrip("/")
    if mlperf and "/" in mlperf:
        sibling = mlperf.rsplit("/", 1)[0] + "/tflm"
        if rctx.path(sibling).exists:
            return sibling, "HELIA_MODELS_DIR"
    return None, None

def _fetch_one(rctx, name, path, sha256, local, variable):
    """Whether `name` is now in the repository."""
    if local:
        source = local + "/" + name
        if rctx.path(source).exists:
            # A copy through download(); without an expected sha256 it reads the file (not Bazel's
            # repository cache) and returns the file's sha256.
            result = rctx.download(url = "file://" + str(rctx.path(source)), output = name)
            if result.sha256 == sha256:
                return True
            fail("{}: {} is not TFLM's {} (sha256 must be {}); replace it or unset {}.".format(variable, source, name, sha256, variable))
        if variable == "HELIA_TFLM_MODELS_DIR":
            fail("HELIA_TFLM_MODELS_DIR={} has no {}; put TFLM's micro_speech models and clips there.".format(local, name))
    url = _RAW_URL.format(commit = TFLM_COMMIT, path = path)
    return rctx.download(url = url, output = name, sha256 = sha256, allow_fail = True).success

def _tflm_models_repository_impl(rctx):
    local, variable = _local_dir(rctx)
    missing = [
        name
        for name, (path, sha256) in TFLM_FILES.items()
        if not _fetch_one(rctx, name, path, sha256, local, variable)
    ]
    if not missing:
        rctx.file("defs.bzl", _DEFS_BZL.format(reason = repr(""), tags = repr([])))
        rctx.symlink(rctx.attr.build_file, "BUILD.bazel")
        return

    what = "models and clips" if len(missing) == len(TFLM_FILES) else "files " + ", ".join(missing)
    reason = (_REASON_PREFIX + "TFLM's micro_speech {what} (set HELIA_TFLM_MODELS_DIR to a folder holding " +
              "them, or HELIA_MODELS_DIR to the mlperf-tiny folder beside such a tflm folder, or allow the " +
              "download from {url})").format(what = what, url = _RAW_URL.format(commit = TFLM_COMMIT, path = ""))
    rctx.file("defs.bzl", _DEFS_BZL.format(reason = repr(reason), tags = repr([_SKIP_TAG + reason])))

    # A missing file is a target no platform is compatible with (its constraint is named for what is
    # wrong), so Bazel skips its users instead of failing the analysis of every target.
    lines = [
        "# Written by helia-aot's third_party/tflm_models/extension.bzl: " + reason,
        "",
        'package(default_visibility = ["//visibility:public"])',
        "",
        'constraint_setting(name = "tflm_files")',
        'constraint_value(name = "not_available", constraint_setting = ":tflm_files")',
        "",
    ]
    present = [name for name in TFLM_FILES if name not in missing]
    if present:
        lines.append("exports_files({})".format(repr(present)))
    for name in TFLM_FILES:
        if name in missing:
            lines.append('filegroup(name = {}, target_compatible_with = [":not_available"])'.format(repr(name)))
    lines.append('filegroup(name = "clips", srcs = {})'.format(repr([n for n in TFLM_FILES if n.endswith(".wav")])))
    rctx.file("BUILD.bazel", "\n".join(lines) + "\n")

tflm_models_repository = repository_rule(
    implementation = _tflm_models_repository_impl,
    attrs = {
        "build_file": attr.label(
            default = "//third_party/tflm_models:tflm_models.BUILD.bazel",
            allow_single_file = True,
            doc = "The BUILD file of the repository when every file is there.",
        ),
    },
    environ = ["HELIA_TFLM_MODELS_DIR", "HELIA_MODELS_DIR"],
    doc = "TFLM's micro_speech models and clips from a local folder or TFLM's GitHub, each checked by sha256.",
)

def _tflm_models_impl(module_ctx):
    tflm_models_repository(name = "tflm_models")

tflm_models = module_extension(
    implementation = _tflm_models_impl,
    doc = "Creates @tflm_models: TFLM's micro_speech models and test clips (models/micro_speech uses them).",
)

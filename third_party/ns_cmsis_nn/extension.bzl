# SPDX-License-Identifier: Apache-2.0
"""The ns-cmsis-nn kernel library as a Bazel repository, @ns_cmsis_nn.

Pinned to AmbiqAI/ns-cmsis-nn tag v7.29.2 by commit. With network the pinned commit is downloaded.
`HELIA_NS_CMSIS_NN_DIR` names a local checkout instead (the way it is used offline); the rule checks
that checkout's version against the minimum generated modules need.
"""

NS_CMSIS_NN_TAG = "v7.29.2"
NS_CMSIS_NN_COMMIT = "631726420b04860a5c4236956a3741ff5a96bd7f"
NS_CMSIS_NN_MINIMUM = (7, 29, 2)

_UNAVAILABLE_BZL = """\
def _unavailable_impl(ctx):
    fail(ctx.attr.message)

unavailable_library = rule(implementation = _unavailable_impl, attrs = {"message": attr.string()})
"""

_UNAVAILABLE_BUILD = """\
load(":unavailable.bzl", "unavailable_library")

unavailable_library(
    name = "ns_cmsis_nn",
    message = "{message}",
    visibility = ["//visibility:public"],
)
"""

def _checkout_version(rctx, include_dir):
    header = rctx.read(include_dir + "/arm_nn_types.h")
    version = []
    for part in ("MAJOR", "MINOR", "PATCH"):
        marker = "#define NS_CMSIS_NN_VERSION_" + part
        if marker not in header:
            return None
        value = header.split(marker)[1].split("(")[1].split(")")[0].strip()
        version.append(int(value))
    return tuple(version)

def _ns_cmsis_nn_repository_impl(rctx):
    local = rctx.os.environ.get("HELIA_NS_CMSIS_NN_DIR", "")
    if local:
        if not rctx.path(local + "/Include/arm_nnfunctions.h").exists:
            fail("HELIA_NS_CMSIS_NN_DIR={} is not an ns-cmsis-nn checkout (no Include/arm_nnfunctions.h). ".format(local) +
                 "Point it at the root of a checkout of AmbiqAI/ns-cmsis-nn.")
        version = _checkout_version(rctx, local + "/Include")
        if version == None or version < NS_CMSIS_NN_MINIMUM:
            fail("HELIA_NS_CMSIS_NN_DIR={} holds ns-cmsis-nn {}, older than the {} helia-aot modules need. ".format(
                local,
                ".".join([str(v) for v in version]) if version else "of unknown version",
                ".".join([str(v) for v in NS_CMSIS_NN_MINIMUM]),
            ) + "Check out {} or newer.".format(NS_CMSIS_NN_TAG))
        for entry in ("Include", "Source", "LICENSE"):
            if rctx.path(local + "/" + entry).exists:
                rctx.symlink(local + "/" + entry, entry)
    else:
        result = rctx.download_and_extract(
            url = "https://github.com/AmbiqAI/ns-cmsis-nn/archive/{}.tar.gz".format(NS_CMSIS_NN_COMMIT),
            stripPrefix = "ns-cmsis-nn-" + NS_CMSIS_NN_COMMIT,
            allow_fail = True,
        )
        if not result.success:
            # Fail only if a build really selects ns-cmsis-nn, not when the repository is fetched
            # (queries and builds with the portable kernels must keep working offline).
            rctx.file("unavailable.bzl", _UNAVAILABLE_BZL)
            rctx.file("BUILD.bazel", _UNAVAILABLE_BUILD.format(
                message = ("ns-cmsis-nn {} could not be downloaded (no network?). Set HELIA_NS_CMSIS_NN_DIR " +
                           "to a local checkout, or build with --//kernels:backend=portable for helia-aot's " +
                           "portable kernels.").format(NS_CMSIS_NN_TAG),
            ))
            return
    rctx.symlink(rctx.attr.build_file, "BUILD.bazel")

ns_cmsis_nn_repository = repository_rule(
    implementation = _ns_cmsis_nn_repository_impl,
    attrs = {
        "build_file": attr.label(
            default = "//third_party/ns_cmsis_nn:ns_cmsis_nn.BUILD.bazel",
            allow_single_file = True,
            doc = "The BUILD overlay that compiles the tree.",
        ),
    },
    environ = ["HELIA_NS_CMSIS_NN_DIR"],
    doc = "ns-cmsis-nn from HELIA_NS_CMSIS_NN_DIR, or downloaded at the pinned commit.",
)

def _ns_cmsis_nn_impl(module_ctx):
    ns_cmsis_nn_repository(name = "ns_cmsis_nn")

ns_cmsis_nn = module_extension(
    implementation = _ns_cmsis_nn_impl,
    doc = "Creates @ns_cmsis_nn, the ns-cmsis-nn kernel library generated modules call.",
)

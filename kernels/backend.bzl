# SPDX-License-Identifier: Apache-2.0
"""kernel_library: forwards the kernel library //kernels:backend selects, and says which."""

load("@bazel_skylib//rules:common_settings.bzl", "BuildSettingInfo")
load("//rules/private:providers.bzl", "HeliaKernelLibraryInfo")

def _kernel_library_impl(ctx):
    backend = ctx.attr.backend[BuildSettingInfo].value
    if backend == "portable":
        # Printed when this target is analysed, which is once per change of configuration.
        print("helia-aot: modules link the portable kernels (//kernels:backend=portable); for ns-cmsis-nn set " +
              "HELIA_NS_CMSIS_NN_DIR and --//kernels:backend=ns_cmsis_nn.")  # buildifier: disable=print
    return [ctx.attr.library[CcInfo], HeliaKernelLibraryInfo(name = backend)]

kernel_library = rule(
    implementation = _kernel_library_impl,
    doc = "The kernel library generated modules link: the one //kernels:backend selects.",
    attrs = {
        "library": attr.label(mandatory = True, providers = [CcInfo], doc = "The selected library."),
        "backend": attr.label(mandatory = True, doc = "The //kernels:backend build setting."),
    },
)

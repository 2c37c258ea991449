# SPDX-License-Identifier: Apache-2.0
"""Hermetic Python for Bazel actions and tests.

The repository `@helia_python` holds a Python toolchain whose interpreter is a virtual environment
made from `requirements_lock.txt` (every package pinned by hash). On machines set up by
tools/bootstrap the environment already exists and `HELIA_PYTHON_VENV` names it; elsewhere this
rule makes one inside the repository with `python3 -m venv` and `pip --require-hashes`.

The interpreter path is absolute, so the environment belongs to one machine; it is never part of
an action's inputs, which is why the lock file's hash is (see `_lock_digest`).
"""

_BUILD_TEMPLATE = """\
load("@rules_python//python:defs.bzl", "py_runtime", "py_runtime_pair")

# Lock file digest {digest}: a change to the lock file re-creates this repository.
py_runtime(
    name = "python3_runtime",
    interpreter_path = "{interpreter}",
    python_version = "PY3",
    visibility = ["//visibility:public"],
)

py_runtime_pair(
    name = "runtime_pair",
    py3_runtime = ":python3_runtime",
)

toolchain(
    name = "python_toolchain",
    toolchain = ":runtime_pair",
    toolchain_type = "@bazel_tools//tools/python:toolchain_type",
)
"""

def _make_venv(rctx, lock):
    venv = rctx.path("venv")
    result = rctx.execute(["python3", "-m", "venv", str(venv)], quiet = False)
    if result.return_code != 0:
        fail("helia_python: `python3 -m venv` failed: {}. Install python3-venv.".format(result.stderr))
    result = rctx.execute(
        [str(venv) + "/bin/pip", "install", "--disable-pip-version-check", "--no-deps", "--require-hashes", "-r", str(lock)],
        quiet = False,
        timeout = 1200,
    )
    if result.return_code != 0:
        fail("helia_python: pip could not install {}: {}".format(lock, result.stderr))
    return str(venv) + "/bin/python3"

def _helia_python_repo_impl(rctx):
    lock = rctx.path(rctx.attr.lock_file)
    existing = rctx.os.environ.get("HELIA_PYTHON_VENV", "")
    if existing:
        interpreter = existing + "/bin/python3"
        if not rctx.path(interpreter).exists:
            fail("helia_python: HELIA_PYTHON_VENV={} has no bin/python3. Run tools/bootstrap.".format(existing))
    else:
        interpreter = _make_venv(rctx, lock)
    digest = rctx.execute(["sha256sum", str(lock)]).stdout.split(" ")[0]
    rctx.file("BUILD.bazel", _BUILD_TEMPLATE.format(interpreter = interpreter, digest = digest))

helia_python_repo = repository_rule(
    implementation = _helia_python_repo_impl,
    attrs = {
        "lock_file": attr.label(
            doc = "The pip lock file with --hash lines the environment is made from.",
            allow_single_file = True,
        ),
    },
    environ = ["HELIA_PYTHON_VENV"],
    doc = "A Python toolchain backed by a virtual environment made from a hashed lock file.",
)

def _helia_python_impl(module_ctx):
    helia_python_repo(
        name = "helia_python",
        lock_file = Label("//third_party/python:requirements_lock.txt"),
    )

helia_python = module_extension(
    implementation = _helia_python_impl,
    doc = "Creates @helia_python, the Python toolchain for helia-aot's actions and tests.",
)

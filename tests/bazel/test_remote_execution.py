# SPDX-License-Identifier: Apache-2.0
"""Remote execution on a real Remote Execution API service, as a monorepo's firmware team would run it.

tools/remote/local_reapi starts BuildGrid on 127.0.0.1 with two buildbox workers (stopped at the end).
A clone builds //models:kws_module and runs //models:kws_golden (QEMU) and //models:kws_golden_host
(ASan/UBSan), and, where the models are (../shared/models; CI requires them), every test of //models/suite,
with --config=remote: every action but Bazel's internal ones must execute remotely, as Bazel's
`INFO: N processes: ...` line counts them, and each module must be byte-identical to a local build's. A
second clone at another path must then get remote cache hits only. A worker killed in the middle of a
build: BuildGrid puts its job back in the queue once the worker's bot session lapses
(bot-session-keepalive-timeout, max-job-attempts in local_reapi), the build succeeds on the other worker
and the module is still identical. Last, a clone asking for a platform no worker offers (its rootfs
recipe bumped, the workers' not): BuildGrid's static property set refuses the action at once and Bazel
fails naming it, where a dynamic one would have queued it forever.

Skipped with tests/skip_policy.py's REMOTE_EXECUTION_NOT_SET_UP where the deployment's tools are missing
(HELIA_REMOTE_DEPLOYMENT_ROOT moves where they are looked for: tests/bazel/test_remote_execution_skip.py
points it at an absent folder to see every test here skip for that reason).
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import pytest
from tests.skip_policy import MODELS_NOT_AVAILABLE, REMOTE_EXECUTION_NOT_SET_UP, REQUIRE_MODELS_ENV

_REPO = Path(__file__).resolve().parents[2]
_LAUNCHER_RC = Path("/etc/helia/launcher.bazelrc")
_LOCAL_REAPI = _REPO / "tools" / "remote" / "local_reapi"
# What `HELIA_REMOTE_EXECUTION=1 tools/bootstrap` installs in the build root filesystem (this test runs
# inside it, so its root is /).
_DEPLOYMENT_ROOT = Path(os.environ.get("HELIA_REMOTE_DEPLOYMENT_ROOT", "/"))
_DEPLOYMENT_TOOLS = ("opt/helia-remote/bin/bgd", "usr/bin/buildbox-worker", "usr/bin/buildbox-casd",
                     "usr/bin/buildbox-run-hosttools", "usr/lib/postgresql/18/bin/postgres")
_TARGETS = ("//models:kws_module", "//models:kws_golden", "//models:kws_golden_host")
_KWS_MODULE = "models/kws_module"
# //models/suite's models by the folder they come from (third_party/suite_models, third_party/tflm_models).
_SUITE_MODELS = {"mlperf": ("kws_ref_model", "vww_96_int8", "pretrainedResnet_quant", "ad01_int8"),
                 "tflm": ("person_detect", "micro_speech_quantized")}
_SUITE_MODULES = tuple(f"models/suite/{name}_module" for names in _SUITE_MODELS.values() for name in names)
# The model folders the nested Bazel reads (.bazelrc passes them to repository rules and tests).
_PASSED_ENV = ("HELIA_MODELS_DIR", "HELIA_TFLM_MODELS_DIR", REQUIRE_MODELS_ENV)
# Spawn kinds of Bazel's summary line that ran on this machine rather than on a worker.
_REMOTE_KINDS = {"internal", "remote", "remote cache hit"}

pytestmark = pytest.mark.skipif(
    shutil.which("bazel") is None or not _LAUNCHER_RC.exists(),
    reason="needs the build environment of tools/bootstrap (run inside `bazel test`)",
)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _local_reapi(*args: str, timeout: int = 300) -> subprocess.CompletedProcess:
    return subprocess.run([str(_LOCAL_REAPI), *args], capture_output=True, text=True, timeout=timeout)


@pytest.fixture(scope="module")
def deployment():
    missing = [str(_DEPLOYMENT_ROOT / tool) for tool in _DEPLOYMENT_TOOLS
               if not os.access(_DEPLOYMENT_ROOT / tool, os.X_OK)]
    if missing:
        pytest.skip(f"{REMOTE_EXECUTION_NOT_SET_UP}: {', '.join(missing)} missing")
    port = str(_free_port())
    started = _local_reapi("start", "--port", port, "--workers", "2")
    assert started.returncode == 0, f"tools/remote/local_reapi start failed: {started.stdout}{started.stderr}"
    yield port
    stopped = _local_reapi("stop", "--port", port, timeout=120)
    assert stopped.returncode == 0, stopped.stderr


def _clone(destination: Path) -> Path:
    """The workspace's files as a clone has them: what git tracks, at a path of its own."""
    listed = subprocess.run(["git", "-C", str(_REPO), "ls-files", "-z"], capture_output=True, timeout=120)
    assert listed.returncode == 0, listed.stderr.decode(errors="replace")
    for name in listed.stdout.decode().split("\0"):
        source = _REPO / name
        if name and source.is_file():  # a file deleted in the working tree is not in the clone either
            target = destination / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    return destination


def _bazel_command(output_root: Path, *args: str) -> list[str]:
    return ["bazel", f"--output_user_root={output_root}", f"--bazelrc={_LAUNCHER_RC}", *args]


def _bazel_env(output_root: Path) -> dict[str, str]:
    env = {"HOME": str(output_root.parent), "PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8"}
    return env | {name: os.environ[name] for name in _PASSED_ENV if os.environ.get(name)}


def _label(module: str) -> str:
    """models/suite/vww_96_int8_module -> //models/suite:vww_96_int8_module"""
    package, _, name = module.rpartition("/")
    return f"//{package}:{name}"


def _suite_models_missing() -> list[str]:
    """The suite's model files not found where @suite_models and @tflm_models look for them locally."""
    mlperf = os.environ.get("HELIA_MODELS_DIR", "").rstrip("/")
    tflm = os.environ.get("HELIA_TFLM_MODELS_DIR", "").rstrip("/") or (
        str(Path(mlperf).parent / "tflm") if mlperf else "")
    folders = {"mlperf": mlperf, "tflm": tflm}
    return [f"{name}.tflite" for kind, names in _SUITE_MODELS.items() for name in names
            if not (folders[kind] and (Path(folders[kind]) / f"{name}.tflite").is_file())]


def _suite_runs() -> bool:
    """Whether //models/suite is part of the remote builds: its models are here, or the run requires them
    (CI), in which case a missing one fails the build rather than shrinking the test."""
    return not _suite_models_missing() or os.environ.get(REQUIRE_MODELS_ENV, "") not in ("", "0")


def _bazel(workspace: Path, output_root: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(_bazel_command(output_root, *args), cwd=workspace, env=_bazel_env(output_root),
                          capture_output=True, text=True, timeout=2400)


def _remote_flags(port: str) -> list[str]:
    # --config=remote's --jobs=8: more actions in flight than workers, as their round trips dominate.
    return ["--config=remote", f"--remote_executor=grpc://127.0.0.1:{port}"]


def _processes(stderr: str) -> dict[str, int]:
    """Bazel's summary of the spawns of one build, e.g. {'internal': 20, 'remote': 31}."""
    lines = re.findall(r"^INFO: (\d+) process(?:es)?: (.+?)\.?$", stderr, re.M)
    assert lines, f"no 'INFO: N processes' line in Bazel's output:\n{stderr[-3000:]}"
    total, parts = lines[-1]
    counts: dict[str, int] = {}
    for part in parts.split(", "):
        number, _, kind = part.partition(" ")
        counts[kind] = counts.get(kind, 0) + int(number)
    assert sum(counts.values()) == int(total), lines[-1]
    return counts


def _module_digests(workspace: Path, modules: tuple[str, ...] = (_KWS_MODULE,)) -> dict[str, str]:
    """sha256 of every file of each module (sources, headers, plan, report), by path under bazel-bin."""
    digests = {}
    for module in modules:
        root = workspace / "bazel-bin" / module
        files = sorted(p for p in root.rglob("*") if p.is_file())
        assert files, f"no module files under {root}"
        digests |= {f"{module}/{p.relative_to(root)}": hashlib.sha256(p.read_bytes()).hexdigest() for p in files}
    return digests


def _keep(name: str, text: str) -> None:
    outputs = Path(os.environ.get("TEST_UNDECLARED_OUTPUTS_DIR", tempfile.gettempdir()))
    outputs.mkdir(parents=True, exist_ok=True)
    with (outputs / name).open("a") as f:
        f.write(text + "\n")
    print(text)


@pytest.fixture(scope="module")
def local_modules(deployment, tmp_path_factory) -> dict[str, str]:
    """The modules as a local build (no remote flags) makes them: the reference for byte-identity."""
    root = tmp_path_factory.mktemp("local")
    workspace, output_root = _clone(root / "helia-aot"), root / "bazel-output-root"
    modules = (_KWS_MODULE, *(_SUITE_MODULES if _suite_runs() else ()))
    try:
        built = _bazel(workspace, output_root, "build", "--jobs=2", *map(_label, modules))
        assert built.returncode == 0, built.stderr[-4000:]
        return _module_digests(workspace, modules)
    finally:
        _bazel(workspace, output_root, "shutdown")


@pytest.fixture(scope="module")
def remote_builds(deployment, local_modules, tmp_path_factory):
    """A clone's remote build and test of the KWS targets and (models allowing) //models/suite, then a second
    clone's at another path: {"first": counts, "first_seconds": s, "second": counts, "*_digests": ...}."""
    root = tmp_path_factory.mktemp("remote")
    first = _clone(root / "first" / "helia-aot")
    second = _clone(root / "elsewhere" / "clone-2")
    first_root, second_root = root / "root-1", root / "root-2"
    modules = (_KWS_MODULE, *(_SUITE_MODULES if _suite_runs() else ()))
    # The suite's modules named too: Bazel downloads only top-level outputs of a remote build, and the
    # test_suite's tests alone would leave them on the service.
    targets = (*_TARGETS, *(("//models/suite", *map(_label, _SUITE_MODULES)) if _suite_runs() else ()))
    try:
        start = time.monotonic()
        built = _bazel(first, first_root, "test", *_remote_flags(deployment), *targets)
        first_seconds = time.monotonic() - start
        assert built.returncode == 0, built.stderr[-4000:]
        results = {"first": _processes(built.stderr), "first_seconds": first_seconds}
        _keep("remote_execution_summary.txt", f"remote execution, 2 workers, {' '.join(targets)}: first clone "
              f"{results['first']} in {first_seconds:.0f} s")
        results["first_digests"] = _module_digests(first, modules)
        start = time.monotonic()
        again = _bazel(second, second_root, "test", *_remote_flags(deployment), *targets)
        results["second_seconds"] = time.monotonic() - start
        assert again.returncode == 0, again.stderr[-4000:]
        results["second"] = _processes(again.stderr)
        results["second_digests"] = _module_digests(second, modules)
    finally:
        _bazel(first, first_root, "shutdown")
        _bazel(second, second_root, "shutdown")
    _keep("remote_execution_summary.txt",
          f"second clone {results['second']} in {results['second_seconds']:.0f} s")
    return results


def _only(digests: dict[str, str], module: str) -> dict[str, str]:
    return {path: digest for path, digest in digests.items() if path.startswith(module + "/")}


def test_remote_execution_and_a_second_clone_served_by_the_cache(remote_builds, local_modules):
    first_counts, second_counts = remote_builds["first"], remote_builds["second"]
    # (a) nothing ran on this machine but Bazel's internal actions.
    assert set(first_counts) <= _REMOTE_KINDS and first_counts.get("remote", 0) > 0, first_counts
    # (b) the remotely built module is the local build's, byte for byte, in either clone.
    assert _only(remote_builds["first_digests"], _KWS_MODULE) == _only(local_modules, _KWS_MODULE), \
        "the remotely built module differs from the local build"
    assert _only(remote_builds["second_digests"], _KWS_MODULE) == _only(local_modules, _KWS_MODULE)
    # (c) the second clone executed nothing: every action was a remote cache hit.
    assert set(second_counts) <= {"internal", "remote cache hit"}, second_counts
    assert second_counts.get("remote cache hit", 0) == sum(n for k, n in first_counts.items() if k != "internal")


def test_the_model_suite_remotely(remote_builds, local_modules):
    """//models/suite's tests passed in the remote builds above (else they failed), and each module is the
    local build's."""
    if not _suite_runs():
        pytest.skip(f"{MODELS_NOT_AVAILABLE} {', '.join(_suite_models_missing())} for //models/suite "
                    "(set HELIA_MODELS_DIR to the mlperf-tiny folder, with TFLM's tflm folder beside it)")
    for module in _SUITE_MODULES:
        remote = _only(remote_builds["first_digests"], module)
        assert remote, f"{module} was not built remotely"
        assert remote == _only(local_modules, module), f"{module} built remotely differs from the local build"
        assert _only(remote_builds["second_digests"], module) == remote


def test_a_worker_killed_mid_build(deployment, local_modules, tmp_path):
    workspace, output_root = _clone(tmp_path / "helia-aot"), tmp_path / "bazel-output-root"
    log = tmp_path / "bazel.log"
    # Everything executes again (nothing from the action cache), so the worker dies while it has work.
    command = _bazel_command(output_root, "build", *_remote_flags(deployment), "--noremote_accept_cached",
                             *_TARGETS)
    start = time.monotonic()
    with log.open("w") as stderr:
        build = subprocess.Popen(command, cwd=workspace, env=_bazel_env(output_root), stdout=subprocess.DEVNULL,
                                 stderr=stderr)
    try:
        deadline = start + 1200
        # Kill worker 1 once the build has executed a few dozen actions remotely.
        while not re.search(r"\[([4-9]\d|\d{3,}) / \d+\]", log.read_text(errors="replace")):
            assert build.poll() is None, f"the build ended before the worker was killed:\n{log.read_text()[-3000:]}"
            assert time.monotonic() < deadline, "the build made no progress"
            time.sleep(1)
        killed = _local_reapi("kill-worker", "1", "--port", deployment)
        killed_at = time.monotonic() - start
        assert killed.returncode == 0, killed.stderr
        returncode = build.wait(timeout=2400)
        seconds = time.monotonic() - start
        stderr = log.read_text(errors="replace")
        assert returncode == 0, stderr[-4000:]
        counts = _processes(stderr)
        assert _module_digests(workspace) == _only(local_modules, _KWS_MODULE), \
            "the module differs after a worker was killed"
    finally:
        if build.poll() is None:
            build.kill()
        _bazel(workspace, output_root, "shutdown")
    _keep("remote_execution_summary.txt",
          f"worker 1 killed after {killed_at:.0f} s: build succeeded in {seconds:.0f} s on the other worker, {counts}")
    assert set(counts) <= _REMOTE_KINDS, counts


def test_an_action_no_worker_can_run_fails_naming_it(deployment, tmp_path):
    """(e) A clone whose rootfs recipe is newer than the workers' asks for a platform none of them offers
    (helia-build-root=sid-rootfs-<N+1>): the build must fail soon, naming the action and why."""
    workspace, output_root = _clone(tmp_path / "helia-aot"), tmp_path / "bazel-output-root"
    platform_build = workspace / "tools" / "remote" / "BUILD.bazel"
    text = platform_build.read_text()
    served = re.search(r'"helia-build-root": "sid-rootfs-(\d+)"', text)
    assert served, f"no helia-build-root exec property in {platform_build}"
    unserved = f"sid-rootfs-{int(served.group(1)) + 1}"
    platform_build.write_text(text.replace(served.group(0), f'"helia-build-root": "{unserved}"'))
    start = time.monotonic()
    try:
        # Bounded by the timeout: a build whose action waited in a queue for a worker would raise here.
        failed = subprocess.run(_bazel_command(output_root, "build", *_remote_flags(deployment), "//models:kws_module"),
                                cwd=workspace, env=_bazel_env(output_root), capture_output=True, text=True,
                                timeout=300)
        seconds = time.monotonic() - start
    finally:
        _bazel(workspace, output_root, "shutdown")
    assert failed.returncode != 0, f"the build succeeded on a platform no worker offers:\n{failed.stderr[-3000:]}"
    errors = [line for line in failed.stderr.splitlines() if line.startswith("ERROR: ") and " failed: " in line]
    assert errors, f"no ERROR line naming a failed action:\n{failed.stderr[-3000:]}"
    # The action: its BUILD file location, its progress message (mnemonic HeliaAotConvert) with the label.
    assert re.match(r"ERROR: \S+/models/BUILD\.bazel:\d+:\d+: helia-aot: converting //models:kws_module for \S+ "
                    r"failed: ", errors[0]), errors[0]
    # Why, on the same line: BuildGrid's refusal (not retried by Bazel) with the platform asked for.
    assert "FAILED_PRECONDITION: Could not find property set" in errors[0] and unserved in errors[0], errors[0]
    _keep("remote_execution_summary.txt", f"platform {unserved} (no worker): build failed in {seconds:.0f} s "
          f"(Bazel's start and analysis included): {errors[0]}")

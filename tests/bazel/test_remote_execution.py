# SPDX-License-Identifier: Apache-2.0
"""Remote execution on a real Remote Execution API service, as a monorepo's firmware team would run it.

tools/remote/local_reapi starts BuildGrid on 127.0.0.1 with two buildbox workers (stopped at the end).
A clone builds //models:kws_module and runs //models:kws_golden (QEMU) and //models:kws_golden_host
(ASan/UBSan) with --config=remote: every action but Bazel's internal ones must execute remotely, as
Bazel's `INFO: N processes: ...` line counts them, and the module must be byte-identical to a local
build's. A second clone at another path must then get remote cache hits only. Last, a worker killed in
the middle of a build: BuildGrid puts its job back in the queue once the worker's bot session lapses
(bot-session-keepalive-timeout, max-job-attempts in local_reapi), the build succeeds on the other
worker and the module is still identical.
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
from tests.skip_policy import REMOTE_EXECUTION_NOT_SET_UP

_REPO = Path(__file__).resolve().parents[2]
_LAUNCHER_RC = Path("/etc/helia/launcher.bazelrc")
_LOCAL_REAPI = _REPO / "tools" / "remote" / "local_reapi"
# What `HELIA_REMOTE_EXECUTION=1 tools/bootstrap` installs in the build root filesystem.
_DEPLOYMENT_TOOLS = ("/opt/helia-remote/bin/bgd", "/usr/bin/buildbox-worker", "/usr/bin/buildbox-casd",
                     "/usr/bin/buildbox-run-hosttools", "/usr/lib/postgresql/18/bin/postgres")
_TARGETS = ("//models:kws_module", "//models:kws_golden", "//models:kws_golden_host")
_MODULE_DIR = Path("bazel-bin/models/kws_module")
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
    missing = [tool for tool in _DEPLOYMENT_TOOLS if not os.access(tool, os.X_OK)]
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
    return {"HOME": str(output_root.parent), "PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8"}


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


def _module_digests(workspace: Path) -> dict[str, str]:
    """sha256 of every file of the module (sources, headers, plan, report), by path in the module."""
    root = workspace / _MODULE_DIR
    files = sorted(p for p in root.rglob("*") if p.is_file())
    assert files, f"no module files under {root}"
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest() for p in files}


def _keep(name: str, text: str) -> None:
    outputs = Path(os.environ.get("TEST_UNDECLARED_OUTPUTS_DIR", tempfile.gettempdir()))
    outputs.mkdir(parents=True, exist_ok=True)
    with (outputs / name).open("a") as f:
        f.write(text + "\n")
    print(text)


@pytest.fixture(scope="module")
def local_module(tmp_path_factory) -> dict[str, str]:
    """The module as a local build (no remote flags) makes it: the reference for byte-identity."""
    root = tmp_path_factory.mktemp("local")
    workspace, output_root = _clone(root / "helia-aot"), root / "bazel-output-root"
    try:
        built = _bazel(workspace, output_root, "build", "--jobs=2", "//models:kws_module")
        assert built.returncode == 0, built.stderr[-4000:]
        return _module_digests(workspace)
    finally:
        _bazel(workspace, output_root, "shutdown")


def test_remote_execution_and_a_second_clone_served_by_the_cache(deployment, local_module, tmp_path):
    first = _clone(tmp_path / "first" / "helia-aot")
    second = _clone(tmp_path / "elsewhere" / "clone-2")
    first_root, second_root = tmp_path / "root-1", tmp_path / "root-2"
    try:
        start = time.monotonic()
        built = _bazel(first, first_root, "test", *_remote_flags(deployment), *_TARGETS)
        first_seconds = time.monotonic() - start
        assert built.returncode == 0, built.stderr[-4000:]
        first_counts = _processes(built.stderr)
        assert _module_digests(first) == local_module, "the remotely built module differs from the local build"
        again = _bazel(second, second_root, "test", *_remote_flags(deployment), *_TARGETS)
        assert again.returncode == 0, again.stderr[-4000:]
        second_counts = _processes(again.stderr)
        assert _module_digests(second) == local_module
    finally:
        _bazel(first, first_root, "shutdown")
        _bazel(second, second_root, "shutdown")
    _keep("remote_execution_summary.txt",
          f"remote execution, 2 workers: first clone {first_counts} in {first_seconds:.0f} s; "
          f"second clone {second_counts}")
    # (a) nothing ran on this machine but Bazel's internal actions.
    assert set(first_counts) <= _REMOTE_KINDS and first_counts.get("remote", 0) > 0, first_counts
    # (c) the second clone executed nothing: every action was a remote cache hit.
    assert set(second_counts) <= {"internal", "remote cache hit"}, second_counts
    assert second_counts.get("remote cache hit", 0) == sum(n for k, n in first_counts.items() if k != "internal")


def test_a_worker_killed_mid_build(deployment, local_module, tmp_path):
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
        assert _module_digests(workspace) == local_module, "the module differs after a worker was killed"
    finally:
        if build.poll() is None:
            build.kill()
        _bazel(workspace, output_root, "shutdown")
    _keep("remote_execution_summary.txt",
          f"worker 1 killed after {killed_at:.0f} s: build succeeded in {seconds:.0f} s on the other worker, {counts}")
    assert set(counts) <= _REMOTE_KINDS, counts

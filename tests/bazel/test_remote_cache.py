# SPDX-License-Identifier: Apache-2.0
"""A shared remote cache, as a monorepo's firmware team would run one.

nginx (WebDAV PUT, configured here, stopped at the end) serves Bazel's HTTP cache protocol on
127.0.0.1. One clone builds //models:kws_module and //models:kws_golden_host with
--remote_cache; a second clone at another path then builds the same, and every action it would
have run (all but Bazel's internal ones) must be a remote cache hit, as Bazel's own
`INFO: N processes: ...` summary line counts them.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import pytest
from tests.skip_policy import OPTIONAL_TOOL

_REPO = Path(__file__).resolve().parents[2]
_LAUNCHER_RC = Path("/etc/helia/launcher.bazelrc")
_TARGETS = ("//models:kws_module", "//models:kws_golden_host")

pytestmark = pytest.mark.skipif(
    shutil.which("bazel") is None or not _LAUNCHER_RC.exists(),
    reason="needs the build environment of tools/bootstrap (run inside `bazel test`)",
)

_NGINX_CONF = """\
daemon off;
master_process off;
worker_processes 1;
pid {root}/nginx.pid;
error_log {root}/error.log;
events {{ worker_connections 256; }}
http {{
  access_log {root}/access.log;
  client_body_temp_path {root}/body;
  proxy_temp_path {root}/proxy;
  fastcgi_temp_path {root}/fastcgi;
  uwsgi_temp_path {root}/uwsgi;
  scgi_temp_path {root}/scgi;
  server {{
    listen 127.0.0.1:{port};
    root {root}/cache;
    # Bazel's HTTP cache: GET and PUT of /ac/<digest> and /cas/<digest>, bodies of any size.
    client_max_body_size 0;
    dav_methods PUT;
    create_full_put_path on;
    dav_access user:rw;
  }}
}}
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def cache_server(tmp_path_factory):
    nginx = shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin:/sbin")
    if nginx is None:
        pytest.skip(f"{OPTIONAL_TOOL} nginx (the remote cache server; tools/bootstrap installs it)")
    root = tmp_path_factory.mktemp("remote-cache")
    (root / "cache").mkdir()
    port = _free_port()
    (root / "nginx.conf").write_text(_NGINX_CONF.format(root=root, port=port))
    server = subprocess.Popen([nginx, "-c", str(root / "nginx.conf"), "-p", str(root)],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:  # up when it answers (a 404 for a digest it does not hold)
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                break
        except OSError:
            if server.poll() is not None or time.monotonic() > deadline:
                output = server.stdout.read().decode(errors="replace") if server.stdout else ""
                pytest.fail(f"nginx did not start: {output}{(root / 'error.log').read_text(errors='replace')}")
            time.sleep(0.2)
    yield url, root / "cache"
    server.terminate()
    try:
        server.wait(timeout=30)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait(timeout=30)


def _clone(destination: Path) -> Path:
    """The workspace's files as a clone has them: what git tracks, at a path of its own."""
    listed = subprocess.run(["git", "-C", str(_REPO), "ls-files", "-z"], capture_output=True, timeout=120)
    assert listed.returncode == 0, listed.stderr.decode(errors="replace")
    for name in listed.stdout.decode().split("\0"):
        if not name:
            continue
        source = _REPO / name
        if source.is_file():  # a file deleted in the working tree is not in the clone either
            target = destination / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    return destination


def _bazel(workspace: Path, output_root: Path, *args: str) -> subprocess.CompletedProcess:
    env = {"HOME": str(output_root.parent), "PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8"}
    command = ["bazel", f"--output_user_root={output_root}", f"--bazelrc={_LAUNCHER_RC}", *args]
    return subprocess.run(command, cwd=workspace, env=env, capture_output=True, text=True, timeout=2400)


def _processes(stderr: str) -> dict[str, int]:
    """Bazel's summary of the spawns of one build, e.g. {'internal': 20, 'remote cache hit': 31}."""
    lines = re.findall(r"^INFO: (\d+) process(?:es)?: (.+?)\.?$", stderr, re.M)
    assert lines, f"no 'INFO: N processes' line in Bazel's output:\n{stderr[-3000:]}"
    total, parts = lines[-1]
    counts: dict[str, int] = {}
    for part in parts.split(", "):
        number, _, kind = part.partition(" ")
        counts[kind] = counts.get(kind, 0) + int(number)
    assert sum(counts.values()) == int(total), lines[-1]
    return counts


def test_second_clone_is_served_by_the_remote_cache(cache_server, tmp_path):
    url, cache_dir = cache_server
    output_root = tmp_path / "bazel-output-root"  # shared install base; each clone has its own output base
    flags = [f"--remote_cache={url}", "--disk_cache="]
    first, second = _clone(tmp_path / "first" / "helia-aot"), _clone(tmp_path / "elsewhere" / "clone-2")
    try:
        built = _bazel(first, output_root, "build", *flags, *_TARGETS)
        assert built.returncode == 0, built.stderr[-4000:]
        first_counts = _processes(built.stderr)
        assert list(cache_dir.glob("ac/*")) and list(cache_dir.glob("cas/*")), "nothing was uploaded"
        again = _bazel(second, output_root, "build", *flags, *_TARGETS)
        assert again.returncode == 0, again.stderr[-4000:]
        counts = _processes(again.stderr)
    finally:
        for workspace in (first, second):
            _bazel(workspace, output_root, "shutdown")
    hits = counts.get("remote cache hit", 0)
    cacheable = sum(n for kind, n in counts.items() if kind != "internal")
    summary = (f"remote cache: first clone {first_counts}; second clone {counts}: {hits} of {cacheable} cacheable "
               f"actions were remote cache hits ({100.0 * hits / max(cacheable, 1):.1f} %)")
    print(summary)
    outputs = Path(os.environ.get("TEST_UNDECLARED_OUTPUTS_DIR", tempfile.gettempdir()))
    outputs.mkdir(parents=True, exist_ok=True)
    (outputs / "remote_cache_summary.txt").write_text(summary + "\n")
    assert hits > 0 and hits == cacheable, summary

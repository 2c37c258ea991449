# SPDX-License-Identifier: Apache-2.0
"""The output directory is replaced whole or not at all, and only when a conversion wrote it: failures
after the temporary directory exists leave nothing behind and the previous OUTDIR as it was; the user's
files and the conversion's inputs are never replaced; interrupted runs leave no temporary folder for good."""

from __future__ import annotations

import os
import pathlib
import random
import signal
import subprocess
import sys
import time

import pytest

import helia_aot
from helia_aot import pipeline as compiler
from helia_aot.emit import output_dir
from helia_aot.golden import test_data as golden
from helia_aot.errors import OutputDirError

from .test_ops import conv_model


def snapshot(root):
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.fixture
def previous(tmp_path):
    """An OUTDIR from an earlier conversion under another prefix (so its files differ from a new one's)."""
    out = tmp_path / "out"
    helia_aot.convert(conv_model().build(), out, prefix="old")
    return out, snapshot(out)


def test_replacing_drops_the_old_files_and_leaves_no_backup(tmp_path, previous):
    out, _ = previous
    helia_aot.convert(conv_model().build(), out, prefix="other")
    assert not (out / "include" / "old_model.h").exists() and (out / "include" / "other_model.h").exists()
    assert [p.name for p in tmp_path.iterdir()] == ["out"]


def test_failure_while_writing_removes_the_temporary_directory(tmp_path, previous, monkeypatch):
    out, before = previous

    def broken(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(golden, "write_test_data", broken)
    with pytest.raises(OSError):
        helia_aot.convert(conv_model().build(), out, with_test_data=True)
    assert [p.name for p in tmp_path.iterdir()] == ["out"], "temporary directory left behind"
    assert snapshot(out) == before


def test_failed_swap_restores_the_previous_directory(tmp_path, previous, monkeypatch):
    out, before = previous
    real_rename = os.rename
    calls = []

    def rename(src, dst):
        calls.append((str(src), str(dst)))
        if len(calls) == 2:  # the finished module into place, after the old OUTDIR moved aside
            raise OSError(18, "Invalid cross-device link")
        real_rename(src, dst)

    monkeypatch.setattr(compiler.os, "rename", rename)
    with pytest.raises(OutputDirError, match=f"cannot replace output directory {out}: Invalid cross-device link"):
        helia_aot.convert(conv_model().build(), out, prefix="other")
    assert len(calls) == 3  # aside, into place (fails), back
    assert [p.name for p in tmp_path.iterdir()] == ["out"], "temporary or backup directory left behind"
    assert snapshot(out) == before


# --------------------------------------------------------------------------- what may be replaced


def test_a_project_folder_that_looks_like_a_module_is_refused_and_kept(tmp_path):
    """Top-level names like ours (src/, include/, test/, CMakeLists.txt) are not a module a conversion wrote."""
    project = tmp_path / "project"
    for rel, text in (("src/main.c", "int main(void) { return 0; }\n"), ("include/app.h", "#pragma once\n"),
                      ("test/notes.txt", "keep\n"), ("CMakeLists.txt", "project(app C)\n")):
        (project / rel).parent.mkdir(parents=True, exist_ok=True)
        (project / rel).write_text(text)
    before = snapshot(project)
    with pytest.raises(OutputDirError, match=r"holds 'CMakeLists.txt' and 3 more, which helia_aot did not write"):
        helia_aot.convert(conv_model().build(), project)
    assert snapshot(project) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["project"]


def test_a_file_changed_since_the_conversion_is_refused(previous):
    out, _ = previous
    header = out / "include" / "old_model.h"
    header.write_text(header.read_text() + "/* my edit */\n")
    with pytest.raises(OutputDirError, match=r"holds 'include/old_model.h', changed since helia_aot wrote it"):
        helia_aot.convert(conv_model().build(), out, prefix="new")
    assert header.read_text().endswith("/* my edit */\n")


def test_a_file_added_to_a_module_is_refused(previous):
    out, _ = previous
    (out / "src" / "mine.c").write_text("int mine;\n")
    with pytest.raises(OutputDirError, match=r"holds 'src/mine.c', which helia_aot did not write"):
        helia_aot.convert(conv_model().build(), out, prefix="new")
    assert (out / "src" / "mine.c").exists()


def test_a_symbolic_link_in_outdir_is_refused(tmp_path, previous):
    out, _ = previous
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "precious.c").write_text("keep\n")
    (out / "src" / "link").symlink_to(elsewhere)
    with pytest.raises(OutputDirError, match=r"holds 'src/link', which helia_aot did not write"):
        helia_aot.convert(conv_model().build(), out, prefix="new")
    assert (elsewhere / "precious.c").read_text() == "keep\n"


def test_empty_folders_alone_are_replaced(tmp_path):
    """Bazel creates the declared include/ and src/ folders before the action runs."""
    out = tmp_path / "out"
    (out / "include").mkdir(parents=True)
    (out / "src").mkdir()
    result = helia_aot.convert(conv_model().build(), out, prefix="m")
    assert (out / "include" / "m_model.h").is_file() and sorted(result.files)[0] == output_dir.MANIFEST


def test_outdir_holding_the_model_or_the_configuration_is_refused(tmp_path):
    out = tmp_path / "out"
    helia_aot.convert(conv_model().build(), out, prefix="m")
    model = out / "src" / "model.tflite"
    model.write_bytes(conv_model().build())
    with pytest.raises(OutputDirError):
        helia_aot.convert(model, out, prefix="m")
    assert model.is_file()
    # Even where the input is a file the conversion wrote (a plan converted by into its own folder).
    plan = out / "m_plan.json"
    model.unlink()
    with pytest.raises(OutputDirError, match=r"holds .*m_plan.json, an input of this conversion"):
        helia_aot.convert(conv_model().build(), out, prefix="m", plan=plan)
    assert plan.is_file()
    config = tmp_path / "cfg" / "c.yaml"
    config.parent.mkdir()
    config.write_text("module:\n  prefix: m\n")
    with pytest.raises(OutputDirError, match=r"an input of this conversion"):
        helia_aot.convert(conv_model().build(), tmp_path / "cfg", config=config)
    assert config.is_file()


def test_a_filesystem_root_is_refused_before_anything_is_written():
    before = sorted(os.listdir("/"))
    with pytest.raises(OutputDirError, match=r"output directory / is a filesystem root"):
        helia_aot.convert(conv_model().build(), "/")
    assert sorted(os.listdir("/")) == before


# --------------------------------------------------------------------------- interrupted conversions


def _stale(tmp_path) -> list[str]:
    return sorted(p.name for p in tmp_path.iterdir() if ".tmp-" in p.name or ".old-" in p.name)


def test_stale_temporary_folders_of_dead_processes_are_removed(tmp_path):
    out = tmp_path / "out"
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True,
                          check=True)
    pid = int(dead.stdout)
    for kind in ("tmp", "old"):
        stale = tmp_path / f".out.{kind}-{pid}-abc123"
        (stale / "src").mkdir(parents=True)
        (stale / "src" / "half.c").write_text("int half")
    alive = tmp_path / f".out.tmp-{os.getppid()}-live99"  # a conversion still running: not ours to remove
    alive.mkdir()
    unrelated = tmp_path / f".other.tmp-{pid}-abc123"  # another OUTDIR's
    unrelated.mkdir()
    helia_aot.convert(conv_model().build(), out, prefix="m")
    assert _stale(tmp_path) == sorted([alive.name, unrelated.name])


_CONVERT = """
import sys, helia_aot
from tests.unit.test_ops import conv_model
sys.stdout.write("start\\n"); sys.stdout.flush()
helia_aot.convert(conv_model().build(), sys.argv[1], prefix="m", with_test_data=True, num_test_samples=3)
"""


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGKILL])
def test_conversions_killed_at_random_points_leave_no_temporary_folder(tmp_path, signum):
    """SIGTERM is caught (the temporary folder removed on the way out); after SIGKILL the next conversion
    into the same OUTDIR removes it. Kill points are drawn over the conversion's own duration."""
    out = tmp_path / "out"
    repo = pathlib.Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": str(repo)}
    start = time.monotonic()
    subprocess.run([sys.executable, "-c", _CONVERT, str(out)], env=env, check=True, capture_output=True, cwd=repo)
    duration = time.monotonic() - start
    rng = random.Random(20261201 + signum)
    # The command line's own handler (helia_aot.cli.run installs it).
    runner = ("import signal\nfrom helia_aot.cli import _exit_on_signal\n"
              "signal.signal(signal.SIGTERM, _exit_on_signal)\n" + _CONVERT)
    for _ in range(8):
        proc = subprocess.Popen([sys.executable, "-c", runner, str(out)], env=env, cwd=repo, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(0.0, duration))
        proc.send_signal(signum)
        proc.wait(timeout=60)
        if signum == signal.SIGTERM:
            assert _stale(tmp_path) == []
    helia_aot.convert(conv_model().build(), out, prefix="m")
    assert _stale(tmp_path) == []
    assert (out / "include" / "m_model.h").is_file()

# SPDX-License-Identifier: Apache-2.0
"""The output directory is replaced whole or not at all, and only when a conversion wrote it: failures
after the temporary directory exists leave nothing behind and the previous OUTDIR as it was; the user's
files and the conversion's inputs are never replaced; interrupted runs leave no temporary folder for good."""

from __future__ import annotations

import hashlib
import json
import os
import pathlib
import random
import signal
import subprocess
import sys
import time
from unittest.mock import ANY

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
    with pytest.raises(OutputDirError, match=f"cannot replace output directory {out}: Invalid cross-device link") as err:
        helia_aot.convert(conv_model().build(), out, prefix="other")
    assert err.value.hint == "Check the -o path and its permissions"  # what to do, not only what failed
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


def test_outdir_holding_the_target_file_is_refused(tmp_path):
    out = tmp_path / "out"
    helia_aot.convert(conv_model().build(), out, prefix="m")
    targets = out / "src" / "boards.yaml"
    targets.write_text(json.dumps({"targets": [{
        "name": "board", "cpu": "cortex-m55", "capabilities": ["dsp", "mve"],
        "memories": [{"name": "RAM", "size": 1 << 20}, {"name": "ROM", "size": 1 << 20, "writable": False}],
        "scratch_memory": "RAM", "constant_memory": "ROM"}]}))
    with pytest.raises(OutputDirError, match=r"holds .*boards.yaml, an input of this conversion"):
        helia_aot.convert(conv_model().build(), out, prefix="m",
                          config={"target": {"name": "board", "file": str(targets)}})
    assert targets.is_file()


def _user_folder(root: pathlib.Path) -> dict:
    """A folder of the user's own (a project, or a home folder with dot files)."""
    for rel, text in (("main.c", "int main(void) { return 0; }\n"), (".bashrc", "alias ll='ls -l'\n"),
                      (".ssh/config", "Host *\n"), ("Documents/notes.txt", "keep\n")):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return snapshot(root)


def test_outdir_a_symbolic_link_to_a_user_folder_is_refused(tmp_path):
    home = tmp_path / "home"
    before = _user_folder(home)
    link = tmp_path / "out"
    link.symlink_to(home)
    with pytest.raises(OutputDirError, match=r"output path .*out exists and is not a directory"):
        helia_aot.convert(conv_model().build(), link)
    assert link.is_symlink() and snapshot(home) == before
    # Even a link to an empty folder: replacing it would swap the link for a folder.
    empty = tmp_path / "empty"
    empty.mkdir()
    link.unlink()
    link.symlink_to(empty)
    with pytest.raises(OutputDirError, match=r"is not a directory"):
        helia_aot.convert(conv_model().build(), link)
    assert link.is_symlink() and list(empty.iterdir()) == []


def test_outdir_a_file_is_refused_and_kept(tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("keep\n")
    with pytest.raises(OutputDirError, match=r"output path .*notes.txt exists and is not a directory"):
        helia_aot.convert(conv_model().build(), notes)
    assert notes.read_text() == "keep\n"
    model = tmp_path / "m.tflite"  # -o naming the input model itself
    model.write_bytes(conv_model().build())
    with pytest.raises(OutputDirError):
        helia_aot.convert(model, model)
    assert model.read_bytes() == conv_model().build()


@pytest.mark.parametrize("spelled", [".", "./", "sub/..", "{home}"])
def test_the_working_folder_or_a_home_folder_is_refused_and_kept(tmp_path, monkeypatch, spelled):
    home = tmp_path / "home"
    before = _user_folder(home)
    monkeypatch.chdir(home)
    with pytest.raises(OutputDirError, match=r"which helia_aot did not write"):
        helia_aot.convert(conv_model().build(), spelled.format(home=home))
    assert snapshot(home) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["home"]  # no temporary folder beside it


@pytest.mark.parametrize("name", ["../precious.c", "/tmp/precious.c", "src/../../precious.c", "./src/x.c", ""])
def test_a_manifest_naming_a_path_outside_outdir_is_not_ours(tmp_path, previous, name):
    """A forged manifest that lists a file outside OUTDIR (with that file's true hash) makes OUTDIR a
    folder no conversion wrote: refused, the file outside untouched."""
    out, before = previous
    precious = tmp_path / "precious.c"
    precious.write_text("keep\n")
    manifest = json.loads((out / output_dir.MANIFEST).read_text())
    manifest["files"][name.replace("/tmp/", f"{tmp_path}/")] = hashlib.sha256(b"keep\n").hexdigest()
    (out / output_dir.MANIFEST).write_text(json.dumps(manifest))
    with pytest.raises(OutputDirError, match=r"which helia_aot did not write"):
        helia_aot.convert(conv_model().build(), out, prefix="new")
    assert precious.read_text() == "keep\n" and snapshot(out) == {**before, output_dir.MANIFEST: ANY}


def test_a_manifest_listing_a_symbolic_link_is_refused(tmp_path, previous):
    """The link's target hashed into the manifest: still a link, still refused, the target kept."""
    out, _ = previous
    elsewhere = tmp_path / "precious.c"
    elsewhere.write_text("keep\n")
    (out / "src" / "link.c").symlink_to(elsewhere)
    manifest = json.loads((out / output_dir.MANIFEST).read_text())
    manifest["files"]["src/link.c"] = hashlib.sha256(b"keep\n").hexdigest()
    (out / output_dir.MANIFEST).write_text(json.dumps(manifest))
    with pytest.raises(OutputDirError, match=r"holds 'src/link.c', which helia_aot did not write"):
        helia_aot.convert(conv_model().build(), out, prefix="new")
    assert elsewhere.read_text() == "keep\n" and (out / "src" / "link.c").is_symlink()


@pytest.mark.parametrize("text", ["not json", "[]", '{"files": []}', '{"files": {"a.c": 1}}'])
def test_a_manifest_that_is_not_ours_makes_every_file_foreign(previous, text):
    out, before = previous
    (out / output_dir.MANIFEST).write_text(text)
    with pytest.raises(OutputDirError, match=r"which helia_aot did not write"):
        helia_aot.convert(conv_model().build(), out, prefix="new")
    assert {k: v for k, v in snapshot(out).items() if k != output_dir.MANIFEST} == \
        {k: v for k, v in before.items() if k != output_dir.MANIFEST}


def test_a_parent_where_nothing_can_be_created_leaves_outdir_as_it_was(tmp_path, previous, monkeypatch):
    """A read-only parent folder: the temporary folder cannot be made beside OUTDIR. (Simulated: these
    tests run as root, whom directory permissions do not stop, and a skip there would hide it.)"""
    out, before = previous

    def refused(*args, **kwargs):
        raise PermissionError(13, "Permission denied")
    monkeypatch.setattr(output_dir.tempfile, "mkdtemp", refused)
    with pytest.raises(OutputDirError, match=r"cannot create output directory next to .*out: Permission denied"):
        helia_aot.convert(conv_model().build(), out, prefix="new")
    assert snapshot(out) == before


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
data = conv_model().build()
sys.stdout.write("start\\n"); sys.stdout.flush()
helia_aot.convert(data, sys.argv[1], prefix="m", with_test_data=True, num_test_samples=3)
"""
KILLS = 50  # the acceptance's count: conversions killed at random points, both signals together


def test_conversions_killed_at_random_points_leave_no_temporary_folder(tmp_path):
    """SIGTERM is caught (the temporary folder removed on the way out); after SIGKILL the next conversion
    into the same OUTDIR removes what the killed one left. Each kill waits for the conversion to start
    (its imports done), then lands at a point drawn over the conversion's own duration. A signal another
    thread takes must wait for the swap too (the failure this caught: SIGTERM between the two renames
    left OUTDIR moved aside as .out.old-PID-*)."""
    out = tmp_path / "out"
    repo = pathlib.Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": str(repo)}

    def start() -> subprocess.Popen:
        proc = subprocess.Popen([sys.executable, "-c", runner, str(out)], env=env, cwd=repo, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL)
        assert proc.stdout.readline() == b"start\n"
        return proc

    # The command line's own handler (helia_aot.cli.run installs it).
    runner = ("import signal\nfrom helia_aot.cli import _exit_on_signal\n"
              "signal.signal(signal.SIGTERM, _exit_on_signal)\n" + _CONVERT)
    began = time.monotonic()
    proc = start()
    converted = time.monotonic()
    assert proc.wait(timeout=120) == 0
    duration = time.monotonic() - converted
    assert time.monotonic() - began < 60
    rng = random.Random(20261201)
    left_by_sigkill = 0
    for k in range(KILLS):
        signum = signal.SIGTERM if k % 2 == 0 else signal.SIGKILL
        proc = start()
        # Over the whole run, and half the kills over its second half, where the module is written and swapped.
        time.sleep(rng.uniform(0.0 if k % 4 < 2 else 0.5 * duration, duration))
        proc.send_signal(signum)
        proc.wait(timeout=60)
        own = [name for name in _stale(tmp_path) if f"-{proc.pid}-" in name]
        if signum == signal.SIGTERM:  # (a SIGKILLed run's folder may wait for a conversion that gets that far)
            assert own == [], f"kill {k} (SIGTERM) left a temporary folder"
        else:
            left_by_sigkill += bool(own)
        # An OUTDIR is there whole (the first conversion's or a killed one's finished swap) or not at all.
        assert not out.exists() or (out / output_dir.MANIFEST).is_file()
    helia_aot.convert(conv_model().build(), out, prefix="m")
    assert _stale(tmp_path) == []
    assert (out / "include" / "m_model.h").is_file()
    print(f"{KILLS} kills over {duration:.2f} s conversions; {left_by_sigkill} SIGKILL(s) left a folder the next "
          "run removed")

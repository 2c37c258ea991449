# SPDX-License-Identifier: Apache-2.0
"""Reading a user's file (helia_aot/user_files.py): cases mutation sampling showed untested
(tests/MUTATION.md): a path that cannot be opened for another reason than a missing file or a
directory (here a symbolic link loop, which even root cannot open) is one error with the system's
reason and the permissions hint; a file of exactly the limit is read whole."""

from __future__ import annotations

import pytest

from helia_aot.errors import HeliaError
from helia_aot.user_files import MIB, read_bytes


def test_an_unopenable_path_names_the_reason_and_the_permissions_hint(tmp_path):
    loop = tmp_path / "loop.tflite"
    loop.symlink_to(loop)
    with pytest.raises(HeliaError) as refused:
        read_bytes(loop, "model", MIB, HeliaError, "Pass a .tflite file")
    assert (refused.value.message, refused.value.hint) == (
        f"cannot read model {loop}: Too many levels of symbolic links", "Check the file's permissions")


def test_a_file_of_exactly_the_limit_is_read_and_one_byte_more_is_refused(tmp_path):
    exact = tmp_path / "exact.yaml"
    exact.write_bytes(b"a" * 100)
    assert read_bytes(exact, "configuration", 100, HeliaError, "Shorten it") == b"a" * 100
    over = tmp_path / "over.yaml"
    over.write_bytes(b"a" * 101)
    with pytest.raises(HeliaError) as refused:
        read_bytes(over, "configuration", 100, HeliaError, "Shorten it")
    assert (refused.value.message, refused.value.hint) == (
        f"configuration {over} is 101 bytes, more than the 100 this release reads", "Shorten it")

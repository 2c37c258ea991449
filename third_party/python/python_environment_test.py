# SPDX-License-Identifier: Apache-2.0
"""Tests run in the environment made from requirements_lock.txt, not the host's Python."""

import importlib.metadata
import re
import sys
import unittest


def _locked_versions():
    versions = {}
    with open("third_party/python/requirements_lock.txt", encoding="utf-8") as lock:
        for line in lock:
            match = re.match(r"^([A-Za-z0-9_.-]+)==([^ \\]+)", line)
            if match:
                versions[match.group(1).lower()] = match.group(2)
    return versions


class PythonEnvironmentTest(unittest.TestCase):
    def test_interpreter_is_a_virtual_environment(self):
        self.assertNotEqual(sys.prefix, sys.base_prefix, "tests must not run on the bare system Python")

    def test_no_system_site_packages(self):
        leaked = [p for p in sys.path if p.endswith("dist-packages") or "/usr/lib/python3/" in p]
        self.assertEqual(leaked, [], "host site-packages are on sys.path")

    def test_installed_versions_match_the_lock_file(self):
        locked = _locked_versions()
        self.assertIn("numpy", locked)
        for name in ("numpy", "flatbuffers", "jinja2", "pyyaml", "absl-py", "ai-edge-litert", "pytest", "mutmut",
                     "sortedcontainers", "tflite-micro"):
            with self.subTest(package=name):
                self.assertEqual(importlib.metadata.version(name), locked[name])

    def test_litert_interpreter_imports(self):
        from ai_edge_litert import interpreter  # pylint: disable=import-outside-toplevel

        self.assertTrue(hasattr(interpreter, "Interpreter"))

    def test_tflm_interpreter_imports(self):
        from tflite_micro.python.tflite_micro import runtime  # pylint: disable=import-outside-toplevel

        self.assertTrue(hasattr(runtime, "Interpreter"))


if __name__ == "__main__":
    unittest.main()

# SPDX-License-Identifier: Apache-2.0
"""The summary test of a helia_aot_model_suite: each module is what the suite asked for.

Reads the suite's manifest (rules/private/model_suite.bzl) and, per model, the module's plan: the plan
must name the model file by its sha256, the target, the kernel library and the prefix the rule was
given. Prints one line per model with its module and golden tests; exits 1 naming every mismatch.
"""

import hashlib
import json
import os
import sys
from pathlib import Path


def _runfile(short_path: str) -> Path:
    # External files' short paths start with ../<repo>/; the runfiles tree holds them at <repo>/.
    root = Path(os.environ.get("RUNFILES_DIR", ".."))
    workspace = os.environ.get("TEST_WORKSPACE", "_main")
    if short_path.startswith("../"):
        return root / short_path[3:]
    return root / workspace / short_path


def check(entry: dict) -> list[str]:
    """Why the module of `entry` is not what the suite asked for (empty when it is)."""
    plan = json.loads(_runfile(entry["plan"]).read_text())
    model_sha256 = hashlib.sha256(_runfile(entry["model"]).read_bytes()).hexdigest()
    wanted = {
        "model sha256": (plan["model"]["sha256"], model_sha256),
        "target": (plan["platform"]["name"], entry["target"]),
        "kernel library": (plan["kernel_library"]["name"], entry["kernel_library"]),
        "prefix": (plan["module_prefix"], entry["prefix"]),
    }
    return [f"{entry['name']}: plan {entry['plan']} has {what} {got!r}, the suite asked for {want!r}"
            for what, (got, want) in wanted.items() if got != want]


def main(manifest_path: str) -> int:
    entries = json.loads(Path(manifest_path).read_text())["modules"]
    if not entries:
        print(f"{manifest_path}: the suite has no models")
        return 1
    problems = []
    for entry in entries:
        problems += check(entry)
        print(f"{entry['name']}: {entry['module']} ({entry['target']}, {entry['kernel_library']}) "
              f"tests {' '.join(entry['tests'])}")
    for problem in problems:
        print("MISMATCH " + problem)
    print(f"suite: {len(entries)} models, {len(problems)} mismatches")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))

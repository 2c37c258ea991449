# SPDX-License-Identifier: Apache-2.0
"""Sums the test cases in Bazel's test.xml files into one closing line.

Usage: summarize_tests.py TESTLOGS_DIR LABEL... ; prints one line per skip reason (how many test
cases skipped for it, and in which targets), where the results are (the logs, each failed target's
log, the files tests kept as outputs), then `tests: N passed, N failed, N skipped` (counting
test cases, e.g. each pytest case; a Bazel test without cases counts as one) and exits non-zero when
anything failed.
"""

import os
import sys
import xml.etree.ElementTree as ElementTree
import zipfile


def _count(xml_path, skip_reasons):
    """Returns (passed, failed, skipped) for one test.xml; adds each skip's reason to skip_reasons."""
    root = ElementTree.parse(xml_path).getroot()
    cases = list(root.iter("testcase"))
    passed = failed = skipped = 0
    for case in cases:
        if case.find("failure") is not None or case.find("error") is not None:
            failed += 1
        elif case.find("skipped") is not None:
            skipped += 1
            message = case.find("skipped").get("message", "") or "(no reason given)"
            skip_reasons.append(message.removeprefix("Skipped: ").strip())
        else:
            passed += 1
    return passed, failed, skipped


def _kept_outputs(target_dir):
    """Files a test kept in TEST_UNDECLARED_OUTPUTS_DIR: Bazel zips them into test.outputs/outputs.zip."""
    outputs = os.path.join(target_dir, "test.outputs")
    found = []
    for root, _, files in os.walk(outputs):
        for name in sorted(files):
            path = os.path.join(root, name)
            if name == "outputs.zip":
                try:
                    with zipfile.ZipFile(path) as archive:
                        members = sorted(n for n in archive.namelist() if not n.endswith("/"))
                except (OSError, zipfile.BadZipFile):
                    members = []
                found.append(f"{path} ({', '.join(members)})" if members else path)
            elif name != "outputs_manifest":
                found.append(path)
    return found


def main(argv):
    testlogs, labels = argv[1], argv[2:]
    totals = [0, 0, 0]
    by_reason = {}  # reason -> {label: count}
    locations = []  # lines saying where a result is
    for label in labels:
        package, _, name = label.lstrip("/").partition(":")
        target_dir = os.path.join(testlogs, package, name)
        # A sharded test has one directory per shard (shard_1_of_4/test.xml, ...), all of which must exist.
        shards = sorted(d for d in (os.listdir(target_dir) if os.path.isdir(target_dir) else [])
                        if d.startswith("shard_") and "_of_" in d)
        result_dirs = [os.path.join(target_dir, d) for d in shards] or [target_dir]
        expected = int(shards[0].rsplit("_of_", 1)[1]) if shards else 1
        missing = [d for d in result_dirs if not os.path.exists(os.path.join(d, "test.xml"))]
        if missing or len(result_dirs) != expected:
            print(f"summarize_tests: no result for {label}", file=sys.stderr)
            totals[1] += 1
            continue
        reasons = []
        counts = [0, 0, 0]
        for result_dir in result_dirs:
            for index, value in enumerate(_count(os.path.join(result_dir, "test.xml"), reasons)):
                counts[index] += value
            locations += [f"  kept by {label}: {path}" for path in _kept_outputs(result_dir)]
        for index, value in enumerate(counts):
            totals[index] += value
        if counts[1]:
            failed_logs = [os.path.join(d, "test.log") for d in result_dirs]
            locations.append(f"  failed {label}: {' '.join(failed_logs)}")
        for reason in reasons:
            per_label = by_reason.setdefault(reason, {})
            per_label[label] = per_label.get(label, 0) + 1
    for reason, per_label in sorted(by_reason.items()):
        where = ", ".join(f"{label} {count}" for label, count in sorted(per_label.items()))
        print(f"skipped {sum(per_label.values())}: {reason} ({where})")
    print(f"results: every test's log and cases in {testlogs}/<package>/<target>/test.log and test.xml")
    for line in locations:
        print(line)
    passed, failed, skipped = totals
    # One word and a colon, then "N passed, N failed": the closing line CI reads.
    print(f"tests: {passed} passed, {failed} failed, {skipped} skipped")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

# SPDX-License-Identifier: Apache-2.0
"""Sums the test cases in Bazel's test.xml files into one closing line.

Usage: summarize_tests.py TESTLOGS_DIR LABEL... ; prints one line per skip reason (how many test
cases skipped for it, and in which targets), then `tests: N passed, N failed, N skipped` (counting
test cases, e.g. each pytest case; a Bazel test without cases counts as one) and exits non-zero when
anything failed.
"""

import os
import sys
import xml.etree.ElementTree as ElementTree


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


def main(argv):
    testlogs, labels = argv[1], argv[2:]
    totals = [0, 0, 0]
    by_reason = {}  # reason -> {label: count}
    for label in labels:
        package, _, name = label.lstrip("/").partition(":")
        xml_path = os.path.join(testlogs, package, name, "test.xml")
        if not os.path.exists(xml_path):
            print(f"summarize_tests: no result for {label}", file=sys.stderr)
            totals[1] += 1
            continue
        reasons = []
        for index, value in enumerate(_count(xml_path, reasons)):
            totals[index] += value
        for reason in reasons:
            per_label = by_reason.setdefault(reason, {})
            per_label[label] = per_label.get(label, 0) + 1
    for reason, per_label in sorted(by_reason.items()):
        where = ", ".join(f"{label} {count}" for label, count in sorted(per_label.items()))
        print(f"skipped {sum(per_label.values())}: {reason} ({where})")
    passed, failed, skipped = totals
    # One word and a colon, then "N passed, N failed": the closing line CI reads.
    print(f"tests: {passed} passed, {failed} failed, {skipped} skipped")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

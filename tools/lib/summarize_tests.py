# SPDX-License-Identifier: Apache-2.0
"""Sums the test cases in Bazel's test.xml files into one closing line, and holds skips to the allow-list.

Usage:
  summarize_tests.py TESTLOGS (LABEL... | --query-xml FILE)
      prints one line per skip reason (how many test cases skipped for it, and in which targets),
      where the results are (the logs, each failed target's log, the files tests kept as outputs),
      a line for each skip reason that is not on the allow-list of tests/skip_policy.py, then
      `tests: N passed, N failed, N skipped` (counting test cases, e.g. each pytest case; a Bazel test
      without cases counts as one). Exits non-zero when anything failed or skipped for a reason not on
      the allow-list.
  summarize_tests.py TESTLOGS --needs ns-cmsis-nn --baseline BASELINE (LABEL... | --query-xml FILE)
      lists the test cases that ran only because ns-cmsis-nn was configured: those that skipped for
      want of it in BASELINE (the test logs of a run without it, e.g. CI's) and what each did in
      TESTLOGS. Exits non-zero unless there are such cases and every one of them passed.

--query-xml FILE (`-` for stdin) is `bazel query 'tests(//...)' --output=xml`: the test targets and
their tags. A test tagged SKIP_TAG + reason (tests/skip_policy.py) was skipped by Bazel as a whole
(it is incompatible, e.g. //models/micro_speech without TFLM's files) and counts as one test skipped
for that reason, whatever an earlier run left in its test.xml.
"""

from __future__ import annotations

import argparse
import os
import sys
import xml.etree.ElementTree as ElementTree
import zipfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
from tests import skip_policy  # noqa: E402  (the repository root is on sys.path only from here)

# --needs NAME: the skip reason a test gives when NAME is not configured.
NEEDS = {"ns-cmsis-nn": skip_policy.NS_CMSIS_NN_NOT_CONFIGURED}


def _cases(xml_path):
    """(case id, outcome, skip reason or None) of each test case in one test.xml."""
    root = ElementTree.parse(xml_path).getroot()
    found = []
    for case in root.iter("testcase"):
        case_id = f"{case.get('classname', '')}::{case.get('name', '')}".removeprefix("::")
        if case.find("failure") is not None or case.find("error") is not None:
            found.append((case_id, "failed", None))
        elif case.find("skipped") is not None:
            message = case.find("skipped").get("message", "") or "(no reason given)"
            found.append((case_id, "skipped", message.removeprefix("Skipped: ").strip()))
        else:
            found.append((case_id, "passed", None))
    return found


def _result_dirs(testlogs, label):
    """The directories holding a test's test.xml (one per shard), or None when a result is missing."""
    package, _, name = label.lstrip("/").partition(":")
    target_dir = os.path.join(testlogs, package, name)
    # A sharded test has one directory per shard (shard_1_of_4/test.xml, ...), all of which must exist.
    shards = sorted(d for d in (os.listdir(target_dir) if os.path.isdir(target_dir) else [])
                    if d.startswith("shard_") and "_of_" in d)
    result_dirs = [os.path.join(target_dir, d) for d in shards] or [target_dir]
    expected = int(shards[0].rsplit("_of_", 1)[1]) if shards else 1
    if len(result_dirs) != expected or not all(os.path.exists(os.path.join(d, "test.xml")) for d in result_dirs):
        return None
    return result_dirs


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


def read_query_xml(stream):
    """{label: skip reason or None} of the test rules in `bazel query --output=xml` output."""
    try:
        root = ElementTree.parse(stream).getroot()
    except ElementTree.ParseError as error:
        raise SystemExit(f"summarize_tests: the query output is not XML ({error}): did `bazel query` fail?")
    tests = {}
    for rule in root.iter("rule"):
        tags = [s.get("value", "") for lst in rule.findall("list") if lst.get("name") == "tags"
                for s in lst.findall("string")]
        reasons = [tag.removeprefix(skip_policy.SKIP_TAG) for tag in tags if tag.startswith(skip_policy.SKIP_TAG)]
        tests[rule.get("name")] = reasons[0] if reasons else None
    return tests


def summarize(testlogs, tests, environ=os.environ, out=sys.stdout):
    """Prints the summary of a run; returns its exit status. `tests` is {label: Bazel skip reason or None}."""
    totals = {"passed": 0, "failed": 0, "skipped": 0}
    by_reason = {}  # reason -> {label: count}
    locations = []  # lines saying where a result is
    for label, bazel_skip in tests.items():
        if bazel_skip is not None:
            cases = [(label, "skipped", bazel_skip)]
        else:
            result_dirs = _result_dirs(testlogs, label)
            if result_dirs is None:
                print(f"summarize_tests: no result for {label}", file=sys.stderr)
                totals["failed"] += 1
                continue
            cases = [case for d in result_dirs for case in _cases(os.path.join(d, "test.xml"))]
            locations += [f"  kept by {label}: {path}" for d in result_dirs for path in _kept_outputs(d)]
            if any(outcome == "failed" for _, outcome, _ in cases):
                locations.append(f"  failed {label}: {' '.join(os.path.join(d, 'test.log') for d in result_dirs)}")
        for _, outcome, reason in cases:
            totals[outcome] += 1
            if outcome == "skipped":
                per_label = by_reason.setdefault(reason, {})
                per_label[label] = per_label.get(label, 0) + 1
    for reason, per_label in sorted(by_reason.items()):
        where = ", ".join(f"{label} {count}" for label, count in sorted(per_label.items()))
        print(f"skipped {sum(per_label.values())}: {reason} ({where})", file=out)
    print(f"results: every test's log and cases in {testlogs}/<package>/<target>/test.log and test.xml", file=out)
    for line in locations:
        print(line, file=out)
    refused = 0
    for reason, per_label in sorted(by_reason.items()):
        why = skip_policy.refusal(reason, environ)
        if why:
            refused += 1
            print(f"skip not allowed: {sum(per_label.values())} skipped for '{reason}': {why}", file=out)
    # One word and a colon, then "N passed, N failed": the closing line CI reads.
    print(f"tests: {totals['passed']} passed, {totals['failed']} failed, {totals['skipped']} skipped", file=out)
    return 1 if totals["failed"] or refused else 0


def needs(testlogs, baseline, tests, what, out=sys.stdout):
    """Lists the cases that skipped in `baseline` for want of `what`, with their outcome in `testlogs`."""
    reason = NEEDS[what]
    wanted = []  # (label, case id)
    for label in tests:
        for result_dir in _result_dirs(baseline, label) or []:
            wanted += [(label, case_id) for case_id, outcome, why in _cases(os.path.join(result_dir, "test.xml"))
                       if outcome == "skipped" and why == reason]
    if not wanted:
        print(f"needs {what}: no test case in {baseline} skipped for '{reason}'; give the test logs of a run "
              f"without {what} as --baseline", file=out)
        return 1
    outcomes = {}
    for label in {label for label, _ in wanted}:
        for result_dir in _result_dirs(testlogs, label) or []:
            for case_id, outcome, _ in _cases(os.path.join(result_dir, "test.xml")):
                outcomes[(label, case_id)] = outcome
    counts = {"passed": 0, "failed": 0, "skipped": 0, "not run": 0}
    for label, case_id in sorted(wanted):
        outcome = outcomes.get((label, case_id), "not run")
        counts[outcome] += 1
        print(f"  {outcome} {label} {case_id}", file=out)
    print(f"needs {what}: {len(wanted)} test cases skip without it ({baseline}); in {testlogs}: "
          f"{', '.join(f'{count} {outcome}' for outcome, count in counts.items())}", file=out)
    return 0 if counts["passed"] == len(wanted) else 1


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("testlogs", help="Bazel's test logs (bazel-testlogs)")
    parser.add_argument("labels", nargs="*", help="the test targets")
    parser.add_argument("--query-xml", help="`bazel query 'tests(//...)' --output=xml` (- for stdin) instead of labels")
    parser.add_argument("--needs", choices=sorted(NEEDS),
                        help="list the cases that ran only because this was configured")
    parser.add_argument("--baseline", help="with --needs: the test logs of a run without it")
    args = parser.parse_args(argv[1:])
    tests = dict.fromkeys(args.labels)
    if args.query_xml:
        tests.update(read_query_xml(sys.stdin if args.query_xml == "-" else args.query_xml))
    if args.needs:
        if not args.baseline:
            parser.error("--needs takes --baseline")
        return needs(args.testlogs, args.baseline, tests, args.needs)
    return summarize(args.testlogs, tests)


if __name__ == "__main__":
    sys.exit(main(sys.argv))

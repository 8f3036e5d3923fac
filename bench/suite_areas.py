"""Minutes of the test suite per area, from a pytest JUnit XML report.

Run: python -m pytest --junitxml=suite.xml && python bench/suite_areas.py suite.xml [--slowest 20]

Sums each test's own time (setup, call and teardown as pytest reports them) by area. With
several xdist workers the sums are worker-minutes: they add up to about the workers times
the wall-clock time, and a test on a busy machine takes longer than alone.
"""

from __future__ import annotations

import argparse
import xml.etree.ElementTree as ET
from collections import Counter

# Checked in this order: the first area whose pattern is in a test's module path wins.
AREAS = (
    ("browser page audit", "tests/e2e/test_page_audit"),
    ("deploy: replicas and isolation", "tests/e2e/test_replicas"),
    ("deploy: replicas and isolation", "tests/e2e/test_isolation"),
    ("other browser tests", "tests/e2e/"),
    ("link fuzz", "tests/ui/test_link_fuzz"),
    ("settings sweep", "tests/ui/test_settings_sweep"),
    ("session state machine", "tests/ui/test_session_machine"),
    ("other AppTest and ui", "tests/ui/"),
    ("command line", "tests/core/test_cli"),
    ("core", "tests/core/"),
    ("real model", "tests/real_model/"),
    ("deploy: files", "tests/deploy/"),
)


def area_of(classname: str) -> str:
    """The area of a test, from its JUnit class name (``tests.e2e.test_flow_browser``)."""
    path = classname.replace(".", "/")
    return next((area for area, pattern in AREAS if pattern in path), "other")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("report", help="a pytest --junitxml report")
    parser.add_argument("--slowest", type=int, default=0, help="also list the N slowest tests")
    args = parser.parse_args()
    seconds: Counter[str] = Counter()
    tests: Counter[str] = Counter()
    each = []
    for case in ET.parse(args.report).iter("testcase"):
        took = float(case.get("time") or 0)
        area = area_of(case.get("classname", ""))
        seconds[area] += took
        tests[area] += 1
        each.append((took, f"{case.get('classname')}::{case.get('name')}"))
    print("| area | tests | minutes |\n| --- | --- | --- |")
    for area, total in seconds.most_common():
        print(f"| {area} | {tests[area]} | {total / 60:.1f} |")
    print(f"| all | {sum(tests.values())} | {sum(seconds.values()) / 60:.1f} |")
    for took, name in sorted(each, reverse=True)[: args.slowest]:
        print(f"{took:7.1f} s  {name}")


if __name__ == "__main__":
    main()

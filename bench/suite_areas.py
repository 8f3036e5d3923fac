"""Minutes of the test suite per area, from a pytest JUnit XML report.

Run: python -m pytest --junitxml=suite.xml && python bench/suite_areas.py suite.xml [--slowest 20]

Sums each test's own time (setup, call and teardown as pytest reports them) by area. With
several xdist workers the sums are worker-minutes: they add up to about the workers times
the wall-clock time, and a test on a busy machine takes longer than alone.
"""

from __future__ import annotations

import argparse
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.budget import area_of


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

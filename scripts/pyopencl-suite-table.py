"""Comparison table of pyopencl's test suite on oxcl and PoCL from the JUnit XML files that
scripts/pyopencl-suite.sh writes (results/<platform>/<test file>.xml), and the tests PoCL
passes that oxcl does not.

Usage: pyopencl-suite-table.py RESULTS_DIR [test_file.py ...]
"""

import os
import re
import sys

# pytest parameters naming the platform's device or platform: the same test on both platforms.
PLATFORM_PARAM = re.compile(r"<context factory for <pyopencl\.Device [^>]*>>|<pyopencl\.Platform [^>]*>")
import xml.etree.ElementTree as ET


def outcomes(path):
    """{test id: "pass" | "fail" | "error" | "skip"} of one JUnit XML file, or None."""
    if not os.path.exists(path):
        return None
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError:
        return None
    result = {}
    for case in root.iter("testcase"):
        name = PLATFORM_PARAM.sub("ctx", case.get("name", ""))
        test_id = case.get("classname", "") + "::" + name
        state = "pass"
        for child in case:
            if child.tag in ("failure", "error", "skipped"):
                state = {"failure": "fail", "error": "error", "skipped": "skip"}[child.tag]
                break
        result[test_id] = state
    return result


def counts(result):
    if result is None:
        return "no result (crash or timeout)"
    tally = {s: 0 for s in ("pass", "fail", "error", "skip")}
    for state in result.values():
        tally[state] += 1
    return "{pass:4d} pass {fail:4d} fail {error:3d} error {skip:3d} skip".format(**tally)


def main():
    results_dir = sys.argv[1]
    platforms = [p for p in ("oxcl", "pocl") if os.path.isdir(os.path.join(results_dir, p))]
    files = [f[:-3] if f.endswith(".py") else f for f in sys.argv[2:]]
    if not files:
        names = set()
        for p in platforms:
            names |= {f[:-4] for f in os.listdir(os.path.join(results_dir, p)) if f.endswith(".xml")}
        files = sorted(names)
    regressions = []
    print(f"{'file':26s}" + "".join(f"{p:45s}" for p in platforms))
    for name in files:
        row = {p: outcomes(os.path.join(results_dir, p, name + ".xml")) for p in platforms}
        print(f"{name:26s}" + "".join(f"{counts(row[p]):45s}" for p in platforms))
        oxcl, pocl = row.get("oxcl"), row.get("pocl")
        if pocl is not None:
            for test_id, state in sorted(pocl.items()):
                if state == "pass" and (oxcl is None or oxcl.get(test_id) != "pass"):
                    got = "missing" if oxcl is None else oxcl.get(test_id, "missing")
                    regressions.append(f"{name}: {test_id} ({got})")
    if "pocl" in platforms and "oxcl" in platforms:
        print(f"\npassed on PoCL, not on oxcl: {len(regressions)}")
        for line in regressions:
            print("  " + line)
    return 1 if regressions else 0


if __name__ == "__main__":
    sys.exit(main())

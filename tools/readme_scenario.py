#!/usr/bin/env python3
"""The README's annotated scenario (between `<!-- BEGIN scenario example` and `<!-- END scenario example -->`)
must stay a scenario that validates and runs: this extracts it, runs `lossless validate` and `lossless run` on it
and checks the run completes every flow (test Docs.ReadmeScenarioRuns).

usage: tools/readme_scenario.py --lossless build/lossless [--work DIR]
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lossless", default=os.path.join(ROOT, "build", "lossless"))
    ap.add_argument("--work", default=None)
    a = ap.parse_args()
    readme = open(os.path.join(ROOT, "README.md"), encoding="utf-8").read()
    m = re.search(r"<!-- BEGIN scenario example[^\n]*-->\n```yaml\n(.*?)```\n<!-- END scenario example -->", readme, re.S)
    if not m:
        print("README.md: no annotated scenario between its markers", file=sys.stderr)
        return 1
    work = a.work or tempfile.mkdtemp(prefix="readme-scenario-")
    os.makedirs(work, exist_ok=True)
    path = os.path.join(work, "readme.yaml")
    open(path, "w").write(m.group(1))
    for cmd in ([a.lossless, "validate", path], [a.lossless, "run", path, "-o", os.path.join(work, "out"), "--quiet"],
                [a.lossless, "describe", path, "--node", "s0"]):
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            print(f"README.md scenario: {' '.join(cmd[1:2])} exited {r.returncode}: {r.stderr.strip()}", file=sys.stderr)
            return 1
    s = json.load(open(os.path.join(work, "out", "summary.json")))
    if s["flows"]["completed"] != s["flows"]["total"]:
        print(f"README.md scenario: {s['flows']['completed']} of {s['flows']['total']} flows completed", file=sys.stderr)
        return 1
    print(f"README.md scenario: validates, runs ({s['flows']['total']} flows complete)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

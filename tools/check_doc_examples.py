#!/usr/bin/env python3
"""docs/extending.md quotes the worked examples of tests/extending_example_test.cc: every region between
`// BEGIN example: NAME` and `// END example: NAME` in the test must appear in the document verbatim, so the
document shows code that compiles and passes its test. Exit 1 naming the region that differs; --write copies the
regions of the test into the document.
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    test = open(os.path.join(ROOT, "tests", "extending_example_test.cc")).read()
    doc = open(os.path.join(ROOT, "docs", "extending.md")).read()
    regions = re.findall(r"(// BEGIN example: (\S+)\n.*?// END example: \2\n)", test, re.S)
    if not regions:
        print("no example regions in tests/extending_example_test.cc", file=sys.stderr)
        return 1
    if "--write" in sys.argv:
        for text, name in regions:
            doc = re.sub(r"// BEGIN example: " + re.escape(name) + r"\n.*?// END example: " + re.escape(name) + r"\n",
                         lambda m: text, doc, flags=re.S)
        open(os.path.join(ROOT, "docs", "extending.md"), "w").write(doc)
    bad = [name for text, name in regions if text not in doc]
    for name in bad:
        print(f"docs/extending.md: example '{name}' differs from tests/extending_example_test.cc", file=sys.stderr)
    if not bad:
        print(f"{len(regions)} examples quoted verbatim")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Checks that the include graph between the folders of src/ is acyclic, so that the architecture reads one way:
core -> topo, workload -> net -> control, stats -> scenario -> cli. Unit tests (*_test.cc) may include anything.

usage: tools/include_graph.py [--dot]    prints the folder graph; exit 1 (with the cycle) if it has one.
Standard library only; run by the test suite (Style.IncludeGraphAcyclic).
"""
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"/]+)/[^"]+"', re.M)


def folder_graph():
    edges = {}
    for dirpath, _, names in os.walk(ROOT):
        folder = os.path.relpath(dirpath, ROOT).split(os.sep)[0]
        if folder == ".":
            continue
        for n in names:
            if not n.endswith((".h", ".cc")) or n.endswith("_test.cc"):
                continue
            text = open(os.path.join(dirpath, n), encoding="utf-8").read()
            for target in INCLUDE.findall(text):
                if target != folder and os.path.isdir(os.path.join(ROOT, target)):
                    edges.setdefault(folder, {}).setdefault(target, []).append(
                        os.path.relpath(os.path.join(dirpath, n), ROOT))
            edges.setdefault(folder, {})
    return edges


def find_cycle(edges):
    state, stack = {}, []

    def visit(n):
        state[n] = 1
        stack.append(n)
        for m in sorted(edges.get(n, {})):
            if state.get(m) == 1:
                return stack[stack.index(m):] + [m]
            if m not in state:
                c = visit(m)
                if c:
                    return c
        stack.pop()
        state[n] = 2
        return None

    for n in sorted(edges):
        if n not in state:
            c = visit(n)
            if c:
                return c
    return None


def main():
    edges = folder_graph()
    if "--dot" in sys.argv:
        print("digraph src {")
        for a in sorted(edges):
            for b in sorted(edges[a]):
                print(f"  {a} -> {b};")
        print("}")
    else:
        for a in sorted(edges):
            print(f"{a:<10} -> {', '.join(sorted(edges[a])) or '(nothing)'}")
    cycle = find_cycle(edges)
    if cycle:
        print("\nCYCLE: " + " -> ".join(cycle), file=sys.stderr)
        for a, b in zip(cycle, cycle[1:]):
            print(f"  {a} -> {b}: " + ", ".join(edges[a][b]), file=sys.stderr)
        return 1
    print("acyclic")
    return 0


if __name__ == "__main__":
    sys.exit(main())

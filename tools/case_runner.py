"""Runs an experiment's cases side by side with a progress line per case (shared by experiments/*/run.py).

A case is (name, scenario file relative to the experiment folder, [--set PATH=VALUE, ...]). A failed case is
reported with the last line of its error and the others go on, so partial results are never lost.
"""

import concurrent.futures
import os
import subprocess
import sys
import threading
import time


class CaseRunner:
    """Progress lines `[tag] case NAME ...` / `done in S s (k/total)` / `FAILED (k/total): error`."""

    def __init__(self, tag, total):
        self.tag, self.total = tag, total
        self.failed = {}
        self._lock, self._done = threading.Lock(), 0

    def run(self, name, cmd, quiet_stdout=False, note=""):
        """Runs one command as case `name` (`note` follows the name on its first line); True if it succeeded."""
        with self._lock:
            sys.stderr.write(f"[{self.tag}] case {name}{note} ...\n")
        t0 = time.time()
        p = subprocess.run(cmd, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL if quiet_stdout else None,
                           text=True)
        with self._lock:
            self._done += 1
            if p.returncode == 0:
                sys.stderr.write(f"[{self.tag}] case {name} done in {time.time() - t0:.1f} s "
                                 f"({self._done}/{self.total})\n")
            else:
                err = (p.stderr.strip().splitlines() or [f"exit status {p.returncode}"])[-1]
                self.failed[name] = err
                sys.stderr.write(f"[{self.tag}] case {name} FAILED ({self._done}/{self.total}): {err}\n")
        return p.returncode == 0

    def run_scenarios(self, lossless, here, out_dir, todo, jobs, quiet_stdout=False):
        """`lossless run` of every case of `todo` (in its order), `jobs` at a time."""

        def one(case):
            name, scenario, sets = case
            cmd = [lossless, "run", os.path.join(here, scenario), "-o", os.path.join(out_dir, name), "--quiet"]
            for s in sets:
                cmd += ["--set", s]
            self.run(name, cmd, quiet_stdout)

        with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
            list(pool.map(one, todo))


def run_all(tag, lossless, here, out_dir, todo, jobs, first=None):
    """Runs the cases `jobs` at a time (those for which `first(name)` holds first, so that -j N does not end
    on one long case); returns {name: error} for those that failed."""
    order = sorted(todo, key=lambda c: not first(c[0])) if first else todo
    runner = CaseRunner(tag, len(todo))
    runner.run_scenarios(lossless, here, out_dir, order, jobs)
    return runner.failed


def arguments(root, paper, full_help):
    """The options every experiment script takes: --lossless, --out, --full, -j."""
    import argparse
    ap = argparse.ArgumentParser()
    ap.add_argument("--lossless", default=os.path.join(root, "build", "lossless"))
    ap.add_argument("--out", default=os.path.join(root, "out", paper))
    ap.add_argument("--full", action="store_true", help=full_help)
    ap.add_argument("-j", "--jobs", type=int, default=1, help="cases run side by side")
    return ap


def print_table(lines, width):
    """The (experiment, lossless, paper) rows on the terminal, the middle column `width` wide."""
    w = max(len(l[0]) for l in lines)
    for e, m, p in lines:
        print(f"{e:<{w}}  {m:<{width}}  {p}")

#!/usr/bin/env python3
"""Output identity between two builds: runs the same inputs with a base and a new `lossless` binary and compares
every output byte for byte (summary.json without wall time, memory and thread count, and without the keys of the
run's own checks, which a base built before them does not write: unfinished, stalls, deadlocks, invariants,
data_drops, headroom_drops; a base that has them is compared on them too). Use it for every change
that is not meant to alter results (a refactor, a speed-up).

usage: tools/identity.py --base BASE_BIN [--new build/lossless] [--out out/identity] [--groups g1,g2] [-j N]
Groups: bench (bench/scenarios), default (the default sweep), pfc (the default scenario with a 2 MB buffer, every
scheme, plus a lossy case and a star incast), hpcc (the four HPCC-simulator configs of experiments/hpcc-ws30,
HPCC-format files included), rocc (experiments/rocc/run.py), schemes (every other case of the default sweep at
the pfc group's small size: the schemes with packet slots, flow-control policies, marking, VOQ, RCM). Base outputs are cached per base binary (by its hash),
so a second comparison against the same base only runs the new build. Exit 0 when everything is identical.
Standard library only.
"""
import argparse
import concurrent.futures
import hashlib
import json
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# summary.json keys of the run's own checks (README "Invariants"), added after the first bases were built.
CHECK_KEYS = ("unfinished", "stalls", "deadlocks", "invariants", "data_drops", "headroom_drops")
SCHEMES = {  # --set lists of every registered scheme at its usual settings
    "none": ["cc.algorithm=none"],
    "dcqcn": ["cc.algorithm=dcqcn"],
    "dcqcn-hpcc": ["cc.algorithm=dcqcn", "cc.params.preset=hpcc_paper"],
    "hpcc": ["cc.algorithm=hpcc"],
    "hpcc-paper": ["cc.algorithm=hpcc", "cc.params.preset=hpcc_paper"],
    "timely": ["cc.algorithm=timely"],
    "timely-hpcc": ["cc.algorithm=timely", "cc.params.preset=hpcc_paper"],
    "dctcp": ["cc.algorithm=dctcp", "cc.params.preset=hpcc_paper"],
    "rocc": ["cc.algorithm=rocc", "switch.mechanism=rocc"],
}
OTHER_SCHEMES = {  # the other cases of experiments/default/sweep.yaml
    "homa": ["cc.algorithm=homa"],
    "expresspass": ["cc.algorithm=expresspass"],
    "ppfc": ["cc.algorithm=dcqcn", "cc.params.variant=paper", "switch.flow_control=ppfc"],
    "capfc": ["cc.algorithm=dcqcn", "cc.params.variant=paper", "switch.flow_control=capfc"],
    "qcn": ["cc.algorithm=qcn", "switch.mechanism=qcn"],
    "dcqcn-pi": ["cc.algorithm=dcqcn", "cc.params.variant=paper", "switch.ecn.marking=pi"],
    "bfc": ["cc.algorithm=none", "switch.flow_control=bfc", "switch.ecn.enabled=false"],
    "rcc": ["cc.algorithm=rcc"],
    "mercury": ["cc.algorithm=mercury", "switch.mechanism=mercury", "switch.ecn.enabled=false"],
    "pacc": ["cc.algorithm=dcqcn", "cc.params.variant=paper", "switch.mechanism=pacc", "switch.ecn.enabled=false"],
    "dcqcn-tcd": ["cc.algorithm=dcqcn_tcd", "switch.mechanism=tcd", "switch.ecn.enabled=false"],
    "dcqcn-with-tcd": ["cc.algorithm=dcqcn", "switch.mechanism=tcd", "switch.ecn.enabled=false"],
    "voq-dcqcn": ["switch.architecture=voq", "switch.voq.queue_size=400KB", "cc.algorithm=dcqcn",
                  "cc.params.variant=paper"],
    "rcm": ["switch.architecture=voq", "switch.voq.queue_size=400KB", "switch.mechanism=rcm",
            "cc.algorithm=dcqcn", "cc.params.variant=paper"],
}


def cases(groups):
    """(group, name, kind, argv-tail) tuples; kind run|hpcc|script."""
    out = []
    if "bench" in groups:
        for f in sorted(os.listdir(os.path.join(ROOT, "bench", "scenarios"))):
            if f.endswith(".yaml"):
                out.append(("bench", f[:-5], "run", [os.path.join(ROOT, "bench", "scenarios", f), "--threads", "2"]))
    default = os.path.join(ROOT, "experiments", "default", "scenario.yaml")
    if "default" in groups:
        sweep = {"pfc-only": ["cc.algorithm=none"], "dcqcn": ["cc.algorithm=dcqcn", "cc.params.variant=paper"],
                 "dcqcn-hpcc": ["cc.algorithm=dcqcn", "cc.params.preset=hpcc_paper"],
                 "hpcc": ["cc.algorithm=hpcc", "cc.params.preset=hpcc_paper"],
                 "timely": ["cc.algorithm=timely", "cc.params.preset=hpcc_paper"],
                 "dctcp": ["cc.algorithm=dctcp", "cc.params.preset=hpcc_paper"],
                 "rocc": ["cc.algorithm=rocc", "switch.mechanism=rocc"]}
        for name, sets in sweep.items():
            out.append(("default", name, "run", [default] + sum((["--set", s] for s in sets), [])))
    if "pfc" in groups:
        small = ["--set", "switch.buffer=2MB", "--set", "workload.0.duration=10ms", "--set", "workload.1.count=19"]
        for name, sets in SCHEMES.items():
            out.append(("pfc", name, "run", [default] + small + sum((["--set", s] for s in sets), [])))
        out.append(("pfc", "hpcc-lossy", "run", [default, "--set", "switch.buffer=1MB", "--set",
                                                 "switch.flow_control=none", "--set", "switch.pfc.enabled=false",
                                                 "--set", "workload.0.duration=5ms",
                                                 "--set", "workload.1.count=9", "--set", "cc.algorithm=hpcc"]))
        out.append(("pfc", "dcqcn-spray", "run", [default] + small + ["--set", "switch.routing=spray"]))
        out.append(("pfc", "dcqcn-2threads", "run", [default] + small + ["--threads", "2"]))
        out.append(("pfc", "incast-star", "run", [os.path.join(ROOT, "bench", "scenarios", "incast64-star100g.yaml"),
                                                  "--set", "monitor.pfc=true", "--set", "cc.algorithm=none",
                                                  "--set", "cc.params={}"]))
    if "schemes" in groups:
        small = ["--set", "switch.buffer=2MB", "--set", "workload.0.duration=10ms", "--set", "workload.1.count=19"]
        for name, sets in OTHER_SCHEMES.items():
            out.append(("schemes", name, "run", [default] + small + sum((["--set", s] for s in sets), [])))
    if "hpcc" in groups:
        for cfg in ("config_dcqcn", "config_hp", "config_timely", "config_dctcp"):
            out.append(("hpcc", cfg, "hpcc", [os.path.join(ROOT, "experiments", "hpcc-ws30", cfg + ".txt"),
                                              "--threads", "2"]))
    if "rocc" in groups:
        out.append(("rocc", "run.py", "script", [os.path.join(ROOT, "experiments", "rocc", "run.py")]))
    return out


def run_case(binary, root, case):
    group, name, kind, tail = case
    d = os.path.join(root, group, name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    if kind == "script":
        cmd = [sys.executable, tail[0], "--lossless", binary, "--out", d]
    elif kind == "hpcc":
        # HPCC-format files go where the config says; run from a copy whose output paths point into d.
        cfg_src = tail[0]
        cfg = os.path.join(d, os.path.basename(cfg_src))
        lines = []
        for line in open(cfg_src):
            k = line.split()[0] if line.split() else ""
            if k in ("FCT_OUTPUT_FILE", "PFC_OUTPUT_FILE"):
                line = f"{k} {os.path.join(d, k.lower() + '.txt')}\n"
            elif k in ("TOPOLOGY_FILE", "FLOW_FILE", "TRACE_FILE"):
                p = line.split()[1]
                line = f"{k} {os.path.join(os.path.dirname(cfg_src), p)}\n"
            lines.append(line)
        open(cfg, "w").writelines(lines)
        cmd = [binary, "hpcc", cfg, "-o", os.path.join(d, "out"), "--quiet"] + tail[1:]
    else:
        cmd = [binary, "run", tail[0], "-o", d, "--quiet"] + tail[1:]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"{group}/{name}: {' '.join(cmd)} exited {r.returncode}: {r.stderr.strip()}")
    return d


def normalized(path, root):
    # Files that name their own output folder (a sweep's resolved file and record) name it relative to `root`.
    data = open(path, "rb").read().replace(os.path.abspath(root).encode(), b"@OUT@")
    if os.path.basename(path) == "summary.json":
        s = json.loads(data)
        for k in ("wall_seconds", "memory", "threads", "ranks", "exchange", "run_id", "outputs"):
            s.pop(k, None)
        return s
    if os.path.basename(path) == "sweep.json":
        # A sweep's record repeats each case's summary: the same measurements of the machine go.
        def strip(v):
            if isinstance(v, dict):
                return {k: strip(x) for k, x in v.items()
                        if k not in ("wall_seconds", "memory", "threads", "ranks", "exchange", "run_id")}
            if isinstance(v, list):
                return [strip(x) for x in v]
            return v
        return strip(json.loads(data))
    return data


def compare(base_dir, new_dir, with_scenario):
    diffs, files = [], 0
    for dirpath, _, names in os.walk(base_dir):
        for n in names:
            if n.startswith(".") or (n.endswith(".txt") and n.startswith("config_")):
                continue
            # The resolved scenario names its output folder and gains the keys a change adds.
            if n == "scenario.yaml" and not with_scenario:
                continue
            b = os.path.join(dirpath, n)
            rel = os.path.relpath(b, base_dir)
            nw = os.path.join(new_dir, rel)
            files += 1
            if not os.path.exists(nw):
                diffs.append(f"{rel}: missing in the new outputs")
            elif n.endswith(".png"):
                continue
            else:
                old, new = normalized(b, base_dir), normalized(nw, new_dir)
                if isinstance(old, dict):
                    # Keys the base does not write yet (CHECK_KEYS) are not compared; everything else is.
                    for k in CHECK_KEYS:
                        if k not in old:
                            new.pop(k, None)
                    old, new = json.dumps(old, sort_keys=True), json.dumps(new, sort_keys=True)
                if old != new:
                    diffs.append(f"{rel}: differs")
    return files, diffs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--base", required=True, help="lossless binary of the reference build")
    ap.add_argument("--new", default=os.path.join(ROOT, "build", "lossless"))
    ap.add_argument("--out", default=os.path.join(ROOT, "out", "identity"))
    ap.add_argument("--groups", default="bench,default,pfc,hpcc,rocc")
    ap.add_argument("-j", type=int, default=1, help="cases run side by side")
    ap.add_argument("--with-scenario", action="store_true", help="compare the resolved scenario.yaml too")
    a = ap.parse_args()
    groups = set(a.groups.split(","))
    unknown = groups - {"bench", "default", "pfc", "hpcc", "rocc", "schemes"}
    if unknown:
        print(f"identity.py: unknown group(s) {', '.join(sorted(unknown))}", file=sys.stderr)
        return 2
    digest = hashlib.sha256(open(a.base, "rb").read()).hexdigest()[:16]
    base_root = os.path.join(a.out, "base-" + digest)
    new_root = os.path.join(a.out, "new")
    todo = cases(groups)
    jobs = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.j) as ex:
        for c in todo:
            stamp = os.path.join(base_root, c[0], c[1], ".done")
            if not os.path.exists(stamp):
                jobs.append(ex.submit(lambda c=c, stamp=stamp: (run_case(a.base, base_root, c), open(stamp, "w"))))
            jobs.append(ex.submit(run_case, a.new, new_root, c))
        for j in jobs:
            j.result()
    ok = True
    for group, name, _, _ in todo:
        files, diffs = compare(os.path.join(base_root, group, name), os.path.join(new_root, group, name),
                               a.with_scenario)
        print(f"{group}/{name}: {files} files, " + ("identical" if not diffs else "DIFFERENT"))
        for d in diffs:
            print("    " + d)
        ok &= not diffs
    print("all identical" if ok else "OUTPUTS DIFFER")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

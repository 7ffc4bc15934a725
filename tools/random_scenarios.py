#!/usr/bin/env python3
"""Randomized cross-scheme testing (issue 26 item 4): small valid random scenarios crossed with every scheme.

Seeded and reproducible (standard library only). Two parts:

1. The validation matrix. The scheme dimensions are read from `lossless list` (congestion control, switch
   mechanism, flow-control policy, switch architecture, routing, ECN marking: every name the binary registers,
   nothing hard-coded) and their full product is validated on a small reference scenario. Every combination
   must be accepted (exit 0) or rejected with exit 2 and one message; exit 1, a signal or anything else is a
   finding. The accepted ones are the combinations the campaign runs.

2. The campaign. Scenario i of seed S is drawn from Random(f"{S}:{i}"): a topology (star, dumbbell,
   leaf-spine, fat tree, or a custom graph with uneven rates and delays), buffers and PFC thresholds (static or
   dynamic), NIC settings, a workload (Poisson with a CDF of data/cdf, incasts, all-to-all, long flows, several
   messages per host pair) and a seed (about one scenario in 25 is instead a ring of switches whose routes all
   turn one way, with long flows two switches clockwise: a cyclic buffer dependency, a PFC deadlock where no
   congestion control keeps the buffers below PFC's thresholds); it is crossed with the accepted combinations in a shuffled order that
   visits every one before any repeats. Each run:
     - `lossless validate`: exit 0 or 2 (a combination this scenario cannot carry; counted as rejected);
     - `lossless run --check` on 1 thread: exit 0, or 3 only when a PFC deadlock is reported; on a lossless
       fabric every flow completes by the stop (generous: see `stop_for`) unless a deadlock is reported;
     - the same on 2 threads: outputs identical (summary.json without wall time, memory, threads);
     - the resolved scenario.yaml run again: outputs identical.
   Anything else is a finding: its scenario, command and the reason are kept under WORK/findings/.
   Before the cases, a scenario known to deadlock (tests/inputs/view-deadlock-ring.yaml) is run as the cases are:
   its exit 3 must read as an explained deadlock (`explained`), or that is a finding.

  tools/random_scenarios.py --lossless build/lossless --seed 1 --count 200 -j 2 --work out/random
  tools/random_scenarios.py ... --only 17        # re-run scenario 17 of that seed (same combination)

Exit status 0 when nothing was found, 1 when something was (the summary lists it), 2 on bad arguments.
"""

import argparse
import concurrent.futures
import csv
import hashlib
import itertools
import json
import os
import random
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# `lossless list` section headers and the scenario key each names (the key is read from the header itself;
# this only says which sections are scheme dimensions).
DIMENSIONS = ["cc.algorithm", "switch.mechanism", "switch.flow_control", "switch.architecture",
              "switch.routing", "switch.ecn.marking"]


def list_dimensions(binary):
    """{key: [names]} of every scheme dimension `lossless list` prints."""
    out = subprocess.run([binary, "list"], capture_output=True, text=True, check=True).stdout
    out += subprocess.run([binary, "list", "mechanisms"], capture_output=True, text=True, check=True).stdout
    dims, key = {}, None
    for line in out.splitlines():
        if re.match(r"^\S", line):
            # Every section header starts a section; only the schemes' are dimensions (topologies, workloads and
            # monitors are listed in the same "  name — summary" form).
            m = re.match(r"^\S.*\((cc\.algorithm|switch\.[a-z_.]+)[,)]", line)
            key = m.group(1) if m and m.group(1) in DIMENSIONS else None
            continue
        m = re.match(r"^  ([a-z0-9_]+) — ", line)
        if m and key:
            if m.group(1) not in dims.setdefault(key, []):
                dims[key].append(m.group(1))
    missing = [k for k in DIMENSIONS if not dims.get(k)]
    if missing:
        sys.exit(f"random_scenarios: `lossless list` printed no names for {missing}")
    return dims


def cdf_names():
    d = os.path.join(ROOT, "data", "cdf")
    return sorted(f[:-4] for f in os.listdir(d) if f.endswith(".txt"))


# ---------------------------------------------------------------------------------------------------------
# YAML writing (flow style below the top level; every value we write is a number, a plain word or a list).


def yaml_value(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k}: {yaml_value(x)}" for k, x in v.items()) + "}"
    if isinstance(v, list):
        return "[" + ", ".join(yaml_value(x) for x in v) + "]"
    if isinstance(v, float):
        return repr(v)
    v = str(v)
    return f'"{v}"' if re.search(r"[,:{}\[\]#]", v) else v


def to_yaml(s, comment=""):
    lines = [f"# {c}" for c in comment.splitlines()]
    for k, v in s.items():
        if k == "workload":
            lines.append("workload:")
            lines += [f"  - {yaml_value(w)}" for w in v]
        elif isinstance(v, dict):
            lines.append(f"{k}:")
            lines += [f"  {kk}: {yaml_value(vv)}" for kk, vv in v.items()]
        else:
            lines.append(f"{k}: {yaml_value(v)}")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------------------------
# Scenario generation.

RATES = [10, 25, 40, 100, 200, 400]  # Gbps
DELAYS = ["100ns", "500ns", "1us", "2us", "5us"]


def gbps(r):
    return f"{r}Gbps"


def ps_of(t):
    n, u = re.match(r"(\d+)(ns|us|ms)", t).groups()
    return int(n) * {"ns": 1000, "us": 10**6, "ms": 10**9}[u]


def gen_topology(r):
    """(topology dict, number of hosts, link rates in Gbps, a bound on a path's one-way delay in ps, the
    shortest link delay in ps: the window of a run on several threads)."""
    kind = r.choice(["star", "dumbbell", "leaf_spine", "fat_tree", "custom", "custom"])
    hr, hd = r.choice([25, 40, 100, 100]), r.choice(DELAYS[:4])
    host_link = {"rate": gbps(hr), "delay": hd}
    if kind == "star":
        n = r.randint(3, 10)
        return {"type": "star", "hosts": n, "host_link": host_link}, n, [hr], 2 * ps_of(hd), ps_of(hd)
    if kind == "dumbbell":
        left, right = r.randint(1, 6), r.randint(1, 5)
        cr, cd = r.choice([hr // 2 if hr >= 50 else hr, hr, 4 * hr if hr <= 100 else hr]), r.choice(DELAYS)
        topo = {"type": "dumbbell", "left": left, "right": right, "host_link": host_link,
                "core_link": {"rate": gbps(cr), "delay": cd}}
        return topo, left + right, [hr, cr], 2 * ps_of(hd) + ps_of(cd), min(ps_of(hd), ps_of(cd))
    fr, fd = r.choice([hr, 4 * hr if hr <= 100 else hr]), r.choice(DELAYS[:4])
    fabric = {"rate": gbps(fr), "delay": fd}
    if kind == "leaf_spine":
        leaves, spines, hpl = r.randint(2, 3), r.randint(1, 3), r.randint(2, 5)
        topo = {"type": "leaf_spine", "leaves": leaves, "spines": spines, "hosts_per_leaf": hpl,
                "host_link": host_link, "fabric_link": fabric}
        return topo, leaves * hpl, [hr, fr], 2 * ps_of(hd) + 2 * ps_of(fd), min(ps_of(hd), ps_of(fd))
    if kind == "fat_tree":
        if r.random() < 0.5:
            topo = {"type": "fat_tree", "k": 4, "host_link": host_link, "fabric_link": fabric}
            return topo, 16, [hr, fr], 2 * ps_of(hd) + 4 * ps_of(fd), min(ps_of(hd), ps_of(fd))
        pods, tors, aggs, cores, hpt = 2, r.randint(1, 2), r.randint(1, 2), r.randint(1, 2), r.randint(1, 3)
        topo = {"type": "fat_tree", "pods": pods, "tors_per_pod": tors, "aggs_per_pod": aggs, "cores": cores,
                "hosts_per_tor": hpt, "host_link": host_link, "fabric_link": fabric}
        return topo, pods * tors * hpt, [hr, fr], 2 * ps_of(hd) + 4 * ps_of(fd), min(ps_of(hd), ps_of(fd))
    # custom: a random tree of switches plus sometimes an extra switch link (a cycle: PFC deadlocks possible,
    # and reported), hosts on random switches, every link its own rate and delay.
    ns, nh = r.randint(2, 5), r.randint(3, 10)
    links, rates, worst = [], [], 0
    for h in range(nh):
        s = h if h < ns else r.randrange(ns)  # every switch gets a host
        lr, ld = r.choice(RATES[:4]), r.choice(DELAYS[:4])
        links.append([f"h{h}", f"s{s}", gbps(lr), ld])
        rates.append(lr)
        worst = max(worst, ps_of(ld))
    edges = [(r.randrange(j), j) for j in range(1, ns)]
    if ns >= 3 and r.random() < 0.3:
        a, b = r.sample(range(ns), 2)
        if (min(a, b), max(a, b)) not in {(min(x), max(x)) for x in edges}:
            edges.append((a, b))
    for a, b in edges:
        lr, ld = r.choice(RATES), r.choice(DELAYS)
        links.append([f"s{a}", f"s{b}", gbps(lr), ld])
        rates.append(lr)
    path = 2 * worst + sum(ps_of(l[3]) for l in links if l[0].startswith("s"))
    shortest = min(ps_of(l[3]) for l in links)
    return {"type": "custom", "hosts": nh, "switches": ns, "links": links}, nh, rates, path, shortest


def cdf_mean(name):
    """Mean bytes of a CDF file of data/cdf under linear interpolation (lines 'bytes cdf', '#' comments)."""
    pts = []
    for line in open(os.path.join(ROOT, "data", "cdf", name + ".txt")):
        f = line.split("#")[0].split()
        if len(f) >= 2:
            pts.append((float(f[0]), float(f[1])))
    return sum((b0 + b1) / 2 * (c1 - c0) for (b0, c0), (b1, c1) in zip(pts, pts[1:])) + pts[0][0] * pts[0][1]


def gen_workload(r, n, cdfs, host_gbps):
    """A list of workload entries over hosts 0..n-1 and the total bytes of the explicit flows."""
    entries, total = [], 0
    kinds = r.sample(["poisson", "incast", "all_to_all", "long", "pairs"], r.randint(1, 3))
    for kind in kinds:
        if kind == "poisson":
            # The duration carries a few hundred KB to a few MB per sender: bounded runs whatever the CDF.
            cdf, load, budget = r.choice(cdfs), r.choice([0.1, 0.3, 0.5, 0.8]), r.choice([3e5, 1e6, 3e6])
            # ... and at most about 20 flows per sender (CDFs of small messages would give thousands).
            flows_ns = 20 * cdf_mean(cdf) * 8 / (load * host_gbps)
            dur_ns = max(1000, int(min(budget * 8 / (load * host_gbps), flows_ns, 500000)))
            e = {"type": "poisson", "cdf": cdf, "load": load, "duration": f"{dur_ns}ns",
                 "start": f"{r.randint(0, 20)}us"}
            if r.random() < 0.3:
                e["sampling"] = "step"
            if r.random() < 0.3 and n > 3:
                e["hosts"] = f"0-{r.randint(2, n - 1)}"
            entries.append(e)
        elif kind == "incast":
            recv = r.randrange(n)
            senders = r.sample([h for h in range(n) if h != recv], r.randint(1, min(n - 1, 8)))
            size = r.choice([4000, 16000, 64000, 200000, 500000])
            count = r.randint(1, 3)
            entries.append({"type": "incast", "receiver": recv, "senders": sorted(senders),
                            "size": size, "start": f"{r.randint(0, 50)}us", "count": count,
                            "period": f"{r.choice([20, 50, 100])}us"})
            total += size * len(senders) * count
        else:
            flows = []
            if kind == "all_to_all":
                hosts = r.sample(range(n), min(n, r.randint(3, 5)))
                size = r.choice([2000, 10000, 50000, 100000])
                start = r.randint(0, 30)
                flows = [{"src": a, "dst": b, "size": size, "start": f"{start}us"}
                         for a in hosts for b in hosts if a != b]
            elif kind == "long":
                for _ in range(r.randint(1, 3)):
                    a, b = r.sample(range(n), 2)
                    flows.append({"src": a, "dst": b, "size": r.choice([1000000, 2000000, 5000000]),
                                  "start": f"{r.randint(0, 50)}us"})
            else:  # several messages per host pair, overlapping in time
                for _ in range(r.randint(1, 3)):
                    a, b = r.sample(range(n), 2)
                    for _ in range(r.randint(2, 4)):
                        flows.append({"src": a, "dst": b,
                                      "size": r.choice([1000, 5000, 64000, 300000, 1500000, 3000000]),
                                      "start": f"{r.randint(0, 40)}us"})
            flows.sort(key=lambda f: ps_of(f["start"]))
            total += sum(f["size"] for f in flows)
            entries.append({"type": "flows", "flows": flows})
    return entries, total


def gen_ring(r):
    """A ring of 5-6 switches with 1-2 hosts each, every link one rate and 1 us, and long flows from every host to
    a host two switches clockwise: two hops one way round against three or four the other, so every route turns
    the same way and under PFC the buffers of the ring can wait on each other (a cyclic buffer dependency: a PFC
    deadlock when a flow control without congestion control fills them; tests/inputs/view-deadlock-ring.yaml).
    (topology, hosts, rates, path bound, shortest delay, flows entry, its bytes)."""
    ns, per = r.randint(5, 6), r.randint(1, 2)
    rate = r.choice([25, 40, 100])
    links = [[f"h{h}", f"s{h // per}", gbps(rate), "1us"] for h in range(ns * per)]
    links += [[f"s{a}", f"s{(a + 1) % ns}", gbps(rate), "1us"] for a in range(ns)]
    size = r.choice([1000000, 2000000])
    flows = [{"src": h, "dst": (h + 2 * per) % (ns * per), "size": size, "start": "0us"} for h in range(ns * per)]
    topo = {"type": "custom", "hosts": ns * per, "switches": ns, "links": links}
    return topo, ns * per, [rate], 2 * ps_of("1us") + 2 * ps_of("1us"), ps_of("1us"), \
        {"type": "flows", "flows": flows}, size * len(flows)


def gen_scenario(seed, i, cdfs):
    """Scenario i of `seed` (without the schemes) and what the checks need to know about it."""
    r = random.Random(f"{seed}:{i}")
    topo, n, rates, path_ps, min_delay_ps = gen_topology(r)
    # About one scenario in 25 is a ring whose routes all turn one way (gen_ring), drawn from a stream of its
    # own so that every other scenario of a seed stays what it was.
    ring = None
    rr = random.Random(f"{seed}:{i}:ring")
    if rr.random() < 0.04:
        topo, n, rates, path_ps, min_delay_ps, *ring = gen_ring(rr)
    info_rate = int(re.match(r"\d+", (topo.get("host_link") or {"rate": topo.get("links", [[0, 0, "100"]])[0][2]})
                             ["rate"]).group())
    s = {"name": f"random-{seed}-{i}", "seed": r.randint(1, 10**6), "topology": topo}
    sw = {"buffer": r.choice(["2MB", "4MB", "8MB", "16MB", "32MB"])}
    if r.random() < 0.35:
        xoff = r.choice([50, 100, 200, 320, 500])
        sw["pfc"] = {"threshold": "static", "xoff": f"{xoff}KB", "xon": f"{xoff - r.choice([2, 5, 20])}KB"}
    else:
        sw["pfc"] = {"threshold": "dynamic", "alpha": r.choice([0.0625, 0.125, 0.5, 1, 4])}
    s["switch"] = sw
    nic = {}
    if r.random() < 0.3:
        nic["mtu"] = r.choice(["512B", "2KB", "4KB"])
    if r.random() < 0.2:
        nic["ack_interval"] = r.choice([2, 4])
    if nic:
        s["nic"] = nic
    s["workload"], explicit = gen_workload(r, n, cdfs, info_rate)
    if ring:
        s["workload"].insert(0, ring[0])
        explicit += ring[1]
    s["monitor"] = {"pfc": r.random() < 0.7}
    # A VOQ switch's queues must hold the PFC headroom of its fastest, longest link: sizes for when the
    # combination crossed with this scenario selects switch.architecture voq.
    voq = r.choice(["100KB", "400KB", "1MB"])
    return s, {"voq_queue": voq, "min_delay_ps": min_delay_ps, "hosts": n, "explicit_bytes": explicit, "min_rate_gbps": min(rates), "path_ps": path_ps}


def apply_combo(s, combo):
    s = json.loads(json.dumps(s))
    sw = s.setdefault("switch", {})
    for key, name in combo.items():
        if key == "cc.algorithm":
            s["cc"] = {"algorithm": name}
        elif key == "switch.ecn.marking":
            sw["ecn"] = {"marking": name}
        else:
            sw[key.split(".", 1)[1]] = name
    return s


# ---------------------------------------------------------------------------------------------------------
# Running and checking.


def run(cmd, timeout):
    t = time.time()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        return p.returncode, p.stderr, time.time() - t
    except subprocess.TimeoutExpired:
        return "timeout", f"no end within {timeout} s of wall time", time.time() - t
    except OSError as e:  # the binary replaced under a running campaign: copy it first (tests/random/README.md)
        return "not run", str(e), time.time() - t


def normalized_outputs(d):
    """{file: content} of a run folder, with what legitimately differs between runs left out."""
    out = {}
    for n in sorted(os.listdir(d)):
        p = os.path.join(d, n)
        if not os.path.isfile(p) or n.startswith("."):
            continue
        data = open(p, "rb").read()
        if n == "summary.json":
            j = json.loads(data)
            for k in ("wall_seconds", "memory", "threads", "outputs"):
                j.pop(k, None)
            data = json.dumps(j, sort_keys=True).encode()
        elif n == "scenario.yaml":
            data = b"\n".join(l for l in data.split(b"\n") if not l.strip().startswith(b"dir:"))
        out[n] = data
    return out


def differences(a, b):
    oa, ob = normalized_outputs(a), normalized_outputs(b)
    diffs = [f"{n}: only in {os.path.basename(a)}" for n in oa if n not in ob]
    diffs += [f"{n}: only in {os.path.basename(b)}" for n in ob if n not in oa]
    for n in oa:
        if n in ob and oa[n] != ob[n]:
            if n == "summary.json":
                ja, jb = json.loads(oa[n]), json.loads(ob[n])
                keys = [k for k in sorted(set(ja) | set(jb)) if ja.get(k) != jb.get(k)]
                diffs.append(f"summary.json differs in {keys}")
            else:
                diffs.append(f"{n} differs")
    return diffs


def stop_for(s, info):
    """A generous stop: the last start plus 20 x the time to carry every explicit byte and 2 ms of Poisson
    load (at most 3 MB per sender) through the slowest link, plus 1000 path delays, at least 5 ms."""
    starts = []
    for w in s["workload"]:
        if w["type"] == "flows":
            starts += [ps_of(f["start"]) for f in w["flows"]]
        elif w["type"] == "incast":
            starts.append(ps_of(w["start"]) + (w["count"] - 1) * ps_of(w["period"]))
        else:
            starts.append(ps_of(w["start"]) + ps_of(w["duration"]))
    bytes_ = info["explicit_bytes"] + info["hosts"] * 3000000
    carry = bytes_ * 8 * 1000 // info["min_rate_gbps"]  # ps
    stop = max(starts) + max(20 * carry + 1000 * info["path_ps"], 5 * 10**9)
    return f"{(stop + 999999) // 10**6}us"


def explained(code, summ):
    """How a run's exit status reads: "ok" (exit 0), "deadlock" (exit 3 with a PFC deadlock in summary.json: a
    stall the run explains), or None (anything else: a finding)."""
    if code == 0:
        return "ok"
    if code == 3 and summ and summ.get("deadlocks", {}).get("found"):
        return "deadlock"
    return None


def deadlock_probe(binary, work, timeout):
    """Runs a scenario known to deadlock (tests/inputs/view-deadlock-ring.yaml: a ring whose routes turn one way)
    as the campaign runs its cases; returns None when the tool reads its exit 3 as an explained deadlock, else
    the finding."""
    path = os.path.join(ROOT, "tests", "inputs", "view-deadlock-ring.yaml")
    o = os.path.join(work, "probe")
    shutil.rmtree(o, ignore_errors=True)
    cmd = [binary, "run", path, "--check", "--quiet", "--threads", "1", "-o", o]
    code, err, _ = run(cmd, timeout)
    sumf = os.path.join(o, "summary.json")
    summ = json.load(open(sumf)) if os.path.exists(sumf) else None
    if explained(code, summ) == "deadlock":
        return None
    return {"case": "deadlock-probe", "reason": f"the known PFC deadlock of {os.path.relpath(path, ROOT)} was "
            f"not classified as explained (exit {code}, deadlocks {summ and summ.get('deadlocks')})"}


def lossless_fabric(s):
    return s["switch"].get("flow_control", "pfc") != "none"


def check_case(binary, work, seed, i, s, info, combo, timeout, keep, max_windows):
    """Run scenario i with `combo`; return a record (status ok | rejected | finding, reason, times)."""
    tag = f"{i:05d}"
    d = os.path.join(work, "cases", tag)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    s = apply_combo(s, combo)
    if combo["switch.architecture"] == "voq":
        s["switch"]["voq"] = {"queue_size": info["voq_queue"]}
    s["stop"] = stop_for(s, info)
    combo_text = " ".join(f"{k}={v}" for k, v in combo.items())
    path = os.path.join(d, "scenario.yaml")
    open(path, "w").write(to_yaml(s, f"tools/random_scenarios.py --seed {seed} --only {i}: {combo_text}"))
    rec = {"case": i, "combo": combo, "topology": s["topology"]["type"], "wall": 0.0}

    def finding(reason, cmd=None, stderr=""):
        fd = os.path.join(work, "findings", tag)
        shutil.rmtree(fd, ignore_errors=True)
        shutil.copytree(d, fd)
        with open(os.path.join(fd, "finding.txt"), "w") as f:
            f.write(f"{reason}\ncombination: {combo_text}\n")
            if cmd:
                f.write("command: " + " ".join(cmd) + "\n")
            f.write(stderr[-4000:])
        rec.update(status="finding", reason=reason)
        return rec

    v = [binary, "validate", path]
    code, err, _ = run(v, timeout)
    if code == 2:
        if not err.strip().startswith("lossless: error:") or len(err.strip().splitlines()) != 1:
            return finding("validate exited 2 without one error message", v, err)
        rec.update(status="rejected", reason=err.strip())
        shutil.rmtree(d)
        return rec
    if code != 0:
        return finding(f"validate exited {code}", v, err)

    outs = {}
    plan = [("t1", [binary, "run", path, "--check", "--quiet", "--threads", "1"]),
            ("re", [binary, "run", None, "--check", "--quiet", "--threads", "1"]),
            ("t2", [binary, "run", path, "--check", "--quiet", "--threads", "2"])]
    while plan:
        name, cmd = plan.pop(0)
        o = os.path.join(d, name)
        if name == "re":
            cmd[2] = os.path.join(outs["t1"], "scenario.yaml")
        if name == "t2" and "t1s" in outs:
            cmd += ["--set", f"stop={outs['short_stop']}"]
        cmd += ["-o", o]
        code, err, wall = run(cmd, timeout)
        rec["wall"] += wall
        outs[name] = o
        sumf = os.path.join(o, "summary.json")
        summ = json.load(open(sumf)) if os.path.exists(sumf) else None
        verdict = explained(code, summ)
        deadlock = verdict == "deadlock"
        if deadlock:
            rec["deadlock"] = True
        elif verdict is None:
            return finding(f"run ({name}) exited {code}" + (" (stall under --check)" if code == 3 else ""),
                           cmd, err)
        if name == "t1":
            # Two threads synchronise once per window of the shortest link delay: on a shared machine a run
            # of many windows takes minutes. Then 1 and 2 threads are compared up to a stop of max_windows.
            # ... counted from the first flow's start (fct.csv; a Poisson entry's first arrival may be late).
            with open(os.path.join(o, "fct.csv")) as fct:
                first = min([float(row.split(",")[4]) * 1000 for row in list(fct)[1:]] or [0])
            short = int(first) + max_windows * info["min_delay_ps"]
            if summ["sim_time_ns"] * 1000 > short:
                outs["short_stop"] = f"{(short + 999) // 1000}ns"
                outs["t1s"] = None
                plan.insert(1, ("t1s", cmd[:cmd.index("-o")] + ["--set", f"stop={outs['short_stop']}"]))
            fl = summ["flows"]
            rec["flows"] = fl["total"]
            # A flow whose ideal FCT ends within 20x of it after the stop could not have finished: the stop is
            # drawn before the Poisson sizes are (a DataMining flow can be 1 GB), so it is not a finding.
            with open(os.path.join(o, "fct.csv")) as fct:
                rows = list(csv.DictReader(fct))
            stop_ns = summ["unfinished"]["end_ns"] if "unfinished" in summ else summ["sim_time_ns"]
            unfinishable = sum(1 for r in rows if not r["finish_ns"] and
                               float(r["start_ns"]) + 20 * float(r["ideal_fct_ns"]) > stop_ns)
            if unfinishable:
                rec["too_long"] = rec.get("too_long", 0) + unfinishable
            if lossless_fabric(s) and fl["completed"] + unfinishable != fl["total"] and not deadlock:
                un = summ.get("unfinished", {})
                return finding(f"lossless fabric: {fl['total'] - fl['completed']} of {fl['total']} flows "
                               f"unfinished by the stop without a deadlock ({un})", cmd, err)
        elif name != "t1s":
            diffs = differences(outs["t1s"] or outs["t1"] if name == "t2" and "t1s" in outs else outs["t1"], o)
            if diffs:
                what = "2 threads" if name == "t2" else "the resolved scenario.yaml re-run"
                return finding(f"{what} differ from 1 thread: " + "; ".join(diffs), cmd, err)
    rec["status"] = "ok"
    if not keep:
        shutil.rmtree(d)
    return rec


# ---------------------------------------------------------------------------------------------------------


def validation_matrix(binary, work, dims, jobs, timeout):
    """Validate every combination on a reference scenario: (accepted combos, findings, rejected count)."""
    # One switch, four 100 G hosts at 1 us: every scheme's defaults fit it (the VOQ's 100 KB queues hold the
    # PFC headroom of these links).
    ref = {"name": "random-reference", "topology": {"type": "star", "hosts": 4},
           "workload": [{"type": "flows", "flows": [{"src": 0, "dst": 3, "size": 100000, "start": 0}]}]}
    d = os.path.join(work, "matrix")
    os.makedirs(d, exist_ok=True)
    combos = [dict(zip(DIMENSIONS, c)) for c in itertools.product(*(dims[k] for k in DIMENSIONS))]

    def one(ic):
        i, combo = ic
        p = os.path.join(d, f"{i}.yaml")
        open(p, "w").write(to_yaml(apply_combo(ref, combo)))
        code, err, _ = run([binary, "validate", p], timeout)
        ok2 = code == 2 and err.strip().startswith("lossless: error:") and len(err.strip().splitlines()) == 1
        if code in (0,) or ok2:
            os.remove(p)
        return combo, code, err.strip(), ok2

    accepted, findings, rejected = [], [], 0
    with concurrent.futures.ThreadPoolExecutor(jobs) as ex:
        for combo, code, err, ok2 in ex.map(one, enumerate(combos)):
            if code == 0:
                accepted.append(combo)
            elif ok2:
                rejected += 1
            else:
                findings.append({"combo": combo, "reason": f"validate of the reference exited {code}: {err}"})
    return combos, accepted, findings, rejected


def pairwise_cover(accepted, seed):
    """Indices of accepted combinations, chosen greedily, such that every pair of values of two dimensions that
    occurs together in some accepted combination occurs in one of them (HPCC with TCD, BFC with spray, ...)."""
    pairs = lambda c: {(a, c[a], b, c[b]) for a, b in itertools.combinations(DIMENSIONS, 2)}
    cand = list(range(len(accepted)))
    random.Random(f"{seed}:cover").shuffle(cand)
    sets = {i: pairs(accepted[i]) for i in cand}
    left = set().union(*sets.values())
    cover = []
    while left:
        best = max(cand, key=lambda i: len(sets[i] & left))
        cover.append(best)
        left -= sets[best]
    return cover


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lossless", default=os.path.join(ROOT, "build", "lossless"))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=None,
                    help="scenarios to run (default: the pairwise cover's)")
    ap.add_argument("--first", type=int, default=0, help="index of the first scenario")
    ap.add_argument("--only", type=int, action="append", help="run only scenario I (repeatable)")
    ap.add_argument("--work", default=os.path.join(ROOT, "out", "random"))
    ap.add_argument("-j", type=int, default=2, help="runs side by side")
    ap.add_argument("--timeout", type=float, default=300, help="wall seconds per lossless command")
    ap.add_argument("--max-windows", type=int, default=3000,
                    help="1 and 2 threads are compared up to a stop of this many shortest link delays")
    ap.add_argument("--keep", action="store_true", help="keep every case's folder, not only findings'")
    ap.add_argument("--max-wall", type=float, default=None, help="stop starting new cases after this many s")
    a = ap.parse_args()
    binary = os.path.abspath(a.lossless)
    work = os.path.abspath(a.work)
    for sub in ("cases", "findings", "matrix"):
        shutil.rmtree(os.path.join(work, sub), ignore_errors=True)
    os.makedirs(os.path.join(work, "findings"), exist_ok=True)
    t0 = time.time()

    dims = list_dimensions(binary)
    cdfs = cdf_names()
    combos, accepted, findings, rejected = validation_matrix(binary, work, dims, a.j, a.timeout)
    print(f"dimensions: " + "; ".join(f"{k} {len(dims[k])} ({', '.join(dims[k])})" for k in DIMENSIONS))
    print(f"validation matrix: {len(combos)} combinations, {len(accepted)} accepted, {rejected} rejected with "
          f"exit 2, {len(findings)} otherwise ({time.time() - t0:.1f} s)")
    if not accepted:
        sys.exit("random_scenarios: no combination validates")
    probe = deadlock_probe(binary, work, a.timeout)
    print("deadlock probe (tests/inputs/view-deadlock-ring.yaml): " +
          ("exit 3 with the cycle reported, classified as an explained deadlock" if probe is None
           else "FINDING: " + probe["reason"]), flush=True)
    if probe:
        findings.append(probe)

    # Scenario i gets the combination at position i of: a pairwise cover of the accepted combinations (every pair
    # of schemes that validate together), then shuffled passes over all of them.
    order = pairwise_cover(accepted, a.seed)
    print(f"pairwise cover: {len(order)} combinations hold every pair of values that validate together "
          f"(scenarios 0-{len(order) - 1})")
    count = a.count if a.count is not None else len(order)
    last = max(a.only) + 1 if a.only else a.first + count
    p = 0
    while len(order) < last:
        perm = list(range(len(accepted)))
        random.Random(f"{a.seed}:pass{p}").shuffle(perm)
        order += perm
        p += 1
    idx = a.only if a.only else list(range(a.first, a.first + count))

    def case(i):
        if a.max_wall is not None and time.time() - t0 > a.max_wall:
            return {"case": i, "status": "skipped"}
        s, info = gen_scenario(a.seed, i, cdfs)
        return check_case(binary, work, a.seed, i, s, info, accepted[order[i]], a.timeout, a.keep, a.max_windows)

    records = []
    with concurrent.futures.ThreadPoolExecutor(a.j) as ex:
        for rec in ex.map(case, idx):
            records.append(rec)
            if rec["status"] == "finding":
                print(f"FINDING case {rec['case']} ({' '.join(rec['combo'].values())}, {rec['topology']}): "
                      f"{rec['reason']}", flush=True)
    findings += [r for r in records if r["status"] == "finding"]
    by = {st: sum(1 for r in records if r["status"] == st) for st in ("ok", "rejected", "finding", "skipped")}
    ran = [r for r in records if r["status"] in ("ok", "finding")]
    covered = {json.dumps(r["combo"], sort_keys=True) for r in records if r["status"] == "ok"}
    topo = {}
    for r in ran:
        topo[r["topology"]] = topo.get(r["topology"], 0) + 1
    summary = {
        "seed": a.seed, "scenarios": len(records), "ok": by["ok"], "rejected": by["rejected"],
        "findings": len(findings), "skipped": by["skipped"],
        "combinations": {"total": len(combos), "accepted": len(accepted), "covered_ok": len(covered)},
        "topologies": topo, "flows": sum(r.get("flows", 0) for r in ran),
        "deadlocks": sum(1 for r in ran if r.get("deadlock")), "deadlock_probe": "explained" if probe is None
        else "finding",
        "run_wall_seconds": round(sum(r.get("wall", 0) for r in records), 1),
        "wall_seconds": round(time.time() - t0, 1), "finding_list": findings,
        "cases": [{k: r[k] for k in ("case", "status", "combo", "topology", "flows", "wall") if k in r}
                  for r in records],
    }
    json.dump(summary, open(os.path.join(work, "summary.json"), "w"), indent=1)
    print(f"seed {a.seed}: {len(records)} scenarios x combinations: {by['ok']} ok, {by['rejected']} rejected by "
          f"validate (exit 2), {len(findings)} findings, {by['skipped']} skipped; {summary['flows']} flows, "
          f"{summary['deadlocks']} with a reported PFC deadlock; {len(covered)} of {len(accepted)} accepted "
          f"combinations ran clean; topologies {topo}; {summary['wall_seconds']} s")
    for f in findings:
        print(f"  finding: case {f.get('case', '-')}: {f['reason']}")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())

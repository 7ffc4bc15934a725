#!/usr/bin/env python3
"""`lossless view` end to end in a headless browser (tests View.PageInBrowser: Chromium, View.PageInFirefox:
Firefox ESR).

usage: tests/view_test.py --lossless build/lossless --work DIR [--browser chromium|firefox]
Runs a victim-flow scenario (tests/inputs/view-victim.yaml: PFC spreads S2 -> S1 -> S0 onto flow 0's path) with
the fabric recorded, builds its page and opens it in the browser at several times and flows (the page reads
`#t=<ns>&flow=<id>` and writes what it shows into data- attributes): no script error; the ports carry the queue
and pause state decoded here from fabric.bin; flow 0 shows its recorded path and the chain of pauses pfc.csv
records. Then the bad inputs: no recording, a cut recording, another format version, a folder mixing runs.
Exit 0 when every check passes.
"""
import argparse
import csv
import json
import os
import re
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]
BROWSER = "chromium"
failures = 0


def check(ok, what):
    global failures
    if not ok:
        failures += 1
        print(f"FAIL: {what}", file=sys.stderr)
    return ok


def decode(folder):
    """fabric.bin as full state per sample: [(time_ns, [queue per port], [paused per port])]."""
    data = open(os.path.join(folder, "fabric.bin"), "rb").read()
    assert data[:8] == b"LLFABRIC"
    version, nports, nflows, interval = struct.unpack_from("<IIIQ", data, 8)
    at, q, p, out = 28, [0] * nports, [0] * nports, []
    while at < len(data):
        (t,) = struct.unpack_from("<Q", data, at)
        (n,) = struct.unpack_from("<I", data, at + 8)
        at += 12
        for _ in range(n):
            i, qb, m = struct.unpack_from("<IIB", data, at)
            q[i], p[i] = qb, m
            at += 9
        (m,) = struct.unpack_from("<I", data, at)
        at += 4 + 8 * m
        out.append((t / 1000, list(q), list(p)))
    return out


def dom_of(page, fragment):
    return (dom_in_firefox if BROWSER == "firefox" else dom_in_chromium)(page, fragment)


def dom_in_chromium(page, fragment):
    chromium = shutil.which("chromium")
    if not check(chromium, "chromium not found: scripts/install-deps.sh --test installs Debian's chromium"):
        return None, 0
    with tempfile.TemporaryDirectory() as profile:
        start = time.time()
        r = subprocess.run([chromium] + CHROMIUM_FLAGS + [f"--user-data-dir={profile}", "--virtual-time-budget=5000",
                                                          "--dump-dom", "file://" + os.path.abspath(page) + fragment],
                           capture_output=True, text=True, timeout=180)
        took = time.time() - start
    check(r.returncode == 0 and "<body" in r.stdout, f"chromium loaded {page}{fragment}")
    return r.stdout, took


class Marionette:
    """Firefox's remote protocol (Marionette, the one geckodriver speaks): length-prefixed JSON over TCP."""

    def __init__(self, port):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=60)
        self.buf = b""
        self.id = 0
        self.read()  # the greeting: {"applicationType": "gecko", "marionetteProtocol": 3}

    def read(self):
        while b":" not in self.buf:
            self.buf += self.sock.recv(65536)
        n, _, rest = self.buf.partition(b":")
        while len(rest) < int(n):
            rest += self.sock.recv(65536)
        self.buf = rest[int(n):]
        return json.loads(rest[:int(n)])

    def call(self, name, params):
        self.id += 1
        body = json.dumps([0, self.id, name, params]).encode()
        self.sock.sendall(str(len(body)).encode() + b":" + body)
        _, _, error, result = self.read()
        if error:
            raise RuntimeError(f"{name}: {error}")
        return result


def dom_in_firefox(page, fragment):
    firefox = shutil.which("firefox-esr") or shutil.which("firefox")
    if not check(firefox, "firefox-esr not found: scripts/install-deps.sh --test installs Debian's firefox-esr"):
        return None, 0
    with tempfile.TemporaryDirectory() as profile:
        # Port 0: Marionette takes a free port and writes it into the profile (several tests may run at once).
        with open(os.path.join(profile, "user.js"), "w") as f:
            f.write('user_pref("marionette.port", 0);\nuser_pref("browser.shell.checkDefaultBrowser", false);\n'
                    'user_pref("datareporting.policy.dataSubmissionEnabled", false);\n')
        start = time.time()
        env = dict(os.environ, MOZ_HEADLESS="1")
        proc = subprocess.Popen([firefox, "--headless", "--marionette", "--no-remote", "--profile", profile],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        dom = None
        try:
            port_file = os.path.join(profile, "MarionetteActivePort")
            while not os.path.exists(port_file) or not open(port_file).read().strip():
                if proc.poll() is not None or time.time() - start > 120:
                    check(False, f"firefox started with Marionette ({proc.returncode})")
                    return None, 0
                time.sleep(0.1)
            m = Marionette(int(open(port_file).read()))
            m.call("WebDriver:NewSession", {"capabilities": {}})
            m.call("WebDriver:Navigate", {"url": "file://" + os.path.abspath(page) + fragment})
            # The page draws on load and writes what it shows into #state; wait until it has (or 10 s).
            script = ("const s = document.getElementById('state'); return document.readyState === 'complete' && "
                      "s !== null && (s.dataset.sample !== undefined || s.dataset.errors !== '0') ? "
                      "document.documentElement.outerHTML : null;")
            deadline = time.time() + 10
            while dom is None and time.time() < deadline:
                dom = m.call("WebDriver:ExecuteScript", {"script": script, "args": []}).get("value")
                if dom is None:
                    time.sleep(0.1)
            took = time.time() - start
            try:
                m.call("Marionette:Quit", {"flags": ["eForceQuit"]})
            except (OSError, RuntimeError, ValueError):
                pass
        finally:
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
    check(dom is not None and "<body" in dom, f"firefox loaded {page}{fragment}")
    return dom, took


def attrs(dom, element_re):
    m = re.search(element_re, dom)
    if not m:
        return None
    return dict(re.findall(r'([a-z-]+)="([^"]*)"', m.group(0)))


def pause_intervals(folder, fabric):
    """{port index: [(start_ns, end_ns)]} from pfc.csv (the port that received the frame is the paused one)."""
    nodes = {n[0]: i for i, n in enumerate(fabric["nodes"])}
    index = {(p[0], p[1]): i for i, p in enumerate(fabric["ports"])}
    out, open_ = {}, {}
    for r in csv.DictReader(open(os.path.join(folder, "pfc.csv"))):
        i = index[(nodes[r["node"]], int(r["port"]))]
        t = float(r["time_ns"])
        if r["event"] == "pause":
            end = t + int(r["quanta"]) * 512 / fabric["ports"][i][4] * 1e9
            if i in open_ and open_[i][1] >= t:
                open_[i][1] = max(open_[i][1], end)
            else:
                open_[i] = [t, end]
                out.setdefault(i, []).append(open_[i])
        elif i in open_:
            open_[i][1] = t
            del open_[i]
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lossless", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--browser", choices=["chromium", "firefox"], default="chromium")
    a = ap.parse_args()
    global BROWSER
    BROWSER = a.browser
    shutil.rmtree(a.work, ignore_errors=True)
    os.makedirs(a.work)
    run = os.path.join(a.work, "victim")
    subprocess.run([a.lossless, "run", os.path.join(ROOT, "tests", "inputs", "view-victim.yaml"), "-o", run,
                    "--quiet"], check=True)
    r = subprocess.run([a.lossless, "view", run], capture_output=True, text=True)
    check(r.returncode == 0, f"lossless view exits 0 ({r.stderr.strip()})")
    page = os.path.join(run, "view.html")
    raw = open(page, encoding="utf-8").read()
    check(not re.search(r'(src|href)="(https?:)?//', raw) and "<link" not in raw, "no external asset: opens offline")
    fabric = json.load(open(os.path.join(run, "fabric.json")))
    samples = decode(run)
    check(len(samples) == fabric["samples"], f"{fabric['samples']} samples decoded")
    names = [f"{fabric['nodes'][p[0]][0]}:{p[1]}" for p in fabric["ports"]]

    # The slider: at two times the ports show the recorded queue and pause state (and so their colours change).
    busiest = max(range(len(names)), key=lambda i: max(s[1][i] for s in samples))
    k_full = max(range(len(samples)), key=lambda k: samples[k][1][busiest])
    k_empty = 0
    shown = {}
    for k in (k_empty, k_full):
        dom, took = dom_of(page, f"#t={samples[k][0]:.0f}")
        if dom is None:
            return 1
        state = attrs(dom, r'<div id="state"[^>]*>')
        check(state and state.get("data-errors") == "0", f"no script error at sample {k} ({state})")
        check(state and state.get("data-sample") == str(k), f"the page shows sample {k} for t={samples[k][0]}")
        for i in range(len(names)):
            port = attrs(dom, rf'<rect[^>]*id="p{i}"[^>]*>')
            if not check(port is not None, f"port {names[i]} is drawn"):
                continue
            check(port.get("data-q") == str(samples[k][1][i]) and port.get("data-paused") == str(samples[k][2][i]),
                  f"{names[i]} at sample {k}: queue {port.get('data-q')} paused {port.get('data-paused')}, recorded "
                  f"{samples[k][1][i]} / {samples[k][2][i]}")
            shown[(k, i)] = port.get("fill")
        print(f"sample {k}: page loaded and drawn in {took:.2f} s (headless {BROWSER}, whole process)")
    check(shown[(k_empty, busiest)] != shown[(k_full, busiest)],
          f"{names[busiest]}'s colour changes with its queue ({shown[(k_empty, busiest)]} -> {shown[(k_full, busiest)]})")

    # A flow: its path as recorded, and the chain of pauses behind its first paused port, each link of it a pause
    # pfc.csv records at that time, ending at a node that was not paused.
    victim = fabric["flows"][0]
    dom, _ = dom_of(page, "#flow=0")
    state = attrs(dom, r'<div id="state"[^>]*>')
    want_path = ",".join(names[i] for i in victim[6])
    check(state and state.get("data-path") == want_path, f"flow 0's path {state and state.get('data-path')} == {want_path}")
    chain = (state or {}).get("data-chain", "").replace("&lt;", "<").split(" < ")
    print(f"flow 0 pause chain: {' < '.join(chain)}")
    check(len(chain) >= 3, f"the pause chain on flow 0's path spreads over two switches or more ({chain})")
    ivs = pause_intervals(run, fabric)
    index = {n: i for i, n in enumerate(names)}
    node_of = {n[0]: i for i, n in enumerate(fabric["nodes"])}
    t0 = None
    for k, (cur, nxt) in enumerate(zip(chain, chain[1:])):
        i = index.get(cur)
        if not check(i in ivs, f"{cur} is paused in pfc.csv"):
            break
        if t0 is None:  # the time the page read the chain at (one sample interval into the first pause)
            t0 = float(state.get("data-chain-t") or min(s for s, e in ivs[i]))
        peer = fabric["ports"][i][2]
        nxt_node = nxt.split(":")[0]
        check(node_of[nxt_node] == peer, f"{cur} was paused by {fabric['nodes'][peer][0]}, the next in the chain")
        if ":" in nxt:
            j = index[nxt]
            check(any(s <= t0 < e for s, e in ivs.get(j, [])), f"{nxt} was itself paused at {t0} ns (pfc.csv)")
        else:
            root = node_of[nxt]
            paused_root = [names[j] for j, p in enumerate(fabric["ports"]) if p[0] == root and
                           any(s <= t0 < e for s, e in ivs.get(j, []))]
            check(not paused_root, f"the chain ends at {nxt}, which no pause held at {t0} ns ({paused_root})")

    # A PFC deadlock: five switches in a ring whose routes turn the same way. The page lists the cycle the run
    # reported and the stalled flows, and the pause chains close on themselves.
    ring = os.path.join(a.work, "ring")
    subprocess.run([a.lossless, "run", os.path.join(ROOT, "tests", "inputs", "view-deadlock-ring.yaml"), "-o", ring,
                    "--quiet"], check=True, capture_output=True)
    r = subprocess.run([a.lossless, "view", ring], capture_output=True, text=True)
    check(r.returncode == 0, f"lossless view of the ring exits 0 ({r.stderr.strip()})")
    summary = json.load(open(os.path.join(ring, "summary.json")))
    cycle = summary["deadlocks"]["cycles"][0]
    dom, _ = dom_of(os.path.join(ring, "view.html"), "")
    reports = re.search(r'<ul id="reports">(.*?)</ul>', dom or "", re.S)
    reports = re.sub(r"<[^>]+>", "", reports.group(1)) if reports else ""
    hops = ", ".join(f"{h['switch']}:{h['port']} -&gt; {h['to']}" for h in cycle["ports"])
    check(f"PFC deadlock at priority {cycle['priority']}" in reports and hops in reports,
          f"the page lists the reported deadlock ({hops})")
    check(reports.count("stalled flow") == summary["unfinished"]["stalled"] == 10,
          f"the page lists the 10 stalled flows ({reports.count('stalled flow')})")
    chains = re.search(r'<ol id="chains">(.*?)</ol>', dom or "", re.S)
    check(chains and "(cycle)" in chains.group(1), "the longest pause chains close on themselves (cycle)")

    # Bad input: each a clear message and exit status 2.
    def bad(folder, want):
        r = subprocess.run([a.lossless, "view", folder], capture_output=True, text=True)
        check(r.returncode == 2 and want in r.stderr, f"view {folder}: exit 2 with '{want}' ({r.returncode}: {r.stderr.strip()})")

    plain = os.path.join(a.work, "plain")
    subprocess.run([a.lossless, "run", os.path.join(ROOT, "tests", "inputs", "view-victim.yaml"), "-o", plain, "--quiet",
                    "--set", "monitor.fabric.enabled=false"], check=True)
    bad(plain, "--set monitor.fabric.interval=10us")
    cut = os.path.join(a.work, "cut")
    shutil.copytree(run, cut)
    with open(os.path.join(cut, "fabric.bin"), "r+b") as f:
        f.truncate(1000)
    bad(cut, "fabric.bin has 1000 bytes")
    other = os.path.join(a.work, "other")
    shutil.copytree(run, other)
    text = open(os.path.join(other, "fabric.json")).read().replace('"version": 1,', '"version": 9,', 1)
    open(os.path.join(other, "fabric.json"), "w").write(text)
    bad(other, "format version 9")
    mixed = os.path.join(a.work, "mixed")
    shutil.copytree(plain, mixed)
    shutil.copy(os.path.join(run, "fabric.json"), mixed)
    bad(mixed, "mixes files of different runs: fabric.json")
    bad(os.path.join(a.work, "nonexistent"), "not an output folder")
    print("ok" if failures == 0 else f"{failures} failed check(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""`lossless view OUT_DIR [-o FILE.html]`: one self-contained HTML page of a run (scripts, styles and data inline;
it opens from disk with no network) that draws the fabric by tiers, colours every port by its queue and marks it
when paused, over time (slider, play), shows a chosen flow's path, rate and the chain of pauses it met back to
where each started, and lists the largest queues, the longest pause chains and any deadlock or stall the run
reported. Needs the recording of `monitor.fabric` (fabric.json + fabric.bin, stats/fabric_monitor.h) and uses
pfc.csv for the pause intervals. Standard library only.

Exit status 2, with one message, for a folder without the recording (and how to make one), a folder mixing runs
or holding a cut file (summary.json's list of outputs), or a recording of another format version.
"""
import argparse
import base64
import csv
import html
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run_folder import Refused, check_run  # noqa: E402

VERSION = 1
HERE = os.path.dirname(os.path.abspath(__file__))

STYLE = """
body { font-family: sans-serif; margin: 1em; color: #222; }
h1 { font-size: 1.3em; margin: 0 0 0.3em 0; } h2 { font-size: 1.05em; margin: 1em 0 0.3em 0; }
#controls { position: sticky; top: 0; background: #fff; padding: 0.4em 0; z-index: 2; border-bottom: 1px solid #ddd; }
#slider { width: 60%; vertical-align: middle; } #time { font-family: monospace; margin: 0 1em; }
#drawing { overflow: auto; border: 1px solid #ddd; max-height: 62vh; }
.link { stroke: #bbb; stroke-width: 1; } .link.onpath { stroke: #6a3d9a; stroke-width: 3; }
.switch { fill: #f4f4f4; stroke: #555; } .host { fill: #fafafa; stroke: #888; cursor: pointer; }
.label { font-size: 9px; text-anchor: middle; fill: #333; pointer-events: none; }
.port { stroke: #999; stroke-width: 0.5; } .port.paused { stroke: #1f4fff; stroke-width: 2.2; }
.port.onpath { stroke: #6a3d9a; stroke-width: 1.5; } .port.paused.onpath { stroke: #1f4fff; stroke-width: 2.5; }
.cols { display: flex; gap: 2em; flex-wrap: wrap; } .cols > div { flex: 1 1 380px; }
table { border-collapse: collapse; font-size: 0.85em; } td, th { border: 1px solid #ccc; padding: 0.2em 0.5em; }
.axis { font-size: 9px; fill: #555; } .legend span { display: inline-block; width: 12px; height: 12px; vertical-align: middle; margin: 0 0.2em 0 0.8em; border: 1px solid #999; }
.err { color: #a00; } code { font-size: 0.8em; }
"""

BODY = """<h1>{title}</h1>
<p class="meta">{meta}</p>
<div id="controls"><button id="play">play</button> <button id="fit">fit width</button> <input id="slider" type="range" min="0" value="0">
<span id="time"></span>
<form id="flowform" style="display:inline"> flow <input id="flowid" size="6"> <button>show</button></form>
<span id="pick"></span>
<span class="legend"><span style="background:#e8e8e8"></span>empty <span style="background:rgb(253,141,60)"></span>queue
<span style="background:#fff;border:2px solid #1f4fff"></span>paused</span></div>
<div id="drawing"></div>
<p>Click a sender host, then a receiver, to show their largest flow; or type a flow id.</p>
<div class="cols"><div><h2>The flow</h2><div id="flowpanel">no flow chosen</div></div>
<div><h2>Largest queues</h2><ol id="queues"></ol><h2>Longest pause chains</h2><ol id="chains"></ol>
<h2>Deadlocks and stalls</h2><ul id="reports"></ul></div></div>
<div id="state" data-errors="0"></div>
"""

ERRORS = """window.addEventListener('error', function (e) {
  var s = document.getElementById('state'); if (s) { s.dataset.errors = (+s.dataset.errors + 1);
  s.dataset.lastError = String(e.message); }
  document.body.insertAdjacentHTML('beforeend', '<p class="err">error: ' + String(e.message).replace(/</g, '&lt;') + '</p>');
});"""


def fail(msg):
    raise Refused(msg)


def load(folder):
    summary = check_run(folder)
    jpath, bpath = os.path.join(folder, "fabric.json"), os.path.join(folder, "fabric.bin")
    if not os.path.exists(jpath) or not os.path.exists(bpath):
        fail(f"{folder}: no recording of the fabric (fabric.json, fabric.bin): run the scenario again with "
             "`--set monitor.fabric.interval=10us` (or `monitor: {fabric: {interval: 10us}}` in the file)")
    try:
        with open(jpath) as f:
            fabric = json.load(f)
    except (OSError, json.JSONDecodeError) as e:
        fail(f"{jpath}: not a fabric recording ({e})")
    if fabric.get("format") != "lossless-fabric":
        fail(f"{jpath}: not a fabric recording")
    if fabric.get("version") != VERSION:
        fail(f"{jpath}: recorded in format version {fabric.get('version')}; this lossless reads version {VERSION}: "
             "run the scenario again with this build")
    with open(bpath, "rb") as f:
        data = f.read()
    if len(data) != fabric.get("bin_bytes") or data[:8] != b"LLFABRIC":
        fail(f"{bpath}: {len(data)} bytes where the recording wrote {fabric.get('bin_bytes')}: cut short or changed")
    port_of = {(p[0], p[1]): i for i, p in enumerate(fabric["ports"])}
    node_of = {n[0]: i for i, n in enumerate(fabric["nodes"])}
    pfc = []
    ppath = os.path.join(folder, "pfc.csv")
    if os.path.exists(ppath):
        with open(ppath) as f:
            for r in csv.DictReader(f):
                i = port_of.get((node_of.get(r["node"]), int(r["port"])))
                if i is None:
                    fail(f"{ppath}: {r['node']}:{r['port']} is not a port of the recorded fabric")
                pfc.append([float(r["time_ns"]), i, int(r["priority"]), 1 if r["event"] == "pause" else 0,
                            int(r["quanta"] or 0)])
    return summary, fabric, data, pfc


def page(folder, summary, fabric, data, pfc):
    title = f"lossless view: {summary.get('scenario')} ({os.path.basename(os.path.normpath(folder))})"
    meta = (f"run {summary.get('run_id')}, cc {summary.get('cc')}, seed {summary.get('seed')}: "
            f"{len(fabric['nodes'])} nodes, {len(fabric['ports'])} ports, {len(fabric['flows'])} flows "
            f"({summary['flows']['completed']} completed), {fabric['samples']} samples every "
            f"{fabric['interval_ns'] / 1e3:g} us, {summary['pfc']['pause_frames']} PFC pause frames")
    js = open(os.path.join(HERE, "view_page.js"), encoding="utf-8").read()
    # JSON in a script element: "</" would end it early.
    blob = lambda o: json.dumps(o, separators=(",", ":")).replace("</", "<\\/")  # noqa: E731
    data_js = (f"window.FABRIC={blob(fabric)};\nwindow.FABRIC_BIN=\"{base64.b64encode(data).decode('ascii')}\";\n"
               f"window.PFC={blob(pfc)};\nwindow.SUMMARY={blob(summary)};\n")
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{html.escape(title)}</title><style>{STYLE}</style><script>{ERRORS}</script></head>\n<body>\n"
            + BODY.format(title=html.escape(title), meta=html.escape(meta))
            + f"<script>\n{data_js}</script>\n<script>\n{js}</script>\n</body></html>\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dir")
    ap.add_argument("-o", "--output")
    a = ap.parse_args()
    try:
        if not os.path.isdir(a.dir):
            fail(f"{a.dir}: not an output folder")
        summary, fabric, data, pfc = load(a.dir)
        out = a.output or os.path.join(a.dir, "view.html")
        text = page(a.dir, summary, fabric, data, pfc)
        tmp = out + ".partial"
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, out)
    except Refused as e:
        sys.stderr.write(f"lossless view: {e}\n")
        return 2
    except OSError as e:
        sys.stderr.write(f"lossless view: {e}\n")
        return 2
    print(f"view: {out} ({os.path.getsize(out) / 1e6:.1f} MB; open it in a browser)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

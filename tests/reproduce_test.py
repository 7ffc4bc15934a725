#!/usr/bin/env python3
"""`lossless reproduce` end to end, with every report opened in headless Chromium (Debian's chromium).

usage: tests/reproduce_test.py --lossless BIN --work DIR (--paper PAPER | --fake)
--paper rocc runs the real experiments (`lossless reproduce rocc -j 2`) and checks report.html in the browser:
every figure and table of results.json present, every image decoded, the numbers as results.json has them.
--fake runs stand-in papers (a folder given by LOSSLESS_EXPERIMENTS) to cover, quickly and under the sanitizers:
unknown and not-yet-landed papers (exit 2 naming the known ones), a failed case (exit 2, still reported), a
results.json that breaks the protocol (exit 2 naming the field), --full, and `all` with its index page.
Exit 0 when every check passes; otherwise 1 with the failed checks. Standard library only. Run by CTest.
"""
import argparse
import html.parser
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]
# A 1 x 1 PNG, the figure a stand-in experiment "draws" itself.
PNG_1x1 = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000"
                        "1f15c4890000000d49444154789c6360f8cf00000301010018dd8db40000000049454e44ae426082")

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print(f"FAILED: {what}", file=sys.stderr)
    return cond


class Dom(html.parser.HTMLParser):
    """What the checks need from the DOM Chromium dumps: sections, tables (rows of cell texts), images."""

    def __init__(self):
        super().__init__()
        self.body, self.sections, self.tables, self.images, self.links = {}, {}, {}, [], []
        self.section = self.table = self.cell = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "body":
            self.body = a
        elif tag == "section" and "data-item" in a:
            self.section = a["data-item"]
            self.sections[self.section] = {"figures": [], "differs": False}
        elif tag == "table" and "data-item" in a:
            self.table = a["data-item"]
            self.tables[self.table] = []
        elif tag == "tr" and self.table is not None:
            self.tables[self.table].append([])
        elif tag in ("td", "th") and self.table is not None:
            self.cell = [tag, ""]
        elif tag == "img":
            self.images.append(a)
            if self.section:
                self.sections[self.section]["figures"].append(a)
        elif tag == "p" and "differs" in a.get("class", "") and self.section:
            self.sections[self.section]["differs"] = True
        elif tag == "a":
            self.links.append(a.get("href", ""))

    def handle_endtag(self, tag):
        if tag == "section":
            self.section = None
        elif tag == "table":
            self.table = None
        elif tag in ("td", "th") and self.cell:
            if self.cell[0] == "td":
                self.tables[self.table][-1].append(self.cell[1])
            self.cell = None

    def handle_data(self, data):
        if self.cell:
            self.cell[1] += data


def browse(page):
    """The DOM of `page` after Chromium loaded it (and ran its load handler)."""
    chromium = shutil.which("chromium")
    if not check(chromium, "chromium not found: scripts/install-deps.sh --test installs Debian's chromium"):
        return None
    with tempfile.TemporaryDirectory() as profile:
        p = subprocess.run([chromium] + CHROMIUM_FLAGS + [f"--user-data-dir={profile}", "--virtual-time-budget=5000",
                                                          "--dump-dom", "file://" + os.path.abspath(page)],
                           capture_output=True, text=True, timeout=180)
    if not check(p.returncode == 0 and "<body" in p.stdout, f"chromium loaded {page} (status {p.returncode})"):
        print(p.stderr[-2000:], file=sys.stderr)
        return None
    dom = Dom()
    dom.feed(p.stdout)
    check(dom.body.get("data-loaded") == "yes", f"{page}: the page finished loading in the browser")
    return dom


def check_report(folder):
    """report.html and report.md of `folder` show every figure and table of its results.json."""
    results = json.load(open(os.path.join(folder, "results.json")))
    page = os.path.join(folder, "report.html")
    raw = open(page, encoding="utf-8").read()
    check(not re.search(r'(src|href)="(https?:)?//', raw) and "<link" not in raw,
          f"{page}: no external assets (static page)")
    dom = browse(page)
    if dom is None:
        return results
    md = open(os.path.join(folder, "report.md"), encoding="utf-8").read()
    for it in results["items"]:
        iid = it["id"]
        sec = dom.sections.get(iid)
        if not check(sec is not None, f"{page}: section of {iid}"):
            continue
        check(sec["differs"], f"{page}: {iid} says where and why we differ")
        check(f'<tr data-item="{iid}" data-verdict="{it["verdict"]}">' in raw,
              f"{page}: the claims table gives {iid} its verdict ({it['verdict']})")
        n = len(it.get("figures", [])) + len(it.get("plots", []))
        check(len(sec["figures"]) == n, f"{page}: {iid} shows {n} figures (found {len(sec['figures'])})")
        for k, run in enumerate(it.get("views", []), 1):
            view_page = f"views/{iid}-{k}.html"
            check(f'<a href="{view_page}" data-view="{run}">' in raw, f"{page}: {iid} links the view of {run}")
            check(os.path.isfile(os.path.join(folder, view_page)), f"{folder}/{view_page} exists")
            check(f"({view_page})" in md, f"{folder}/report.md: {iid} links the view of {run}")
        for img in sec["figures"]:
            check(img.get("src", "").startswith("data:image/png;base64,"), f"{page}: {iid}: figure embedded")
            w, _, h = img.get("data-decoded", "0x0").partition("x")
            check(int(w) > 0 and int(h) > 0, f"{page}: {iid}: the browser decoded its figure ({img.get('data-decoded')})")
        check(dom.tables.get(iid) is not None and [r for r in dom.tables[iid] if r] == it["rows"],
              f"{page}: {iid}: table of our numbers beside the paper's, as in results.json")
        check(it["title"] in md and all(r[0].replace("|", "\\|") in md for r in it["rows"]),
              f"{folder}/report.md: {iid}: title and rows")
    for name in re.findall(r"!\[[^\]]*\]\(([^)]+)\)", md):
        check(os.path.isfile(os.path.join(folder, name)), f"{folder}/report.md: figure {name} exists")
    return results


def run(args, env=None):
    p = subprocess.run(args, capture_output=True, text=True, env=env, timeout=1800)
    return p.returncode, p.stdout, p.stderr


def real_paper(lossless, paper, work):
    out = os.path.join(work, "out")
    shutil.rmtree(out, ignore_errors=True)
    status, stdout, stderr = run([lossless, "reproduce", paper, "-o", out, "-j", "2"])
    if not check(status == 0, f"reproduce {paper} exits 0 (got {status})"):
        print(stderr[-3000:], file=sys.stderr)
        return
    results = check_report(os.path.join(out, paper))
    check(f"{paper}: report " in stdout, "reproduce prints where the report is")
    rows = [r for it in results["items"] for r in it["rows"]]
    check(all(r[0] in stdout for r in rows), "the terminal shows the same tables")
    check(len(re.findall(r"\] case .* done", stderr)) >= len(results["items"]), "a progress line per case")


FAKE = '''import argparse, json, os, subprocess, sys
ap = argparse.ArgumentParser()
ap.add_argument("--lossless"); ap.add_argument("--out"); ap.add_argument("--full", action="store_true")
ap.add_argument("-j", "--jobs", type=int)
a = ap.parse_args()
os.makedirs(a.out, exist_ok=True)
mode = {mode!r}
print("experiment   lossless   paper")
print("fake result  1.00       1.0")
sys.stderr.write("[fake] case one ...\\n[fake] case one done in 0.1 s\\n")
with open(os.path.join(a.out, "own.png"), "wb") as f:
    f.write(bytes.fromhex({png!r}))
rows = [["fake result", "1.00", "1.0"]] if mode != "bad" else [["fake result", "1.00"]]
items = [{{"id": "tab1", "kind": "table", "title": "Table 1: a table | with a bar", "rows": rows,
          "differs": "a table differs", "verdict": "differs"}},
         {{"id": "fig2", "kind": "figure", "title": "Fig. 2: two plots and a drawn figure", "figures": ["own.png"],
          "rows": [["x", "2", "3"], ["y", "<b>4</b>", "5"]], "differs": "a figure differs", "verdict": "reproduced",
          "plots": [{{"title": "lines", "type": "lines", "xlabel": "t", "ylabel": "v",
                      "series": [{{"label": "a", "x": [0, 1, 2], "y": [1, 2, 1]}}], "refs": [{{"y": 1.5, "label": "paper"}}]}},
                    {{"title": "bars", "type": "bars", "categories": ["p", "q"], "ylog": True,
                      "series": [{{"label": "ours", "y": [1, 10]}}, {{"label": "paper", "y": [2, 20]}}]}}]}}]
if mode == "ok":  # a run recorded with monitor.fabric, linked as an interactive view under Fig. 2
    subprocess.run([a.lossless, "run", {victim!r}, "-o", os.path.join(a.out, "victim"), "--quiet"], check=True)
    items[1]["views"] = ["victim"]
failed = [{{"case": "broken-case", "error": "boom"}}] if mode == "failed" else []
json.dump({{"paper": {paper!r}, "title": "Fake paper " + {paper!r}, "scale": "full" if a.full else "reduced",
           "items": items, "failed": failed}}, open(os.path.join(a.out, "results.json"), "w"))
sys.exit(2 if failed else 0)
'''


def fake_papers(lossless, work):
    root = os.path.join(work, "experiments")
    shutil.rmtree(work, ignore_errors=True)
    for paper, folder, mode in (("rocc", "rocc", "ok"), ("hpcc", "hpcc-ws30", "failed"), ("rcm", "rcm", "bad")):
        os.makedirs(os.path.join(root, folder))
        with open(os.path.join(root, folder, "run.py"), "w") as f:
            f.write(FAKE.format(mode=mode, png=PNG_1x1.hex(), paper=paper,
                                victim=os.path.join(ROOT, "tests", "inputs", "view-victim.yaml")))
        if paper != folder:  # the folder names its paper (as experiments/hpcc-ws30 does)
            with open(os.path.join(root, folder, "paper-name"), "w") as f:
                f.write(paper + "\n")
    os.makedirs(os.path.join(root, "notes"))  # a folder without run.py is no paper
    env = dict(os.environ, LOSSLESS_EXPERIMENTS=root)
    out = os.path.join(work, "out")

    status, _, err = run([lossless, "reproduce", "nosuch"], env)
    check(status == 2 and "unknown paper 'nosuch' (known: hpcc, rcm, rocc, all;" in err,
          f"an unknown paper: exit 2 naming the papers found under experiments/ ({status}: {err.strip()})")
    status, _, err = run([lossless, "reproduce", "hpcc-ws30"], env)
    check(status == 2 and "unknown paper 'hpcc-ws30'" in err,
          f"a folder with a paper-name is known by that name only ({status}: {err.strip()})")
    status, _, err = run([lossless, "reproduce", "rocc", "--bogus"], env)
    check(status == 2 and "unknown option '--bogus'" in err, "a bad option: exit 2")

    status, stdout, err = run([lossless, "reproduce", "rocc", "-o", out, "--full"], env)
    check(status == 0, f"reproduce rocc (stand-in) exits 0 ({status}: {err.strip()})")
    check("fake result" in stdout and "[fake] case one done" in err, "the script's table and progress pass through")
    r = check_report(os.path.join(out, "rocc"))
    check(r["scale"] == "full" and "Scale: full" in open(os.path.join(out, "rocc", "report.html")).read(),
          "--full reaches the script and the report")

    status, _, err = run([lossless, "reproduce", "rcm", "-o", out], env)
    check(status == 2 and "items.tab1.rows.0: expected a list of 3 strings" in err,
          f"a results.json that breaks the protocol: exit 2 naming the field ({status}: {err.strip()})")

    status, stdout, err = run([lossless, "reproduce", "all", "-o", out], env)
    check(status == 2, f"all with a failed case exits 2 (got {status})")
    check(all(f"[reproduce] {p}:" in err for p in ("hpcc", "rcm", "rocc")) and "notes" not in err,
          "all runs every paper found under experiments/")
    check_report(os.path.join(out, "hpcc"))
    check("broken-case" in open(os.path.join(out, "hpcc", "report.html")).read(), "the failed case is in the report")
    dom = browse(os.path.join(out, "index.html"))
    if dom:
        check("rocc/report.html" in dom.links and "hpcc/report.html" in dom.links,
              f"the index links every report ({dom.links})")
        check(os.path.exists(os.path.join(out, "index.md")), "index.md written")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lossless", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--paper")
    ap.add_argument("--fake", action="store_true")
    a = ap.parse_args()
    if a.fake:
        fake_papers(a.lossless, a.work)
    else:
        real_paper(a.lossless, a.paper, a.work)
    print(f"{'FAILED' if failures else 'ok'}: {len(failures)} failed check(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Turns a paper's results.json (the protocol of experiments/README.md) into report.html and report.md.

usage: tools/report.py DIR [--wall-seconds S]      DIR/results.json -> DIR/report.html, DIR/report.md
       tools/report.py --index OUT PAPER[=S]...     OUT/index.html, OUT/index.md over OUT/PAPER/
       tools/report.py --check                      exit 0 if matplotlib can be imported (else 2)
The HTML is one static file: figures are embedded as data: URIs, no script or style is fetched, so it opens
from disk anywhere; report.md shows the same figures from DIR/figures/. Plot specs of an item are drawn here
(tools/charts.py) as figures/<item id>-<n>.png; figures the experiment drew itself are listed by file name.
Bad input (a results.json that breaks the protocol): exit 2 with one message naming the file, field and
reason. Run by `lossless reproduce`; needs Debian's python3-matplotlib.
"""
import argparse
import base64
import html
import json
import os
import re
import sys

KINDS = ("figure", "table")
# What an item's numbers show against the paper: the same result; a different one whose cause the `differs` line
# shows (a derivation, or a run that isolates it); or a figure/table we do not re-run, `differs` saying why.
VERDICTS = ("reproduced", "differs", "not-covered")
VERDICT_TEXT = {"reproduced": "reproduced", "differs": "differs (cause shown)", "not-covered": "not covered"}
ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
DEFAULT_COLUMNS = ["result", "lossless", "paper"]


class BadResults(Exception):
    pass


def fail(where, msg):
    raise BadResults(f"{where}: {msg}")


def text_field(obj, key, where, required=True):
    v = obj.get(key)
    if v is None and not required:
        return ""
    if not isinstance(v, str) or (required and not v.strip()):
        fail(f"{where}.{key}", "expected a non-empty string")
    return v


def load_results(path):
    """Reads and checks results.json; returns it with defaults filled in."""
    try:
        with open(path, encoding="utf-8") as f:
            r = json.load(f)
    except FileNotFoundError:
        fail(path, "no such file")
    except json.JSONDecodeError as e:
        fail(f"{path}:{e.lineno}", f"not JSON: {e.msg}")
    if not isinstance(r, dict):
        fail(path, "expected a JSON object")
    for key in ("paper", "title", "scale"):
        text_field(r, key, path)
    items = r.get("items")
    if not isinstance(items, list) or (not items and not r.get("failed")):
        fail(f"{path}: items", "expected a non-empty list of figures and tables (or failed cases)")
    seen = set()
    for i, it in enumerate(items):
        where = f"{path}: items.{i}"
        if not isinstance(it, dict):
            fail(where, "expected an object")
        iid = text_field(it, "id", where)
        if not ID.match(iid) or iid in seen:
            fail(f"{where}.id", f"'{iid}' is not a unique name of letters, digits, '_', '.', '-'")
        seen.add(iid)
        where = f"{path}: items.{iid}"
        if it.get("kind") not in KINDS:
            fail(f"{where}.kind", f"expected one of {', '.join(KINDS)}")
        text_field(it, "title", where)
        text_field(it, "differs", where)
        if it.get("verdict") not in VERDICTS:
            fail(f"{where}.verdict", f"expected one of {', '.join(VERDICTS)}")
        if re.search(r"not analy[sz]ed", it["differs"], re.I):
            fail(f"{where}.differs", "'not analysed' is not a cause: show it, or mark the item not-covered and say why")
        cols = it.setdefault("columns", DEFAULT_COLUMNS)
        if not isinstance(cols, list) or len(cols) < 2 or not all(isinstance(c, str) for c in cols):
            fail(f"{where}.columns", "expected a list of at least two column names")
        rows = it.get("rows")
        if not isinstance(rows, list) or not rows:
            fail(f"{where}.rows", "expected a non-empty list of rows (our numbers beside the paper's)")
        for k, row in enumerate(rows):
            if not isinstance(row, list) or len(row) != len(cols) or not all(isinstance(c, str) for c in row):
                fail(f"{where}.rows.{k}", f"expected a list of {len(cols)} strings")
        for k, fig in enumerate(it.setdefault("figures", [])):
            if not isinstance(fig, str) or os.path.isabs(fig) or ".." in fig.split("/"):
                fail(f"{where}.figures.{k}", "expected a file name relative to the results folder")
        for k, run in enumerate(it.setdefault("views", [])):
            if not isinstance(run, str) or os.path.isabs(run) or ".." in run.split("/"):
                fail(f"{where}.views.{k}", "expected a run folder relative to the results folder")
        if not isinstance(it.setdefault("plots", []), list):
            fail(f"{where}.plots", "expected a list of plot specs")
        if it["kind"] == "figure" and not it["figures"] and not it["plots"] and it["verdict"] != "not-covered":
            fail(where, "a figure needs at least one entry in figures or plots (unless it is not-covered)")
    failed = r.setdefault("failed", [])
    if not isinstance(failed, list) or not all(isinstance(f, dict) and "case" in f for f in failed):
        fail(f"{path}: failed", "expected a list of {\"case\": name, \"error\": text}")
    return r


def draw_plots(r, folder):
    """Draws every plot spec; returns {item id: [(figure path relative to folder, caption)]}, the figures the
    script drew first."""
    import charts  # matplotlib is only needed from here on

    figs = {}
    os.makedirs(os.path.join(folder, "figures"), exist_ok=True)
    for it in r["items"]:
        figs[it["id"]] = []
        for name in it["figures"]:
            if not os.path.isfile(os.path.join(folder, name)):
                fail(f"results.json: items.{it['id']}.figures", f"{name} does not exist in {folder}")
            figs[it["id"]].append((name, os.path.basename(name)))
        for k, spec in enumerate(it["plots"], 1):
            name = f"figures/{it['id']}-{k}.png"
            try:
                charts.draw(spec, os.path.join(folder, name))
            except charts.SpecError as e:
                fail(f"results.json: items.{it['id']}.plots.{k - 1}", str(e).split(": ", 1)[-1])
            figs[it["id"]].append((name, spec.get("title") or name))
    return figs


def verdict_counts(r):
    return {v: sum(1 for it in r["items"] if it["verdict"] == v) for v in VERDICTS}


def counts_line(r):
    c = verdict_counts(r)
    return ", ".join(f"{c[v]} {VERDICT_TEXT[v]}" for v in VERDICTS)


def build_views(r, folder):
    """Each item's `views` (run folders recorded with monitor.fabric) as pages views/<id>-<n>.html next to the
    report; returns {item id: [(page relative to folder, run folder)]}."""
    import view  # standard library only

    pages = {}
    for it in r["items"]:
        pages[it["id"]] = []
        for k, run in enumerate(it["views"], 1):
            try:
                summary, fabric, data, pfc = view.load(os.path.join(folder, run))
            except view.Refused as e:
                fail(f"results.json: items.{it['id']}.views.{k - 1}", str(e))
            name = f"views/{it['id']}-{k}.html"
            os.makedirs(os.path.join(folder, "views"), exist_ok=True)
            with open(os.path.join(folder, name), "w", encoding="utf-8") as f:
                f.write(view.page(os.path.join(folder, run), summary, fabric, data, pfc))
            pages[it["id"]].append((name, run))
    return pages


def md_cell(s):
    return s.replace("|", "\\|").replace("\n", " ")


def write_markdown(r, figs, folder, wall, views=None):
    out = [f"# {r['title']}", "", f"Scale: {r['scale']}."]
    if r.get("command"):
        out.append(f"Command: `{r['command']}`.")
    if wall is not None:
        out.append(f"Run time: {wall:.0f} s.")
    if r.get("summary"):
        out += ["", r["summary"]]
    if r["failed"]:
        out += ["", "## Failed cases", ""]
        out += [f"- `{f['case']}`: {f.get('error', '')}" for f in r["failed"]]
    out += ["", "## The paper's claims", "", f"{counts_line(r)}.", "", "| figure or table | verdict | why |",
            "|---|---|---|"]
    out += [f"| {md_cell(it['title'])} | {VERDICT_TEXT[it['verdict']]} | {md_cell(it['differs'])} |"
            for it in r["items"]]
    for it in r["items"]:
        out += ["", f"## {it['title']}", ""]
        for name, cap in figs[it["id"]]:
            out += [f"![{cap}]({name})", ""]
        for page, run in (views or {}).get(it["id"], []):
            out += [f"Inside the run: [interactive view of {run}]({page}) (queues, pauses and pause chains over time).", ""]
        out.append("| " + " | ".join(md_cell(c) for c in it["columns"]) + " |")
        out.append("|" + "---|" * len(it["columns"]))
        for row in it["rows"]:
            out.append("| " + " | ".join(md_cell(c) for c in row) + " |")
        out += ["", f"**Verdict: {VERDICT_TEXT[it['verdict']]}.** Where and why we differ: {it['differs']}"]
    with open(os.path.join(folder, "report.md"), "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")


STYLE = """
body { font-family: sans-serif; max-width: 1100px; margin: 2em auto; padding: 0 1em; color: #222; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 2em; border-bottom: 1px solid #ccc; }
.meta { color: #555; } .kind { font-size: 0.75em; color: #666; text-transform: uppercase; margin-left: 0.5em; }
.figures { display: flex; flex-wrap: wrap; gap: 1em; }
figure { margin: 0; flex: 1 1 480px; } figure img { max-width: 100%; border: 1px solid #eee; }
figcaption { font-size: 0.85em; color: #555; }
table { border-collapse: collapse; margin: 1em 0; font-size: 0.9em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: left; vertical-align: top; }
th { background: #f3f3f3; } .differs { background: #fff8e5; padding: 0.5em; border-left: 3px solid #e0b000; }
.failed { color: #a00; }
.verdict-reproduced { color: #0a6b2b; font-weight: bold; } .verdict-differs { color: #a05a00; font-weight: bold; }
.verdict-not-covered { color: #666; font-weight: bold; }
"""

# Marks each image with the size the browser decoded, so a headless check of the DOM can tell a figure that
# shows from one that is present but broken (tests/reproduce_report_test.py).
SCRIPT = """
window.addEventListener('load', function () {
  document.querySelectorAll('img').forEach(function (img) {
    img.setAttribute('data-decoded', img.naturalWidth + 'x' + img.naturalHeight);
  });
  document.body.setAttribute('data-loaded', 'yes');
});
"""


def data_uri(path):
    with open(path, "rb") as f:
        return "data:image/png;base64," + base64.b64encode(f.read()).decode("ascii")


def write_html(r, figs, folder, wall, views=None):
    e = html.escape
    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
           f"<title>{e(r['title'])}</title><style>{STYLE}</style><script>{SCRIPT}</script></head>",
           f'<body data-paper="{e(r["paper"])}">', f"<h1>{e(r['title'])}</h1>", '<p class="meta">',
           f"Scale: {e(r['scale'])}."]
    if r.get("command"):
        out.append(f" Command: <code>{e(r['command'])}</code>.")
    if wall is not None:
        out.append(f" Run time: {wall:.0f} s.")
    out.append("</p>")
    if r.get("summary"):
        out.append(f"<p>{e(r['summary'])}</p>")
    if r["failed"]:
        out.append('<section class="failed" id="failed"><h2>Failed cases</h2><ul>')
        out += [f"<li><code>{e(f['case'])}</code>: {e(f.get('error', ''))}</li>" for f in r["failed"]]
        out.append("</ul></section>")
    c = verdict_counts(r)
    out.append(f'<section id="claims" data-reproduced="{c["reproduced"]}" data-differs="{c["differs"]}" '
               f'data-not-covered="{c["not-covered"]}"><h2>The paper\'s claims</h2><p>{e(counts_line(r))}.</p>')
    out.append('<table class="claims"><thead><tr><th>figure or table</th><th>verdict</th><th>why</th></tr></thead>'
               "<tbody>")
    for it in r["items"]:
        v = it["verdict"]
        out.append(f'<tr data-item="{e(it["id"])}" data-verdict="{v}"><td><a href="#item-{e(it["id"])}">'
                   f'{e(it["title"])}</a></td><td class="verdict-{v}">{e(VERDICT_TEXT[v])}</td>'
                   f"<td>{e(it['differs'])}</td></tr>")
    out.append("</tbody></table></section>")
    for it in r["items"]:
        iid = e(it["id"])
        out.append(f'<section class="item" id="item-{iid}" data-item="{iid}" data-kind="{it["kind"]}">')
        out.append(f'<h2>{e(it["title"])}<span class="kind">{it["kind"]}</span></h2>')
        if figs[it["id"]]:
            out.append('<div class="figures">')
            for name, cap in figs[it["id"]]:
                cap = e(cap)
                out.append(f'<figure data-figure="{e(name)}"><img src="{data_uri(os.path.join(folder, name))}" '
                           f'alt="{cap}"><figcaption>{cap}</figcaption></figure>')
            out.append("</div>")
        for page, run in (views or {}).get(it["id"], []):
            out.append(f'<p class="view"><a href="{e(page)}" data-view="{e(run)}">Inside the run: the interactive '
                       f'view of {e(run)}</a> (queues, pauses and pause chains over time).</p>')
        out.append(f'<table class="numbers" data-item="{iid}"><thead><tr>')
        out += [f"<th>{e(c)}</th>" for c in it["columns"]]
        out.append("</tr></thead><tbody>")
        for row in it["rows"]:
            out.append("<tr>" + "".join(f"<td>{e(c)}</td>" for c in row) + "</tr>")
        out.append("</tbody></table>")
        out.append(f'<p class="differs"><b class="verdict-{it["verdict"]}">{e(VERDICT_TEXT[it["verdict"]])}.</b> '
                   f'<b>Where and why we differ:</b> {e(it["differs"])}</p></section>')
    out.append("</body></html>")
    with open(os.path.join(folder, "report.html"), "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")


def write_index(out_dir, papers):
    """OUT/index.html and index.md: one line per paper, linking its report."""
    e = html.escape
    rows = []
    for arg in papers:
        paper, _, wall = arg.partition("=")
        folder = os.path.join(out_dir, paper)
        try:
            r = load_results(os.path.join(folder, "results.json"))
            ok = os.path.exists(os.path.join(folder, "report.html"))
            rows.append((paper, r["title"], r["scale"], counts_line(r), len(r["failed"]), wall, ok))
        except BadResults as err:
            rows.append((paper, f"no report ({err})", "", "", 0, wall, False))
    md = ["# Reproduced papers", "", "| paper | title | scale | figures and tables | failed cases | run time |",
          "|---|---|---|---|---|---|"]
    page = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8"><title>Reproduced papers</title>',
            f"<style>{STYLE}</style><script>{SCRIPT}</script></head><body><h1>Reproduced papers</h1>",
            '<table class="index"><thead><tr>',
            "<th>paper</th><th>title</th><th>scale</th><th>figures and tables</th><th>failed cases</th>"
            "<th>run time</th></tr></thead><tbody>"]
    for paper, title, scale, n, nfail, wall, ok in rows:
        t = f"{float(wall):.0f} s" if wall else ""
        link = f"{paper}/report.html"
        title_md = f"[{md_cell(title)}]({paper}/report.md)" if ok else md_cell(title)
        md.append(f"| {paper} | {title_md} | {scale} | {n} | {nfail} | {t} |")
        cell = f'<a href="{e(link)}">{e(title)}</a>' if ok else e(title)
        page.append(f'<tr data-paper="{e(paper)}"><td>{e(paper)}</td><td>{cell}</td><td>{e(scale)}</td>'
                    f"<td>{n}</td><td>{nfail}</td><td>{t}</td></tr>")
    page.append("</tbody></table></body></html>")
    with open(os.path.join(out_dir, "index.md"), "w", encoding="utf-8") as f:
        f.write("\n".join(md) + "\n")
    with open(os.path.join(out_dir, "index.html"), "w", encoding="utf-8") as f:
        f.write("\n".join(page) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dir", nargs="?")
    ap.add_argument("papers", nargs="*")
    ap.add_argument("--wall-seconds", type=float)
    ap.add_argument("--index", action="store_true")
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    if a.check:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            sys.stderr.write("report.py: needs matplotlib: apt-get install python3-matplotlib\n")
            return 2
        return 0
    if not a.dir:
        ap.error("DIR is required")
    try:
        if a.index:
            write_index(a.dir, a.papers)
            return 0
        r = load_results(os.path.join(a.dir, "results.json"))
        figs = draw_plots(r, a.dir)
        views = build_views(r, a.dir)
        write_markdown(r, figs, a.dir, a.wall_seconds, views)
        write_html(r, figs, a.dir, a.wall_seconds, views)
    except BadResults as err:
        sys.stderr.write(f"report.py: error: {err}\n")
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())

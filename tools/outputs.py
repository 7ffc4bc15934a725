"""Readers of a run's output folder and the plot-series helpers the experiment scripts share
(experiments/*/run.py; the files and their columns: README "Outputs" and ../docs/DESIGN.md).

    import outputs
    for r in outputs.rows(out, "queues.csv"): ...          # csv.DictReader rows, the file closed after
    outputs.summary(out)["queue"]["max_bytes"]             # summary.json
    outputs.series("DCQCN", xs, ys)                        # a plotted line for results.json
    outputs.log_value(mean, 2)                             # a y for a log axis: None where there is none to draw
    outputs.number(mean, ".2f", "no flow finished")        # a table's text: the value, or what is missing

Standard library only.
"""
import csv
import json
import os

MAX_POINTS = 400  # per plotted series: enough for the eye, keeps results.json small


def rows(*path):
    """The rows of the CSV file at os.path.join(*path) as dicts (csv.DictReader), read lazily."""
    with open(os.path.join(*path), newline="") as f:
        yield from csv.DictReader(f)


def read_csv(*path):
    """The rows of the CSV file at os.path.join(*path) as a list of dicts."""
    return list(rows(*path))


def read_json(*path):
    with open(os.path.join(*path)) as f:
        return json.load(f)


def summary(*folder):
    """The run's summary.json (folder given as path parts)."""
    return read_json(*folder, "summary.json")


def thin(xs, ys, max_points=MAX_POINTS):
    """At most max_points evenly spaced points of a series (plots only; the numbers use every sample)."""
    step = max(1, len(xs) // max_points)
    return [round(x, 4) for x in xs[::step]], [round(y, 4) for y in ys[::step]]


def series(label, xs, ys, style="solid", max_points=MAX_POINTS):
    """A plotted line of results.json (experiments/README.md): label, thinned x and y, line style."""
    x, y = thin(xs, ys, max_points)
    return {"label": label, "x": x, "y": y, "style": style}


def missing(v):
    """True when `v` is no value: None, or NaN (the mean or percentile of a class with no finished flow)."""
    return v is None or v != v


def log_value(v, digits):
    """A y (or x) of a plot spec on a log axis: `v` rounded to `digits`, or None where there is nothing to draw:
    no value (missing(v): a class with no finished flow) or one a log axis cannot show (0 or less, also after
    rounding). tools/charts.py draws no bar and leaves a gap in a line for None, where a 0 would be dropped or drawn
    at the axis floor. A positive value reads as round(v, digits) does."""
    if missing(v):
        return None
    r = round(v, digits)
    return r if r > 0 else None


def number(v, spec, none, unit="", prefix=""):
    """`v` as format(v, spec) between `prefix` and `unit` (a ratio's "x", a size's " KB"), or `none` (what is
    missing, e.g. "no flow finished") when missing(v): a table never shows nan, or a made-up 0, for a class without
    flows."""
    return none if missing(v) else f"{prefix}{v:{spec}}{unit}"


def bin_categories(bins, finished, started=None):
    """The categories of a bar chart by flow-size bin, a bin where some series has no finished flow named so:
    `finished` (and `started`, if known) map each series label to its count of finished (started) flows per bin, in
    the order of `bins`. A bin no series finished a flow in reads '<bin>: no flow finished' ('<bin>: no such flows'
    if none started one), one only some did not '<bin>: no flow finished (<their labels>)'; every other bin keeps
    its name."""
    out = []
    for k, b in enumerate(bins):
        empty = [label for label, counts in finished.items() if not counts[k]]
        if not empty:
            out.append(b)
        elif len(empty) < len(finished):
            out.append(f"{b}: no flow finished ({', '.join(empty)})")
        elif started is not None and not any(counts[k] for counts in started.values()):
            out.append(f"{b}: no such flows")
        else:
            out.append(f"{b}: no flow finished")
    return out

"""Readers of a run's output folder and the plot-series helpers the experiment scripts share
(experiments/*/run.py; the files and their columns: README "Outputs" and ../docs/DESIGN.md).

    import outputs
    for r in outputs.rows(out, "queues.csv"): ...          # csv.DictReader rows, the file closed after
    outputs.summary(out)["queue"]["max_bytes"]             # summary.json
    outputs.series("DCQCN", xs, ys)                        # a plotted line for results.json

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

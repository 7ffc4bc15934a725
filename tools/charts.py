"""Draws one plot spec of the experiment protocol (experiments/README.md) to a PNG with matplotlib.

A spec is plain data, so experiment scripts stay standard-library only and a report can be redrawn from
results.json alone:
  {"title": str, "type": "lines" | "bars", "xlabel": str, "ylabel": str, "xlog": bool, "ylog": bool,
   "categories": [str]                              (bars: one group per category)
   "series": [{"label": str, "x": [num] (lines), "y": [num], "style": "solid|dashed|dotted|steps"}],
   "refs": [{"y": num, "label": str}]}              (horizontal reference lines, e.g. the paper's value)
Used by tools/report.py and tools/sweep_plot.py; needs Debian's python3-matplotlib.
"""
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (the backend must be chosen first)

from plot_style import COLORS, legend_outside, style  # noqa: E402

STYLES = {"solid": "-", "dashed": "--", "dotted": ":", "steps": "-"}


class SpecError(ValueError):
    """A plot spec that cannot be drawn; the message names the field."""


def _numbers(values, where):
    if not isinstance(values, list) or not all(isinstance(v, (int, float)) or v is None for v in values):
        raise SpecError(f"{where}: expected a list of numbers")
    return [float("nan") if v is None else v for v in values]


def check(spec, where):
    """Raises SpecError naming the first wrong field of `spec`."""
    if not isinstance(spec, dict):
        raise SpecError(f"{where}: expected an object")
    kind = spec.get("type")
    if kind not in ("lines", "bars"):
        raise SpecError(f"{where}.type: expected 'lines' or 'bars', got {kind!r}")
    series = spec.get("series")
    if not isinstance(series, list) or not series:
        raise SpecError(f"{where}.series: expected a non-empty list")
    cats = spec.get("categories")
    if kind == "bars" and (not isinstance(cats, list) or not cats):
        raise SpecError(f"{where}.categories: bars need a non-empty list of category names")
    for i, s in enumerate(series):
        w = f"{where}.series.{i}"
        if not isinstance(s, dict):
            raise SpecError(f"{w}: expected an object")
        y = _numbers(s.get("y"), f"{w}.y")
        if kind == "lines":
            x = _numbers(s.get("x"), f"{w}.x")
            if len(x) != len(y):
                raise SpecError(f"{w}: x has {len(x)} values, y has {len(y)}")
        elif len(y) != len(cats):
            raise SpecError(f"{w}.y: {len(y)} values for {len(cats)} categories")
        if s.get("style", "solid") not in STYLES:
            raise SpecError(f"{w}.style: expected one of {', '.join(STYLES)}")
    for i, r in enumerate(spec.get("refs", [])):
        if not isinstance(r, dict) or not isinstance(r.get("y"), (int, float)):
            raise SpecError(f"{where}.refs.{i}: expected {{\"y\": number, \"label\": text}}")


def draw(spec, path):
    """Draws `spec` (checked first) to the PNG file `path`."""
    check(spec, "plot")
    series = spec["series"]
    labelled = [s for s in series if s.get("label")] + [r for r in spec.get("refs", []) if r.get("label")]
    fig, ax = plt.subplots(figsize=(7.5 + (1.4 if len(labelled) > 6 else 0), 4.2))
    if spec["type"] == "lines":
        for k, s in enumerate(series):
            x, y = _numbers(s["x"], "x"), _numbers(s["y"], "y")
            line = s.get("style", "solid")
            look = style(k)
            if line == "steps":
                ax.step(x, y, where="post", label=s.get("label"), linewidth=1.2, color=look["color"])
            else:
                ax.plot(x, y, STYLES[line], label=s.get("label"), linewidth=1.2, color=look["color"],
                        marker=look["marker"] if len(x) <= 12 else None, markersize=3.5)
    else:
        cats = spec["categories"]
        width = 0.8 / len(series)
        for k, s in enumerate(series):
            xs = [i - 0.4 + width * (k + 0.5) for i in range(len(cats))]
            ax.bar(xs, _numbers(s["y"], "y"), width, label=s.get("label"), color=COLORS[k % len(COLORS)])
        ax.set_xticks(range(len(cats)))
        ax.set_xticklabels(cats, fontsize=8, rotation=20 if max(len(c) for c in cats) > 8 else 0)
    for r in spec.get("refs", []):
        ax.axhline(r["y"], color="black", linestyle=":", linewidth=1, label=r.get("label"))
    if spec.get("xlog"):
        ax.set_xscale("log")
    if spec.get("ylog"):
        ax.set_yscale("log")
    ax.set_xlabel(spec.get("xlabel", ""))
    ax.set_ylabel(spec.get("ylabel", ""))
    ax.set_title(spec.get("title", ""), fontsize=10)
    ax.grid(True, alpha=0.3)
    if len(labelled) > 6:
        legend_outside(fig, [ax], len(labelled), fontsize=7)
    else:
        if labelled:
            ax.legend(fontsize=7)
        fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)

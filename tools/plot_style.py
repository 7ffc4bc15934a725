"""Colours and markers that tell many series apart (the default comparison has 20+ schemes), and legends that
sit beside the data instead of on it. Used by tools/plot.py, tools/sweep_plot.py and tools/charts.py.

Series i gets colour COLORS[i % 20] and marker MARKERS[i % 12]: the pair is unique for the first 60 series, and
lines from the 21st on are dashed, so no two of the first 40 look alike even without markers.
"""

# tab10, then ten darker or lighter hues far from those (no two alike in hue and lightness at once).
COLORS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22",
          "#17becf", "#000000", "#393b79", "#637939", "#b5a000", "#843c39", "#7b4173", "#00a087", "#f39b7f",
          "#4dbbd5", "#a6761d"]
MARKERS = ["o", "s", "^", "D", "v", "P", "X", "*", "<", ">", "h", "p"]


def style(i):
    """matplotlib keyword arguments of series i: colour, marker, line style."""
    return {"color": COLORS[i % len(COLORS)], "marker": MARKERS[i % len(MARKERS)],
            "linestyle": "-" if (i // len(COLORS)) % 2 == 0 else "--"}


def legend_outside(fig, axes, n_entries, fontsize=8):
    """One legend for the figure, to the right of every axis; the axes shrink to make room."""
    handles, labels = [], []
    seen = set()
    for ax in axes:
        for h, lab in zip(*ax.get_legend_handles_labels()):
            if lab not in seen and not lab.startswith("_"):
                seen.add(lab)
                handles.append(h)
                labels.append(lab)
    if not handles:
        fig.tight_layout()
        return
    ncol = 1 if n_entries <= 24 else 2
    width = 0.17 * ncol
    fig.tight_layout(rect=(0, 0, 1 - width, 1))
    fig.legend(handles, labels, loc="center left", bbox_to_anchor=(1 - width + 0.005, 0.5), fontsize=fontsize,
               ncol=ncol, frameon=False)


def need_matplotlib(tool):
    """Returns when matplotlib imports here; otherwise re-runs the calling script under a Python 3 that has it
    (Debian's /usr/bin/python3, where apt installs python3-matplotlib, or another python3 on PATH), or exits 2
    saying how to install it. A pyenv or virtualenv python3 first on PATH is the usual reason."""
    import os
    import shutil
    import subprocess
    import sys
    try:
        import matplotlib  # noqa: F401
        return
    except ImportError:
        pass
    here = os.path.realpath(sys.executable)
    tried = []
    for cand in ("/usr/bin/python3", shutil.which("python3"), "/usr/local/bin/python3"):
        if not cand or not os.path.exists(cand) or os.path.realpath(cand) == here or cand in tried:
            continue
        tried.append(cand)
        if subprocess.run([cand, "-c", "import matplotlib"], capture_output=True).returncode == 0:
            os.execv(cand, [cand] + sys.argv)
    sys.stderr.write(f"{tool}: needs matplotlib for Python 3 (not found for {sys.executable}"
                     f"{' nor ' + ', '.join(tried) if tried else ''}): apt-get install python3-matplotlib\n")
    sys.exit(2)

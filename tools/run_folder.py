"""What makes a folder the outputs of one complete run (shared by `lossless plot` and `lossless view`).

A run lists in summary.json every other file it wrote with its size (`outputs`); a folder is one run's when every
listed file is there at that size and no other output file is (src/scenario/output_dir.h writes folders so).
"""
import json
import os

OUTPUT_NAMES = {"fct.csv", "pfc.csv", "fct.txt", "scenario.yaml", "queues.csv", "flow_rates.csv", "fabric.json",
                "fabric.bin"}


class Refused(Exception):
    """A folder that is not one complete run's; the message says why."""


def check_run(d):
    """The run's summary, if every output file in `d` belongs to it at the size it wrote; else Refused."""
    path = os.path.join(d, "summary.json")
    if not os.path.exists(path):
        raise Refused(f"{d}: holds no complete run (no summary.json): the run was interrupted or failed, or this "
                      "is not a run folder")
    try:
        with open(path) as f:
            s = json.load(f)
    except (OSError, json.JSONDecodeError) as e:
        raise Refused(f"{path}: not a run summary ({e})")
    if "outputs" not in s:
        raise Refused(f"{d}: written by a lossless without the list of its outputs in summary.json, so a mix of "
                      "runs cannot be told apart: run it again")
    try:
        listed = {o["file"]: int(o["bytes"]) for o in s["outputs"]}
    except (KeyError, TypeError, ValueError) as e:
        raise Refused(f"{path}: not a run summary (its outputs list lacks a file name or size: {e!r})")
    for name, size in sorted(listed.items()):
        p = os.path.join(d, name)
        if not os.path.exists(p):
            raise Refused(f"{d}: {name} is missing (summary.json lists it as an output of run {s.get('run_id')})")
        if os.path.getsize(p) != size:
            raise Refused(f"{d}: {name} has {os.path.getsize(p)} bytes where run {s.get('run_id')} wrote {size}: "
                          "cut short or changed since")
    for name in sorted(os.listdir(d)):
        if (name in OUTPUT_NAMES or name.endswith(".csv")) and name not in listed:
            raise Refused(f"{d}: mixes files of different runs: {name} is not an output of the run in "
                          f"summary.json (run {s.get('run_id')}, scenario {s.get('scenario')})")
    return s

"""Per-machine baselines of the gate's ratios: a regression of our own code is caught.

The targets of bench/targets.py are what the issues require (ours at most so many
times theirs). Most have room, so a real slowdown of our code can pass them. The
baseline holds, for one machine, the ratio each targeted pair measured there;
on that machine the gate also fails a pair whose ratio is more than
``TOLERANCE`` above its baseline, measured the same interleaved way and
measured again when it misses, like a target.

A machine is its processor model, its count of logical CPUs, the interpreter
(implementation and version), the architecture and ``PYTHONHASHSEED`` (the
order of dicts and sets moves the Python code's times from one process to the
next; .ci/run fixes it at 0): ratios move with each. A
pair's baseline holds only while the other contender's version is the one it
was measured with (a new orjson changes the denominator, not our code). On a
machine without a baseline the gate judges the targets alone and says so.

Writing one: run the benchmarks a few times with ``TOOLMEND_BENCH_RATIOS`` naming
a file for each run, then merge them into this machine's entry (the median of
each pair over the runs, and its limit)::

    export PYTHONHASHSEED=0
    for k in 1 2 3 4 5; do TOOLMEND_BENCH_RATIOS=/tmp/ratios-$k.json pytest bench; done
    python bench/baseline.py /tmp/ratios-*.json
    python bench/baseline.py --add /tmp/ratios-*.json   # keeping the earlier runs

A faster change lowers its pairs' ratios; writing the baseline again locks that
in. A slower change that is accepted all the same rewrites the baseline in the
same commit, where the review sees it.
"""

from __future__ import annotations

import json
import os
import platform
import statistics
import sys
from collections.abc import Iterable, Mapping
from importlib import metadata
from typing import Any

#: a pair fails when its ratio is above its baseline (the median of the runs
#: that wrote it) by more than this fraction ...
TOLERANCE = 0.12
#: ... or, for a pair whose runs spread wider, above the highest of them by more
#: than this one: each pair's limit is the larger of the two, written with it
SPREAD_MARGIN = 0.10

PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "baseline.json")

#: the distribution behind each contender that is another library (its version
#: decides whether a baseline holds); a contender not named here is ours or a
#: size of ours, compared with itself
DISTRIBUTIONS = {
    "orjson": "orjson",
    "json_repair": "json-repair",
    "fast_json_repair": "fast-json-repair",
    "partial_json_parser": "partial-json-parser",
    "simdjson": "pysimdjson",
    "jsonschema": "jsonschema",
    "jsonschema_rs": "jsonschema-rs",
    "difflib": None,  # the standard library: the interpreter's version is in the machine
}


def _processor() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def machine() -> dict[str, Any]:
    """What the ratios depend on, besides the code: the key of an entry."""
    return {
        "processor": _processor(),
        "cpus": os.cpu_count() or 1,
        "python": f"{sys.implementation.name} {sys.version_info.major}.{sys.version_info.minor}",
        "arch": platform.machine(),
        "hashseed": os.environ.get("PYTHONHASHSEED", "random"),
    }


def version_of(contender: str) -> str | None:
    """The installed version of a contender that is another library, '' when it
    is not installed, None when the contender is ours."""
    dist = DISTRIBUTIONS.get(contender)
    if dist is None:
        return None
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return ""


def pair_key(group: str, ours: str, other: str, case: str) -> str:
    return f"{group} | {ours} / {other} | {case}"


#: a pair whose baseline runs spread wider than this (highest over lowest) cannot tell a
#: 20% regression from its own noise: it is judged on its target alone
MAX_SPREAD = 0.15


def limit_of(values: list[float]) -> float | None:
    """The ratio a pair must not pass, from the ratios of the baseline runs
    (None: the runs spread too wide for a limit)."""
    if max(values) > min(values) * (1 + MAX_SPREAD):
        return None
    return max(statistics.median(values) * (1 + TOLERANCE), max(values) * (1 + SPREAD_MARGIN))


def load(path: str = PATH, here: Mapping[str, Any] | None = None) -> dict[str, dict[str, Any]]:
    """This machine's baseline pairs, {pair key: {"ratio": median, "limit":
    limit, "version": v, ...}}; empty when the file has no entry for it (or no
    file)."""
    here = machine() if here is None else dict(here)
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except FileNotFoundError:
        return {}
    for entry in data.get("machines", []):
        if entry.get("machine") == here:
            return dict(entry.get("pairs", {}))
    return {}


def _earlier(pair: Mapping[str, Any]) -> list[float]:
    """The runs behind a pair of the baseline, as far as it keeps them: its
    lowest and highest, and its median for each other run."""
    values = [pair["low"], pair["high"]]
    return values + [pair["ratio"]] * (pair["runs"] - len(values)) if pair["runs"] > 1 else [pair["ratio"]]


def merge(runs: Iterable[Mapping[str, Any]], path: str = PATH, add: bool = False) -> dict[str, Any]:
    """Write the median ratio of each pair over ``runs`` (the files the gate
    writes under TOOLMEND_BENCH_RATIOS, all from one machine) as that machine's
    entry of the baseline file, keeping the other machines' entries. With
    ``add``, the machine's entry keeps its earlier runs too (a pair measured
    with the same other version): the limits cover what the machine measured
    on other days as well (its speed drifts from one day to the next), and the
    pairs the runs did not measure (runs of some groups only) stay as they were."""
    runs = list(runs)
    if not runs:
        raise ValueError("no runs to merge")
    machines = {json.dumps(r["machine"], sort_keys=True) for r in runs}
    if len(machines) != 1:
        raise ValueError(f"the runs come from {len(machines)} different machines")
    ratios: dict[str, list[float]] = {}
    versions: dict[str, str | None] = {}
    for run in runs:
        for key, pair in run["pairs"].items():
            ratios.setdefault(key, []).append(pair["ratio"])
            versions[key] = pair.get("version")
    kept: dict[str, Any] = {}
    if add:
        for key, pair in load(path, runs[0]["machine"]).items():
            if key not in ratios:
                kept[key] = pair  # (runs of some groups only: the others' pairs stay as they were)
            elif pair.get("version") == versions[key]:
                ratios[key].extend(_earlier(pair))
    pairs = {key: {"ratio": round(statistics.median(values), 4), "high": round(max(values), 4),
                   "low": round(min(values), 4), "limit": _rounded(limit_of(values)), "runs": len(values),
                   "version": versions[key]}
             for key, values in ratios.items()}
    pairs = dict(sorted({**kept, **pairs}.items()))
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except FileNotFoundError:
        data = {}
    here = runs[0]["machine"]
    others = [e for e in data.get("machines", []) if e.get("machine") != here]
    entry = {"machine": here, "pairs": pairs}
    data = {"tolerance": TOLERANCE, "spread_margin": SPREAD_MARGIN, "machines": [*others, entry]}
    with open(path, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=1, sort_keys=False)
        f.write("\n")
    return entry


def _rounded(limit: float | None) -> float | None:
    return None if limit is None else round(limit, 4)


def main(argv: list[str]) -> int:
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__.split("Writing one:")[1].strip() if argv else "usage: baseline.py RATIOS.json ...",
              file=sys.stderr)
        return 2
    add = argv[0] == "--add"
    runs = []
    for name in argv[add:]:
        with open(name, encoding="utf-8") as f:
            runs.append(json.load(f))
    entry = merge(runs, add=add)
    print(f"{PATH}: {len(entry['pairs'])} pairs for {entry['machine']}, the median of {len(runs)} runs"
          + (" and the earlier ones" if add else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

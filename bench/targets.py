"""Ratio targets the benchmark run must meet (median time, ours / theirs).

Each target compares two contenders of one benchmark group, case by case:
``max_ratio=0.05`` means ours takes at most 5% of the other's median time (20x
faster). ``aggregate="each"`` checks every case; ``"geomean"`` checks the
geometric mean of the per-case ratios. bench/conftest.py checks them at the
end of the run and fails the run when one is missed.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Target:
    group: str
    ours: str
    other: str
    max_ratio: float
    aggregate: str = "each"  # "each" or "geomean"
    why: str = ""


TARGETS: list[Target] = [
    Target("recover-fault", "toolmend", "json_repair", 1 / 20,
           why="issue: at least 20x faster than json_repair.loads on the fault table"),
    Target("recover-fault", "toolmend", "fast_json_repair", 1.0,
           why="issue: no slower than fast_json_repair.loads on the fault table"),
    Target("recover-valid", "toolmend", "orjson", 1.3,
           why="issue: valid ~1 KB arguments at most 1.3x a bare orjson.loads"),
    Target("json-get", "toolmend", "simdjson", 1.5,
           why="issue 12: @json get on a 20 MB file within 1.5x of simdjson parse and navigate"),
    Target("json-keys", "toolmend", "simdjson", 1.5,
           why="issue 12: @json keys on a 20 MB file within 1.5x of simdjson parse and navigate"),
    Target("json-schema", "toolmend", "simdjson", 2.0,
           why="issue 12: @json schema on a 20 MB file within 2x of simdjson parse and sample"),
    Target("json-get", "toolmend", "orjson", 1.0,
           why="issue 12: @json get never slower than orjson.loads, on any shape"),
    Target("json-keys", "toolmend", "orjson", 1.0,
           why="issue 12: @json keys never slower than orjson.loads, on any shape"),
    Target("json-schema", "toolmend", "orjson", 1.0,
           why="issue 12: @json schema never slower than orjson.loads, on any shape"),
    Target("diff-corpus", "toolmend", "difflib", 1 / 5,
           why="issue 4: at least 5x faster than difflib.unified_diff on real source pairs"),
]

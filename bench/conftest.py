"""Side-by-side benchmarks with ratio targets.

Every benchmark names its group (``benchmark.group``) and, in
``benchmark.extra_info``, its ``contender`` (toolmend, json_repair, ...) and
``case``. At the end of the run the medians of contenders in the same group
and case are compared, the ratio table is printed, and each target of
bench/targets.py is checked: a missed target fails the run.

A run whose only failure is a missed target exits with status 6
(MISSED_TARGET_EXIT), so that a caller can tell noise from a broken test.
Set TOOLMEND_BENCH_ENFORCE=0 to print the ratios without failing.
"""

from __future__ import annotations

import math
import os
import sys
import threading
import time
from collections import defaultdict
from typing import Any

import pytest

sys.path.insert(0, os.path.dirname(__file__))
from targets import TARGETS  # noqa: E402

MISSED_TARGET_EXIT = 6

_results: dict[tuple[str, str, str], float] = {}
_report: list[str] = []
_missed: list[str] = []


def contend(benchmark: Any, group: str, contender: str, case: str) -> None:
    """Label a benchmark for the ratio table."""
    benchmark.group = f"{group}:{case}"
    benchmark.extra_info["group"] = group
    benchmark.extra_info["contender"] = contender
    benchmark.extra_info["case"] = case


def two_threads(fn_a: Any, fn_b: Any) -> tuple[float, float]:
    """Wall time and process CPU time of fn_a and fn_b run in two threads."""
    threads = [threading.Thread(target=fn_a), threading.Thread(target=fn_b)]
    cpu = time.process_time()
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return time.perf_counter() - start, time.process_time() - cpu


def best(fn: Any, rounds: int = 7) -> float:
    """The fastest of ``rounds`` runs of fn, in seconds."""
    fastest = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        fn()
        fastest = min(fastest, time.perf_counter() - start)
    return fastest


def need_two_free_cpus() -> None:
    """Skip unless this machine can run two threads at once right now: two
    threads hashing (hashlib releases the GIL) must keep two CPUs busy; with
    the other CPU taken any measure of parallel kernels is meaningless."""
    import hashlib

    if (os.cpu_count() or 1) < 2:
        pytest.skip("one CPU")
    blob = b"x" * (96 << 20)
    wall, cpu = min((two_threads(lambda: hashlib.sha256(blob).digest(),
                                 lambda: hashlib.sha256(blob).digest()) for _ in range(3)),
                    key=lambda r: r[0])
    if cpu < 1.6 * wall:
        pytest.skip(f"no two free CPUs: two hashing threads kept {cpu / wall:.2f} CPUs busy")


def _collect(config: pytest.Config) -> None:
    session = getattr(config, "_benchmarksession", None)
    if session is None or session.disabled:
        return
    for bench in session.benchmarks:
        info = bench.extra_info
        if "contender" not in info or not bench.stats or not bench.stats.rounds:
            continue
        _results[(info["group"], info["case"], info["contender"])] = bench.stats.median


def _check() -> None:
    by_group: dict[str, dict[str, dict[str, float]]] = defaultdict(lambda: defaultdict(dict))
    for (group, case, contender), median in _results.items():
        by_group[group][case][contender] = median
    for t in TARGETS:
        cases = by_group.get(t.group)
        if not cases:
            continue
        ratios = {case: m[t.ours] / m[t.other] for case, m in cases.items()
                  if t.ours in m and t.other in m and m[t.other] > 0}
        if not ratios:
            continue
        _report.append(f"{t.group}: {t.ours} / {t.other} (target <= {t.max_ratio:.3g}"
                       f"{', geometric mean' if t.aggregate == 'geomean' else ', every case'})")
        for case, r in sorted(ratios.items()):
            flag = "" if (t.aggregate != "each" or r <= t.max_ratio) else "   <-- MISSED"
            _report.append(f"    {case:<36} {r:8.3f}  ({1 / r:7.1f}x){flag}")
            if flag:
                _missed.append(f"{t.group}/{case}: {t.ours}/{t.other} = {r:.3f} > {t.max_ratio:.3g}"
                               f" ({t.why})")
        if t.aggregate == "geomean":
            g = math.exp(sum(math.log(r) for r in ratios.values()) / len(ratios))
            _report.append(f"    {'geometric mean':<36} {g:8.3f}  ({1 / g:7.1f}x)")
            if g > t.max_ratio:
                _missed.append(f"{t.group}: geometric mean {t.ours}/{t.other} = {g:.3f} > "
                               f"{t.max_ratio:.3g} ({t.why})")


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    _collect(session.config)
    _check()
    enforce = os.environ.get("TOOLMEND_BENCH_ENFORCE", "1") not in ("0", "false", "no")
    if _missed and enforce and session.exitstatus == 0:
        session.exitstatus = MISSED_TARGET_EXIT


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if not _report:
        return
    terminalreporter.section("toolmend benchmark ratios (median time, ours / theirs)")
    for line in _report:
        terminalreporter.write_line(line)
    for miss in _missed:
        terminalreporter.write_line(f"MISSED TARGET: {miss}", red=True)

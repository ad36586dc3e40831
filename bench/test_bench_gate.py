"""The gate itself (bench/conftest.py), on a fake clock: the measurement
alternates the sides and keeps the fastest round of each, a pair that misses
is measured again (and only so many times), a clear pass stops early, and the
verdict names every missed target. Nothing here is timed."""

from __future__ import annotations

import itertools
import json
from types import SimpleNamespace

import baseline
import conftest
import pytest
from conftest import (
    ATTEMPTS,
    MIN_CLEAR_ROUNDS,
    MIN_ROUNDS,
    PairResult,
    base_of,
    contend,
    interleaved,
    pair_limit,
    verdict,
)
from targets import Target


class FakeClock:
    """Each call of a contender advances the clock by its cost, plus a burst
    of 'load' on every third call; ``log`` records who ran."""

    def __init__(self) -> None:
        self.now = 0.0
        self.calls = itertools.count()
        self.log: list[str] = []

    def __call__(self) -> float:
        return self.now

    def contender(self, name: str, cost: float):
        def run() -> None:
            self.log.append(name)
            self.now += cost + (5 * cost if next(self.calls) % 3 == 0 else 0.0)
        return run


def runs(log: list[str]) -> list[tuple[str, int]]:
    return [(name, len(list(group))) for name, group in itertools.groupby(log)]


def test_the_fastest_round_of_each_side_whatever_the_bursts():
    clock = FakeClock()
    m = interleaved({"ours": clock.contender("ours", 1e-3), "theirs": clock.contender("theirs", 4e-3)},
                    clock=clock)
    assert m.minima == {"ours": pytest.approx(1e-3), "theirs": pytest.approx(4e-3)}
    assert m.rounds >= MIN_ROUNDS and m.attempts == 1
    assert all(len(s) == m.rounds for s in m.samples.values())


def test_the_sides_alternate_round_by_round():
    clock = FakeClock()
    m = interleaved({"a": clock.contender("a", 1e-3), "b": clock.contender("b", 1e-3)}, clock=clock)
    # a round of a is 3 calls (2 ms at least): after calibration, a b | b a | a b ...
    # so no side ever runs more than two rounds in a row
    assert max(n for _, n in runs(clock.log)[2:]) <= 2 * 3
    assert len(runs(clock.log)) >= m.rounds


def test_a_pair_that_misses_is_measured_again_a_bounded_number_of_times():
    clock = FakeClock()
    seen = []

    def passes(minima):
        seen.append(dict(minima))
        return False

    m = interleaved({"a": clock.contender("a", 1e-3), "b": clock.contender("b", 1e-3)},
                    passes=passes, clock=clock)
    assert m.attempts == ATTEMPTS == len(seen)
    assert m.rounds >= ATTEMPTS * MIN_ROUNDS  # the rounds of every attempt, pooled


def test_a_pass_is_not_measured_again_and_a_clear_one_stops_early():
    clock = FakeClock()
    fns = {"a": clock.contender("a", 1e-3), "b": clock.contender("b", 1e-3)}
    assert interleaved(fns, passes=lambda mn: True, clock=clock).attempts == 1
    m = interleaved(fns, passes=lambda mn: True, clear=lambda s: True, clock=clock)
    assert (m.rounds, m.attempts) == (MIN_CLEAR_ROUNDS, 1)


def _result(t: Target, case: str, ratio: float, attempts: int = 1) -> PairResult:
    return PairResult(t, case, ratio, ratio * 1e-3, 1e-3, 10, attempts, 0.1)


def test_the_verdict_shows_every_ratio_and_names_what_was_missed():
    met = Target("grp", "ours", "theirs", 0.5, why="the reason")
    other = Target("grp", "ours", "slow", 1.0)
    skipped = Target("else", "ours", "absent", 2.0)
    pairs = {(0, "case one"): _result(met, "case one", 0.4),
             (0, "case two"): _result(met, "case two", 0.6, attempts=3),
             (1, "case one"): _result(other, "case one", 0.25)}
    report, missed = verdict(pairs, [met, other, skipped])
    rows = "\n".join(report)
    assert "grp / case one" in rows and "20%" in rows and "75%" in rows
    assert "3 (retried)   <-- MISSED" in rows and "-20%" in rows
    assert "else (not measured)" in rows
    assert missed == ["grp / case two: ours / theirs = 0.600 > 0.5, the target, after 3 attempts "
                      "(the reason)"]
    assert "none for " in rows  # no baseline in these results


def test_a_geometric_mean_target_is_judged_on_the_mean():
    t = Target("grp", "ours", "theirs", 0.5, aggregate="geomean")
    pairs = {(0, "a"): _result(t, "a", 0.25), (0, "b"): _result(t, "b", 0.81)}  # one case over
    report, missed = verdict(pairs, [t])
    assert not missed and "0.450" in "\n".join(report)
    pairs[0, "b"] = _result(t, "b", 4.0)
    report, missed = verdict(pairs, [t])
    assert len(missed) == 1 and "geometric mean ours / theirs = 1.000 > 0.5" in missed[0]
    assert all("MISSED" not in row for row in report if "geometric mean" not in row)


def test_a_targeted_group_needs_the_callable():
    stub = SimpleNamespace(group=None, extra_info={})
    group = conftest.TARGETS[0].group
    with pytest.raises(TypeError, match="needs the callable"):
        contend(stub, group, conftest.TARGETS[0].ours, "some case")
    assert contend(stub, "a group without targets", "x", "y") is None
    assert stub.group == "a group without targets:y"


# ---------------------------------------------------------------------------
# This machine's baseline: a regression of ours is caught even with room left


def test_a_pair_over_its_baseline_by_more_than_the_tolerance_is_missed():
    t = Target("grp", "toolmend", "orjson", 2.0)
    base, limit = 1.0, baseline.limit_of([1.0, 1.0, 1.01])
    assert limit == pytest.approx(1 + baseline.TOLERANCE)
    ok = PairResult(t, "c", limit * 0.99, 1e-3, 1e-3, 10, 1, 0.1, base, limit)
    slow = PairResult(t, "d", base * 1.2, 1.2e-3, 1e-3, 10, 3, 0.1, base, limit)
    report, missed = verdict({(0, "c"): ok, (0, "d"): slow}, [t])
    assert not ok.regressed and slow.regressed and slow.met  # within its target all the same
    assert len(missed) == 1 and "grp / d" in missed[0] and "this machine's baseline" in missed[0]
    rows = "\n".join(report)
    assert "+20%" in rows and "2 of 2 pairs checked against it" in rows


def test_a_pair_over_its_baseline_while_ours_holds_against_another_is_theirs_moving():
    # ours measured against two others in one case: one ratio went up 20%, the other
    # went down 10%: the first other got faster, ours did not get slower
    slow_lib, fast_lib = Target("grp", "toolmend", "pylib", 0.05), Target("grp", "toolmend", "clib", 0.33)
    limit = baseline.limit_of([0.010, 0.010, 0.0101])
    up = PairResult(slow_lib, "c", 0.012, 665e-9, 56e-6, 10, 3, 0.1, 0.010, limit)
    down = PairResult(fast_lib, "c", 0.19, 665e-9, 3.5e-6, 10, 1, 0.1, 0.21, 0.24)
    report, missed = verdict({(0, "c"): up, (1, "c"): down}, [slow_lib, fast_lib])
    assert up.regressed and not missed
    assert "(theirs moved)" in "\n".join(report)
    # both up: ours got slower, and both pairs say so
    both = PairResult(fast_lib, "c", 0.26, 800e-9, 3.1e-6, 10, 3, 0.1, 0.21, 0.24)
    report, missed = verdict({(0, "c"): up, (1, "c"): both}, [slow_lib, fast_lib])
    assert len(missed) == 2 and all("this machine's baseline" in m for m in missed)
    # another case's pair says nothing of this one
    other_case = PairResult(fast_lib, "d", 0.19, 665e-9, 3.5e-6, 10, 1, 0.1, 0.21, 0.24)
    report, missed = verdict({(0, "c"): up, (1, "d"): other_case}, [slow_lib, fast_lib])
    assert len(missed) == 1 and "grp / c" in missed[0]


def test_the_limit_is_the_target_or_the_baseline_whichever_is_lower():
    each = Target("grp", "toolmend", "orjson", 2.0)
    mean = Target("grp", "toolmend", "orjson", 2.0, aggregate="geomean")
    assert pair_limit(each, None) == 2.0
    assert pair_limit(each, (1.0, 1.12)) == 1.12
    assert pair_limit(each, (1.9, 2.1)) == 2.0
    assert pair_limit(mean, None) == float("inf")  # judged on the mean only
    assert pair_limit(mean, (1.9, 2.1)) == 2.1


def test_a_pair_whose_baseline_runs_spread_wide_gets_a_wider_limit():
    assert baseline.limit_of([1.0, 1.0, 1.0]) == pytest.approx(1 + baseline.TOLERANCE)
    assert baseline.limit_of([1.0, 1.05, 1.1]) == pytest.approx(1.1 * (1 + baseline.SPREAD_MARGIN))
    assert baseline.limit_of([1.0, 1.05, 1.3]) is None  # too noisy to tell a regression: the target alone


def test_a_baseline_holds_only_for_the_other_contenders_version():
    t = Target("grp", "toolmend", "orjson", 2.0)
    key = baseline.pair_key("grp", "toolmend", "orjson", "c")
    here = baseline.version_of("orjson")
    assert here  # orjson is a dependency
    assert base_of(t, "c", {key: {"ratio": 0.8, "limit": 0.9, "version": here}}) == (0.8, 0.9)
    assert base_of(t, "c", {key: {"ratio": 0.8, "limit": 0.9, "version": "0.0.1"}}) is None
    assert base_of(t, "other case", {key: {"ratio": 0.8, "limit": 0.9, "version": here}}) is None
    sizes = Target("scaling", "2MB", "100KB", 40)
    assert base_of(sizes, "c", {baseline.pair_key("scaling", "2MB", "100KB", "c"):
                                {"ratio": 21.0, "limit": 23.0, "version": None}}) == (21.0, 23.0)
    threads = Target("threads", "two threads", "one after the other", 0.85, clock="wall", cpus=2)
    assert base_of(threads, "c", {baseline.pair_key("threads", "two threads", "one after the other", "c"):
                                  {"ratio": 0.5, "limit": 0.6, "version": None}}) is None


def test_merge_keeps_the_median_per_pair_and_the_other_machines(tmp_path):
    path = tmp_path / "baseline.json"
    elsewhere = {"processor": "another", "cpus": 64, "python": "cpython 3.13", "arch": "aarch64",
                 "hashseed": "0"}
    path.write_text(json.dumps({"machines": [{"machine": elsewhere, "pairs": {"k": {"ratio": 9}}}]}))
    here = baseline.machine()
    runs = [{"machine": here, "pairs": {"k": {"ratio": r, "version": "1"}}} for r in (1.0, 3.0, 1.2)]
    entry = baseline.merge(runs, str(path))
    want = {"ratio": 1.2, "high": 3.0, "low": 1.0, "limit": None, "runs": 3,
            "version": "1"}
    assert entry["pairs"]["k"] == want
    assert baseline.load(str(path)) == {"k": want}
    assert baseline.load(str(path), elsewhere) == {"k": {"ratio": 9}}
    assert baseline.load(str(tmp_path / "absent.json")) == {}
    with pytest.raises(ValueError, match="2 different machines"):
        baseline.merge([runs[0], {"machine": elsewhere, "pairs": {}}], str(path))
    # added runs of some pairs only: those take the earlier runs in, the others stay as they were
    k, j = {"ratio": 1.1, "version": "1"}, {"ratio": 2.0, "version": "1"}
    baseline.merge([{"machine": here, "pairs": {"k": k, "j": j}}], str(path))
    later = {"machine": here, "pairs": {"k": {"ratio": 1.3, "version": "1"}}}
    entry = baseline.merge([later], str(path), add=True)
    assert entry["pairs"]["j"]["ratio"] == 2.0 and entry["pairs"]["k"]["runs"] == 2
    assert entry["pairs"]["k"]["high"] == 1.3 and entry["pairs"]["k"]["low"] == 1.1


# ---------------------------------------------------------------------------
# The pair's statistic: the median of its cycles' ratios, the best attempt


def test_a_burst_on_one_round_of_a_cycle_is_set_aside():
    ours = [1.0, 3.0, 1.0, 1.0, 1.0]  # a burst in cycle 2
    theirs = [2.0, 2.0, 2.0, 2.0, 9.0]  # another in cycle 5
    assert conftest.paired_ratio(ours, theirs) == 0.5
    # a drift that moves both sides of each cycle alike leaves the ratio alone
    assert conftest.paired_ratio([1, 2, 4, 8], [4, 8, 16, 32]) == 0.25


def test_a_pair_over_its_limit_keeps_its_best_attempt(monkeypatch):
    t = Target("grp", "ours", "theirs", 1.25)
    ratios = iter([1.5, 1.3, 1.2])

    def fake(fns, **kw):
        r = next(ratios)
        return conftest.Measured({"ours": r, "theirs": 1.0}, 5, 1, 0.1,
                                 {"ours": [r] * 5, "theirs": [1.0] * 5})

    monkeypatch.setattr(conftest, "interleaved", fake)
    monkeypatch.setattr(conftest, "_BASE", {})
    r = conftest._measure_pair(t, "c", {"ours": lambda: None, "theirs": lambda: None})
    assert (r.ratio, r.attempts, r.rounds, r.met) == (1.2, 3, 15, True)
    ratios = iter([1.1, 9.9])
    r = conftest._measure_pair(t, "c", {"ours": lambda: None, "theirs": lambda: None})
    assert (r.ratio, r.attempts) == (1.1, 1)  # a pass is not measured again


def test_a_pair_of_threads_that_misses_is_tried_again_later_more_times(monkeypatch):
    t = Target("grp", "two", "one", 0.65, clock="wall", cpus=2)
    misses = [0.8, 0.7, 0.9, 0.75, 0.66] * conftest.THREAD_ATTEMPTS
    ratios = iter(misses[:conftest.THREAD_ATTEMPTS - 1] + [0.6, 0.1])  # the last attempt passes
    checks, pauses = [], []

    def fake(fns, before_attempt=None, **kw):
        before_attempt()
        r = next(ratios)
        return conftest.Measured({"two": r, "one": 1.0}, 5, 1, 0.1, {"two": [r] * 5, "one": [1.0] * 5},
                                 {"two": [1.0] * 5, "one": [1.0] * 5})

    monkeypatch.setattr(conftest, "interleaved", fake)
    monkeypatch.setattr(conftest, "_BASE", {})
    monkeypatch.setattr(conftest, "need_two_free_cpus", lambda: checks.append(1))
    monkeypatch.setattr(conftest.time, "sleep", pauses.append)
    r = conftest._measure_pair(t, "c", {"two": lambda: None, "one": lambda: None})
    assert (r.ratio, r.attempts, r.met) == (0.6, conftest.THREAD_ATTEMPTS, True)
    assert len(checks) == conftest.THREAD_ATTEMPTS  # the machine checked before each
    assert pauses == [conftest.THREAD_PAUSE_S] * (conftest.THREAD_ATTEMPTS - 1)
    assert next(ratios) == 0.1  # and no more than that


def test_a_pair_of_threads_is_judged_per_cpu_second_round_by_round(monkeypatch):
    """The machine slows down and speeds up between rounds: the serial side's
    fastest round (4 ms) fell in a fast stretch, the threads' (4 ms, keeping
    two CPUs busy) in a slow one. Elapsed time alone gives 1.0; per CPU second
    each round says what it did: the threads ran at once (0.5 against 1.0)."""
    t = Target("thr", "two", "one", 0.65, clock="wall", cpus=2)
    asked = {}

    def fake(fns, cpu_clock=None, **kw):
        asked["cpu_clock"] = cpu_clock
        return conftest.Measured({"two": 4.0, "one": 4.0}, 3, 1, 0.1,
                                 {"two": [4.0, 6.0, 8.0], "one": [4.0, 9.0, 16.0]},
                                 {"two": [8.0, 10.0, 14.0], "one": [4.0, 9.0, 15.0]})

    monkeypatch.setattr(conftest, "interleaved", fake)
    monkeypatch.setattr(conftest, "_BASE", {})
    monkeypatch.setattr(conftest, "need_two_free_cpus", lambda: None)
    r = conftest._measure_pair(t, "c", {"two": lambda: None, "one": lambda: None})
    assert asked["cpu_clock"] is conftest.time.process_time
    assert r.ratio == 0.5 and r.met  # (4 / 8) / (4 / 4): elapsed alone, min / min, gives 1.0
    assert (r.ours_s, r.other_s) == (4.0, 4.0)  # the table shows the elapsed times


def test_two_threads_that_take_turns_read_one_per_cpu_second():
    # a kernel that holds the GIL: the other thread waits without a CPU
    m = conftest.Measured({}, 2, 1, 0.1, {"two": [2.0, 2.2], "one": [2.0, 2.1]},
                          {"two": [2.0, 2.0], "one": [2.0, 2.0]})
    assert conftest.per_cpu_second(m) == {"two": [1.0, 1.1], "one": [1.0, 1.05]}
    with pytest.raises(ValueError, match="cpu_clock"):
        conftest.per_cpu_second(conftest.Measured({}, 2, 1, 0.1, {"two": [1.0]}))


def test_interleaved_times_each_round_on_the_cpu_clock_too():
    clock, cpu = FakeClock(), FakeClock()

    def contender(name, cost):
        wall = clock.contender(name, cost)

        def run():
            wall()
            cpu.now += 2 * cost
        return run

    m = interleaved({"a": contender("a", 1e-3), "b": contender("b", 2e-3)}, clock=clock, cpu_clock=cpu,
                    attempts=1)
    assert set(m.cpu) == {"a", "b"} and len(m.cpu["a"]) == len(m.samples["a"]) == m.rounds
    assert all(c == pytest.approx(2e-3) for c in m.cpu["a"])
    assert interleaved({"a": contender("a", 1e-3)}, clock=clock, attempts=1).cpu == {}


def test_a_pair_still_over_its_limit_is_measured_once_more_at_the_end(monkeypatch):
    one = Target("grp", "ours", "theirs", 2.0)
    two = Target("thr", "two", "one", 0.65, clock="wall", cpus=2)
    fine = Target("ok", "ours", "theirs", 2.0)
    fns = {"ours": lambda: None, "theirs": lambda: None, "two": lambda: None, "one": lambda: None}
    pairs = {(1, "c"): PairResult(one, "c", 2.7, 2.7, 1.0, 15, 3, 1.0),
             (2, "c"): PairResult(two, "c", 0.7, 0.7, 1.0, 100, 20, 30.0),
             (3, "c"): PairResult(fine, "c", 1.5, 1.5, 1.0, 5, 1, 0.1),
             (4, "d"): PairResult(one, "d", 2.5, 2.5, 1.0, 15, 3, 1.0)}
    again = {("grp", "c"): 1.9, ("thr", "c"): 0.9, ("grp", "d"): 2.6}
    asked = []

    def measure(t, case, entries, most=None):
        asked.append((t.group, case, most))
        r = again[t.group, case]
        return PairResult(t, case, r, r, 1.0, 5, 2, 0.5)

    monkeypatch.setattr(conftest, "_measure_pair", measure)
    monkeypatch.setattr(conftest, "_BASE", {})
    monkeypatch.setattr(conftest, "_pairs", pairs)
    monkeypatch.setattr(conftest, "_entries", {key: fns for key in again})
    conftest._second_window()
    # each pair over its limit, once, with its own number of attempts; a pass is left alone
    assert asked == [("grp", "c", ATTEMPTS), ("thr", "c", conftest.SECOND_WINDOW_ATTEMPTS),
                     ("grp", "d", ATTEMPTS)]
    # the lower window stands, with the attempts of both
    assert (pairs[1, "c"].ratio, pairs[1, "c"].attempts, pairs[1, "c"].met) == (1.9, 5, True)
    assert (pairs[2, "c"].ratio, pairs[2, "c"].attempts, pairs[2, "c"].met) == (0.7, 22, False)
    assert (pairs[4, "d"].ratio, pairs[4, "d"].met) == (2.5, False)
    assert pairs[3, "c"].ratio == 1.5 and pairs[3, "c"].attempts == 1


def test_a_clear_pass_is_judged_on_the_median_of_the_cycles(monkeypatch):
    t = Target("grp", "ours", "theirs", 1.0)
    seen = []

    def fake(fns, clear=None, **kw):
        # one quiet cycle puts the fastest rounds at 0.2x; the median cycle is at 0.9x
        samples = {"ours": [0.2, 0.9, 0.95], "theirs": [1.0, 1.0, 1.0]}
        seen.append(clear(samples))
        seen.append(clear({"ours": [0.2, 0.3, 0.4], "theirs": [1.0, 1.0, 1.0]}))
        return conftest.Measured({"ours": 0.2, "theirs": 1.0}, 3, 1, 0.1, samples)

    monkeypatch.setattr(conftest, "interleaved", fake)
    monkeypatch.setattr(conftest, "_BASE", {})
    monkeypatch.setattr(conftest, "_RECORDING", False)
    r = conftest._measure_pair(t, "c", {"ours": lambda: None, "theirs": lambda: None})
    assert seen == [False, True]  # not clear at 0.9x however fast its quickest round; clear at 0.3x
    assert r.ratio == 0.9 and r.met


# ---------------------------------------------------------------------------
# bench/slowdown.py, the check that the gate catches a slower kernel: its
# rewrite of the kernels' sources (the build and the run are what it runs)

def test_slowdown_finds_every_entry_point_it_names():
    import pathlib

    import slowdown

    ext = pathlib.Path(__file__).resolve().parents[1] / "ext"
    for kernel, (files, benches) in slowdown.ENTRIES.items():
        assert benches, kernel
        for name, entries in files.items():
            text = slowdown.slow_down((ext / name).read_text(encoding="utf-8"), entries)
            for entry in entries:
                assert f"{entry}__work(" in text, (kernel, entry)


def test_slowdown_wraps_a_function_and_a_method_with_the_same_signature():
    import slowdown

    source = ("def f(str s, bint curly=True):\n    return s\n\n"
              "cdef class C:\n    def g(self, x, *, coerce=True):\n        return x\n")
    out = slowdown.slow_down(source, ["f", "g"])
    assert "def f(str s, bint curly=True):\n" in out
    assert "_result = f__work(s, curly)\n" in out
    assert "cdef object f__work(str s, bint curly=True):\n    return s" in out
    assert "    def g(self, x, *, coerce=True):\n" in out
    assert "_result = self.g__work(x, coerce)\n" in out
    assert "    cdef object g__work(self, x, coerce=True):\n        return x" in out
    with pytest.raises(SystemExit, match="0 one-line definitions of 'h'"):
        slowdown.slow_down(source, ["h"])

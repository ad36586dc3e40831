"""The regex budget counts the CPU time of the calling thread: a match the
regex module stopped because other threads spent the process's CPU time runs
again with what is left; a pattern that spends the budget stops with a clear
error, and so does a thread that gets almost no CPU (past WALL_FACTOR times
the budget on the wall clock). The clocks are replaced by counters here, so
no test depends on how fast or loaded this machine is."""

from __future__ import annotations

import json

import pytest
import regex  # type: ignore[import-untyped]

import toolmend
from toolmend import _regex
from toolmend._regex import WALL_FACTOR, CpuBudget, RegexTimeout
from toolmend.json import _query


class Clocks:
    """A thread's CPU clock and the wall clock, moved by the fake matches."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.cpu = 0.0
        self.wall = 0.0
        monkeypatch.setattr(_regex, "_cpu_clock", lambda: self.cpu)
        monkeypatch.setattr(_regex, "_process_clock", lambda: self.cpu + self.others)
        monkeypatch.setattr(_regex, "_wall_clock", lambda: self.wall)
        self.others = 0.0  # CPU seconds other threads of the process spend


class Slow:
    """A pattern whose match needs ``need`` CPU seconds while the thread gets
    ``share`` of a core and other threads spend ``others`` CPU seconds per
    second of it; the timeout counts the process's CPU time, as the regex
    module's does."""

    def __init__(self, clocks: Clocks, need: float, share: float, others: float = 0.0) -> None:
        self.clocks, self.need, self.share, self.others = clocks, need, share, others
        self.timeouts: list[float] = []

    def search(self, text: str, timeout: float) -> object:
        self.timeouts.append(timeout)
        cpu = min(self.need, timeout / (1 + self.others))
        self.clocks.cpu += cpu
        self.clocks.others += cpu * self.others
        self.clocks.wall += cpu / self.share
        if cpu >= self.need:
            return text
        raise TimeoutError("regex timed out")


def test_a_starved_thread_gets_its_cpu_seconds(monkeypatch: pytest.MonkeyPatch) -> None:
    clocks = Clocks(monkeypatch)
    budget = CpuBudget(2.0)
    # 1.5 s of CPU at half a core: 3 s on the wall clock
    slow = Slow(clocks, need=1.5, share=0.5)
    assert budget.search(slow, "text") == "text"
    assert slow.timeouts[0] == _regex._SETTLE  # a first slice, to learn the share
    assert budget.used <= 2.0


def test_other_threads_do_not_spend_this_ones_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    # three busy threads: the regex module's clock runs four times as fast
    clocks = Clocks(monkeypatch)
    budget = CpuBudget(2.0)
    slow = Slow(clocks, need=1.5, share=0.9, others=3.0)
    assert budget.search(slow, "text") == "text"
    assert len(slow.timeouts) <= 3 and max(slow.timeouts) > 1.5


def test_the_cpu_time_adds_up_over_the_matches(monkeypatch: pytest.MonkeyPatch) -> None:
    clocks = Clocks(monkeypatch)
    budget = CpuBudget(1.0)
    for _ in range(3):
        assert budget.search(Slow(clocks, need=0.3, share=0.5), "x") == "x"
    with pytest.raises(RegexTimeout, match="more than 1 s of CPU time"):
        budget.search(Slow(clocks, need=0.3, share=0.5), "x")
    assert 0.9 <= budget.used <= 1.0 + 1e-9


@pytest.mark.parametrize("share", [1.0, 0.6, 0.4])
def test_a_catastrophic_match_stops_once_the_budget_is_spent(monkeypatch: pytest.MonkeyPatch,
                                                              share: float) -> None:
    clocks = Clocks(monkeypatch)
    budget = CpuBudget(0.5)
    slow = Slow(clocks, need=float("inf"), share=share)
    with pytest.raises(RegexTimeout):
        budget.search(slow, "x")
    assert 0.5 * 0.97 <= budget.used <= 0.5 + 1e-9
    assert len(slow.timeouts) < 10
    with pytest.raises(RegexTimeout):  # and nothing is left for the next match
        budget.search(Slow(clocks, need=0.0, share=1.0), "x")


def test_a_thread_that_gets_almost_no_cpu_still_stops(monkeypatch: pytest.MonkeyPatch) -> None:
    clocks = Clocks(monkeypatch)
    budget = CpuBudget(0.5)
    slow = Slow(clocks, need=0.4, share=0.02)
    with pytest.raises(RegexTimeout, match="too loaded"):
        budget.search(slow, "x")
    assert budget.used < 0.4 and budget.wall >= 0.5 * WALL_FACTOR


def test_the_cpu_clock_is_read_once_a_slice_of_matching(monkeypatch: pytest.MonkeyPatch) -> None:
    # most matches take microseconds: the thread's CPU clock (a system call)
    # is read once per _SETTLE seconds of matching, not at every match
    clocks = Clocks(monkeypatch)
    reads = []
    monkeypatch.setattr(_regex, "_cpu_clock", lambda: reads.append(1) or clocks.cpu)
    budget = CpuBudget(2.0)
    for _ in range(1000):
        assert budget.search(Slow(clocks, need=0.0001, share=0.5), "x") == "x"
    assert len(reads) <= 1 + 0.2 / _regex._SETTLE + 1


def test_a_real_catastrophic_pattern_is_stopped() -> None:
    budget = CpuBudget(0.2)
    with pytest.raises(RegexTimeout):
        budget.search(regex.compile(r"^(a|aa)+$"), "a" * 40 + "!")
    assert CpuBudget(0.2).search(regex.compile(r"^a+!$"), "a" * 40 + "!") is not None


def test_a_query_on_a_starved_thread_succeeds(monkeypatch: pytest.MonkeyPatch) -> None:
    # every match waits for a core: 1 ms of CPU takes 10 ms on the wall
    # clock, past the wall-clock budget over 300 rows, not past the CPU one
    clocks = Clocks(monkeypatch)
    monkeypatch.setattr(_query, "REGEX_BUDGET", 2.0)

    class Starved:
        def __init__(self, pattern: object) -> None:
            self.pattern = pattern

        def search(self, text: str, timeout: float) -> object:
            clocks.cpu += 0.001
            clocks.wall += 0.010
            if timeout < 0.010:
                raise TimeoutError("regex timed out")
            return self.pattern.search(text)  # type: ignore[attr-defined]

    monkeypatch.setattr(_query, "compile_bounded",
                        lambda p, real=_query.compile_bounded: Starved(real(p)))
    rows = json.dumps([{"s": f"row-{i}"} for i in range(300)])
    r = toolmend.run_tool("@json", {"cmd": "query", "args": {"text": rows, "where": "s~^row-1"}})
    assert r.ok, r.output
    assert clocks.wall > 2.0 and clocks.cpu < 2.0
    assert r.output.startswith("111 of 300 rows"), r.output[:80]


def test_a_catastrophic_query_says_so() -> None:
    rows = json.dumps([{"s": "a" * 34 + "!"} for _ in range(5)])
    r = toolmend.run_tool("@json", {"cmd": "query", "args": {"text": rows, "where": "s~^(a|aa)+$"}})
    assert not r.ok and "catastrophic backtracking" in r.output and "CPU time" in r.output

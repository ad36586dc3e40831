"""Regexes from agents and schemas, compiled with bounds: the ``regex``
module (it takes a ``timeout=`` per match) on patterns refused up front when
their memory would have no bound (recursion, counted repeats that multiply)
or when verbose mode would hide what is compiled.

    compile_bounded(pattern) -> regex.Pattern, or RegexRefused saying why
    CpuBudget(seconds).search(pattern, text): a match that counts the CPU time
        of the calling thread against what is left, RegexTimeout past it
"""

from __future__ import annotations

import functools
import re
from time import monotonic as _wall_clock, process_time as _process_clock, thread_time as _cpu_clock
from typing import Any

import regex  # type: ignore[import-untyped]

__all__ = ["compile_bounded", "RegexRefused", "REGEX_STEPS_MAX", "regex_steps", "is_tame",
           "TAME_LENGTH", "tame_search", "CpuBudget", "RegexTimeout", "WALL_FACTOR"]


class RegexRefused(ValueError):
    """A pattern not compiled; the message completes "the regex P ..."."""


# (?R), (?0), (?1), (?+1), (?-1), (?&name), (?P>name) outside an escape: the
# regex module's recursion, whose stack grows in memory without a bound
_RECURSIVE = re.compile(r"(?<!\\)(?:\\\\)*\(\?(?:R|[+-]?\d+|&\w+|P>\w+)\)")


# {m}, {m,}, {m,n}, {,n}: a counted repeat (anything else in braces is text)
_COUNT = re.compile(r"\{(\d*)(?:,(\d*))?\}")
#: The most steps a bounded regex may expand to: counted repeats are copied out
#: when the regex module compiles a pattern, and nested ones multiply
#: (``(?:a{10000}){10000}`` would take more memory than the machine has).
REGEX_STEPS_MAX = 100_000


def _class_end(pattern: str, i: int, nested: bool) -> int:
    """Past the character class that opens at ``i``; ``nested``: the regex
    module's version 1, where a class may hold classes. -1 if it never closes."""
    n = len(pattern)
    j, depth = i + 1, 1
    if j < n and pattern[j] == "^":
        j += 1
    if j < n and pattern[j] == "]":
        j += 1
    while j < n:
        c = pattern[j]
        if c == "\\":
            j += 1
        elif c == "[" and nested:
            depth += 1
        elif c == "]":
            depth -= 1
            if not depth:
                return j + 1
        j += 1
    return -1


def _steps(pattern: str, nested: bool) -> int:
    totals = [0]   # per open group: the steps so far
    last = [0]     # per open group: the steps of the last item (what a repeat copies)
    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        step = 1
        if c == "\\":
            i += 2
            if pattern[i - 1:i] in ("p", "P", "x", "N", "g") and i < n and pattern[i] in "{<":
                close = pattern.find("}" if pattern[i] == "{" else ">", i)
                i = n if close < 0 else close + 1
        elif c == "[" and (end := _class_end(pattern, i, nested)) > 0:
            i = end
        elif c == "(":
            totals.append(0)
            last.append(0)
            i += 1
            continue
        elif c == ")" and len(totals) > 1:
            step = totals.pop()
            last.pop()
            i += 1
        elif c == "{" and (m := _COUNT.match(pattern, i)) and (m.group(1) or m.group(2)):
            count = max(int(m.group(1) or 0), int(m.group(2) or 0), 1)
            totals[-1] += last[-1] * (count - 1)
            last[-1] *= count
            if totals[-1] > REGEX_STEPS_MAX:
                return totals[-1]
            i = m.end()
            continue
        else:
            step = 0 if c in "*+?|" else 1
            i += 1
        totals[-1] += step
        last[-1] = step
    return sum(totals)


def regex_steps(pattern: str) -> int:
    """How many steps ``pattern`` expands to, each counted repeat as that many
    copies of what it repeats: an estimate from above (a class, an escape or
    a character is one step), read both as version 0 and version 1 of the
    regex module's syntax (whose classes nest), the larger taken."""
    return max(_steps(pattern, False), _steps(pattern, True))


# an inline flag group that turns on verbose mode, (?x) or (?ix:...): its
# comments would hide from the estimate what the regex module compiles
_VERBOSE = re.compile(r"\(\?[a-zA-Z^-]*x[a-zA-Z-]*[:)]")



def compile_bounded(pattern: str) -> Any:
    """``regex.compile(pattern)`` for a pattern whose memory is bounded;
    RegexRefused (its message says why, to follow "the regex P") otherwise,
    also for a pattern the regex module rejects."""
    if _RECURSIVE.search(pattern):
        raise RegexRefused("calls a group or itself ((?R), (?1), (?&name)): recursive patterns "
                           "are not run, since their memory has no bound")
    if _VERBOSE.search(pattern):
        raise RegexRefused("turns on verbose mode ((?x)), which is not taken: write the pattern "
                           "without it")
    if regex_steps(pattern) > REGEX_STEPS_MAX:
        raise RegexRefused(f"expands to more than {REGEX_STEPS_MAX:,} steps (the counts of nested "
                           "repeats multiply); write it with smaller counts")
    try:
        return regex.compile(pattern)
    except regex.error as exc:
        raise RegexRefused(f"is invalid: {exc}") from None


#: The longest string a tame pattern is matched on without a timeout.
TAME_LENGTH = 256
# a group closed and then repeated, a backreference, a lookaround, a possessive or
# atomic group, a recursion: what makes backtracking blow up (or hard to bound)
_WILD = re.compile(r"\)\s*(?:[*+]|\{\d*,?\d*\})|\\[1-9gk]|\(\?[=!<>P&R(|]")
# an unbounded repeat
_UNBOUNDED = re.compile(r"(?<!\\)(?:[*+]|\{\d+,\})")


def is_tame(pattern: str) -> bool:
    """Whether ``pattern`` is safe to match without a timeout on strings of
    at most TAME_LENGTH characters: no repeated group, backreference or
    lookaround, and at most two unbounded repeats, so that its backtracking
    is at worst polynomial of degree three on a short string (an estimate
    from above: a pattern not judged tame is matched with a timeout)."""
    return not _WILD.search(pattern) and len(_UNBOUNDED.findall(pattern)) <= 2


@functools.lru_cache(maxsize=1024)
def tame_search(pattern: str) -> Any:
    """For a tame pattern, the ``search`` of the standard ``re`` engine (twice
    as fast per call as the regex module's, and what JSON Schema validators in
    Python run), for strings of at most TAME_LENGTH characters; None for any
    other pattern (or one ``re`` reads differently: it does not compile)."""
    if not is_tame(pattern):
        return None
    try:
        return re.compile(pattern).search
    except re.error:
        return None


class RegexTimeout(TimeoutError):
    """The matches run through a CpuBudget took all of its CPU seconds (or the
    wall clock ran WALL_FACTOR times past them)."""


#: How many times the CPU budget the wall clock may run before matches stop
#: anyway: a thread that gets almost no CPU still ends, with the same error,
#: and a machine loaded past it (less than a third of a core) refuses as the
#: wall-clock budget did.
WALL_FACTOR = 3.0
# Below this share of the budget, what is left is not worth another attempt.
_LAST_SHARE = 0.02
# The least share of a core a thread is assumed to get when sizing a timeout.
_MIN_SHARE = 0.05
# Wall-clock seconds of matches charged at once: the thread's CPU clock is read
# that often, not at every match (it costs a system call, and most matches
# take microseconds).
_SETTLE = 0.05
# The shortest span (wall-clock seconds) whose share of the CPU is taken as news.
_MEASURABLE = 0.001


class CpuBudget:
    """CPU seconds that all the matches run through it may take together,
    counted on the calling thread (``time.thread_time``): a loaded machine
    slows the wall clock, not this count, so a match does not fail because
    other processes had the cores.

    The regex module's ``timeout=`` counts the CPU time of the whole process
    (its ``clock()``), so other busy threads spend it too, and a thread that
    waits for a core takes longer on the wall clock. Each match is timed on
    the wall clock; every ``_SETTLE`` seconds of matching (and after any
    timeout) the clocks are read, and the matches are charged the share of a
    core the thread got meanwhile. A match gets what is left of the budget,
    in the process's CPU time (the thread's times the other threads' spread);
    when the regex module stops it before this thread spent that (other
    threads took the rest), it runs again, from its start, with what is
    left. Until the thread's share is known a match gets one ``_SETTLE``.
    Every attempt counts, so a catastrophic pattern stops once the budget is
    spent, and on a thread that gets less than ``1 / WALL_FACTOR`` of a core,
    once the wall clock has run ``WALL_FACTOR`` times the budget.
    """

    __slots__ = ("seconds", "used", "wall", "_share", "_spread", "_measured", "_pending", "_mark")

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.used = 0.0  # CPU seconds charged to the matches
        self.wall = 0.0  # wall-clock seconds spent matching
        self._share = 1.0  # the thread's CPU seconds per wall second
        self._spread = 1.0  # the process's CPU seconds per second of this thread's
        self._measured = False  # whether _share has been read yet
        self._pending = 0.0  # wall seconds of matches not charged yet
        self._mark: tuple[float, float, float] | None = None  # (thread, process, wall) clocks

    def _settle(self) -> None:
        """Read the clocks: charge the pending matches the thread's share."""
        cpu, proc, wall = _cpu_clock(), _process_clock(), _wall_clock()
        if self._mark is not None:
            d_cpu, d_proc, d_wall = cpu - self._mark[0], proc - self._mark[1], wall - self._mark[2]
            if d_wall >= _MEASURABLE:
                self._share = min(1.0, max(0.0, d_cpu / d_wall))
                self._measured = True
            if d_cpu >= _MEASURABLE:
                self._spread = max(1.0, d_proc / d_cpu)
        self.used += self._pending * self._share
        self._pending = 0.0
        self._mark = (cpu, proc, wall)

    def search(self, pattern: Any, text: str) -> Any:
        """``pattern.search(text)`` (a compiled ``regex`` pattern) within what
        is left; RegexTimeout once the budget is spent."""
        if self._mark is None:
            self._settle()
        while True:
            if self._pending >= _SETTLE:
                self._settle()
            left = self.seconds - self.used - self._pending * self._share
            wall_left = self.seconds * WALL_FACTOR - self.wall
            if left <= self.seconds * _LAST_SHARE or wall_left <= 0:
                if self._pending:  # charged at the last share: read what it was
                    self._settle()
                    continue
                raise RegexTimeout(f"the regex matches took more than {self.seconds:g} s of CPU time"
                                   if wall_left > 0 else
                                   f"the regex matches ran {self.seconds * WALL_FACTOR:g} s on a "
                                   "machine too loaded to give them their CPU time")
            allowed = min(left, wall_left * max(self._share, _MIN_SHARE))
            if not self._measured:
                allowed = min(allowed, _SETTLE)
            began = _wall_clock()
            try:
                return pattern.search(text, timeout=allowed * self._spread)
            except TimeoutError:
                pass
            finally:
                took = _wall_clock() - began
                self.wall += took
                self._pending += took
            self._settle()  # stopped: how much of it was this thread's?

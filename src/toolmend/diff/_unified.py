"""Unified diffs in GNU's format, computed by the Myers kernel.

``unified(a, b)`` diffs two texts; ``unified_diff(...)`` is a drop-in for
``difflib.unified_diff`` (same signature, same output conventions, minimal
hunks); ``compare(a, b)`` returns the diff together with its counts and the
budget flag.

Format (GNU diffutils): ``---``/``+++`` headers; ``@@ -l,s +l,s @@`` with the
count left out when it is 1 and an empty range naming the line before it
(``-0,0`` at the start of a file, ``-5,0`` after line 5); two changes share a
hunk when at most ``2 * context`` unchanged lines separate them; a line
without a final newline is followed by ``\\ No newline at end of file``, on
either side. Texts are split on ``\\n`` only: a ``\\r`` stays part of its
line, so CRLF files diff, patch and apply byte for byte.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from typing import Any, Iterator, Sequence

from .._kernels import myers
from .._kernels._hunks import Block, format_range, hunks, split_lines
from .._text import plural
from ..errors import BudgetWarning

__all__ = [
    "DEFAULT_BUDGET",
    "BudgetWarning",
    "DiffResult",
    "compare",
    "unified",
    "unified_diff",
    "split_lines",
]

#: Default edit budget: the largest number of changed lines (deleted plus
#: inserted, after the common prefix and suffix) for which the diff is
#: searched to be minimal. Past it, the differing middle is one block
#: replacement and a warning says so. The search costs O(budget²) steps in
#: the worst case (plus the length of the files times the budget for
#: pathological repetitive input), and memory in proportion to the budget:
#: 8,000 keeps the worst case near 50 ms compiled (a few seconds in the pure
#: twin) while covering any diff a person or an agent reads (8,000 changed
#: lines are hundreds of kilobytes of diff; the @diff tool's output stops at
#: 30 KB). It is close to where GNU diff gives up on a minimal diff (at least
#: 4,096 steps from each end) unless run with ``--minimal``.
DEFAULT_BUDGET = 8000

@dataclass(frozen=True)
class DiffResult:
    """A unified diff and what it says.

    ``blocks`` are the differing regions ``(a_start, a_end, b_start, b_end)``
    (0-based line indexes, end exclusive). ``budget_exceeded`` is True when
    more than ``budget`` lines differ: the middle is then one block and
    ``warning`` says which lines it covers.
    """

    text: str
    blocks: list[Block] = field(repr=False)
    added: int
    removed: int
    hunks: int
    budget_exceeded: bool = False
    warning: str | None = None

    @property
    def identical(self) -> bool:
        return not self.blocks


_HUGE = 1 << 40  # more lines than any text has: larger values change nothing


def _check_int(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, not {type(value).__name__}")
    if value < 0:
        raise ValueError(f"{name} must be at least 0, not {value}")
    return min(value, _HUGE)


def _warning(budget: int, block: Block, a_label: str, b_label: str) -> str:
    a0, a1, b0, b1 = block
    return (f"warning: more than {plural(budget, 'line')} differ (the edit budget), so lines "
            f"{a0 + 1}-{a1} of {a_label} and {b0 + 1}-{b1} of {b_label} are shown as one "
            f"block replacement, not a minimal diff; raise the budget for a minimal diff")


def _diff_text(a: str, b: str, context: int, a_label: str, b_label: str,
               budget: int) -> tuple[str, list[Block], bool, int, int] | None:
    """``compare``'s checks, then the kernel's ``(text, blocks, exceeded)``
    and the checked ``context`` and ``budget``; None when the texts are equal."""
    if not isinstance(a, str) or not isinstance(b, str):
        raise TypeError(f"compare() takes two str, not {type(a).__name__} and {type(b).__name__}")
    context = _check_int("context", context)
    budget = _check_int("budget", budget)
    if a == b:
        return None
    text, blocks, exceeded = myers.unified_text(a, b, context, a_label, b_label, budget)
    return text, blocks, exceeded, context, budget


def _counts(blocks: list[Block], context: int) -> tuple[int, int, int]:
    """``(added, removed, hunks)``: a new hunk where more than ``2 * context``
    lines separate two blocks (one loop: this runs once per diff)."""
    added = removed = 0
    hunk_count = 1
    end = None
    for a0, a1, b0, b1 in blocks:
        if end is not None and a0 - end > 2 * context:
            hunk_count += 1
        end = a1
        removed += a1 - a0
        added += b1 - b0
    return added, removed, hunk_count


def compare(a: str, b: str, *, context: int = 3, a_label: str = "a", b_label: str = "b",
            budget: int = DEFAULT_BUDGET) -> DiffResult:
    """Diff two texts: the unified diff with its counts and budget flag."""
    found = _diff_text(a, b, context, a_label, b_label, budget)
    if found is None:
        return DiffResult("", [], 0, 0, 0)
    text, blocks, exceeded, context, budget = found
    added, removed, hunk_count = _counts(blocks, context)
    warning = _warning(budget, blocks[0], a_label, b_label) if exceeded else None
    return DiffResult(text, blocks, added, removed, hunk_count, exceeded, warning)


def unified(a: str, b: str, context: int = 3, a_label: str = "a", b_label: str = "b", *,
            budget: int = DEFAULT_BUDGET) -> str:
    """A unified diff (GNU format) that turns text ``a`` into text ``b``.

    Returns ``""`` when the texts are equal. The diff is minimal (no more
    ``-``/``+`` lines than ``diff --minimal``) while at most ``budget`` lines
    differ; past that the differing middle is one block replacement and a
    ``BudgetWarning`` is issued.
    """
    # compare's result without its counts (a frozen dataclass costs as much as a small diff)
    found = _diff_text(a, b, context, a_label, b_label, budget)
    if found is None:
        return ""
    text, blocks, exceeded, _, budget = found
    if exceeded:
        warnings.warn(_warning(budget, blocks[0], a_label, b_label).removeprefix("warning: "),
                      BudgetWarning, stacklevel=2)
    return text


def _check_types(a: Sequence[Any], b: Sequence[Any], *args: Any) -> None:
    # difflib's checks and messages, so callers see the same errors
    if a and not isinstance(a[0], str):
        raise TypeError("lines to compare must be str, not %s (%r)" % (type(a[0]).__name__, a[0]))
    if b and not isinstance(b[0], str):
        raise TypeError("lines to compare must be str, not %s (%r)" % (type(b[0]).__name__, b[0]))
    for arg in args:
        if not isinstance(arg, str):
            raise TypeError("all arguments must be str, not: %r" % (arg,))


class _UnifiedDiff:
    """The lines of a unified diff, computed on first use.

    Iterates like the generator ``difflib.unified_diff`` returns (nothing is
    computed, nor any argument checked, until the first line is asked for),
    but hands ``list()``, ``"".join()`` and ``for`` loops a plain list
    iterator, so consuming it costs no Python frame per line.
    """

    __slots__ = ("_args", "_lines")

    def __init__(self, *args: Any) -> None:
        self._args: tuple[Any, ...] | None = args
        self._lines: Iterator[str] | None = None

    def _start(self) -> Iterator[str]:
        if self._lines is None:
            args, self._args = self._args, None
            assert args is not None
            self._lines = iter(_unified_diff_lines(*args))
        return self._lines

    def __iter__(self) -> Iterator[str]:
        return self._start()

    def __next__(self) -> str:
        return next(self._start())


def unified_diff(a: Sequence[str], b: Sequence[str], fromfile: str = "", tofile: str = "",
                 fromfiledate: str = "", tofiledate: str = "", n: int = 3,
                 lineterm: str = "\n", *, budget: int = DEFAULT_BUDGET) -> Iterator[str]:
    """Drop-in for ``difflib.unified_diff``: same arguments, same output
    conventions (lines as given, ``lineterm`` on the control lines, nothing
    when the inputs are equal), with minimal hunks from the Myers kernel.

    Like difflib's, the result is a lazy iterator of lines. Past the edit
    ``budget`` a ``BudgetWarning`` is issued and the differing middle is one
    block.
    """
    return _UnifiedDiff(a, b, fromfile, tofile, fromfiledate, tofiledate, n, lineterm, budget)


def _unified_diff_lines(a: Sequence[str], b: Sequence[str], fromfile: str, tofile: str,
                        fromfiledate: str, tofiledate: str, n: int, lineterm: str,
                        budget: int) -> list[str]:
    _check_types(a, b, fromfile, tofile, fromfiledate, tofiledate, lineterm)
    n = _check_int("n", n)
    budget = _check_int("budget", budget)
    a = list(a)  # our own: the kernels read the items without holding them
    b = list(b)
    blocks, exceeded = myers.diff_lines(a, b, budget)
    if exceeded:
        warnings.warn(_warning(budget, blocks[0], fromfile or "a", tofile or "b")
                      .removeprefix("warning: "), BudgetWarning, stacklevel=4)
    if not blocks:
        return []
    fromdate = f"\t{fromfiledate}" if fromfiledate else ""
    todate = f"\t{tofiledate}" if tofiledate else ""
    out = [f"--- {fromfile}{fromdate}{lineterm}", f"+++ {tofile}{todate}{lineterm}"]
    extend = myers.extend_prefixed
    for a_lo, a_hi, b_lo, b_hi, group in hunks(blocks, len(a), n):
        out.append(f"@@ -{format_range(a_lo, a_hi - a_lo)} +{format_range(b_lo, b_hi - b_lo)} @@{lineterm}")
        i = a_lo
        for a0, a1, b0, b1 in group:
            extend(out, " ", a, i, a0)
            extend(out, "-", a, a0, a1)
            extend(out, "+", b, b0, b1)
            i = a1
        extend(out, " ", a, i, a_hi)
    return out

"""The unified format's pieces in Python, shared by the pure Myers twin and
``toolmend.diff`` (the compiled kernel writes the same format in C).

GNU's rules: lines end at ``\\n`` only; a hunk range leaves out a count of 1
and names the line before an empty range; changes at most ``2 * context``
equal lines apart share a hunk.
"""

from __future__ import annotations

from typing import Iterator

__all__ = ["Block", "Hunk", "NO_NEWLINE", "split_lines", "format_range", "hunks"]

#: A differing region: ``(a_start, a_end, b_start, b_end)``, 0-based, end exclusive.
Block = tuple[int, int, int, int]

NO_NEWLINE = "\\ No newline at end of file"


def split_lines(text: str) -> tuple[list[str], bool]:
    """Lines of ``text`` split on ``\\n`` only, without it, and whether the
    last line lacks a final newline. That last line is returned with a
    ``\\n`` appended: no other element can contain one, so it never compares
    equal to the same text followed by a newline in the other file."""
    if not text:
        return [], False
    lines = text.split("\n")
    last = lines.pop()
    if last:
        lines.append(last + "\n")
        return lines, True
    return lines, False


def format_range(start: int, count: int) -> str:
    """A hunk range: the count is left out when it is 1; an empty range
    names the line before it."""
    if count == 1:
        return str(start + 1)
    return f"{start + 1 if count else start},{count}"


#: ``(a_lo, a_hi, b_lo, b_hi, blocks)``
Hunk = tuple[int, int, int, int, list[Block]]


def hunks(blocks: list[Block], n: int, context: int) -> Iterator[Hunk]:
    """Group blocks into hunks ``(a_lo, a_hi, b_lo, b_hi, blocks)``: blocks
    at most ``2 * context`` equal lines apart share one."""
    i = 0
    count = len(blocks)
    while i < count:
        j = i
        while j + 1 < count and blocks[j + 1][0] - blocks[j][1] <= 2 * context:
            j += 1
        first, last = blocks[i], blocks[j]
        lead = min(context, first[0])
        tail = min(context, n - last[1])
        yield (first[0] - lead, last[1] + tail, first[2] - lead, last[3] + tail, blocks[i:j + 1])
        i = j + 1

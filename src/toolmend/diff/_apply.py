"""Strict application of unified patches.

``apply(original, patch)`` returns the patched text or raises
``toolmend.PatchError``. Nothing is guessed: every hunk must sit exactly at
the line its header names (after the changes of the hunks before it), every
context and removed line must be in the file there, and every header's
counts must match its body. A hunk with context before its changes and
none after them was made at the end of the file and must end it (as git
apply reads it): applied twice, or to a file that grew, it is refused. No
fuzz and no offsets; when a hunk does not
match, the error names the hunk, the line, the line the patch expected and
the line the file has, and says where else the hunk would match, if it does.

Accepted: patches with or without ``---``/``+++`` headers (``a/``, ``b/``
prefixes and timestamps are fine), several hunks, ``\\ No newline at end of
file`` on either side, CRLF files (the ``\\r`` is part of each line; a patch
whose lines lost their ``\\r`` still applies to a CRLF file, and its added
lines get CRLF endings; one that only adds lines ending with LF alone there,
with no line of the file to match, is refused: whether they lost their
``\\r`` is a guess), a patch transported with CRLF line endings, text
before the first header (``diff --git`` lines, a commit message), and empty
lines inside a hunk standing for empty context lines (editors strip the
lone space). A section headed ``--- /dev/null`` creates a file: it applies
to an empty text only. (A headerless ``@@ -0,0 +1,N @@`` hunk means what it
says, lines inserted before line 1, so it creates a file from an empty text
and inserts at the top of a non-empty one.)
"""

from __future__ import annotations

from .._text import plural
from ..errors import PatchError
from ._patch import FilePatch, Hunk, parse_patch, select, split_keepends

__all__ = ["apply", "apply_file_patch", "apply_file_lines"]


def _explain(expected: str, actual: str | None) -> str:
    if actual is None:
        return ""
    exp, act = expected.rstrip("\r\n"), actual.rstrip("\r\n")
    if exp == act:
        return " (they differ only in the line ending)"
    if exp.rstrip() == act.rstrip():
        return " (they differ only in trailing whitespace)"
    if "".join(exp.split()) == "".join(act.split()):
        return " (they differ only in whitespace)"
    return ""


def _show(line: str | None, crlf: bool) -> str | None:
    if line is None:
        return None
    if line.endswith("\n"):
        line = line[:-1]
        if crlf and line.endswith("\r"):
            line = line[:-1]
    return line


def _find(lines: list[str], want: list[str], limit: int = 3) -> list[int]:
    """Up to ``limit`` 0-based positions where ``want`` occurs in ``lines``
    (Knuth-Morris-Pratt: each line is read once, where comparing ``want`` at
    every line that starts like it costs lines x its length on a file of
    repeated lines: seconds for the hint of one failed hunk)."""
    found: list[int] = []
    size = len(want)
    if not size:
        return found
    back = [0] * size  # the longest proper prefix of want[:i + 1] that ends it
    k = 0
    for i in range(1, size):
        while k and want[i] != want[k]:
            k = back[k - 1]
        if want[i] == want[k]:
            k += 1
        back[i] = k
    k = 0
    for pos, line in enumerate(lines):
        while k and line != want[k]:
            k = back[k - 1]
        if line == want[k]:
            k += 1
            if k == size:
                found.append(pos - size + 1)
                if len(found) >= limit:
                    break
                k = back[k - 1]
    return found


def apply_file_patch(original: str, section: FilePatch) -> str:
    """Apply one file's hunks to ``original`` (see the module docstring)."""
    return "".join(apply_file_lines(split_keepends(original), section))


def apply_file_lines(lines: list[str], section: FilePatch) -> list[str]:
    """:func:`apply_file_patch` on a text already split by
    :func:`split_keepends`: the lines of the patched text."""
    if section.old_name == "/dev/null" and lines:
        raise PatchError(f"the patch creates the file ('--- /dev/null'), but the text already "
                         f"has {plural(len(lines), 'line')}", hunk=1, line=1, expected=None,
                         actual=_show(lines[0], False))
    # A CRLF file and a patch whose lines lost their "\r": match and add lines with CRLF endings.
    with_newline = [line for line in lines if line.endswith("\n")]
    crlf = bool(with_newline) and all(line.endswith("\r\n") for line in with_newline) and not any(
        text.endswith("\r") for h in section.hunks for _, text, nl in h.lines if nl)
    try:
        out = _apply_lines(lines, section, False)
    except PatchError:
        if not crlf:
            raise
        return _apply_lines(lines, section, True)
    added = next((h for h in section.hunks for tag, _, nl in h.lines if tag == "+" and nl), None)
    if crlf and added is not None:
        # Lines only added, with no line of the file to match (-U0): both readings apply.
        try:
            other = _apply_lines(lines, section, True)
        except PatchError:
            return out
        if other != out:
            raise PatchError(f"hunk {added.number} ({added.header}) adds lines that end with LF "
                             "alone to a file whose lines end with CRLF, and the patch has no "
                             "context or removed line to tell whether its lines lost their CR on "
                             "the way (they would then get CRLF) or are meant to end with LF (the "
                             "file would mix the two); which is meant is a guess, so none of the "
                             "patch is applied. Add a line of the file around them as context, or "
                             "write them with CRLF endings", hunk=added.number,
                             line=added.old_start, expected=None, actual=None)
    return out


def _apply_lines(lines: list[str], section: FilePatch, crlf: bool) -> list[str]:
    eol = "\r\n" if crlf else "\n"

    def want(text: str, newline: bool) -> str:
        return text + eol if newline else text

    out: list[str] = []
    pos = 0  # next original line to copy
    offset = 0
    for hunk in section.hunks:
        old_pos, new_pos = hunk.old_pos, hunk.new_pos
        if old_pos > len(lines):
            raise PatchError(f"hunk {hunk.number} ({hunk.header}) starts after line "
                             f"{hunk.old_start}, but the file has only {plural(len(lines), 'line')}",
                             hunk=hunk.number, line=hunk.old_start, expected=None, actual=None)
        if old_pos < pos:
            raise PatchError(f"hunk {hunk.number} ({hunk.header}) starts before the end of the hunk "
                             "before it: hunks must be in order and must not overlap",
                             hunk=hunk.number, line=hunk.old_start)
        if new_pos != old_pos + offset:
            right = old_pos + offset + (1 if hunk.new_count else 0)
            raise PatchError(f"hunk {hunk.number} ({hunk.header}): the header puts the new text "
                             f"at line {hunk.new_start}, but old line {hunk.old_start} shifted by "
                             f"the hunks before it ({offset:+d} lines) is line {right}; the line "
                             "numbers are inconsistent", hunk=hunk.number, line=hunk.old_start)
        old_lines = [(tag, text) for tag, text, nl in hunk.lines if tag != "+"]
        old_want = [want(text, nl) for tag, text, nl in hunk.lines if tag != "+"]
        for k, expected in enumerate(old_want):
            at = old_pos + k
            actual = lines[at] if at < len(lines) else None
            if actual != expected:
                tag, text = old_lines[k]
                new_want = [want(t, nl) for tg, t, nl in hunk.lines if tg != "-"]
                raise _mismatch(hunk, lines, old_want, new_want, at, text, actual,
                                "context" if tag == " " else "removed", crlf)
        end = old_pos + hunk.old_count
        if end < len(lines) and _ends_the_file(hunk):
            raise _not_at_end(hunk, lines, [want(t, nl) for tg, t, nl in hunk.lines if tg != "-"],
                              end, crlf)
        out.extend(lines[pos:old_pos])
        k = old_pos
        for tag, text, nl in hunk.lines:
            if tag == " ":
                out.append(lines[k])
                k += 1
            elif tag == "-":
                k += 1
            else:
                if out and not out[-1].endswith("\n"):
                    raise PatchError(f"hunk {hunk.number} ({hunk.header}) adds a line after the "
                                     "last line of the file, which has no newline at its end; "
                                     "the patch must replace that line (it reads '\\ No newline "
                                     "at end of file' under it)", hunk=hunk.number,
                                     line=k, expected=None, actual=_show(out[-1], crlf))
                out.append(want(text, nl))
        pos = old_pos + hunk.old_count
        offset += hunk.new_count - hunk.old_count
    if pos < len(lines) and out and not out[-1].endswith("\n"):
        raise PatchError("the patch ends the file before its last lines: a line marked "
                         "'\\ No newline at end of file' is not the file's last line",
                         hunk=section.hunks[-1].number, line=pos + 1)
    out.extend(lines[pos:])
    return out


def _ends_the_file(hunk: Hunk) -> bool:
    """Whether the hunk has context before its changes and none after them: diff writes
    that only at the end of the file, and git apply then matches it there only (GNU patch
    too, which without fuzz asks it of a hunk with fewer lines after than before; fewer is
    what a hand-written hunk in the middle of a file often has, and its lines all match
    where it says). A hunk without context (``-U0``) has no end to keep."""
    tags = [tag for tag, _, _ in hunk.lines]
    lead = next((i for i, tag in enumerate(tags) if tag != " "), len(tags))
    return lead > 0 and tags[-1] != " "


def _not_at_end(hunk: Hunk, lines: list[str], new_want: list[str], end: int,
                crlf: bool) -> PatchError:
    shown = _show(lines[end], crlf)
    message = (f"hunk {hunk.number} ({hunk.header}) has no context lines after its changes: "
               "it was made at the end of the file and must end there (as git apply and GNU "
               f"patch read it), but the file goes on at line {end + 1} with {shown!r}; ")
    if lines[hunk.old_pos:] == new_want:
        message += "the file already ends with the patch's new lines: was it applied already?"
    else:
        message += ("the patch was made against another version of the file; make it again from "
                    "the current file")
    return PatchError(message, hunk=hunk.number, line=end + 1, expected=None, actual=shown)


def _mismatch(hunk: Hunk, lines: list[str], old_want: list[str], new_want: list[str], at: int,
              text: str, actual: str | None, kind: str, crlf: bool) -> PatchError:
    shown_actual = _show(actual, crlf)
    if actual is None:
        found = f"the file has only {plural(len(lines), 'line')}"
    else:
        found = f"the file has {shown_actual!r}"
    message = (f"hunk {hunk.number} ({hunk.header}) does not match at line {at + 1}: the patch "
               f"expects the {kind} line {text!r}, {found}"
               f"{_explain(text + chr(10), actual)}")
    hints = []
    spots = [p for p in _find(lines, old_want) if p != hunk.old_pos]
    if spots:
        where = ", ".join(f"line {p + 1} (offset {p - hunk.old_pos:+d})" for p in spots)
        hints.append(f"the hunk's old lines are at {where}: the patch was made against another "
                     "version of the file; make it again from the current file")
    if new_want and lines[hunk.old_pos:hunk.old_pos + len(new_want)] == new_want:
        hints.append("the file already has the patch's new lines there: was it applied already?")
    elif not spots:
        hints.append("the hunk's old lines are found nowhere in the file")
    return PatchError(message + "; " + "; ".join(hints), hunk=hunk.number, line=at + 1,
                      expected=text, actual=shown_actual)


def apply(original: str, patch: str, *, path: str | None = None) -> str:
    """Apply a unified ``patch`` to the text ``original``, strictly.

    Returns the patched text; raises ``toolmend.PatchError`` (with ``hunk``,
    ``line``, ``expected`` and ``actual``) at the first thing that does not
    match. An empty patch (``unified()`` of equal texts) changes nothing.
    ``path`` (optional) is the file's name: a patch whose ``---`` and
    ``+++`` names are both for another file is refused, and in a patch for
    several files the section for ``path`` is the one applied.
    """
    if not isinstance(original, str):
        raise TypeError(f"apply() takes the original as str, not {type(original).__name__}")
    if patch == "":
        return original  # what unified() gives for equal texts: no change
    return apply_file_patch(original, select(parse_patch(patch), path))

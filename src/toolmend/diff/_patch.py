"""Strict application of unified patches.

``apply(original, patch)`` returns the patched text or raises
``toolmend.PatchError``. Nothing is guessed: every hunk must sit exactly at
the line its header names (after the changes of the hunks before it), every
context and removed line must be in the file there, and every header's
counts must match its body. No fuzz and no offsets; when a hunk does not
match, the error names the hunk, the line, the line the patch expected and
the line the file has, and says where else the hunk would match, if it does.

Accepted: patches with or without ``---``/``+++`` headers (``a/``, ``b/``
prefixes and timestamps are fine), several hunks, ``\\ No newline at end of
file`` on either side, CRLF files (the ``\\r`` is part of each line; a patch
whose lines lost their ``\\r`` still applies to a CRLF file, and its added
lines get CRLF endings), a patch transported with CRLF line endings, text
before the first header (``diff --git`` lines, a commit message), and empty
lines inside a hunk standing for empty context lines (editors strip the
lone space). A section headed ``--- /dev/null`` creates a file: it applies
to an empty text only. (A headerless ``@@ -0,0 +1,N @@`` hunk means what it
says, lines inserted before line 1, so it creates a file from an empty text
and inserts at the top of a non-empty one.)
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass, field

from .._text import plural
from ..errors import PatchError
from ._headers import (
    GIT_LINE,
    ONE_SIDE,
    c_unquote,
    check_git_names,
    check_git_section,
    git_change,
    git_header,
    git_names,
    is_epoch,
    split_header,
)

__all__ = ["Hunk", "FilePatch", "parse_patch", "select", "apply", "apply_file_patch",
           "apply_file_lines", "split_keepends", "c_unquote", "reverse", "count_line", "end_line",
           "incomplete_line", "END_LINE"]

_HEADER = re.compile(r"@@ -([0-9]+)(?:,([0-9]+))? \+([0-9]+)(?:,([0-9]+))? @@")

# A patch that toolmend's tools hand out starts with a line that counts its
# hunks and ends with an end line, so that a copy cut anywhere is caught; one
# that was capped to fit an output limit says so on its first line.
_MARK = "# toolmend patch: "
_INCOMPLETE = ": this patch is incomplete"
END_LINE = "# toolmend patch: end"
_COUNT = re.compile(re.escape(_MARK) + r"([0-9]{1,12}) hunks? in ([0-9]{1,12}) files?\b")
_BINARY = re.compile(r"Binary files .* differ\Z|GIT binary patch\Z")


def count_line(hunks: int, files: int) -> str:
    """The first line of a whole patch: ``# toolmend patch: 3 hunks in 1 file``."""
    return f"{_MARK}{hunks} hunk{'s' if hunks != 1 else ''} in {files} file{'s' if files != 1 else ''}"


def end_line() -> str:
    """The last line of a whole patch."""
    return END_LINE


def incomplete_line(shown: int, total: int) -> str:
    """The first line of a cut patch, which ``apply`` refuses."""
    what = f"hunks 1-{shown} of {total} shown" if shown else f"none of its {plural(total, 'hunk')} shown"
    return f"{_MARK}{what}{_INCOMPLETE}"
_BODY = frozenset(" -+")
_NO_NAME = frozenset({"/dev/null", "a", "b", "a/", "b/"})


@dataclass
class Hunk:
    """One ``@@`` hunk. ``lines`` holds ``(tag, text, newline)``: tag is
    ``" "``, ``"-"`` or ``"+"``, text the line without its ``\\n``, newline
    False when a ``\\ No newline at end of file`` marker follows it."""

    number: int
    header: str
    old_start: int
    old_count: int
    new_start: int
    new_count: int
    patch_line: int
    lines: list[tuple[str, str, bool]] = field(default_factory=list)

    @property
    def old_pos(self) -> int:
        """0-based index of the first old line (for an empty range: the
        index the new lines go before)."""
        return self.old_start - 1 if self.old_count else self.old_start

    @property
    def new_pos(self) -> int:
        return self.new_start - 1 if self.new_count else self.new_start

    @property
    def added(self) -> int:
        return sum(1 for tag, _, _ in self.lines if tag == "+")

    @property
    def removed(self) -> int:
        return sum(1 for tag, _, _ in self.lines if tag == "-")


@dataclass
class FilePatch:
    """The hunks for one file, with the names of its ``---``/``+++`` header.

    A section that starts with ``diff --git`` also carries git's extended
    header: ``rename_from``/``rename_to`` and ``copy_from``/``copy_to`` (the
    names as written there, without git's ``a/``/``b/``), ``old_mode`` and
    ``new_mode`` (``old mode``/``new mode``, ``deleted file mode``, ``new
    file mode``), ``similarity`` (percent). ``old_epoch``/``new_epoch`` are
    True when a GNU header's timestamp is the Epoch, which is how ``diff -N``
    says that a side does not exist.
    """

    old_name: str | None
    new_name: str | None
    hunks: list[Hunk] = field(default_factory=list)
    git: bool = False
    rename_from: str | None = None
    rename_to: str | None = None
    copy_from: str | None = None
    copy_to: str | None = None
    old_mode: int | None = None
    new_mode: int | None = None
    similarity: int | None = None
    old_index: str | None = None   # the blob names of git's "index" line
    new_index: str | None = None
    old_epoch: bool = False
    new_epoch: bool = False
    patch_line: int = 0   # 1-based line of the patch where the section starts

    @property
    def deletes(self) -> bool:
        """A deletion: ``+++ /dev/null`` (every line removed), git's ``deleted
        file mode``, or a ``diff -N`` section whose new side is the Epoch and
        empty."""
        if self.new_name == "/dev/null":
            return True
        return (self.new_epoch and not self.git and len(self.hunks) == 1
                and self.hunks[0].new_count == 0)

    @property
    def creates(self) -> bool:
        """A creation: ``--- /dev/null``, or one hunk ``@@ -0,0 +1,N @@``."""
        if self.old_name == "/dev/null":
            return True
        return len(self.hunks) == 1 and self.hunks[0].old_count == 0 and self.hunks[0].old_start == 0

    @property
    def new_file(self) -> bool:
        """The patch says the file does not exist before (``--- /dev/null``,
        ``new file mode``, a ``diff -N`` Epoch on the old side)."""
        return self.old_name == "/dev/null" or (
            self.old_epoch and not self.git and self.creates)

    @property
    def renames(self) -> bool:
        return self.rename_from is not None

    @property
    def copies(self) -> bool:
        return self.copy_from is not None

    def names(self) -> list[str]:
        """The file names of the header; ``/dev/null`` and the bare default
        labels ``a`` and ``b`` name no file."""
        return [n for n in (self.old_name, self.new_name) if n and n not in _NO_NAME]


#: What ``str.splitlines`` splits at besides a newline (and a lone CR).
_OTHER_BREAKS = "\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"


def split_keepends(text: str) -> list[str]:
    """``text`` split after each ``\\n`` (only there); the last element lacks
    one when the text does not end with a newline."""
    if not text:
        return []
    if not any(c in text for c in _OTHER_BREAKS) and text.count("\r") == text.count("\r\n"):
        return text.splitlines(keepends=True)  # the same lines, split in one C call
    parts = text.split("\n")
    last = parts.pop()
    lines = [p + "\n" for p in parts]
    if last:
        lines.append(last)
    return lines


def parse_patch(patch: str) -> list[FilePatch]:
    """The file sections of a unified patch; PatchError on a malformed one."""
    if not isinstance(patch, str):
        raise TypeError(f"the patch must be a str, not {type(patch).__name__}")
    if patch.startswith("\ufeff"):
        patch = patch[1:]
    lines = patch.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if lines and all(line.endswith("\r") for line in lines):
        # the whole patch went through a CRLF conversion
        lines = [line[:-1] for line in lines]
    files: list[FilePatch] = []
    cur: FilePatch | None = None
    after_hunk: Hunk | None = None
    ended = [False, False]  # a "\ No newline" line was seen on the old / new side
    promised: int | None = None  # hunks the count line says the patch holds
    closed = False  # the end line was seen
    head: FilePatch | None = None  # the git section whose extended header is being read
    total = len(lines)
    i = 0
    while i < total:
        line = lines[i]
        if line.startswith(_MARK):
            if line.endswith(_INCOMPLETE):
                raise PatchError(f"line {i + 1} of the patch says {line[len(_MARK):]!r}: it was "
                                 "cut to fit an output limit, and applying part of it would "
                                 "leave the file half changed. Get the whole patch (one file at "
                                 "a time, or less context) and apply that", reason="incomplete")
            m = _COUNT.match(line)
            if m:
                promised = int(m.group(1))
            elif line == END_LINE:
                closed = True
            i += 1
            continue
        if _BINARY.match(line):
            raise PatchError(f"line {i + 1} of the patch, {line!r}, is a binary change: a text "
                             "patch cannot reproduce it, so none of the patch is applied",
                             reason="binary")
        if line.startswith("diff --git "):
            cur = _git_section(line, i)
            files.append(cur)
            head = cur
            after_hunk = None
            ended = [False, False]
            i += 1
            continue
        if line.startswith("--- ") and i + 1 < total and lines[i + 1].startswith("+++ "):
            old_name, old_tail = split_header(line[4:])
            new_name, new_tail = split_header(lines[i + 1][4:])
            if head is not None:  # the names of the git section being read
                check_git_names(head, i, old_name, new_name)
            else:
                cur = FilePatch(old_name, new_name, patch_line=i + 1,
                                old_epoch=is_epoch(old_tail), new_epoch=is_epoch(new_tail))
                files.append(cur)
            head = None
            after_hunk = None
            ended = [False, False]
            i += 2
            continue
        if head is not None and not line.startswith("@@"):
            if not line:
                head = None
                i += 1
                continue
            m = GIT_LINE.match(line)
            if m:
                git_header(head, m, i)
                i += 1
                continue
            if not _BINARY.match(line):
                raise PatchError(f"line {i + 1} of the patch, {line[:80]!r}, is not a header "
                                 "git writes (after 'diff --git'): it may say something about "
                                 "the file that would be lost, so none of the patch is applied",
                                 reason="unsupported")
        if ONE_SIDE.match(line):
            raise PatchError(f"line {i + 1} of the patch, {line[:120]!r}, says a file exists on "
                             "one side only, and the patch does not carry it (diff -r without "
                             "-N); make the patch with 'diff -ruN' (or git diff), so that it "
                             "creates and deletes files", reason="unsupported")
        if line.startswith("@@"):
            head = None
            if cur is None:
                cur = FilePatch(None, None)
                files.append(cur)
            number = len(cur.hunks) + 1
            match = _HEADER.match(line)
            if not match:
                raise PatchError(f"hunk {number}: line {i + 1} of the patch, {line!r}, is not a hunk "
                                 "header; one reads '@@ -l,s +l,s @@'", hunk=number, reason="malformed")
            if any(ended):
                raise PatchError(f"hunk {number} ({match.group(0)}) comes after a line marked "
                                 "'\\ No newline at end of file', which ends the file", hunk=number,
                                 reason="malformed")
            hunk = _parse_hunk(lines, i, number, match)
            cur.hunks.append(hunk)
            i += 1
            seen_old = seen_new = 0
            while seen_old < hunk.old_count or seen_new < hunk.new_count:
                if i >= total:
                    raise _count_error(hunk, lines, i, seen_old, seen_new, "truncated")
                line = lines[i]
                tag = line[:1]
                if tag == "\\":
                    _mark_no_newline(hunk, lines, i, ended)
                    i += 1
                    continue
                if tag == "":
                    tag = " "  # an empty context line whose space was stripped
                elif tag not in _BODY:
                    raise _count_error(hunk, lines, i, seen_old, seen_new, "truncated")
                old_side = tag != "+"
                new_side = tag != "-"
                if (old_side and ended[0]) or (new_side and ended[1]):
                    raise PatchError(f"hunk {number} ({hunk.header}): line {i + 1} of the patch "
                                     "follows a line marked '\\ No newline at end of file', which "
                                     "must be the last line", hunk=number, reason="malformed")
                seen_old += old_side
                seen_new += new_side
                if seen_old > hunk.old_count or seen_new > hunk.new_count:
                    raise _count_error(hunk, lines, i, seen_old, seen_new, "longer")
                hunk.lines.append((tag, line[1:], True))
                i += 1
            if i < total and lines[i].startswith("\\"):
                _mark_no_newline(hunk, lines, i, ended)
                i += 1
            after_hunk = hunk
            continue
        if after_hunk is not None:
            # "-- " alone is a mail signature separator (git format-patch);
            # "-- b" is a removed "- b" past the header's count.
            if line[:1] in _BODY and line not in ("--", "-- "):
                raise _count_error(after_hunk, lines, i, after_hunk.old_count,
                                   after_hunk.new_count, "longer")
            if line and not line.startswith("\\"):
                after_hunk = None
        i += 1
    files = [f for f in files if f.hunks or git_change(f)]
    for f in files:
        check_git_section(f)
    if not files:
        raise PatchError("the patch has no hunks: a unified diff has '@@ -l,s +l,s @@' lines "
                         "followed by ' ', '-' and '+' lines", reason="empty")
    found = sum(len(f.hunks) for f in files)
    if promised is not None and not (closed and patch.endswith("\n")):
        raise PatchError(f"the patch says it holds {plural(promised, 'hunk')} but stops before its end "
                         f"line ({END_LINE!r}): it was cut, so none of it is applied",
                         reason="incomplete")
    if promised is not None and found != promised:
        raise PatchError(f"the patch says it holds {plural(promised, 'hunk')}, but {found} "
                         f"{'is' if found == 1 else 'are'} here: it "
                         "was cut (or pieced together), so none of it is applied",
                         reason="incomplete")
    return files


def _git_section(line: str, i: int) -> FilePatch:
    names = git_names(line[len("diff --git "):])
    section = FilePatch(None, None, git=True, patch_line=i + 1)
    if names is not None:
        section.old_name, section.new_name = names
    return section


def _mark_no_newline(hunk: Hunk, lines: list[str], i: int, ended: list[bool]) -> None:
    if not hunk.lines or not hunk.lines[-1][2]:
        raise PatchError(f"hunk {hunk.number} ({hunk.header}): line {i + 1} of the patch, "
                         f"{lines[i]!r}, does not follow a line it could apply to", hunk=hunk.number,
                         reason="malformed")
    tag, text, _ = hunk.lines[-1]
    hunk.lines[-1] = (tag, text, False)
    if tag != "+":
        ended[0] = True
    if tag != "-":
        ended[1] = True


def _parse_hunk(lines: list[str], i: int, number: int, match: re.Match[str]) -> Hunk:
    if any(g is not None and len(g) > 15 for g in match.groups()):
        raise PatchError(f"hunk {number}: a line number or count in {match.group(0)[:60]!r}"
                         f"{'...' if len(match.group(0)) > 60 else ''} is too large", hunk=number,
                         reason="malformed")
    old_start = int(match.group(1))
    old_count = 1 if match.group(2) is None else int(match.group(2))
    new_start = int(match.group(3))
    new_count = 1 if match.group(4) is None else int(match.group(4))
    header = match.group(0)
    if old_count == 0 and new_count == 0:
        raise PatchError(f"hunk {number} ({header}) is empty", hunk=number, reason="malformed")
    if (old_count and old_start == 0) or (new_count and new_start == 0):
        raise PatchError(f"hunk {number} ({header}): line numbers start at 1", hunk=number,
                         reason="malformed")
    return Hunk(number, header, old_start, old_count, new_start, new_count, i + 1)


def _count_error(hunk: Hunk, lines: list[str], i: int, seen_old: int, seen_new: int,
                 how: str) -> PatchError:
    if how == "truncated":
        where = (f"; the hunk stops at line {i + 1} of the patch ({lines[i]!r})"
                 if i < len(lines) else "; the patch ends there")
        message = (f"hunk {hunk.number} ({hunk.header}) is truncated or its counts are wrong: the "
                   f"header counts {hunk.old_count} old and {hunk.new_count} new lines, the body "
                   f"has {seen_old} and {seen_new}{where}")
        return PatchError(message, hunk=hunk.number, reason="incomplete")
    else:
        message = (f"hunk {hunk.number} ({hunk.header}): the body is longer than the header says "
                   f"({hunk.old_count} old and {hunk.new_count} new lines); line {i + 1} of the "
                   f"patch, {lines[i]!r}, is one too many: fix the counts")
    return PatchError(message, hunk=hunk.number, reason="malformed")


def reverse(section: FilePatch) -> FilePatch:
    """The same change the other way round (``patch -R``): old and new swap."""
    flipped = {" ": " ", "-": "+", "+": "-"}
    hunks = []
    for h in section.hunks:
        hunks.append(Hunk(h.number, f"@@ -{_range(h.new_start, h.new_count)} "
                                    f"+{_range(h.old_start, h.old_count)} @@",
                          h.new_start, h.new_count, h.old_start, h.old_count, h.patch_line,
                          _reversed_lines(h.lines, flipped)))
    if section.copies:
        raise PatchError(f"the section at line {section.patch_line} of the patch copies "
                         f"{section.copy_from!r} to {section.copy_to!r}; undoing a copy is "
                         f"deleting {section.copy_to!r}, which a reversed patch does not say: "
                         "delete it instead", reason="unsupported")
    return FilePatch(section.new_name, section.old_name, hunks, git=section.git,
                     rename_from=section.rename_to, rename_to=section.rename_from,
                     old_mode=section.new_mode, new_mode=section.old_mode,
                     similarity=section.similarity, old_epoch=section.new_epoch,
                     new_epoch=section.old_epoch, patch_line=section.patch_line)


def _range(start: int, count: int) -> str:
    return str(start) if count == 1 else f"{start},{count}"


def _reversed_lines(lines: list[tuple[str, str, bool]],
                    flipped: dict[str, str]) -> list[tuple[str, str, bool]]:
    # Within a run of changes, the removed lines come before the added ones.
    out: list[tuple[str, str, bool]] = []
    run: list[tuple[str, str, bool]] = []
    for tag, text, nl in lines:
        if tag == " ":
            out.extend(sorted(run, key=lambda item: item[0] != "-"))
            run = []
            out.append((tag, text, nl))
        else:
            run.append((flipped[tag], text, nl))
    out.extend(sorted(run, key=lambda item: item[0] != "-"))
    return out


# ---------------------------------------------------------------------------
# Choosing the section for a file

def _normalize(path: str) -> str:
    path = path.replace("\\", "/")
    path = posixpath.normpath(path)
    return path[2:] if path.startswith("./") else path


def names_match(section: FilePatch, path: str) -> bool:
    """Whether a section's ``---``/``+++`` names can refer to ``path``:
    equal, or equal once git's ``a/``/``b/`` prefix is dropped, or one a
    suffix of the other at a ``/`` (``src/main.go`` and ``main.go``)."""
    names = section.names()
    if not names:
        return True
    target = _normalize(path)
    for name in names:
        candidates = {_normalize(name)}
        if name.startswith(("a/", "b/")):
            candidates.add(_normalize(name[2:]))
        for cand in candidates:
            if cand == target or cand.endswith("/" + target) or target.endswith("/" + cand):
                return True
    return False


def select(files: list[FilePatch], path: str | None) -> FilePatch:
    """The one section that applies to ``path`` (any single one without)."""
    if path is None:
        if len(files) > 1:
            listed = ", ".join(repr(f.names()[0]) if f.names() else "(unnamed)" for f in files)
            raise PatchError(f"the patch has {len(files)} file sections ({listed}); "
                             "say which file it is applied to", reason="no_file")
        return files[0]
    matching = [f for f in files if names_match(f, path)]
    if not matching:
        named = sorted({n for f in files for n in f.names()})
        raise PatchError(f"the patch is for {' / '.join(map(repr, named))}, not for {path!r}",
                         reason="no_file")
    if len(matching) > 1:
        raise PatchError(f"the patch has {len(matching)} sections that could be for {path!r}; "
                         "send the one section for this file", reason="no_file")
    return matching[0]


# ---------------------------------------------------------------------------
# Applying

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
    """Up to ``limit`` 0-based positions where ``want`` occurs in ``lines``."""
    found: list[int] = []
    if not want:
        return found
    first = want[0]
    size = len(want)
    last = len(lines) - size
    for pos in range(last + 1):
        if lines[pos] == first and lines[pos:pos + size] == want:
            found.append(pos)
            if len(found) >= limit:
                break
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
    try:
        return _apply_lines(lines, section, False)
    except PatchError:
        # A CRLF file and a patch whose lines lost their "\r": match and add
        # lines with CRLF endings.
        with_newline = [line for line in lines if line.endswith("\n")]
        if not with_newline or not all(line.endswith("\r\n") for line in with_newline) or any(
                text.endswith("\r") for h in section.hunks for _, text, nl in h.lines if nl):
            raise
    return _apply_lines(lines, section, True)


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

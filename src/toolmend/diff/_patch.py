"""Reading unified patches into sections and hunks, strictly.

``parse_patch(patch)`` returns the file sections (:class:`FilePatch`, each
with its :class:`Hunk` list) or raises ``toolmend.PatchError``: every
header's counts must match its body, a patch cut to fit an output (its count
line says so, or its end line is missing) is refused, and so is a binary
change or a header git writes that the patch could not carry out. Accepted:
patches with or without ``---``/``+++`` headers (``a/``, ``b/`` prefixes and
timestamps are fine), several hunks, ``\\ No newline at end of file`` on
either side, a patch transported with CRLF line endings, text before the
first header (``diff --git`` lines, a commit message), and empty lines
inside a hunk standing for empty context lines (editors strip the lone
space). ``reverse`` swaps a section's sides; ``select`` picks the section
for a file. Applying a section is :mod:`._apply`'s.
"""

from __future__ import annotations

import os
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

__all__ = ["Hunk", "FilePatch", "parse_patch", "select", "names_match", "c_unquote", "reverse",
           "count_line", "end_line", "incomplete_line", "lossy_line", "END_LINE", "split_keepends",
           "hunk_pieces", "name_parts"]

_HEADER = re.compile(r"@@ -([0-9]+)(?:,([0-9]+))? \+([0-9]+)(?:,([0-9]+))? @@")

# A patch that toolmend's tools hand out starts with a line that counts its
# hunks and ends with an end line, so that a copy cut anywhere is caught; one
# that was capped to fit an output limit says so on its first line.
_MARK = "# toolmend patch: "
_INCOMPLETE = ": this patch is incomplete"
END_LINE = "# toolmend patch: end"
# A patch whose text shows bytes that are not UTF-8 as U+FFFD says so: its lines that hold
# U+FFFD do not hold the file's bytes, so it is never applied (a plausible file, other bytes).
_LOSSY = _MARK + "bytes that are not UTF-8 are shown as U+FFFD; this patch cannot write them"
_COUNT = re.compile(re.escape(_MARK) + r"([0-9]{1,12}) hunks? in ([0-9]{1,12}) files?\b")
_BINARY = re.compile(r"Binary files .* differ\Z|GIT binary patch\Z")


def count_line(hunks: int, files: int) -> str:
    """The first line of a whole patch: ``# toolmend patch: 3 hunks in 1 file``."""
    return f"{_MARK}{hunks} hunk{'s' if hunks != 1 else ''} in {files} file{'s' if files != 1 else ''}"


def end_line() -> str:
    """The last line of a whole patch."""
    return END_LINE


def lossy_line() -> str:
    """The line that heads a patch whose text shows bytes that are not UTF-8 as U+FFFD:
    ``apply`` refuses its lines that hold U+FFFD."""
    return _LOSSY


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


def hunk_pieces(text: str) -> list[tuple[str, str]]:
    """``(file header, hunk)`` pairs of a unified diff, in order: the header is
    the ``---``/``+++`` pair of the hunk's file, and text before a file's
    header (a ``diff --git`` line) is a piece of its own, under the header
    before it. A diff cut between two pieces is cut between hunks."""
    pieces: list[tuple[str, str]] = []
    header = ""
    cur: list[str] = []
    lines = split_keepends(text)
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("--- ") and i + 1 < len(lines) and lines[i + 1].startswith("+++ "):
            if cur:
                pieces.append((header, "".join(cur)))
                cur = []
            header = line + lines[i + 1]
            i += 2
            continue
        if line.startswith("@@") and cur:
            pieces.append((header, "".join(cur)))
            cur = []
        cur.append(line)
        i += 1
    if cur:
        pieces.append((header, "".join(cur)))
    return pieces


def parse_patch(patch: str) -> list[FilePatch]:
    """The file sections of a unified patch; PatchError on a malformed one."""
    if not isinstance(patch, str):
        raise TypeError(f"the patch must be a str, not {type(patch).__name__}")
    if patch.startswith("\ufeff"):
        patch = patch[1:]
    reader = _Reader(_patch_lines(patch))
    reader.read()
    return reader.finish(patch.endswith("\n"))


def _patch_lines(patch: str) -> list[str]:
    """The lines of the patch, without their newlines (nor the ``\\r`` of
    each, when the whole patch went through a CRLF conversion)."""
    lines = patch.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if lines and all(line.endswith("\r") for line in lines):
        lines = [line[:-1] for line in lines]
    return lines


class _Reader:
    """One reading of a patch, line by line: each step reads what it
    recognises at line ``i`` and moves past it."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.i = 0
        self.files: list[FilePatch] = []
        self.cur: FilePatch | None = None
        self.after_hunk: Hunk | None = None
        self.ended = [False, False]  # a "\ No newline" line was seen on the old / new side
        self.promised: int | None = None  # hunks the count line says the patch holds
        self.closed = False  # the end line was seen
        self.lossy: int | None = None  # the line that says the patch shows bytes as U+FFFD
        self.head: FilePatch | None = None  # the git section whose extended header is being read
        self.stray: tuple[int, str] | None = None  # a line of text after a hunk of this section

    def read(self) -> None:
        lines = self.lines
        while self.i < len(lines):
            line = lines[self.i]
            if self._count_mark(line):
                continue
            if _BINARY.match(line):
                raise PatchError(f"line {self.i + 1} of the patch, {line!r}, is a binary change: a "
                                 "text patch cannot reproduce it, so none of the patch is applied",
                                 reason="binary")
            if self._git_start(line) or self._file_names(line) or self._git_extended(line):
                continue
            if ONE_SIDE.match(line):
                raise PatchError(f"line {self.i + 1} of the patch, {line[:120]!r}, says a file "
                                 "exists on one side only, and the patch does not carry it (diff -r "
                                 "without -N); make the patch with 'diff -ruN' (or git diff), so "
                                 "that it creates and deletes files", reason="unsupported")
            if line.startswith("@@"):
                self._hunk(line)
                continue
            self._after_hunk(line)
            self.i += 1

    def _count_mark(self, line: str) -> bool:
        """The count line and the end line ``apply`` checks the patch against."""
        if not line.startswith(_MARK):
            return False
        if line.endswith(_INCOMPLETE):
            raise PatchError(f"line {self.i + 1} of the patch says {line[len(_MARK):]!r}: it was "
                             "cut to fit an output limit, and applying part of it would "
                             "leave the file half changed. Get the whole patch (one file at "
                             "a time, or less context) and apply that", reason="incomplete")
        m = _COUNT.match(line)
        if m:
            self.promised = int(m.group(1))
        elif line == END_LINE:
            self.closed = True
        elif line == _LOSSY:
            self.lossy = self.i + 1
        self.i += 1
        return True

    def _new_section(self, section: FilePatch | None) -> None:
        if section is not None:
            self.cur = section
            self.files.append(section)
        self.after_hunk = None
        self.ended = [False, False]
        self.stray = None

    def _git_start(self, line: str) -> bool:
        """``diff --git a/x b/x``: a git section, its extended header next."""
        if not line.startswith("diff --git "):
            return False
        self._new_section(_git_section(line, self.i))
        self.head = self.cur
        self.i += 1
        return True

    def _file_names(self, line: str) -> bool:
        """The ``---``/``+++`` pair: a section of its own, or the names of the
        git section being read."""
        lines, i = self.lines, self.i
        if not (line.startswith("--- ") and i + 1 < len(lines) and lines[i + 1].startswith("+++ ")):
            return False
        old_name, old_tail = split_header(line[4:])
        new_name, new_tail = split_header(lines[i + 1][4:])
        if self.head is not None:
            check_git_names(self.head, i, old_name, new_name)
            self._new_section(None)
        else:
            self._new_section(FilePatch(old_name, new_name, patch_line=i + 1,
                                        old_epoch=is_epoch(old_tail), new_epoch=is_epoch(new_tail)))
        self.head = None
        self.i += 2
        return True

    def _git_extended(self, line: str) -> bool:
        """A line of git's extended header (``index``, ``new file mode``,
        ``rename from``...); anything else there is refused."""
        if self.head is None or line.startswith("@@"):
            return False
        if not line:
            self.head = None
            self.i += 1
            return True
        m = GIT_LINE.match(line)
        if m:
            git_header(self.head, m, self.i)
            self.i += 1
            return True
        if not _BINARY.match(line):
            raise PatchError(f"line {self.i + 1} of the patch, {line[:80]!r}, is not a header "
                             "git writes (after 'diff --git'): it may say something about "
                             "the file that would be lost, so none of the patch is applied",
                             reason="unsupported")
        return False

    def _hunk(self, line: str) -> None:
        """A hunk: its header, then as many body lines as its counts say."""
        self.head = None
        if self.cur is None:
            self._new_section(FilePatch(None, None))
        cur = self.cur
        assert cur is not None
        number = len(cur.hunks) + 1
        match = _HEADER.match(line)
        if not match:
            raise PatchError(f"hunk {number}: line {self.i + 1} of the patch, {line!r}, is not a hunk "
                             "header; one reads '@@ -l,s +l,s @@'", hunk=number, reason="malformed")
        if self.stray is not None and cur.hunks:
            at, text = self.stray
            raise PatchError(f"hunk {number} ({match.group(0)}): line {at + 1} of the patch, "
                             f"{text[:80]!r}, stands between two hunks of one file, in none of "
                             "them (a line that lost its ' ', '-' or '+'?): which lines the hunks "
                             "hold is a guess, so none of the patch is applied", hunk=number,
                             reason="malformed")
        if any(self.ended):
            raise PatchError(f"hunk {number} ({match.group(0)}) comes after a line marked "
                             "'\\ No newline at end of file', which ends the file", hunk=number,
                             reason="malformed")
        hunk = _parse_hunk(self.lines, self.i, number, match)
        cur.hunks.append(hunk)
        self.i += 1
        self._hunk_body(hunk)
        if self.i < len(self.lines) and self.lines[self.i].startswith("\\"):
            _mark_no_newline(hunk, self.lines, self.i, self.ended)
            self.i += 1
        self.after_hunk = hunk

    def _hunk_body(self, hunk: Hunk) -> None:
        lines, ended, total = self.lines, self.ended, len(self.lines)
        i = self.i
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
                raise PatchError(f"hunk {hunk.number} ({hunk.header}): line {i + 1} of the patch "
                                 "follows a line marked '\\ No newline at end of file', which "
                                 "must be the last line", hunk=hunk.number, reason="malformed")
            seen_old += old_side
            seen_new += new_side
            if seen_old > hunk.old_count or seen_new > hunk.new_count:
                raise _count_error(hunk, lines, i, seen_old, seen_new, "longer")
            hunk.lines.append((tag, line[1:], True))
            i += 1
        self.i = i

    def _after_hunk(self, line: str) -> None:
        """A line after a hunk: a body line past its counts is refused."""
        after = self.after_hunk
        if after is None:
            return
        # "-- " alone is a mail signature separator (git format-patch);
        # "-- b" is a removed "- b" past the header's count.
        if line[:1] in _BODY and line not in ("--", "-- "):
            raise _count_error(after, self.lines, self.i, after.old_count, after.new_count, "longer")
        if line and not line.startswith("\\"):
            self.after_hunk = None
            if self.stray is None:
                self.stray = (self.i, line)

    def finish(self, ends_with_newline: bool) -> list[FilePatch]:
        """The sections read, checked whole: git's headers, some hunk, the
        count line's promise."""
        files = [f for f in self.files if f.hunks or git_change(f)]
        for f in files:
            check_git_section(f)
        if not files:
            raise PatchError("the patch has no hunks: a unified diff has '@@ -l,s +l,s @@' lines "
                             "followed by ' ', '-' and '+' lines", reason="empty")
        found = sum(len(f.hunks) for f in files)
        promised = self.promised
        if promised is not None and not (self.closed and ends_with_newline):
            raise PatchError(f"the patch says it holds {plural(promised, 'hunk')} but stops before "
                             f"its end line ({END_LINE!r}): it was cut, so none of it is applied",
                             reason="incomplete")
        if promised is not None and found != promised:
            raise PatchError(f"the patch says it holds {plural(promised, 'hunk')}, but {found} "
                             f"{'is' if found == 1 else 'are'} here: it "
                             "was cut (or pieced together), so none of it is applied",
                             reason="incomplete")
        if self.lossy is not None:
            _check_lossy(files, self.lossy)
        return files


def _check_lossy(files: list[FilePatch], mark: int) -> None:
    """Refuse a line that holds U+FFFD in a patch that says U+FFFD stands for bytes that are
    not UTF-8: the bytes are not in the patch, so it would write (or look for) others."""
    for f in files:
        for hunk in f.hunks:
            for tag, text, _ in hunk.lines:
                if "\ufffd" not in text:
                    continue
                kind = {" ": "context", "-": "removed", "+": "added"}[tag]
                where = f" of {f.new_name or f.old_name}" if len(files) > 1 else ""
                raise PatchError(
                    f"hunk {hunk.number}{where} ({hunk.header}) has the {kind} line {text!r}, and "
                    f"line {mark} of the patch says it shows bytes that are not UTF-8 as U+FFFD: "
                    "those bytes are not in the patch, so applying it would write other bytes than "
                    "the file it was made from. Apply the patch as bytes: the command line's "
                    "'toolmend diff files' (or 'dirs --unified') writes it byte for byte for 'diff "
                    "apply --patch FILE', and run_verb() without a limit hands it over in "
                    "ToolResult.raw, which apply takes as 'patch'", hunk=hunk.number,
                    expected=text, reason="unsupported")


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

def name_parts(name: str) -> list[str]:
    """The folders and file of a file name in a patch: split at ``/``, and at
    a backslash only where the system separates with one (elsewhere it is
    part of a name, ``back\\slash.txt``, as GNU patch and git apply read it)."""
    return (name.replace("\\", "/") if os.sep == "\\" else name).split("/")


def _normalize(path: str) -> str:
    path = posixpath.normpath("/".join(name_parts(path)))
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

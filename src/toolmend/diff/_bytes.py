"""Files as bytes: decoded once, split once, their lines counted.

Diffs are exact, so a file's bytes must come back as they were: text that is
not UTF-8 is decoded with surrogate escapes (``decode``), and encoding it
back with ``surrogateescape`` gives the bytes again. ``patch_bytes`` applies
one section of a patch to a file's bytes, decoding and splitting them once,
and hands back the new bytes with the line counts of both sides, so that a
caller never decodes or splits a file again to report on it.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import PatchError
from ._apply import apply_file_lines
from ._patch import FilePatch, split_keepends

__all__ = ["decode", "readable", "count_lines", "PatchedFile", "patch_bytes"]


def decode(data: bytes) -> tuple[str, bool]:
    """Text of ``data`` (a BOM stays: diffs are exact) and whether it is
    valid UTF-8; other bytes are kept as surrogate escapes, so that encoding
    the text back with ``surrogateescape`` gives the bytes again."""
    try:
        return data.decode("utf-8"), True
    except UnicodeDecodeError:
        return data.decode("utf-8", "surrogateescape"), False


def readable(text: str) -> str:
    """``text`` with surrogate escapes shown as U+FFFD (safe to serialize)."""
    if text.isascii():
        return text
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def count_lines(data: bytes) -> int:
    """The lines of ``data`` as :func:`split_keepends` counts them (a last
    line without a newline counts), without decoding: a ``\\n`` byte is a
    newline in UTF-8 and in surrogate escapes alike."""
    return data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)


def _no_u_fffd_added(section: FilePatch) -> None:
    """Refuse to add U+FFFD to a file that is not UTF-8: it is how a patch's text shows bytes
    that are not UTF-8, so the patch would write other bytes than the ones it was made from."""
    for hunk in section.hunks:
        added = next((text for tag, text, _ in hunk.lines if tag == "+" and "\ufffd" in text), None)
        if added is not None:
            raise PatchError(f"hunk {hunk.number} ({hunk.header}) adds the line {added!r} to a file "
                             "that is not UTF-8: U+FFFD is how a patch's text shows bytes that are "
                             "not UTF-8, so applying it would write other bytes than the ones meant. "
                             "Apply the patch as bytes (the command line's 'toolmend diff files' "
                             "writes it byte for byte for 'diff apply --patch FILE')",
                             hunk=hunk.number, expected=added, reason="unsupported")


def _shows_a_bom(section: FilePatch) -> bool:
    """Whether the section's first line of the file, old or new, starts with a BOM: a patch
    that adds or removes it, whose lines must then match the file's as they are (stripped, the
    file's BOM would let the patch's line without one match, and a BOM be added twice)."""
    first = section.hunks[0]
    if first.old_pos and first.new_pos:
        return False
    for side in ("+", "-"):  # (the old lines are those not added, the new those not removed)
        line = next((text for tag, text, _ in first.lines if tag != side), "")
        if line.startswith("\ufeff"):
            return True
    return False


def _inserts_at_top(section: FilePatch) -> bool:
    """Whether the section's first hunk adds lines before line 1 of the file."""
    first = section.hunks[0]
    return first.old_pos == 0 and bool(first.lines) and first.lines[0][0] == "+"


def _without_bom(lines: list[str], section: FilePatch) -> list[str]:
    """The section applied to ``lines`` read without their BOM, which the result keeps."""
    first = lines[0][1:]
    out = apply_file_lines(([first] if first else []) + lines[1:], section)
    return ["\ufeff" + out[0], *out[1:]] if out else ["\ufeff"]


def _at_the_top(lines: list[str], section: FilePatch) -> list[str]:
    """A first hunk that adds lines before line 1 of a file that starts with a BOM the patch
    does not show: they go before the BOM (as the patch says, and as ``diff -U0`` writes a line
    put before it) or after it (as the same hunk reads with context after its lines). Applied
    where only one reading matches; where both do, which is meant is a guess: refused."""
    found: list[list[str]] = []
    error: PatchError | None = None
    for strip in (False, True):
        try:
            found.append(_without_bom(lines, section) if strip else apply_file_lines(lines, section))
        except PatchError as exc:
            error = exc
    if not found:
        assert error is not None
        raise error
    if len(found) > 1:
        hunk = section.hunks[0]
        raise PatchError(f"hunk 1 ({hunk.header}) adds lines before line 1, and the file starts "
                         "with a BOM (U+FEFF) the patch does not show: the lines could go before "
                         "it, which would then no longer start the file, or after it; which is "
                         "meant is a guess, so none of the patch is applied. Add the file's first "
                         "line after them as context (they then go after the BOM), or show the "
                         "BOM in the patch", hunk=1, line=1, expected=None,
                         actual=lines[0].rstrip("\r\n"))
    return found[0]


@dataclass(frozen=True)
class PatchedFile:
    """A file after one section of a patch: its bytes and the line counts of
    both sides."""

    data: bytes
    lines_before: int
    lines_after: int


def patch_bytes(data: bytes | None, section: FilePatch) -> PatchedFile:
    """Apply ``section`` to the bytes ``data`` (None: no file, as empty),
    strictly (PatchError when it does not match). A file that starts with a
    BOM the patch does not show is matched without it, and keeps it (lines added
    before line 1 that would match before the BOM as well are refused: which is
    meant is a guess); a patch whose first line of the file has a BOM (on either
    side) is matched as it is."""
    before = data or b""
    if not section.hunks:  # a mode change, an empty file created, renamed or copied
        count = count_lines(before)
        return PatchedFile(before, count, count)
    text, valid = decode(before)
    if not valid:
        _no_u_fffd_added(section)
    lines = split_keepends(text)
    hidden = text.startswith("\ufeff") and not _shows_a_bom(section)
    if hidden and _inserts_at_top(section):
        out = _at_the_top(lines, section)
    else:
        try:
            out = apply_file_lines(lines, section)
        except PatchError:
            if not hidden:
                raise
            out = _without_bom(lines, section)
    if out and not out[-1]:  # an added empty last line without a newline adds nothing
        out.pop()
    return PatchedFile("".join(out).encode("utf-8", "surrogateescape"), len(lines), len(out))

"""The headers of a unified patch: names, timestamps and git's extended header.

Names come quoted (C escapes, as git and GNU diff quote them) or bare; a bare
name ends at a TAB (GNU diff writes one before the timestamp, git after a
name with a space) or at the end of the line. A timestamp that is the Epoch
is how ``diff -N`` marks a side that does not exist. git's extended header
(``rename from``, ``old mode``, ``new file mode``, ...) is read into the
section's fields; a line there that is not one git writes, or a mode that is
not a regular file's, refuses the patch, so nothing it says is lost.
"""

from __future__ import annotations

import calendar
import hashlib
import re
from typing import TYPE_CHECKING

from ..errors import PatchError

if TYPE_CHECKING:
    from ._patch import FilePatch

__all__ = ["c_unquote", "git_names", "split_header", "is_epoch", "git_header", "GIT_LINE",
           "ONE_SIDE", "check_git_names", "git_change", "check_git_section", "blob_algorithm",
           "blob_matches", "blob_name", "check_result_blob", "mode_after"]

_ESCAPES = {"a": 7, "b": 8, "t": 9, "n": 10, "v": 11, "f": 12, "r": 13, '"': 34, "\\": 92}
_OCTAL = re.compile(r"[0-3][0-7]{2}")


def c_unquote(text: str, start: int = 0) -> tuple[str, int] | None:
    """The C-quoted name that starts at ``text[start]`` (a ``"``), as git and
    GNU diff quote names (``\\t``, ``\\"``, ``\\\\``, octal bytes), and the
    index after its closing quote; None when it is not one. Bytes that are
    not UTF-8 are kept as surrogate escapes (``os.fsencode`` gives them back)."""
    if text[start:start + 1] != '"':
        return None
    out = bytearray()
    i = start + 1
    n = len(text)
    while i < n:
        c = text[i]
        if c == '"':
            return out.decode("utf-8", "surrogateescape"), i + 1
        if c == "\\":
            nxt = text[i + 1:i + 2]
            if nxt in _ESCAPES:
                out.append(_ESCAPES[nxt])
                i += 2
                continue
            if _OCTAL.match(text, i + 1):
                out.append(int(text[i + 1:i + 4], 8))
                i += 4
                continue
            return None
        out += c.encode("utf-8", "surrogateescape")
        i += 1
    return None


def split_header(rest: str) -> tuple[str | None, str]:
    """(name, what follows it) of a ``---``/``+++`` line after the marker:
    a quoted name, or the text up to a TAB (GNU diff writes one before the
    timestamp, git after a name with a space), or the whole line."""
    if rest.startswith('"'):
        quoted = c_unquote(rest)
        if quoted is not None:
            return quoted[0] or None, rest[quoted[1]:].lstrip("\t ")
    if "\t" in rest:
        name, tail = rest.split("\t", 1)
        return name or None, tail
    return rest.rstrip() or None, ""


_STAMP = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})[ T]([0-9]{2}):([0-9]{2}):([0-9]{2})"
                    r"(?:\.[0-9]+)?(?: ?([+-])([0-9]{2}):?([0-9]{2}))?")


def is_epoch(stamp: str) -> bool:
    """Whether a header's timestamp is the Epoch (in any time zone): ``diff
    -N`` dates the side of a file that does not exist so."""
    m = _STAMP.match(stamp.strip())
    if not m:
        return False
    y, mo, d, hh, mm, ss = (int(m.group(k)) for k in range(1, 7))
    if not (1 <= mo <= 12 and 1 <= d <= 31):
        return False
    seconds = calendar.timegm((y, mo, d, hh, mm, ss, 0, 0, 0))
    if m.group(7):
        zone = int(m.group(8)) * 3600 + int(m.group(9)) * 60
        seconds -= zone if m.group(7) == "+" else -zone
    return seconds == 0


def git_names(rest: str) -> tuple[str, str] | None:
    """The two names of a ``diff --git`` line (after ``diff --git ``), as git
    reads them: quoted names, or, unquoted, the split where both halves name
    the same file once their first folder (``a/``, ``b/``) is dropped."""
    if rest.startswith('"'):
        first = c_unquote(rest)
        if first is None or rest[first[1]:first[1] + 1] != " ":
            return None
        second_text = rest[first[1] + 1:]
        second = c_unquote(second_text) if second_text.startswith('"') else (second_text, 0)
        return (first[0], second[0]) if second is not None else None
    if rest.endswith('"'):
        at = rest.find(' "')
        while at != -1:
            second = c_unquote(rest, at + 1)
            if second is not None and second[1] == len(rest):
                return rest[:at], second[0]
            at = rest.find(' "', at + 1)
        return None
    for at in range(len(rest)):
        if rest[at] != " ":
            continue
        old, new = rest[:at], rest[at + 1:]
        if old == new:
            return old, new
        if old.partition("/")[2] == new.partition("/")[2] and "/" in old and "/" in new:
            return old, new
    return None


GIT_LINE = re.compile(
    r"(old mode|new mode|deleted file mode|new file mode) ([0-7]{6})\Z"
    r"|(copy from|copy to|rename from|rename to|rename old|rename new) (.+)\Z"
    r"|(similarity index|dissimilarity index) ([0-9]{1,3})%\Z"
    r"|index ([0-9a-f]{4,64})\.\.([0-9a-f]{4,64})(?: ([0-7]{6}))?\Z")
ONE_SIDE = re.compile(r"Only in .+: .+\Z|File .+ is a .+ while file .+ is a .+\Z")
_MODES = {0o100644: "a file", 0o100755: "an executable file", 0o100664: "a file"}
_OTHER_MODES = {0o120000: "a symbolic link", 0o160000: "a submodule (gitlink)",
                0o040000: "a folder"}


def _name_value(text: str) -> str:
    quoted = c_unquote(text) if text.startswith('"') else None
    return quoted[0] if quoted is not None and quoted[1] == len(text) else text


def git_header(section: FilePatch, m: re.Match[str], i: int) -> None:
    """One extended header line of a git section (``rename from x``, ...)."""
    if m.group(1):
        what, mode = m.group(1), int(m.group(2), 8)
        if mode not in _MODES:
            kind = _OTHER_MODES.get(mode & 0o170000, f"mode {m.group(2)}")
            raise PatchError(f"line {i + 1} of the patch, {m.group(0)!r}: the file is {kind}, "
                             "which @diff apply does not write (it writes regular files), so "
                             "none of the patch is applied", reason="unsupported")
        if what in ("old mode", "deleted file mode"):
            section.old_mode = mode
        else:
            section.new_mode = mode
        if what == "deleted file mode":
            section.new_name = "/dev/null"
        elif what == "new file mode":
            section.old_name = "/dev/null"
    elif m.group(3):
        what, name = m.group(3), _name_value(m.group(4))
        if what == "copy from":
            section.copy_from = name
        elif what == "copy to":
            section.copy_to = name
        elif what in ("rename from", "rename old"):
            section.rename_from = name
        else:
            section.rename_to = name
    elif m.group(5):
        if m.group(5) == "similarity index":
            section.similarity = int(m.group(6))
    elif m.group(7):  # "index abc..def 100755": the blobs, and the mode, unchanged
        section.old_index, section.new_index = m.group(7), m.group(8)
        mode = int(m.group(9) or "100644", 8)
        if mode not in _MODES:
            kind = _OTHER_MODES.get(mode & 0o170000, f"mode {m.group(9)}")
            raise PatchError(f"line {i + 1} of the patch, {m.group(0)!r}: the file is {kind}, "
                             "which @diff apply does not write (it writes regular files), so "
                             "none of the patch is applied", reason="unsupported")


def _drop_first(name: str | None) -> str | None:
    if name is None or name == "/dev/null":
        return name
    return name.partition("/")[2] if "/" in name else name


def check_git_names(section: FilePatch, i: int, old_name: str | None,
                    new_name: str | None) -> None:
    """The ``---``/``+++`` names must agree with the extended header: a new
    file is ``--- /dev/null``, a deleted one ``+++ /dev/null``, a rename or
    copy names its two files."""
    for said, name, what in ((section.old_name, old_name, "new file mode"),
                             (section.new_name, new_name, "deleted file mode")):
        if said is not None and (said == "/dev/null") != (name == "/dev/null"):
            raise PatchError(f"line {i + 1} of the patch: the '---'/'+++' header names "
                             f"{name!r}, but the section's header "
                             + (f"says '{what}'" if said == "/dev/null" else
                                f"names {said!r}") + ": the patch is inconsistent",
                             reason="malformed")
    section.old_name, section.new_name = old_name, new_name
    for source, name in ((section.rename_from or section.copy_from, section.old_name),
                         (section.rename_to or section.copy_to, section.new_name)):
        if source is not None and name is not None and source not in (name, _drop_first(name)):
            raise PatchError(f"line {i + 1} of the patch: the '---'/'+++' header names "
                             f"{name!r}, but the section's rename or copy header names "
                             f"{source!r}: the patch is inconsistent", reason="malformed")


def git_change(section: FilePatch) -> bool:
    """Whether a git section without hunks still changes something."""
    return section.git and (section.renames or section.copies or section.new_file
                            or section.deletes or (section.old_mode is not None
                                                   and section.new_mode is not None
                                                   and section.old_mode != section.new_mode))


#: git's name of the empty blob (SHA-1 and SHA-256 repositories)
_EMPTY_BLOBS = ("e69de29bb2d1d6434b8b29ae775ad8c2e48c5391",
                "473a0f4c3be8a93681a267e3b1e9a7dcda1185436fe141f7749120a303721813")


def _empty_blob(name: str | None) -> bool:
    return name is None or set(name) == {"0"} or any(b.startswith(name) for b in _EMPTY_BLOBS)


def check_git_section(section: FilePatch) -> None:
    where = f"the section at line {section.patch_line} of the patch"
    if not section.hunks and section.git:
        # No hunk, so the index line is all that says what the content is:
        # a new file with content, or a change between two blobs, lost its hunks.
        old, new = section.old_index, section.new_index
        lost = ((section.new_file and not _empty_blob(new))
                or (section.deletes and not _empty_blob(old))
                or (not section.new_file and not section.deletes and old is not None
                    and new is not None and old != new))
        if (section.new_file or section.deletes) and new is None:
            lost = True  # git names the empty blob here ("index 0000000..e69de29")
        if lost:
            said = f"index {old}..{new}" if new is not None else "no index line"
            verb = "creates" if section.new_file else "deletes" if section.deletes else "changes"
            raise PatchError(f"{where} {verb} a file with no hunk and {said}: the content is not the empty "
                             "file, or the patch was cut before its hunks, so none of it is "
                             "applied", reason="incomplete")
    for a, b, what in ((section.rename_from, section.rename_to, "rename"),
                       (section.copy_from, section.copy_to, "copy")):
        if (a is None) != (b is None):
            raise PatchError(f"{where} has '{what} {'from' if a else 'to'}' without "
                             f"'{what} {'to' if a else 'from'}'", reason="malformed")
    if section.renames and section.copies:
        raise PatchError(f"{where} both renames and copies a file", reason="malformed")
    if (section.renames or section.copies) and not section.hunks and (
            section.similarity is not None and section.similarity < 100):
        raise PatchError(f"{where} says the files are {section.similarity}% similar but "
                         "carries no hunk: the change between them is missing",
                         reason="incomplete")
    if section.git and (section.renames or section.copies) and (section.new_file
                                                                  or section.deletes):
        raise PatchError(f"{where} both renames (or copies) and creates or deletes a file",
                         reason="malformed")
    if section.git and not section.names() and not (section.renames or section.copies):
        raise PatchError(f"{where} names no file git's way ('diff --git a/x b/x')",
                         reason="malformed")


def blob_name(data: bytes, algorithm: str = "sha1") -> str:
    """git's name of the blob holding ``data``."""
    return _blob(data, algorithm)


def _blob(data: bytes, algorithm: str) -> str:
    return hashlib.new(algorithm, b"blob %d\0" % len(data) + data).hexdigest()


def blob_algorithm(data: bytes | None, name: str | None) -> str | None:
    """The hash ("sha1" or "sha256") under which ``data`` is git's blob
    ``name`` (abbreviated as the ``index`` line writes it), or None when it
    is not that blob (a missing file is the all-zero name)."""
    if name is None or len(name) < 4:
        return None
    if data is None:
        return "sha1" if set(name) == {"0"} else None
    for algorithm in ("sha1", "sha256"):
        if _blob(data, algorithm).startswith(name):
            return algorithm
    return None


def blob_matches(data: bytes | None, name: str | None, algorithm: str) -> bool:
    """Whether ``data`` (None: no file) is git's blob ``name``."""
    if name is None:
        return True
    if data is None:
        return set(name) == {"0"}
    return _blob(data, algorithm).startswith(name)



def check_result_blob(section: FilePatch, before: bytes | None, after: bytes | None, shown: str) -> None:
    """When ``before`` (None: no file) is the blob the section's ``index``
    line names, ``after`` must be the other blob it names: a git patch cut
    between two hunks, or one that lost a hunk, is caught here (the hunks left
    would apply cleanly). PatchError names the file as ``shown``."""
    if not section.git or section.old_index is None or section.new_index is None:
        return
    if before is None:  # a new file: the old name is all zeros, whatever the hash
        algorithms = ["sha1", "sha256"] if set(section.old_index) == {"0"} else []
    else:
        found = blob_algorithm(before, section.old_index)
        algorithms = [found] if found else []
    if not algorithms:  # another version, a clean filter, CRLF in the tree: hunks decide
        return
    if not any(blob_matches(after, section.new_index, a) for a in algorithms):
        raise PatchError(f"the patch turns {shown!r} into a file that is not the one its "
                         f"index line names ({section.old_index}..{section.new_index}): a hunk is "
                         "missing (the patch was cut or edited) or it was made with options "
                         "that drop changes (-w); none of it is applied",
                         hunk=len(section.hunks) or None, reason="incomplete")


def mode_after(mode: int, git_mode: int | None) -> int:
    """Permission bits ``mode`` with the executable bits git's mode says
    (None: unchanged): 100755 gives run permission to whoever may read,
    100644 takes it away."""
    if git_mode is None:
        return mode
    if git_mode & 0o100:
        return mode | ((mode & 0o444) >> 2)
    return mode & ~0o111

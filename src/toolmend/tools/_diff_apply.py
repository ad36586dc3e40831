"""``@diff apply``: a unified patch applied strictly, all or nothing.

With ``file``, the patch's section for that file is applied to it. Without,
every file the patch names is patched (a ``git diff`` of several files, or the
patch of ``@diff dirs`` with ``unified: true``), relative to ``dir``; git's
``a/``/``b/`` prefixes are dropped (``strip`` says how many leading folders to
drop otherwise, as ``patch -p``). Every section is checked against its file
before anything is written; then each original is backed up, each file is
replaced atomically (or created, or deleted for ``+++ /dev/null``), and if a
write fails the files already written are put back.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field
from typing import Any

from .._text import UTF8_BOM, human_size, plural
from ..diff import FilePatch, apply_file_patch, parse_patch, reverse, select, split_keepends
from ..errors import PatchError, ToolError
from ._diff_io import FILE_LIMIT, PATCH_LIMIT, decode
from ._output import cap_text
from ._runner import ToolArgs, ToolResult
from ._safewrite import default_mode, write_atomic, write_backup
from ._workspace import Workspace

__all__ = ["diff_apply"]


@dataclass
class _Change:
    """One file's part of the patch, checked and ready to write."""

    shown: str                       # the path as the patch or the caller names it
    real: str                        # its real path
    section: FilePatch
    before: bytes | None = None      # None: the file does not exist
    after: bytes | None = None       # None: the file is deleted
    st: os.stat_result | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def created(self) -> bool:
        return self.before is None

    @property
    def deleted(self) -> bool:
        return self.after is None


def _patch_text(args: ToolArgs, ws: Workspace) -> str:
    value = args.raw.get("patch")
    cap = ws.cap(PATCH_LIMIT)
    if isinstance(value, (bytes, bytearray)):
        if cap is not None and len(value) > cap:
            raise ToolError(f"@diff apply: the patch is {human_size(len(value))}; the limit is "
                            f"{human_size(cap)}")
        return decode(bytes(value))[0]
    patch: str = args.text("patch", allow_empty=False)
    if cap is not None and len(patch) > cap:
        raise ToolError(f"@diff apply: the patch is {human_size(len(patch))}; the limit is "
                        f"{human_size(cap)}")
    return patch


def _strip(name: str, count: int) -> str:
    parts = name.replace("\\", "/").split("/")
    if count >= len(parts):
        raise ToolError(f"@diff apply: strip {count} removes all of {name!r}")
    return "/".join(parts[count:])


def _target(section: FilePatch, strip: int | None, base: str, ws: Workspace) -> str:
    """The path a section patches, from its ``---``/``+++`` names: the old
    file when it exists (a patch is made from it), else the new one."""
    old, new = section.old_name, section.new_name
    named = [n for n in (old, new) if n and n != "/dev/null"]
    if not named:
        raise ToolError("@diff apply: a section of the patch names no file (no '---'/'+++' "
                        "header); give 'file' to say which file it patches")
    if strip is None:
        strip = 1 if all(n.startswith(("a/", "b/")) for n in named) else 0
    paths = [_strip(n, strip) for n in named]
    if base not in ("", "."):
        paths = [os.path.join(base, p) for p in paths]
    if section.deletes or section.creates or len(paths) == 1:
        return paths[0]
    for path in paths:
        if os.path.lexists(ws.resolve(path, what="file")):
            return path
    return paths[-1]


def _read(change: _Change, ws: Workspace) -> None:
    try:
        change.st = os.stat(change.real)
    except FileNotFoundError:
        change.st = None
    except OSError as exc:
        raise ToolError(f"file {change.shown!r}: {exc.strerror}") from None
    if change.st is None:
        return
    if not stat.S_ISREG(change.st.st_mode):
        raise ToolError(f"file {change.shown!r} is not a regular file")
    data = ws.read_real_bytes(change.real, FILE_LIMIT, change.shown)
    if b"\0" in data:
        raise ToolError(f"file {change.shown!r} is binary; @diff apply patches text files")
    change.before = data


def _patched(original: str, section: FilePatch, bom: bool) -> str:
    try:
        return apply_file_patch(original, section)
    except PatchError:
        if not bom:
            raise
    # The file starts with a BOM the patch does not show: match without it.
    return "\ufeff" + apply_file_patch(original[1:], section)


def _check(change: _Change) -> None:
    """Apply the section in memory; PatchError when it does not match."""
    section = change.section
    if change.before is None:
        if section.deletes:
            raise PatchError(f"the patch deletes {change.shown!r}, which does not exist",
                             hunk=1, reason="mismatch")
        if not section.creates:
            raise ToolError(f"file {change.shown!r} does not exist, and the patch does not create "
                            "it (a patch that creates a file has one hunk '@@ -0,0 +1,N @@')")
    original = decode(change.before or b"")[0]
    new_text = _patched(original, section, (change.before or b"").startswith(UTF8_BOM))
    if section.deletes:
        if new_text:
            raise PatchError(f"the patch deletes {change.shown!r} ('+++ /dev/null') but leaves "
                             f"{len(split_keepends(new_text))} of its lines: it was made against "
                             "another version of the file", hunk=len(section.hunks),
                             reason="mismatch")
        change.after = None
        return
    change.after = new_text.encode("utf-8", "surrogateescape")
    if change.before and section.creates and section.old_name != "/dev/null":
        change.notes.append(f"note: {change.shown}: the patch's only hunk is '@@ -0,0 ...': it "
                            "inserts its lines at the top of the existing file")
    if change.st is not None and not change.st.st_mode & stat.S_IWUSR:
        change.notes.append(f"warning: {change.shown} is read-only (mode "
                            f"{stat.S_IMODE(change.st.st_mode):o}); the patched file keeps that mode")


def _refused(change: _Change | None, exc: PatchError, names: list[str]) -> ToolResult:
    where = f"{change.shown}: " if change is not None else ""
    tail = f" (nothing was written to any of the {len(names)} files)" if len(names) > 1 else ""
    data: dict[str, Any] = {"file": change.shown if change else None, "hunk": exc.hunk,
                            "line": exc.line, "expected": exc.expected, "actual": exc.actual,
                            "reason": exc.reason}
    if len(names) > 1:
        data["files"] = names
    return ToolResult(False, f"error: {where}{exc}{tail}", data)


def _counts(section: FilePatch) -> str:
    added = sum(h.added for h in section.hunks)
    removed = sum(h.removed for h in section.hunks)
    n = len(section.hunks)
    return f"{plural(n, 'hunk')}, +{added} -{removed} lines"


def _lines(data: bytes | None) -> int:
    return len(split_keepends(decode(data or b"")[0]))


def _n_lines(data: bytes | None) -> str:
    return plural(_lines(data), "line")


def _what(change: _Change) -> str:
    """What the change does, in the words of a report: ``creates x (2 lines)``."""
    if change.created:
        return f"creates {change.shown} ({_n_lines(change.after)})"
    if change.deleted:
        return f"deletes {change.shown} ({_n_lines(change.before)})"
    return (f"applies to {change.shown}: {_counts(change.section)} ({_lines(change.before)} -> "
            f"{_lines(change.after)} lines)")


def _done(change: _Change, backup: str | None) -> str:
    """What the change did: ``patched x: ...; the original is in x.bak``."""
    kept = f"; the original is in {backup}" if backup else (
        "" if change.created else "; no backup kept")
    if change.created:
        return f"created {change.shown} ({_n_lines(change.after)})"
    if change.deleted:
        return f"deleted {change.shown} ({_n_lines(change.before)}){kept}"
    return (f"patched {change.shown}: {_counts(change.section)} ({_lines(change.before)} -> "
            f"{_lines(change.after)} lines){kept}")


def _write(changes: list[_Change], ws: Workspace, backup: bool) -> dict[str, str | None]:
    """Write every change; on a failure put back what was written. Returns
    the backups made (path -> backup path relative to the workspace)."""
    done: list[_Change] = []
    backups: dict[str, str | None] = {}
    try:
        for change in changes:
            if change.before is not None and backup:
                assert change.st is not None
                backups[change.shown] = ws.relative(
                    write_backup(change.real, change.before, change.st.st_mode))
            else:
                backups[change.shown] = None
            if change.st is not None:
                # Another writer between our read and now: leave everything as it was.
                now = os.stat(change.real)
                if (now.st_ino, now.st_size, now.st_mtime_ns) != (
                        change.st.st_ino, change.st.st_size, change.st.st_mtime_ns):
                    raise ToolError(f"file {change.shown!r} changed while the patch was being "
                                    "applied; nothing was written: run the apply again")
            elif os.path.lexists(change.real):
                raise ToolError(f"file {change.shown!r} appeared while the patch was being "
                                "applied; nothing was written: run the apply again")
            if change.after is None:
                os.remove(change.real)
            elif change.st is None:
                os.makedirs(os.path.dirname(change.real) or ".", exist_ok=True)
                write_atomic(change.real, change.after, default_mode())
            else:
                write_atomic(change.real, change.after, change.st.st_mode,
                             (change.st.st_uid, change.st.st_gid))
            done.append(change)
    except (OSError, ToolError) as exc:
        _undo(done)
        if isinstance(exc, ToolError):
            raise
        raise ToolError(f"file {change.shown!r} could not be written ({exc.strerror or exc}); "
                        f"every file is as it was") from None
    return backups


def _undo(done: list[_Change]) -> None:
    for change in reversed(done):
        try:
            if change.before is None:
                os.remove(change.real)
            else:
                assert change.st is not None
                write_atomic(change.real, change.before, change.st.st_mode)
        except OSError:  # pragma: no cover - the backup still holds it
            pass


def diff_apply(args: ToolArgs, ws: Workspace) -> ToolResult:
    """Apply a unified patch strictly; a dry run unless told."""
    args.check_known({"file", "patch", "dry_run", "backup", "reverse", "dir", "strip"})
    patch = _patch_text(args, ws)
    dry_run = args.flag("dry_run", True)
    backup = args.flag("backup", True)
    backwards = args.flag("reverse", False)
    strip = args.integer("strip", 0, minimum=0, maximum=64) if args.has("strip") else None
    try:
        sections = parse_patch(patch)
        if args.has("file"):
            path = args.text("file", allow_empty=False)
            pairs = [(path, select(sections, path))]
        else:
            base = args.text("dir", ".")
            pairs = [(_target(s, strip, base, ws), s) for s in sections]
    except PatchError as exc:
        return _refused(None, exc, [])
    changes = []
    for shown, section in pairs:
        if backwards:
            section = reverse(section)
        changes.append(_Change(shown.replace(os.sep, "/"), ws.resolve(shown, what="file"),
                               section))
    names = [c.shown for c in changes]
    if len(set(c.real for c in changes)) != len(changes):
        raise ToolError("@diff apply: the patch has more than one section for the same file; "
                        "send one section per file")
    for change in changes:
        _read(change, ws)
    for change in changes:
        try:
            _check(change)
        except PatchError as exc:
            return _refused(change, exc, names)
    return _report(changes, ws, dry_run, backup)


def _report(changes: list[_Change], ws: Workspace, dry_run: bool, backup: bool) -> ToolResult:
    notes = [n for c in changes for n in c.notes]
    real = [c for c in changes if c.after != c.before]
    info: dict[str, Any] = {"dry_run": dry_run, "written": False}
    if len(changes) == 1:  # the one-file shape of the result, kept flat
        c = changes[0]
        info.update({
            "file": c.shown, "created": c.created, "deleted": c.deleted, "backup": None,
            "hunks": len(c.section.hunks),
            "added": sum(h.added for h in c.section.hunks),
            "removed": sum(h.removed for h in c.section.hunks),
            "lines_before": _lines(c.before), "lines_after": _lines(c.after),
            "changed": c.after != c.before,
        })
    info["files"] = [{"file": c.shown, "created": c.created, "deleted": c.deleted,
                      "hunks": len(c.section.hunks), "changed": c.after != c.before,
                      "backup": None} for c in changes]
    if not real:
        what = (f"{changes[0].shown} but changes nothing ({_counts(changes[0].section)})"
                if len(changes) == 1 else f"{len(changes)} files but changes nothing")
        return ToolResult(True, f"the patch applies to {what}; nothing written", info,
                          warnings=tuple(notes))
    if dry_run:
        keep = "" if not backup or all(c.created for c in real) else (
            ", keeping a copy of the original in a .bak file" if len(real) == 1
            else ", keeping a copy of each original in a .bak file")
        if len(real) == 1:
            head = f"dry run: the patch {_what(real[0])}"
            lines = []
        else:
            head = f"dry run: the patch applies to {len(real)} files"
            lines = [f"  {_what(c)}" for c in real]
        head += f"; nothing written (\"dry_run\": false writes it{keep})"
        return _result(head, lines, changes, info, notes)
    backups = _write(real, ws, backup)
    info["written"] = True
    for entry in info["files"]:
        entry["backup"] = backups.get(entry["file"])
    if len(changes) == 1:
        info["backup"] = backups.get(changes[0].shown)
    if len(real) == 1:
        head, lines = _done(real[0], backups.get(real[0].shown)), []
    else:
        head = f"patched {len(real)} files"
        lines = [f"  {_done(c, backups.get(c.shown))}" for c in real]
    return _result(head, lines, changes, info, notes)


def _result(head: str, lines: list[str], changes: list[_Change], info: dict[str, Any],
            notes: list[str]) -> ToolResult:
    detail: list[str] = []
    for c in changes:
        prefix = f"{c.shown}: " if len(changes) > 1 else ""
        detail.extend(f"  {prefix}hunk {h.number} {h.header}: -{h.removed} +{h.added}"
                      + (f" at line {h.old_start}" if h.old_count else f" after line {h.old_start}")
                      for h in c.section.hunks)
    text, _ = cap_text("\n".join([head, *lines, *detail]), 30_000,
                       "[the report was cut: it lists every hunk]")
    return ToolResult(True, text, info, warnings=tuple(notes))

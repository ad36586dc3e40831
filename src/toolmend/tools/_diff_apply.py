"""``@diff apply``: a unified patch applied strictly, all or nothing.

With ``file``, the patch's section for that file is applied to it. Without,
every file the patch names is patched (a ``git diff`` of several files, or the
patch of ``@diff dirs`` with ``unified: true``), relative to ``dir``; git's
``a/``/``b/`` prefixes are dropped (``strip`` says how many leading folders to
drop otherwise, as ``patch -p``). Every section is checked against its file
before anything is written; then each original is backed up, each file is
replaced atomically (or created, or deleted for ``+++ /dev/null``), and if a
write fails the files already written are put back.

git's extended headers are applied as ``git apply`` applies them: ``rename
from``/``rename to`` writes the new file (its hunks applied to the old one's
content, its mode kept) and removes the old one; ``copy from``/``copy to``
writes the copy; ``new file mode``/``deleted file mode`` create and delete
(an empty file too, with no hunk); ``old mode``/``new mode`` set or clear the
executable bits. A ``diff -N`` section whose new side is dated the Epoch and
left empty deletes its file (as ``patch -E``). What the patch holds is done
whole or not at all: a header it cannot carry out is refused by the parser,
naming it, before anything is read.
"""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass, field, replace
from typing import Any

from .._text import human_size, plural
from ..diff import (
    FilePatch,
    check_result_blob,
    decode,
    mode_after,
    name_parts,
    parse_patch,
    patch_bytes,
    readable,
    reverse,
    select,
)
from ..errors import PatchError, ToolError
from ._diff_io import FILE_LIMIT, PATCH_LIMIT
from ._output import cap_text
from ._runner import ToolArgs, ToolResult
from ._safewrite import default_mode, same_bytes, write_atomic, write_backup
from ._workspace import Workspace

__all__ = ["diff_apply"]


@dataclass
class _Slot:
    """One path the patch reads or writes: what it holds now and after."""

    shown: str                       # the path as the patch or the caller names it
    real: str                        # its real path
    st: os.stat_result | None = None     # None: the file does not exist
    before: bytes | None = None
    after: bytes | None = None       # None: absent after the patch
    mode: int | None = None          # permission bits after
    writer: _Change | None = None    # the section that writes it
    remover: _Change | None = None   # the section that removes it (a deletion, a rename)
    made: list[str] = field(default_factory=list)  # the folders its creation made (to undo)
    was_folder: bool = False         # a folder the patch empties, which it then writes as a file

    @property
    def exists(self) -> bool:
        return self.st is not None

    @property
    def touched(self) -> bool:
        return self.writer is not None or self.remover is not None

    @property
    def changes(self) -> bool:
        if not self.touched:
            return False
        if (self.after is None) != (self.st is None):
            return True  # created or removed
        if self.after is None or self.st is None:
            return False
        return self.after != self.before or (
            self.mode is not None and stat.S_IMODE(self.st.st_mode) != stat.S_IMODE(self.mode))


@dataclass
class _Change:
    """One section of the patch, checked and ready to write."""

    kind: str                        # "modify", "create", "delete", "rename", "copy"
    section: FilePatch
    dest: _Slot                      # the file written (or deleted)
    source: _Slot | None = None      # the file read, for a rename or a copy
    before: bytes | None = None      # the content the hunks apply to (None: no file)
    after: bytes | None = None       # None: the file is deleted
    lines_before: int = 0            # the line counts of before and after, counted once
    lines_after: int = 0
    mode_note: str = ""
    notes: list[str] = field(default_factory=list)

    @property
    def shown(self) -> str:
        return self.dest.shown

    @property
    def created(self) -> bool:
        return self.kind in ("create", "rename", "copy")

    @property
    def deleted(self) -> bool:
        return self.kind == "delete"

    @property
    def changed(self) -> bool:
        return self.dest.changes or (self.source is not None and self.source.changes)


def _patch_text(args: ToolArgs, ws: Workspace) -> str:
    value = args.raw.get("patch")
    cap = ws.cap(PATCH_LIMIT)
    if isinstance(value, (bytes, bytearray)):
        if cap is not None and len(value) > cap:
            raise ToolError(f"@diff apply: the patch is {human_size(len(value))}; the limit is "
                            f"{human_size(cap)}")
        return decode(bytes(value))[0]
    patch: str = args.text("patch")
    if cap is not None and len(patch) > cap:
        raise ToolError(f"@diff apply: the patch is {human_size(len(patch))}; the limit is "
                        f"{human_size(cap)}")
    return patch


def _check_whole(value: object) -> None:
    """Refuse patch bytes (a file, standard input) whose last line has no newline: diff and
    git end every line, so the patch was cut, maybe inside that line (git apply refuses it)."""
    if isinstance(value, (bytes, bytearray)) and value and not value.endswith(b"\n"):
        last = readable(decode(bytes(value).rsplit(b"\n", 1)[-1])[0])
        if not last.startswith("\\"):  # (a cut "\ No newline" marker says nothing of the file)
            raise PatchError(f"the patch ends inside a line ({last[-60:]!r} has no newline): it was "
                             "cut, maybe inside that line, so none of it is applied (git apply "
                             "refuses it too); get the whole patch", reason="incomplete")


def _strip(name: str, count: int) -> str:
    """The file a patch's ``name`` names, ``count`` leading parts dropped (``patch -p``). A name
    that leads out of the folder the patch is applied in (an absolute one, or one through
    ``..``) or into a ``.git`` folder is refused, unconfined too: the names are the patch's
    author's, not the person's who runs it (git apply refuses them alike)."""
    parts = name_parts(name)
    if count >= len(parts):
        raise ToolError(f"@diff apply: strip {count} removes all of {name!r}")
    kept = parts[count:]
    if not kept[0] or ".." in kept or re.fullmatch(r"[A-Za-z]:", kept[0]):  # (/x, ../x, C:/x)
        raise ToolError(f"@diff apply: the patch names {name!r}, which leads out of the folder it is "
                        "applied in (an absolute name, or one through '..'): refused, as GNU patch and "
                        "git apply refuse it; apply it in the folder it was made for ('dir')")
    # (git's test: NTFS reads ".git." and "git~1" as .git, macOS and Windows any case)
    if any(part.lower().rstrip(". ") in (".git", "git~1") for part in kept):
        raise ToolError(f"@diff apply: the patch names {name!r}, in a '.git' folder: a patch changes "
                        "the files of a tree, not the repository's own (its hooks and config run "
                        "commands); refused, as git apply refuses it")
    return "/".join(kept)


def _paths(section: FilePatch, strip: int | None, base: str,
           ws: Workspace) -> tuple[str, str | None, str]:
    """(kind, source, destination) of a section, from its names: ``rename
    from``/``copy from`` (git writes them without ``a/``), else the
    ``---``/``+++`` names (``diff --git`` when there are none): the one that
    exists (both: the one GNU patch takes), else the new one."""
    old, new = section.old_name, section.new_name
    named = [n for n in (old, new) if n and n != "/dev/null"]
    if strip is None:
        strip = 1 if (named and all(n.startswith(("a/", "b/")) for n in named)) or (
            section.git and not named) else 0

    def place(name: str, count: int) -> str:
        path = _strip(name, count)
        return os.path.join(base, path) if base not in ("", ".") else path

    if section.renames or section.copies:
        src = section.rename_from or section.copy_from
        dst = section.rename_to or section.copy_to
        assert src is not None and dst is not None
        return ("rename" if section.renames else "copy", place(src, max(strip - 1, 0)),
                place(dst, max(strip - 1, 0)))
    if not named:
        raise ToolError("@diff apply: a section of the patch names no file (no '---'/'+++' "
                        "header); give 'file' to say which file it patches")
    paths = [place(n, strip) for n in named]
    if section.deletes:
        return "delete", None, paths[0]
    if section.new_file:
        return "create", None, paths[-1]
    if len(paths) == 1 or paths[0] == paths[1]:
        return "modify", None, paths[0]
    existing = [path for path in paths if os.path.lexists(ws.resolve(path, what="file"))]
    if not existing:
        return "modify", None, paths[-1]
    # (both there, "diff -u main.c.orig main.c": the one GNU patch takes, the fewest parts, then
    # the shortest base name, then the shortest name; the old one when they tie)
    return "modify", None, min(existing, key=lambda p: (p.count("/"), len(os.path.basename(p)), len(p)))


def _read(slot: _Slot, ws: Workspace, removed: set[str]) -> None:
    """What the slot's file holds. A file that stands where the path needs a folder, or a
    folder where it names a file, counts as absent when the patch removes it whole (its files
    deleted or renamed: a file turned folder, a folder turned file, as git applies them)."""
    try:
        slot.st = os.stat(slot.real)
    except FileNotFoundError:
        slot.st = None
    except NotADirectoryError:
        above = os.path.dirname(slot.real)
        while not os.path.lexists(above):
            above = os.path.dirname(above)
        if above not in removed:
            raise ToolError(f"file {slot.shown!r}: {ws.relative(above)!r} is a file, not a folder "
                            "(and the patch does not delete it)") from None
        slot.st = None
    except OSError as exc:
        raise ToolError(f"file {slot.shown!r}: {exc.strerror}") from None
    if slot.st is None:
        return
    if stat.S_ISDIR(slot.st.st_mode) and _emptied(slot.real, removed):
        slot.st, slot.was_folder = None, True
        return
    if not stat.S_ISREG(slot.st.st_mode):
        raise ToolError(f"file {slot.shown!r} is not a regular file")
    slot.before = ws.read_real_bytes(slot.real, FILE_LIMIT, slot.shown)


def _emptied(folder: str, removed: set[str]) -> bool:
    """Whether the patch removes every file in ``folder`` (and so the folder, left empty)."""
    holding = set()  # the folders a removed file stands in
    for path in removed:
        d = os.path.dirname(path)
        while d.startswith(folder) and d not in holding:
            holding.add(d)
            d = os.path.dirname(d)
    for d, dirs, files in os.walk(folder):
        if d not in holding or any(os.path.join(d, f) not in removed for f in files):
            return False
        if any(os.path.islink(os.path.join(d, x)) for x in dirs):
            return False  # (a link to a folder: not walked, not removed)
    return True


def _check(change: _Change) -> None:
    """Apply the section in memory; PatchError when it does not match."""
    section = change.section
    data = change.before
    shown = change.source.shown if change.source is not None else change.shown
    if data is None:
        if change.kind in ("rename", "copy"):
            hint = (f"; {change.shown!r} exists: was the patch applied already?"
                    if change.dest.exists else "")
            raise ToolError(f"file {shown!r} does not exist: the patch "
                            f"{'renames' if change.kind == 'rename' else 'copies'} it to "
                            f"{change.shown!r}{hint}")
        if change.kind == "delete":
            raise PatchError(f"the patch deletes {change.shown!r}, which does not exist",
                             hunk=1, reason="mismatch")
        if change.kind == "modify" and not section.creates:
            raise ToolError(f"file {change.shown!r} does not exist, and the patch does not create "
                            "it (a patch that creates a file has one hunk '@@ -0,0 +1,N @@')")
    if section.hunks and data is not None and b"\0" in data:
        raise ToolError(f"file {shown!r} is binary; @diff apply patches text files")
    patched = patch_bytes(data, section)
    new_bytes = patched.data
    change.lines_before = patched.lines_before
    change.lines_after = 0 if change.kind == "delete" else patched.lines_after
    check_result_blob(change.section, data, None if change.kind == "delete" else new_bytes, change.shown)
    if change.kind == "delete":
        if new_bytes:
            raise PatchError(f"the patch deletes {change.shown!r} ("
                             + ("'deleted file mode'" if section.git and not section.hunks else
                                "'+++ /dev/null'" if section.new_name == "/dev/null" else
                                "its new side is dated the Epoch, as diff -N writes a missing "
                                "file") + f") but leaves {patched.lines_after} of its lines: it was "
                             "made against another version of the file",
                             hunk=len(section.hunks) or None, reason="mismatch")
        change.after = None
        return
    change.after = new_bytes
    if change.kind == "modify" and data and section.creates and section.old_name != "/dev/null":
        change.notes.append(f"note: {change.shown}: the patch's only hunk is '@@ -0,0 ...': it "
                            "inserts its lines at the top of the existing file")
    src = change.source if change.source is not None else change.dest
    if src.st is not None and section.old_mode is not None and bool(
            src.st.st_mode & stat.S_IXUSR) != bool(section.old_mode & 0o100):
        change.notes.append(f"warning: {src.shown} has mode {stat.S_IMODE(src.st.st_mode):o}, "
                            f"the patch expects {section.old_mode:o}")
    if change.kind == "modify" and change.dest.st is not None and not (
            change.dest.st.st_mode & stat.S_IWUSR):
        change.notes.append(f"warning: {change.shown} is read-only (mode "
                            f"{stat.S_IMODE(change.dest.st.st_mode):o}); the patched file keeps "
                            "that mode")


def _plan(changes: list[_Change]) -> None:
    """Give every slot its content and mode after the patch; refuse a patch
    whose sections contradict each other or the tree."""
    for change in changes:
        dest, source = change.dest, change.source
        if change.kind == "delete" or change.kind == "rename":
            removed = source if change.kind == "rename" else dest
            assert removed is not None
            if removed.remover is not None:
                raise ToolError(f"@diff apply: the patch removes {removed.shown!r} twice (two "
                                "sections delete or rename it)")
            if change.kind == "delete" and removed.writer is not None:
                raise ToolError(f"@diff apply: the patch writes {removed.shown!r} and then "
                                "deletes it: it is inconsistent")
            removed.remover = change
        if change.kind != "delete":
            if dest.writer is not None:
                raise ToolError(f"@diff apply: the patch has more than one section that writes "
                                f"{dest.shown!r}; send one section per file")
            dest.writer = change
    for change in changes:
        dest, source = change.dest, change.source
        if change.kind == "modify" and dest.remover is not None:
            raise ToolError(f"@diff apply: the patch both patches {dest.shown!r} and "
                            "removes it (a deletion or a rename): it is inconsistent")
        if change.kind in ("create", "rename", "copy") and dest.exists and dest.remover is None:
            raise ToolError(f"file {dest.shown!r} already exists, and the patch "
                            + ("creates it" if change.kind == "create" else
                               f"{'renames' if change.kind == 'rename' else 'copies'} "
                               f"{source.shown if source else ''!r} to it")
                            + ": nothing was written (move it away, or patch it with a section "
                              "that modifies it)")
        if change.kind == "delete":
            continue
        if change.kind == "modify":
            assert dest.st is not None or change.before is None
            base = stat.S_IMODE(dest.st.st_mode) if dest.st is not None else default_mode()
        elif change.kind == "create":
            base = default_mode()
        else:
            assert source is not None and source.st is not None
            base = stat.S_IMODE(source.st.st_mode)
        dest.after = change.after
        dest.mode = mode_after(base, change.section.new_mode)
        if dest.mode != base:
            change.mode_note = f"mode {base:o} -> {dest.mode:o}"
    for change in changes:  # a removed file that nothing writes again is absent after
        for slot in (change.dest, change.source):
            if slot is not None and slot.remover is not None and slot.writer is None:
                slot.after = None
                slot.mode = None


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


def _mode_tail(change: _Change) -> str:
    return f", {change.mode_note}" if change.mode_note else ""


def _what(change: _Change) -> str:
    """What the change does, in the words of a report: ``creates x (2 lines)``."""
    tail = _mode_tail(change)
    if change.kind in ("rename", "copy"):
        assert change.source is not None
        edits = f" with {_counts(change.section)}" if change.section.hunks else ""
        verb = "renames" if change.kind == "rename" else "copies"
        return f"{verb} {change.source.shown} to {change.shown}{edits}{tail}"
    if change.created:
        return f"creates {change.shown} ({plural(change.lines_after, 'line')}{tail})"
    if change.deleted:
        return f"deletes {change.shown} ({plural(change.lines_before, 'line')})"
    if not change.section.hunks:
        return f"changes the mode of {change.shown} ({change.mode_note or 'unchanged'})"
    return (f"applies to {change.shown}: {_counts(change.section)} ({change.lines_before} -> "
            f"{change.lines_after} lines{tail})")


def _done(change: _Change, backups: dict[str, str | None]) -> str:
    """What the change did: ``patched x: ...; the original is in x.bak``."""
    tail = _mode_tail(change)
    if change.kind in ("rename", "copy"):
        assert change.source is not None
        edits = f" with {_counts(change.section)}" if change.section.hunks else ""
        if change.kind == "copy":
            return f"copied {change.source.shown} to {change.shown}{edits}{tail}"
        backup = backups.get(change.source.shown)
        kept = f"; the original is in {backup}" if backup else "; no backup kept"
        return f"renamed {change.source.shown} to {change.shown}{edits}{tail}{kept}"
    backup = backups.get(change.shown)
    kept = f"; the original is in {backup}" if backup else (
        "" if change.created else "; no backup kept")
    if change.created:
        return f"created {change.shown} ({plural(change.lines_after, 'line')}{tail})"
    if change.deleted:
        return f"deleted {change.shown} ({plural(change.lines_before, 'line')}){kept}"
    if not change.section.hunks:  # the content is as it was: no backup to speak of
        return f"changed the mode of {change.shown} ({change.mode_note or 'unchanged'})"
    return (f"patched {change.shown}: {_counts(change.section)} ({change.lines_before} -> "
            f"{change.lines_after} lines{tail}){kept}")


def _no_link_on_the_way(path: str, ws: Workspace) -> None:
    """Refuse a file the patch names that is a symlink, or that it reaches through a
    symlinked folder (from the workspace down), as git does: a patch changes the files it
    names, never what a link leads to (a deletion would remove the folders it emptied there)."""
    joined = os.path.normpath(os.path.join(ws.root, path))
    root = ws.root.rstrip(os.sep) + os.sep
    # (a path outside the workspace, which only an unconfined apply takes: the file itself)
    at = len(root) if joined.startswith(root) else len(os.path.dirname(joined)) + 1
    while at <= len(joined):
        nxt = joined.find(os.sep, at)
        part = joined if nxt < 0 else joined[:nxt]
        if os.path.islink(part):
            shown = ws.relative(part) if joined.startswith(root) else part
            if part == joined:
                raise ToolError(f"file {path!r} is a symlink (to {os.readlink(part)!r}): a patch "
                                "changes the files it names, not what a link leads to; patch the "
                                "file it leads to by its own name")
            raise ToolError(f"file {path!r} is reached through the symlink {shown!r}: a patch "
                            "changes the files it names, not what a link leads to; name the "
                            "file by its own path")
        if nxt < 0:
            break
        at = nxt + 1


def _remove_empty_parents(real: str, stop: str) -> None:
    """Remove the folders a deletion left empty, up to ``stop`` (as git does)."""
    folder = os.path.dirname(real)
    stop = stop.rstrip(os.sep)
    while folder.startswith(stop + os.sep) and folder != stop:
        try:
            os.rmdir(folder)
        except OSError:
            return
        folder = os.path.dirname(folder)


def _write(slots: list[_Slot], ws: Workspace, backup: bool, stop: str) -> dict[str, str | None]:
    """Write every slot that changes; on a failure put back what was written.
    Returns the backups made (path -> backup path relative to the workspace)."""
    done: list[_Slot] = []
    backups: dict[str, str | None] = {}
    # removals first: a file a folder replaces, or the files of a folder a file replaces, go
    # before what takes their place
    slots = sorted(slots, key=lambda s: s.after is not None)
    made: dict[str, str] = {}  # the backups written by this apply (path -> real path)
    slot = slots[0] if slots else None
    try:
        for slot in slots:
            if slot.before is not None and backup and slot.after != slot.before:
                assert slot.st is not None
                name, written = write_backup(slot.real, slot.before, slot.st.st_mode)
                backups[slot.shown] = ws.relative(name)
                if written:  # (a backup that held these bytes already is not ours to remove)
                    made[slot.shown] = name
            else:
                backups[slot.shown] = None
            if slot.st is not None:
                # Another writer between our read and now: leave everything as it was.
                now = os.stat(slot.real)
                if (now.st_ino, now.st_size, now.st_mtime_ns) != (
                        slot.st.st_ino, slot.st.st_size, slot.st.st_mtime_ns):
                    raise ToolError(f"file {slot.shown!r} changed while the patch was being "
                                    "applied; nothing was written: run the apply again")
            elif os.path.lexists(slot.real):
                raise ToolError(f"file {slot.shown!r} appeared while the patch was being "
                                "applied; nothing was written: run the apply again")
            if slot.after is None:
                os.remove(slot.real)
                done.append(slot)
                _remove_empty_parents(slot.real, stop)
                continue
            assert slot.mode is not None
            if slot.st is None:
                folder = os.path.dirname(slot.real) or "."
                while not os.path.lexists(folder):
                    slot.made.append(folder)
                    folder = os.path.dirname(folder)
                os.makedirs(os.path.dirname(slot.real) or ".", exist_ok=True)
                write_atomic(slot.real, slot.after, slot.mode)
            elif slot.after == slot.before:
                os.chmod(slot.real, slot.mode)
            else:
                write_atomic(slot.real, slot.after, slot.mode, (slot.st.st_uid, slot.st.st_gid))
            done.append(slot)
    except (OSError, ToolError) as exc:
        if slot is not None and slot not in done:
            for folder in slot.made:  # (the folders made for a file never written, deepest first)
                try:
                    os.rmdir(folder)
                except OSError:  # pragma: no cover - not empty: another's, or a race's
                    break
        stuck = _undo(done)
        befores = {s.shown: (s.real, s.before) for s in slots}
        for shown, real in made.items():  # a copy goes only where the file holds it again
            path, before = befores[shown]
            try:
                if before is not None and same_bytes(path, before):
                    os.remove(real)
            except OSError:  # pragma: no cover - the copy stays: never a lost file
                pass
        as_it_was = "every file is as it was" if not stuck else (
            "files written were put back except " + ", ".join(
                f"{n!r} (its original is in {backups.get(n) or 'no backup'})" for n in sorted(stuck)))
        if isinstance(exc, ToolError):
            if stuck:
                raise ToolError(f"{exc}; {as_it_was}") from None
            raise
        shown = slot.shown if slot is not None else "?"
        raise ToolError(f"file {shown!r} could not be written ({exc.strerror or exc}); "
                        f"{as_it_was}") from None
    return backups


def _undo(done: list[_Slot]) -> set[str]:
    """Put back what was written (its owner too); the files that could not be."""
    stuck: set[str] = set()
    for slot in reversed(done):
        try:
            if slot.before is None:
                os.remove(slot.real)
                for folder in slot.made:  # (deepest first: a file it replaced may come back)
                    os.rmdir(folder)
            else:
                assert slot.st is not None
                os.makedirs(os.path.dirname(slot.real) or ".", exist_ok=True)
                write_atomic(slot.real, slot.before, slot.st.st_mode, (slot.st.st_uid, slot.st.st_gid))
        except OSError:  # pragma: no cover - the backup still holds it
            stuck.add(slot.shown)
    return stuck


def diff_apply(args: ToolArgs, ws: Workspace) -> ToolResult:
    """Apply a unified patch strictly; a dry run unless told."""
    patch = _patch_text(args, ws)
    dry_run = args.flag("dry_run")
    backup = args.flag("backup")
    backwards = args.flag("reverse")
    strip = args.integer("strip") if args.has("strip") else None
    base = args.text("dir")
    try:
        _check_whole(args.raw.get("patch"))
        sections = parse_patch(patch)
        if backwards:
            sections = [reverse(s) for s in sections]
        if args.has("file"):
            path = args.text("file")
            section = select(sections, path)
            if section.renames or section.copies:
                raise ToolError(f"@diff apply: the patch {'renames' if section.renames else 'copies'}"
                                f" {section.rename_from or section.copy_from!r} to "
                                f"{section.rename_to or section.copy_to!r}; patching 'file' in "
                                "place would not do that: apply it without 'file' (with 'dir')")
            kind = ("delete" if section.deletes else "create" if section.new_file else "modify")
            plans: list[tuple[str, str | None, str, FilePatch]] = [(kind, None, path, section)]
        else:
            plans = [(*_paths(s, strip, base, ws), s) for s in sections]
    except PatchError as exc:
        return _refused(None, exc, [])
    slots: dict[str, _Slot] = {}
    # the files the patch deletes or renames away (a folder they empty may become a file)
    removed = {ws.resolve(dst if kind == "delete" else src or dst, what="file")
               for kind, src, dst, _ in plans if kind in ("delete", "rename")}

    def slot_of(path: str) -> _Slot:
        real = ws.resolve(path, what="file")
        _no_link_on_the_way(path, ws)
        if real not in slots:
            slots[real] = _Slot(path.replace(os.sep, "/"), real)
            _read(slots[real], ws, removed)
        return slots[real]

    changes = []
    for kind, src, dst, section in plans:
        source = slot_of(src) if src is not None else None
        dest = slot_of(dst)
        if source is not None and source is dest:
            raise ToolError(f"@diff apply: the patch {kind}s {dest.shown!r} onto itself")
        # a creation starts from no file (a file there is refused, unless the patch removes it)
        before = source.before if source is not None else None if kind == "create" else dest.before
        changes.append(_Change(kind, section, dest, source, before))
    names = [c.shown for c in changes]
    for change in changes:
        try:
            _check(change)
        except PatchError as exc:
            return _refused(change, exc, names)
    _plan(changes)
    turned = next((s.shown for s in slots.values() if s.was_folder), None)
    if turned is not None and backup:
        raise ToolError(f"@diff apply: the patch turns the folder {turned!r} into a file, and the "
                        "backups of the files it deletes there would keep the folder: keep a copy, "
                        "then apply it without backups (backup: false, --no-backup)")
    stop = ws.resolve(base, what="folder") if base not in ("", ".") else ws.root
    result = _report(changes, list(slots.values()), ws, dry_run, backup, stop)
    others = [s.names()[0] if s.names() else "(unnamed)" for s in sections if s is not changes[0].section] \
        if args.has("file") else []
    if others and result.ok:  # (the agent sent a patch of several files for one: say what was left)
        result = replace(result, output=result.output.rstrip("\n") + f"\nnote: the patch also holds "
                         f"{len(others)} section{'s' if len(others) > 1 else ''} for other files "
                         f"({', '.join(map(repr, others[:5]))}), not applied: 'file' names one; apply it "
                         "without 'file' to patch every file it names\n")
    return result


def _report(changes: list[_Change], slots: list[_Slot], ws: Workspace, dry_run: bool,
            backup: bool, stop: str) -> ToolResult:
    notes = [n for c in changes for n in c.notes]
    real = [c for c in changes if c.changed]
    info: dict[str, Any] = {"dry_run": dry_run, "written": False}

    def entry(c: _Change) -> dict[str, Any]:
        item: dict[str, Any] = {"file": c.shown, "created": c.created, "deleted": c.deleted,
                                "hunks": len(c.section.hunks), "changed": c.changed,
                                "backup": None}
        if c.source is not None:
            item["renamed_from" if c.kind == "rename" else "copied_from"] = c.source.shown
        if c.dest.mode is not None and c.mode_note:
            item["mode"] = f"{c.dest.mode:o}"
        return item

    if len(changes) == 1:  # the one-file shape of the result, kept flat
        c = changes[0]
        info.update(entry(c))
        info.update({
            "added": sum(h.added for h in c.section.hunks),
            "removed": sum(h.removed for h in c.section.hunks),
            "lines_before": c.lines_before, "lines_after": c.lines_after,
        })
    info["files"] = [entry(c) for c in changes]
    if not real:
        what = (f"{changes[0].shown} but changes nothing ({_counts(changes[0].section)})"
                if len(changes) == 1 else f"{len(changes)} files but changes nothing")
        return ToolResult(True, f"the patch applies to {what}; nothing written", info,
                          warnings=tuple(notes))
    if dry_run:
        keep = "" if not backup or all(c.kind in ("create", "copy") for c in real) else (
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
    backups = _write([s for s in slots if s.changes], ws, backup, stop)
    info["written"] = True

    def backup_of(c: _Change) -> str | None:
        if c.kind == "rename" and c.source is not None:
            return backups.get(c.source.shown)
        return backups.get(c.shown) if c.kind in ("modify", "delete") else None

    for item, c in zip(info["files"], changes, strict=True):
        item["backup"] = backup_of(c)
    if len(changes) == 1:
        info["backup"] = backup_of(changes[0])
    if len(real) == 1:
        head, lines = _done(real[0], backups), []
    else:
        head = f"patched {len(real)} files"
        lines = [f"  {_done(c, backups)}" for c in real]
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

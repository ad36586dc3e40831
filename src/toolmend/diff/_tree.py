"""Which files were added, removed or changed between two folders.

Names only, walked without recursion in sorted order, with a budget on the
number of entries looked at (the walk says where it stopped). ``.git``,
``node_modules``, ``vendor`` and ``__pycache__`` are skipped, and listed so,
unless a glob names them; symlinks are followed only while they stay inside
the workspace, the ones that lead out are listed as skipped, and so is a
symlink to a folder it is in (a loop: GNU ``diff -r`` refuses it too). Every
other link to a folder is walked, however many lead to it, as ``diff -r``
walks them, so that each side is compared whole.

An entry that cannot be read (a folder or file whose permissions forbid it, a
broken symlink, a FIFO or device, a symlink out of the workspace, a loop) is listed in
``skipped`` and in ``unreadable`` with the reason, and it is left out on both
sides: a folder that cannot be listed is never taken for an empty one, so the
files of the other side are not reported as added or removed (GNU ``diff -r``
reports the error and exits 2). A file whose executable bit differs is
changed (git's modes ``100644``/``100755`` are in ``modes``).
"""

from __future__ import annotations

import fnmatch
import os
import stat
from dataclasses import dataclass, field

__all__ = ["SKIP_DIRS", "ENTRY_BUDGET", "TreeDiff", "compare_trees", "git_mode"]

SKIP_DIRS = frozenset({".git", "node_modules", "vendor", "__pycache__"})
ENTRY_BUDGET = 2000
_CHUNK = 1 << 16


@dataclass
class TreeDiff:
    added: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # "path: why"
    unreadable: list[str] = field(default_factory=list)  # the skipped ones left out on both sides
    modes: dict[str, tuple[int | None, int | None]] = field(default_factory=dict)
    entries: int = 0
    files_compared: int = 0
    stopped_at: str | None = None  # the folder where the entry budget ran out

    @property
    def truncated(self) -> bool:
        return self.stopped_at is not None


def _inside(root: str, real: str) -> bool:
    return real == root or real.startswith(root.rstrip(os.sep) + os.sep)


def _same_content(a: str, b: str, size: int) -> bool:
    with open(a, "rb") as fa, open(b, "rb") as fb:
        remaining = size
        while remaining > 0:
            x = fa.read(_CHUNK)
            y = fb.read(_CHUNK)
            if x != y:
                return False
            if not x:
                break
            remaining -= len(x)
        return fa.read(1) == fb.read(1)


# A folder by its device and inode: the folders a walk is in, to end a loop.
_Folders = frozenset[tuple[int, int]]


def _folder_id(st: os.stat_result) -> tuple[int, int]:
    return st.st_dev, st.st_ino


class _Side:
    def __init__(self, root: str, workspace_root: str) -> None:
        self.root = root
        self.workspace_root = workspace_root

    def kind(self, path: str, rel: str, inside: _Folders, notes: list[str]
             ) -> tuple[str | None, os.stat_result | None]:
        """("file" | "dir" | None, stat) of ``path``, in the folders ``inside``; an entry
        that cannot be compared is noted with why."""
        try:
            st = os.lstat(path)
        except FileNotFoundError:
            return None, None
        except OSError as exc:
            notes.append(f"{rel}: could not be read ({exc.strerror or exc})")
            return None, None
        if stat.S_ISLNK(st.st_mode):
            real = os.path.realpath(path)
            if not _inside(self.workspace_root, real):
                notes.append(f"{rel}: a symlink that leads outside the workspace")
                return None, None
            try:
                st = os.stat(real)
            except OSError as exc:
                notes.append(f"{rel}: a broken symlink ({exc.strerror or exc})")
                return None, None
            if stat.S_ISDIR(st.st_mode) and _folder_id(st) in inside:
                notes.append(f"{rel}: a symlink to a folder it is in (a loop), not walked")
                return None, None
        if stat.S_ISREG(st.st_mode):
            try:
                _open_check(path)
            except OSError as exc:
                notes.append(f"{rel}: could not be read ({exc.strerror or exc})")
                return None, None
            return "file", st
        if stat.S_ISDIR(st.st_mode):
            if _folder_id(st) in inside:  # (a bind mount of a folder above it)
                notes.append(f"{rel}: a folder it is in (a loop), not walked")
                return None, None
            return "dir", st
        notes.append(f"{rel}: {_odd_kind(st.st_mode)}, not a regular file or folder")
        return None, None


def _root_id(root: str) -> _Folders:
    try:
        return frozenset({_folder_id(os.stat(root))})
    except OSError:  # (its listing says why)
        return frozenset()


def _open_check(path: str) -> None:
    """Raise OSError when the file cannot be opened for reading."""
    with open(path, "rb"):
        pass


def _odd_kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "a special file"


def _listing(path: str | None) -> list[str]:
    """The names in folder ``path``; OSError when it cannot be listed."""
    if path is None:
        return []
    return os.listdir(path)


def git_mode(st: os.stat_result) -> int:
    """git's mode for a regular file: 100755 when its owner may run it."""
    return 0o100755 if st.st_mode & stat.S_IXUSR else 0o100644


def _named_by(glob: str | None, rel: str) -> bool:
    """The glob names the folder ``rel`` on its way (``vendor/*``, ``*/node_modules/x/*``): asked for."""
    if not glob or "/" not in glob:
        return False
    parts = glob.lstrip("/").split("/")
    depth = rel.count("/") + 1
    return len(parts) > depth and fnmatch.fnmatchcase(rel, "/".join(parts[:depth]))


def compare_trees(a_root: str, b_root: str, workspace_root: str, glob: str | None = None,
                  budget: int = ENTRY_BUDGET) -> TreeDiff:
    """Compare folder ``a_root`` with ``b_root`` (real paths)."""
    result = TreeDiff()
    sides = (_Side(a_root, workspace_root), _Side(b_root, workspace_root))

    def wanted(rel: str) -> bool:
        if not glob:
            return True
        if "/" in glob:
            return fnmatch.fnmatchcase(rel, glob) or fnmatch.fnmatchcase(rel, glob.lstrip("/"))
        return fnmatch.fnmatchcase(rel.rsplit("/", 1)[-1], glob)

    # stack of (relative folder, folder in a or None, folder in b or None, the folders each is in)
    stack: list[tuple[str, str | None, str | None, _Folders, _Folders]] = [
        ("", a_root, b_root, _root_id(a_root), _root_id(b_root))]
    while stack:
        rel_dir, dir_a, dir_b, in_a, in_b = stack.pop()
        try:
            listed_a = _listing(dir_a)
            listed_b = _listing(dir_b)
        except OSError as exc:
            # Never an empty folder: the other side's files are not added or removed.
            why = f"{rel_dir or '.'}: the folder could not be read ({exc.strerror or exc})"
            result.skipped.append(why)
            result.unreadable.append(why)
            continue
        names = sorted(set(listed_a) | set(listed_b))
        subdirs: list[tuple[str, str | None, str | None, _Folders, _Folders]] = []
        for name in names:
            rel = f"{rel_dir}/{name}" if rel_dir else name
            if name in SKIP_DIRS and not _named_by(glob, rel):
                result.skipped.append(f"{rel}: not compared ({', '.join(sorted(SKIP_DIRS))} are skipped "
                                      "unless a glob names them)")
                continue
            if result.entries >= budget:
                result.stopped_at = rel_dir or "."
                stack.clear()
                break
            result.entries += 1
            path_a = os.path.join(dir_a, name) if dir_a else None
            path_b = os.path.join(dir_b, name) if dir_b else None
            notes: list[str] = []
            kind_a, st_a = sides[0].kind(path_a, rel, in_a, notes) if path_a else (None, None)
            kind_b, st_b = sides[1].kind(path_b, rel, in_b, notes) if path_b else (None, None)
            # the same link on both sides is listed once
            for why in dict.fromkeys(notes):
                result.skipped.append(why)
                result.unreadable.append(why)
            if notes:
                continue  # an entry not read on one side is left out on both
            if kind_a == "dir" or kind_b == "dir":
                subdirs.append((rel, path_a if kind_a == "dir" else None,
                                path_b if kind_b == "dir" else None,
                                in_a | {_folder_id(st_a)} if kind_a == "dir" and st_a else in_a,
                                in_b | {_folder_id(st_b)} if kind_b == "dir" and st_b else in_b))
            file_a = kind_a == "file"
            file_b = kind_b == "file"
            if not (file_a or file_b) or not wanted(rel):
                continue
            mode_a = git_mode(st_a) if file_a and st_a is not None else None
            mode_b = git_mode(st_b) if file_b and st_b is not None else None
            if file_a and not file_b:
                result.removed.append(rel)
            elif file_b and not file_a:
                result.added.append(rel)
            else:
                assert st_a is not None and st_b is not None and path_a and path_b
                result.files_compared += 1
                try:
                    same = st_a.st_size == st_b.st_size and _same_content(path_a, path_b, st_a.st_size)
                except OSError as exc:
                    why = f"{rel}: could not be read ({exc.strerror or exc})"
                    result.skipped.append(why)
                    result.unreadable.append(why)
                    continue
                if same and mode_a == mode_b:
                    continue
                result.changed.append(rel)
            result.modes[rel] = (mode_a, mode_b)
        if result.stopped_at is not None:
            break
        stack.extend(reversed(subdirs))
    return result

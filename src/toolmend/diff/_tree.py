"""Which files were added, removed or changed between two folders.

Names only, walked without recursion in sorted order, with a budget on the
number of entries looked at (the walk says where it stopped). ``.git``,
``node_modules``, ``vendor`` and ``__pycache__`` are skipped; symlinks are followed only
while they stay inside the workspace (each folder is entered once, so a
symlink loop ends), and the ones that lead out are listed as skipped.
"""

from __future__ import annotations

import fnmatch
import os
import stat
from dataclasses import dataclass, field

__all__ = ["SKIP_DIRS", "ENTRY_BUDGET", "TreeDiff", "compare_trees"]

SKIP_DIRS = frozenset({".git", "node_modules", "vendor", "__pycache__"})
ENTRY_BUDGET = 2000
_CHUNK = 1 << 16


@dataclass
class TreeDiff:
    added: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # "path: why"
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


class _Side:
    def __init__(self, root: str, workspace_root: str) -> None:
        self.root = root
        self.workspace_root = workspace_root
        self.visited: set[str] = {os.path.realpath(root)}

    def kind(self, path: str, rel: str, skipped: list[str]) -> tuple[str | None, os.stat_result | None]:
        """("file" | "dir" | None, stat) of ``path``; odd entries are noted."""
        try:
            st = os.lstat(path)
        except OSError:
            return None, None
        if stat.S_ISLNK(st.st_mode):
            real = os.path.realpath(path)
            if not _inside(self.workspace_root, real):
                skipped.append(f"{rel}: a symlink that leads outside the workspace")
                return None, None
            try:
                st = os.stat(real)
            except OSError:
                skipped.append(f"{rel}: a broken symlink")
                return None, None
            if stat.S_ISDIR(st.st_mode):
                if real in self.visited:
                    skipped.append(f"{rel}: a symlink to a folder already walked")
                    return None, None
                self.visited.add(real)
        if stat.S_ISREG(st.st_mode):
            return "file", st
        if stat.S_ISDIR(st.st_mode):
            return "dir", st
        skipped.append(f"{rel}: not a regular file or folder")
        return None, None


def _listing(path: str | None) -> list[str]:
    if path is None:
        return []
    try:
        return os.listdir(path)
    except OSError:
        return []


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

    # stack of (relative folder, folder in a or None, folder in b or None)
    stack: list[tuple[str, str | None, str | None]] = [("", a_root, b_root)]
    while stack:
        rel_dir, dir_a, dir_b = stack.pop()
        names = sorted(set(_listing(dir_a)) | set(_listing(dir_b)))
        subdirs: list[tuple[str, str | None, str | None]] = []
        for name in names:
            if name in SKIP_DIRS:
                continue
            rel = f"{rel_dir}/{name}" if rel_dir else name
            if result.entries >= budget:
                result.stopped_at = rel_dir or "."
                stack.clear()
                break
            result.entries += 1
            path_a = os.path.join(dir_a, name) if dir_a else None
            path_b = os.path.join(dir_b, name) if dir_b else None
            notes: list[str] = []
            kind_a, st_a = sides[0].kind(path_a, rel, notes) if path_a else (None, None)
            kind_b, st_b = sides[1].kind(path_b, rel, notes) if path_b else (None, None)
            # the same link on both sides is listed once
            result.skipped.extend(dict.fromkeys(notes))
            if kind_a == "dir" or kind_b == "dir":
                subdirs.append((rel, path_a if kind_a == "dir" else None,
                                path_b if kind_b == "dir" else None))
            file_a = kind_a == "file"
            file_b = kind_b == "file"
            if not (file_a or file_b) or not wanted(rel):
                continue
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
                    result.skipped.append(f"{rel}: could not be read ({exc.strerror})")
                    continue
                if not same:
                    result.changed.append(rel)
        if result.stopped_at is not None:
            break
        stack.extend(reversed(subdirs))
    return result

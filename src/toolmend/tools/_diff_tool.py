"""The verbs of the ``@diff`` tool: ``files``, ``text``, ``dirs``, ``apply``.

Each verb takes ``(ToolArgs, Workspace)`` and returns a ToolResult whose
``output`` is capped at 30,000 bytes (with a notice that says how to narrow
the request) and whose ``data`` is the structured result. ``files``,
``text`` and ``dirs`` only read; ``apply`` writes only with
``"dry_run": false``, and then keeps the original as ``<file>.bak`` before
replacing the file atomically with its permissions kept.
"""

from __future__ import annotations

import os
from typing import Any, Callable

from .._text import UTF8_BOM, human_size
from ..diff import (
    DEFAULT_BUDGET,
    ENTRY_BUDGET,
    DiffResult,
    FilePatch,
    apply_file_patch,
    compare,
    compare_trees,
    parse_patch,
    select,
    split_keepends,
)
from ..errors import PatchError, ToolError
from ._output import cap_text
from ._runner import ToolArgs, ToolResult
from ._safewrite import default_mode, write_atomic, write_backup
from ._workspace import Workspace

__all__ = ["VERBS", "FILE_LIMIT", "OUTPUT_LIMIT", "CONTEXT_MAX"]

FILE_LIMIT = 4 * 1024 * 1024
PATCH_LIMIT = 4 * 1024 * 1024
OUTPUT_LIMIT = 30_000
CONTEXT_MAX = 50
BUDGET_MAX = 1_000_000


def _capped(text: str, notice: str) -> tuple[str, bool]:
    return cap_text(text, OUTPUT_LIMIT, notice)


def _decode(data: bytes) -> tuple[str, bool]:
    """Text of ``data`` (a BOM stays: diffs are exact) and whether it is
    valid UTF-8; invalid bytes are kept as surrogate escapes."""
    try:
        return data.decode("utf-8"), True
    except UnicodeDecodeError:
        return data.decode("utf-8", "surrogateescape"), False


def _readable(text: str) -> str:
    """``text`` with surrogate escapes shown as U+FFFD (safe to serialize)."""
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def _diff_result(result: DiffResult, valid: bool, what: str) -> ToolResult:
    text = result.text if valid else _readable(result.text)
    head = []
    if result.warning:
        head.append(result.warning)
    if not valid:
        head.append("note: not valid UTF-8; the bytes that are not are shown as U+FFFD")
    body = "\n".join(head) + ("\n" if head else "") + text
    lines = text.count("\n")
    output, truncated = _capped(body, (
        f"[output cut at {OUTPUT_LIMIT:,} bytes: the diff has {lines:,} lines in {result.hunks} "
        f"hunks (+{result.added} -{result.removed}). Narrow it: a smaller \"context\", "
        f"{what}]"))
    return ToolResult(True, output, {
        "diff": text,
        "identical": False,
        "binary": False,
        "budget_exceeded": result.budget_exceeded,
        "hunks": result.hunks,
        "added": result.added,
        "removed": result.removed,
        "truncated": truncated,
    })


def _same(message: str) -> ToolResult:
    return ToolResult(True, message, {"diff": "", "identical": True, "binary": False,
                                      "budget_exceeded": False, "hunks": 0, "added": 0,
                                      "removed": 0, "truncated": False})


def _budget(args: ToolArgs) -> int:
    return args.integer("budget", DEFAULT_BUDGET, minimum=0, maximum=BUDGET_MAX)


def diff_files(args: ToolArgs, ws: Workspace) -> ToolResult:
    """Unified diff of two files of the workspace (at most 4 MB each)."""
    args.check_known({"a", "b", "context", "budget"})
    path_a = args.text("a", allow_empty=False)
    path_b = args.text("b", allow_empty=False)
    context = args.integer("context", 3, minimum=0, maximum=CONTEXT_MAX)
    budget = _budget(args)
    data_a = ws.read_bytes(path_a, FILE_LIMIT, what="file")
    data_b = ws.read_bytes(path_b, FILE_LIMIT, what="file")
    if data_a == data_b:
        return _same(f"{path_a} and {path_b} are identical")
    if b"\0" in data_a or b"\0" in data_b:
        return ToolResult(True, f"Binary files {path_a} and {path_b} differ "
                                f"({len(data_a):,} and {len(data_b):,} bytes)",
                          {"diff": "", "identical": False, "binary": True, "budget_exceeded": False,
                           "hunks": 0, "added": 0, "removed": 0, "truncated": False})
    text_a, valid_a = _decode(data_a)
    text_b, valid_b = _decode(data_b)
    result = compare(text_a, text_b, context=context, a_label=path_a, b_label=path_b,
                     budget=budget)
    return _diff_result(result, valid_a and valid_b, "or one file at a time")


def diff_text(args: ToolArgs, ws: Workspace) -> ToolResult:
    """Unified diff of two inline strings."""
    args.check_known({"a", "b", "context", "budget"})
    a = args.text("a")
    b = args.text("b")
    context = args.integer("context", 3, minimum=0, maximum=CONTEXT_MAX)
    budget = _budget(args)
    if a == b:
        return _same("the texts are identical")
    result = compare(a, b, context=context, budget=budget)
    return _diff_result(result, True, "or shorter texts")


def diff_dirs(args: ToolArgs, ws: Workspace) -> ToolResult:
    """Files added, removed and changed between two folders (names only)."""
    args.check_known({"a", "b", "glob"})
    path_a = args.text("a", allow_empty=False)
    path_b = args.text("b", allow_empty=False)
    glob = args.text("glob", None)
    roots = []
    for path in (path_a, path_b):
        real = ws.resolve(path, what="folder")
        if not os.path.isdir(real):
            raise ToolError(f"folder {path!r} " + ("is not a folder" if os.path.exists(real)
                                                   else "does not exist"))
        roots.append(real)
    tree = compare_trees(roots[0], roots[1], ws.root, glob or None, ENTRY_BUDGET)
    entries = sorted([(p, "M") for p in tree.changed] + [(p, "A") for p in tree.added]
                     + [(p, "D") for p in tree.removed])
    summary = (f"{path_a} -> {path_b}: {len(tree.changed)} changed (M), {len(tree.added)} added "
               f"(A), {len(tree.removed)} removed (D)"
               f"{f' matching {glob!r}' if glob else ''}; {tree.files_compared} files compared")
    lines = [summary]
    if tree.truncated:
        lines.append(f"stopped after {tree.entries:,} entries (the budget is {ENTRY_BUDGET:,}), in "
                     f"{tree.stopped_at!r}: the lists are incomplete; narrow with a glob or a "
                     "subfolder")
    lines.extend(f"{tag} {path}" for path, tag in entries)
    if tree.skipped:
        lines.append(f"skipped {len(tree.skipped)}:")
        lines.extend(f"  {why}" for why in tree.skipped)
    if not entries and not tree.truncated:
        lines.append("no differences" + (f" among the files matching {glob!r}" if glob else ""))
    output, truncated = _capped("\n".join(lines) + "\n", (
        f"[output cut at {OUTPUT_LIMIT:,} bytes: {len(entries):,} entries in all. Narrow it: "
        "a glob or a subfolder]"))
    return ToolResult(True, output, {
        "added": tree.added,
        "removed": tree.removed,
        "changed": tree.changed,
        "skipped": tree.skipped,
        "entries": tree.entries,
        "files_compared": tree.files_compared,
        "complete": not tree.truncated,
        "truncated": truncated,
    })


def _patched(original: str, section: FilePatch, bom: bool) -> str:
    try:
        return apply_file_patch(original, section)
    except PatchError:
        if not bom:
            raise
    # The file starts with a BOM the patch does not show: match without it.
    return "\ufeff" + apply_file_patch(original[1:], section)


def _describe(section: FilePatch) -> list[str]:
    return [f"  hunk {h.number} {h.header}: -{h.removed} +{h.added}"
            + (f" at line {h.old_start}" if h.old_count else f" after line {h.old_start}")
            for h in section.hunks]


def diff_apply(args: ToolArgs, ws: Workspace) -> ToolResult:
    """Apply a unified patch to a file, strictly; a dry run unless told."""
    args.check_known({"file", "patch", "dry_run"})
    path = args.text("file", allow_empty=False)
    patch = args.text("patch", allow_empty=False)
    dry_run = args.flag("dry_run", True)
    if len(patch) > PATCH_LIMIT:
        raise ToolError(f"@diff apply: the patch is {human_size(len(patch))}; the limit is "
                        f"{human_size(PATCH_LIMIT)}")
    real = ws.resolve(path, what="file")
    try:
        st: os.stat_result | None = os.stat(real)
    except FileNotFoundError:
        st = None
    except OSError as exc:
        raise ToolError(f"file {path!r}: {exc.strerror}") from None
    if st is not None:
        data = ws.read_bytes(path, FILE_LIMIT, what="file")
        if b"\0" in data:
            raise ToolError(f"file {path!r} is binary; @diff apply patches text files")
    else:
        data = b""

    def refused(exc: PatchError) -> ToolResult:
        return ToolResult(False, f"error: {path}: {exc}", {
            "file": path, "hunk": exc.hunk, "line": exc.line,
            "expected": exc.expected, "actual": exc.actual})

    try:
        section = select(parse_patch(patch), path)
    except PatchError as exc:
        return refused(exc)
    if st is None and not section.creates:
        raise ToolError(f"file {path!r} does not exist, and the patch does not create it "
                        "(a patch that creates a file has one hunk '@@ -0,0 +1,N @@')")
    original = _decode(data)[0]
    bom = data.startswith(UTF8_BOM)
    try:
        new_text = _patched(original, section, bom)
    except PatchError as exc:
        return refused(exc)
    new_data = new_text.encode("utf-8", "surrogateescape")
    added = sum(h.added for h in section.hunks)
    removed = sum(h.removed for h in section.hunks)
    before, after = len(split_keepends(original)), len(split_keepends(new_text))
    created = st is None
    info: dict[str, Any] = {
        "file": path, "dry_run": dry_run, "written": False, "created": created, "backup": None,
        "hunks": len(section.hunks), "added": added, "removed": removed,
        "lines_before": before, "lines_after": after, "changed": new_data != data,
    }
    counts = (f"{len(section.hunks)} hunk{'s' if len(section.hunks) != 1 else ''}, "
              f"+{added} -{removed} lines")
    notes = []
    if not created and data and section.creates and section.old_name != "/dev/null":
        notes.append("note: the patch's only hunk is '@@ -0,0 ...': it inserts its lines at the "
                     "top of the existing file")
    if section.new_name == "/dev/null":
        notes.append("note: the patch deletes the file ('+++ /dev/null'); @diff apply keeps it, "
                     "empty: remove it yourself if that is what you want")
    if new_data == data:
        message = f"the patch applies to {path} but changes nothing ({counts}); nothing written"
        return ToolResult(True, "\n".join([message, *notes]), info)
    if dry_run:
        what = (f"creates {path} ({after} lines)" if created else
                f"applies to {path}: {counts} ({before} -> {after} lines)")
        head = (f"dry run: the patch {what}; nothing written (\"dry_run\": false writes it"
                f"{'' if created else ', keeping a copy of the original in a .bak file'})")
        return ToolResult(True, _report(head, section, notes), info)

    try:
        if created:
            os.makedirs(os.path.dirname(real) or ".", exist_ok=True)
            write_atomic(real, new_data, default_mode())
            backup = None
        else:
            assert st is not None
            backup = write_backup(real, data, st.st_mode)
            now = os.stat(real)
            if (now.st_ino, now.st_size, now.st_mtime_ns) != (st.st_ino, st.st_size, st.st_mtime_ns):
                raise ToolError(f"file {path!r} changed while the patch was being applied; "
                                "nothing was written: run the apply again")
            write_atomic(real, new_data, st.st_mode, (st.st_uid, st.st_gid))
    except OSError as exc:
        raise ToolError(f"file {path!r} could not be written ({exc.strerror or exc}); "
                        "the file is unchanged") from None
    info["written"] = True
    if created:
        head = f"created {path} ({after} lines)"
    else:
        info["backup"] = ws.relative(backup) if backup else None
        head = (f"patched {path}: {counts} ({before} -> {after} lines); the original is in "
                f"{info['backup']}")
    return ToolResult(True, _report(head, section, notes), info)


def _report(head: str, section: FilePatch, notes: list[str]) -> str:
    text = "\n".join([head, *notes, *_describe(section)])
    return _capped(text, f"[output cut at {OUTPUT_LIMIT:,} bytes: {len(section.hunks)} hunks in all]")[0]


VERBS: dict[str, Callable[[ToolArgs, Workspace], ToolResult]] = {
    "files": diff_files,
    "text": diff_text,
    "dirs": diff_dirs,
    "apply": diff_apply,
}

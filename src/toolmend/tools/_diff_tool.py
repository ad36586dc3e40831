"""The verbs of the ``@diff`` tool: ``files``, ``text``, ``dirs``, ``apply``.

Each verb takes ``(ToolArgs, Workspace)`` and returns a ToolResult whose
``output`` is capped at ``args.limit`` bytes (``run_tool``: 30,000; the
command line: none) and whose ``data`` is the structured result.

A diff is cut only between hunks, and a patch handed to an agent starts with
a line that counts its hunks (``# toolmend patch: 200 hunks in 1 file``), or,
when it was cut, says so (``hunks 1-110 of 200 shown: this patch is
incomplete``): ``apply`` refuses both a cut patch and one whose count does not
match, so a copy cut anywhere is never applied in part.

Files are diffed as bytes: text that is not UTF-8 keeps its bytes through the
diff (``ToolResult.raw``) and through ``apply``. The text an agent reads shows
those bytes as U+FFFD under a line that says so, and ``apply`` refuses the
lines of such a patch that hold U+FFFD (never other bytes written for them).
``files``, ``text`` and
``dirs`` only read; ``apply`` writes only with ``"dry_run": false``, keeps each
original as ``<file>.bak`` first (unless ``backup: false``), replaces files
atomically with their permissions kept, and applies a patch for several files
all or nothing.
"""

from __future__ import annotations

import os
from typing import Any

from .._text import plural
from ..diff import (
    ENTRY_BUDGET,
    DiffResult,
    TreeEntry,
    compare,
    compare_trees,
    count_line,
    decode,
    end_line,
    folders_patch,
    header_label,
    hunk_pieces,
    incomplete_line,
    lossy_line,
    readable,
)
from ..errors import ToolError, WorkspaceError
from ._diff_io import CONTEXT_MAX, FILE_LIMIT, OUTPUT_LIMIT, PATCH_LIMIT, TREE_LIMIT, read_input
from ._output import NOTICE_ROOM, cap_text
from ._runner import ToolArgs, ToolResult
from ._workspace import Workspace

__all__ = ["FILE_LIMIT", "PATCH_LIMIT", "OUTPUT_LIMIT", "CONTEXT_MAX", "patch_output"]


def patch_output(diff_text: str, hunks: int, files: int, limit: int | None,
                 advice: str, lead: str = "") -> tuple[str, bool]:
    """The patch an agent reads: a count line, ``lead`` (lines that say what the patch is),
    then the diff, whole or cut between two hunks to fit ``limit`` bytes. Returns (text,
    truncated). Without a limit the diff comes as it is (what GNU diff would write)."""
    if limit is None:
        return lead + diff_text, False
    head = count_line(hunks, files) + "\n" + lead
    tail = end_line() + "\n"
    if len(head) + len(diff_text.encode("utf-8", "surrogatepass")) + len(tail) <= limit:
        return head + diff_text + tail, False
    budget = limit - NOTICE_ROOM - len(lead.encode("utf-8"))
    shown: list[str] = []
    size = 0
    last_header = None
    count = 0
    for header, hunk in hunk_pieces(diff_text):
        piece = (header if header != last_header else "") + hunk
        n = len(piece.encode("utf-8", "surrogatepass"))
        if size + n > budget:
            break
        shown.append(piece)
        size += n
        last_header = header
        count += 1
    notice = (f"[the whole diff has {plural(hunks, 'hunk')}, more than {limit:,} bytes; {count:,} "
              f"{'is' if count == 1 else 'are'} shown. "
              f"Do not apply this cut patch: {advice}]")
    return incomplete_line(count, hunks) + "\n" + notice + "\n" + lead + "".join(shown), True


# (git apply places a hunk with no context by its line numbers only where --unidiff-zero says it may;
# without it, it refuses some and puts others at the end of the file: GNU patch applies them as written)
NO_CONTEXT_NOTE = ("note: the patch has no context lines: git apply needs --unidiff-zero to apply it "
                   "where it belongs (GNU patch applies it as it is)")


def _shown(text: str, valid: bool) -> tuple[str, str]:
    """(lead, text) of a diff an agent reads: bytes that are not UTF-8 shown as U+FFFD, and
    then a first line that says so, for ``apply`` to refuse what the patch cannot write."""
    shown = text if valid else readable(text)
    return (lossy_line() + "\n" if shown != text else ""), shown


def _diff_result(result: DiffResult, valid: bool, args: ToolArgs, advice: str) -> ToolResult:
    lead, text = _shown(result.text, valid)
    warnings = [result.warning] if result.warning else []
    if result.hunks and args.integer("context") == 0:
        warnings.append(NO_CONTEXT_NOTE)
    if not valid:
        warnings.append("note: the files are not valid UTF-8; the diff keeps their bytes as they "
                        "are" if args.limit is None else "note: not valid UTF-8; the bytes that "
                        "are not are shown as U+FFFD (the command line writes them as they are)")
    output, truncated = patch_output(text, result.hunks, 1, args.limit, advice, lead)
    # The whole diff, for the command line to write byte for byte.
    raw = result.text.encode("utf-8", "surrogateescape") if not valid and args.limit is None else None
    return ToolResult(True, output, {
        "diff": lead + text,
        "identical": False,
        "binary": False,
        "budget_exceeded": result.budget_exceeded,
        "hunks": result.hunks,
        "added": result.added,
        "removed": result.removed,
        "truncated": truncated,
    }, warnings=tuple(warnings), truncated=truncated, raw=raw)


def _same(message: str) -> ToolResult:
    return ToolResult(True, message, {"diff": "", "identical": True, "binary": False,
                                      "budget_exceeded": False, "hunks": 0, "added": 0,
                                      "removed": 0, "truncated": False})


def _budget(args: ToolArgs) -> int:
    return args.integer("budget")


def diff_files(args: ToolArgs, ws: Workspace) -> ToolResult:
    """Unified diff of two files (at most 4 MB each)."""
    data_a, path_a = read_input(args, ws, "a", FILE_LIMIT)
    data_b, path_b = read_input(args, ws, "b", FILE_LIMIT)
    context = args.integer("context")
    budget = _budget(args)
    if data_a == data_b:
        return _same(f"{path_a} and {path_b} are identical")
    if b"\0" in data_a or b"\0" in data_b:
        return ToolResult(True, f"Binary files {path_a} and {path_b} differ "
                                f"({plural(len(data_a), 'byte')} and {plural(len(data_b), 'byte')})",
                          {"diff": "", "identical": False, "binary": True, "budget_exceeded": False,
                           "hunks": 0, "added": 0, "removed": 0, "truncated": False})
    text_a, valid_a = decode(data_a)
    text_b, valid_b = decode(data_b)
    result = compare(text_a, text_b, context=context, a_label=header_label(path_a),
                     b_label=header_label(path_b),
                     budget=budget)
    return _diff_result(result, valid_a and valid_b, args,
                        "ask again with a smaller \"context\", or diff a part of the files")


def diff_text(args: ToolArgs, ws: Workspace) -> ToolResult:
    """Unified diff of two inline strings."""
    a = args.text("a")
    b = args.text("b")
    context = args.integer("context")
    budget = _budget(args)
    if a == b:
        return _same("the texts are identical")
    result = compare(a, b, context=context, budget=budget)
    return _diff_result(result, True, args, "ask again with a smaller \"context\" or shorter texts")


def _folder(args: ToolArgs, ws: Workspace, name: str) -> tuple[str, str]:
    path = args.text(name)
    real = ws.resolve(path, what="folder")
    if not os.path.isdir(real):
        raise ToolError(f"folder {path!r} " + ("is not a folder" if os.path.exists(real)
                                               else "does not exist"))
    return path, real


def diff_dirs(args: ToolArgs, ws: Workspace) -> ToolResult:
    """Files added, removed and changed between two folders; with
    ``unified: true`` also the patch that turns one tree into the other."""
    path_a, root_a = _folder(args, ws, "a")
    path_b, root_b = _folder(args, ws, "b")
    glob = args.text("glob")
    unified = args.flag("unified")
    context = args.integer("context")
    budget = _budget(args)
    tree = compare_trees(root_a, root_b, ws.confine_root, glob or None, ENTRY_BUDGET)
    entries = sorted([(p, "M") for p in tree.changed] + [(p, "A") for p in tree.added]
                     + [(p, "D") for p in tree.removed])
    unreadable = (f"{len(tree.unreadable)} entr{'y' if len(tree.unreadable) == 1 else 'ies'} "
                  "could not be read or walked and are left out of the comparison (see 'skipped'): the "
                  "result is incomplete" if tree.unreadable else None)
    summary = (f"{path_a} -> {path_b}: {len(tree.changed)} changed (M), {len(tree.added)} added "
               f"(A), {len(tree.removed)} removed (D)"
               f"{f' matching {glob!r}' if glob else ''}; {plural(tree.files_compared, 'file')} compared")
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
    data: dict[str, Any] = {
        "added": tree.added,
        "removed": tree.removed,
        "changed": tree.changed,
        "skipped": tree.skipped,
        "unreadable": tree.unreadable,
        "entries": tree.entries,
        "files_compared": tree.files_compared,
        "complete": not tree.truncated,
    }
    listing = "\n".join(lines) + "\n"
    if not unified:
        output, truncated = cap_text(listing, args.limit, (
            f"[output cut at {args.limit or 0:,} bytes: {len(entries):,} entries in all. Narrow it: "
            "a glob or a subfolder]"))
        data["truncated"] = truncated
        return ToolResult(True, output, data, truncated=truncated,
                          warnings=(f"warning: {unreadable}",) if unreadable else ())
    if tree.truncated:
        raise ToolError(f"@diff dirs: the trees have more than {ENTRY_BUDGET:,} entries, so their "
                        "patch would be incomplete; narrow with a glob or a subfolder")
    cap = ws.cap(FILE_LIMIT)
    try:
        made = folders_patch(root_a, root_b, [
            TreeEntry(path, tag, *tree.modes.get(path, (None, None))) for path, tag in entries],
            context=context, budget=budget, limit=cap, total_limit=None if cap is None else TREE_LIMIT)
    except WorkspaceError as exc:
        raise ToolError(f"@diff dirs: {exc}; narrow with a glob or a subfolder") from None
    patch, hunks, files, valid, binary = (made.text, made.hunks, made.files, made.valid_utf8,
                                          made.binary)
    if binary:
        raise ToolError("@diff dirs: binary files differ (" + ", ".join(binary[:5])
                        + (", ..." if len(binary) > 5 else "") + "); a text patch cannot carry "
                        "them, so no patch is made: narrow with a glob")
    lead, shown = _shown(patch, valid)
    output, truncated = patch_output(shown, hunks, files, args.limit,
                                     "narrow with a glob or a subfolder, or less context", lead)
    data.update(diff=lead + shown, hunks=hunks, files=files, truncated=truncated)
    warnings: tuple[str, ...] = () if valid else (
        "note: some files are not valid UTF-8; their bytes that are not are shown as U+FFFD (the "
        "command line writes them as they are)",)
    if unreadable:
        warnings += (f"warning: {unreadable}; the patch does not carry them",)
    if hunks and context == 0:
        warnings += (NO_CONTEXT_NOTE,)
    raw = None if valid or truncated or args.limit is not None else patch.encode(
        "utf-8", "surrogateescape")
    return ToolResult(True, output, data, warnings=(listing.rstrip("\n"), *warnings),
                      truncated=truncated, raw=raw)

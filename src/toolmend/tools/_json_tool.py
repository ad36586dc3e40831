"""The ``@json`` tool: the verbs of :mod:`toolmend.json` as tool calls.

Each verb takes ``(ToolArgs, Workspace)`` and returns ``ToolResult(ok, output,
data)``: ``output`` is at most ``args.limit`` bytes (run_tool: :data:`OUTPUT_LIMIT`), cut while it is
produced, with a notice that says what was left out and how to narrow the
request; ``data`` is the structured result. Files are read through the
workspace (confined paths, a size check before reading).
"""

from __future__ import annotations

from typing import Any, Mapping

from .._text import human_size, plural
from ..errors import JSONError, ToolError
from ..json import (
    FILE_LIMIT,
    SCHEMA_BUDGET,
    Document,
    Query,
    Schema,
    describe_value,
    dumps,
    format_of_name,
    format_path,
    format_segment,
    from_value,
    parse_bytes,
    parse_document,
    parse_path,
    resolve,
    resolve_one,
    summary_pairs,
    validate,
    values,
)
from ._output import NOTICE_ROOM, CappedOutput
from ._runner import ToolArgs, ToolResult
from ._verbspec import QUERY_LIMIT_MAX
from ._workspace import Workspace

__all__ = ["OUTPUT_LIMIT"]

#: Bytes an agent reads at most (notice included).
OUTPUT_LIMIT = 24_000
#: Entries ``keys`` returns as data at most.
KEYS_DATA_LIMIT = 10_000
#: Largest text ``pretty`` returns as data (output is capped regardless).
PRETTY_DATA_LIMIT = 64 * 1024 * 1024
#: ... and the command line: 16 times the document when that is more (a
#: 50 MB file indented), since it reads files of any size.
PRETTY_CLI_FACTOR = 16


# ---------------------------------------------------------------------------
# schema, as text

def _type_text(node: Mapping[str, Any]) -> str:
    if node["type"] == "mixed":
        return "|".join(_type_text(v) for v in node["variants"])
    kind = node["type"]
    if kind == "object":
        lo, hi = node["size"]
        return f"object{{{lo}}}" if lo == hi else f"object{{{lo}..{hi}}}"
    if kind == "array":
        lo, hi = node["length"]
        return f"array[{lo}]" if lo == hi else f"array[{lo}..{hi}]"
    return str(kind)


def _example_text(value: Any) -> str:
    if isinstance(value, str):
        shown = value if len(value) <= 40 else value[:40] + "..."
        return dumps(shown)
    return dumps(value)


def _render_schema(out: CappedOutput, node: Mapping[str, Any], label: str, indent: int,
                   of: int | None) -> bool:
    """Write one schema line per node, depth first; False once the output is full."""
    stack: list[tuple[Mapping[str, Any], str, int, int | None]] = [(node, label, indent, of)]
    while stack:
        node, label, indent, of = stack.pop()
        line = "  " * indent + (f"{label}: " if label else "") + _type_text(node)
        if of is not None and of > 1:
            line += f"  {node['count']}/{of}"
        variants = node["variants"] if node["type"] == "mixed" else [node]
        for var in variants:
            if var["type"] == "array" and var["length"][1] > var.get("sampled", 0):
                line += f" (sampled {var['sampled']})"
            if var["type"] == "object" and var.get("values") is not None:
                line += " (map: sampled values below)"
            if var["type"] in ("object", "array") and var.get("truncated"):
                line += " ..."
            if "example" in var:
                line += f"  e.g. {_example_text(var['example'])}"
        if not out.write(line + "\n"):
            return False
        children: list[tuple[Mapping[str, Any], str, int, int | None]] = []
        for var in variants:
            if var["type"] == "object":
                for name, child in var.get("keys", {}).items():
                    children.append((child, format_segment(name, True), indent + 1, var["count"]))
                if var.get("more_keys"):
                    children.append(({"type": "note", "count": 0,
                                      "text": f"... and {var['more_keys']:,} more keys"},
                                     "", indent + 1, None))
                if var.get("values") is not None:
                    children.append((var["values"], "[*]", indent + 1, var["count"]))
            elif var["type"] == "array" and "items" in var:
                children.append((var["items"], "[*]", indent + 1, None))
        for child in reversed(children):
            if child[0]["type"] == "note":
                if not out.write("  " * child[2] + child[0]["text"] + "\n"):
                    return False
                continue
            stack.append(child)
    return True



# ---------------------------------------------------------------------------
# The tool

def _read_file(args: ToolArgs, ws: Workspace) -> tuple[bytes, str, str]:
    """(bytes, name for messages, format) of the 'file' argument."""
    fmt = args.text("format")
    value = args.raw.get("file")
    cap = ws.cap(FILE_LIMIT)
    if isinstance(value, (bytes, bytearray)):  # the command line's "-": standard input
        if cap is not None and len(value) > cap:
            raise ToolError(f"@json {args.verb}: standard input is {human_size(len(value))}; "
                            f"the limit is {human_size(cap)}")
        return bytes(value), "standard input", fmt
    path = args.text("file")
    data = ws.read_bytes(path, FILE_LIMIT, what="file")
    return data, f"file {path!r}", format_of_name(path, fmt)


def _tool_doc(args: ToolArgs, ws: Workspace) -> Document:
    doc = _read_doc(args, ws)
    args.notes.extend(doc.notes)
    return doc


def _read_doc(args: ToolArgs, ws: Workspace) -> Document:
    fmt = args.text("format")
    if args.has("file"):  # the declaration checked that one of file and text is given
        data, name, fmt = _read_file(args, ws)
        return parse_bytes(data, name=name, format=fmt, limit=None)  # _read_file checked the size
    raw = args.raw["text"]
    if isinstance(raw, (dict, list)):
        return from_value(raw)
    text = args.text("text")
    cap = ws.cap(FILE_LIMIT)
    if cap is not None and len(text) > cap // 4 and len(text.encode("utf-8", "surrogatepass")) > cap:
        raise ToolError(f"@json {args.verb}: the text is larger than the limit of {human_size(cap)}")
    return parse_document(text, name="the text", format=fmt)


def _finish(out: CappedOutput, notice: str) -> str:
    """The output text: the notice when it was cut, no trailing newline."""
    text = out.getvalue(notice)
    return text if out.truncated else text.rstrip("\n")


def _room(out: CappedOutput) -> int:
    return out.limit - NOTICE_ROOM - out.size


def _write_json(out: CappedOutput, doc: Document, start: int, end: int, indent: int) -> bool:
    """Write the value at [start, end) re-indented; False once the output is full."""
    room = _room(out)
    if room <= 0:
        out.write(" ")
        return False
    piece, complete = doc.reformat(start, end, indent, room)
    out.write(piece)
    if not complete:
        out.truncated = True
    return complete and not out.truncated


def _path_arg(args: ToolArgs) -> str:
    value = args.raw.get("path")
    if isinstance(value, list):
        return format_path(parse_path(value))
    path: str = args.text("path")
    return path


def _tool_get(args: ToolArgs, ws: Workspace) -> ToolResult:
    doc = _tool_doc(args, ws)
    path = _path_arg(args)
    m = resolve(doc, path)
    args.notes.extend(m.notes)
    data = values(doc, m.spans)
    out = CappedOutput(args.limit)
    shown_path = format_path(parse_path(path))
    if not m.fanned:
        s, e = m.span(0)
        _write_json(out, doc, s, e, 2)
        notice = (f"[output cut at {out.limit:,} bytes: {shown_path} is "
                  f"{describe_value(doc, s)}, {human_size(e - s)} of JSON. Narrow it: a deeper path "
                  f"(keys lists what is below {shown_path}), query with select and limit, or "
                  "schema for its shape]")
        return ToolResult(True, _finish(out, notice), data[0], truncated=out.truncated)
    header = f"{plural(len(m), 'value')} for {shown_path}"
    if m.skipped:
        header += f" ({plural(m.skipped, 'branch')} skipped where the path did not apply)"
    out.write(header + "\n")
    shown = 0
    for k in range(len(m)):
        s, e = m.span(k)
        if not out.write(f"{m.label(k)}: "):
            break
        if not _write_json(out, doc, s, e, 2) or not out.write("\n"):
            break
        shown += 1
    notice = (f"[output cut at {out.limit:,} bytes after {shown:,} of {plural(len(m), 'value')}: "
              "narrow the path (an index or key instead of *, or a deeper path), or use query "
              "with where, select and limit]")
    return ToolResult(True, _finish(out, notice), data, truncated=out.truncated)


def _tool_keys(args: ToolArgs, ws: Workspace) -> ToolResult:
    doc = _tool_doc(args, ws)
    path = _path_arg(args)
    m = resolve_one(doc, path, "keys")
    start = m.spans[0]
    label = m.label(0)
    if doc.lead(start) not in "{[":
        raise JSONError(f"keys: {label} is {describe_value(doc, start)}, which has no keys; "
                        "use get to read it")
    pairs, total, idx, spans = summary_pairs(doc, start, KEYS_DATA_LIMIT, args.notes, label)
    out = CappedOutput(args.limit)
    is_array = doc.lead(start) == "["
    # the keys counted as listed: a key given twice is one
    out.write(f"{label}: {f'array[{total}]' if is_array else f'object{{{total}}}'}\n")
    shown = 0
    for (key, summary), i in zip(pairs, idx, strict=True):
        shown_key = f"[{key}]" if is_array else format_segment(key, True)
        line = f"  {shown_key}: {summary}{_scalar_preview(doc, spans[2 * i], spans[2 * i + 1])}\n"
        if not out.write(line):
            break
        shown += 1
    if total > len(pairs) and not out.truncated:
        out.write(f"  ... data holds the first {len(pairs):,} of {total:,}\n")
    noun = "element" if is_array else "key"
    notice = (f"[output cut at {out.limit:,} bytes after {shown:,} of {plural(total, noun)}: "
              f"use a deeper path, get {label}[N] for one element, or schema for the shape]")
    return ToolResult(True, _finish(out, notice), pairs, truncated=out.truncated)


def _scalar_preview(doc: Document, s: int, e: int, width: int = 60) -> str:
    if doc.lead(s) in "{[n":  # (a container's summary says it, and null's kind is its value)
        return ""
    raw = doc.chars(s, e, width + 1)
    return " " + (raw if len(raw) <= width else raw[:width] + "...")


def _tool_query(args: ToolArgs, ws: Workspace) -> ToolResult:
    doc = _tool_doc(args, ws)
    path = _path_arg(args)
    where = args.text("where")
    select = args.strings("select")
    # an agent reads at most QUERY_LIMIT_MAX rows at once; the command line takes any number
    cap = args.limit is not None
    limit = args.integer("limit")
    offset = args.integer("offset")
    sort = args.text("sort")
    desc = args.flag("desc")
    plan = Query(doc, path, where, select, limit, offset, sort, desc)
    result = plan.run()
    args.notes.extend(result.notes)
    target = format_path(parse_path(path))
    out = CappedOutput(args.limit)
    shown_where = where.strip()
    if len(shown_where) > 200:  # echo a long condition shortened: the rows must fit
        shown_where = f"{shown_where[:120]}... ({len(shown_where):,} characters)"
    cond = f" where {shown_where}" if shown_where else ""
    order = f", sorted by {sort}{' (descending)' if desc else ''}" if plan.sort else ""
    where_in = f" from row {offset:,}" if offset else ""
    head = (f"{result.matched:,} of {plural(result.total, 'row')} in {target} matched{cond}"
            f"{order}; showing {len(result.rows):,}{where_in}")
    if result.matched > offset + len(result.rows):
        more = f", up to {QUERY_LIMIT_MAX}," if cap else ""
        head += f" (limit {limit}; raise it{more} or use offset, or narrow where)"
    out.write(head + "\n")
    shown = 0
    for j, label in enumerate(result.paths):
        s, e = result.spans[2 * j], result.spans[2 * j + 1]
        if not out.write(f"{label}: "):
            break
        if plan.select_segs:
            ok = _write_selected(out, doc, s, plan)
        else:
            ok = _write_json(out, doc, s, e, 0)
        if not ok or not out.write("\n"):
            break
        shown += 1
    notice = (f"[output cut at {out.limit:,} bytes after {shown:,} of "
              f"{plural(len(result.rows), 'row')} ({result.matched:,} matched): keep fewer fields "
              "with select, lower the limit, or narrow where]")
    return ToolResult(True, _finish(out, notice), result.rows, truncated=out.truncated)


def _write_selected(out: CappedOutput, doc: Document, start: int, plan: Query) -> bool:
    parts = []
    for name, segs in zip(plan.select, plan.select_segs, strict=True):
        s, e, failed, _ = doc.lookup(start, segs)
        if failed == -1:
            parts.append((name, s, e))
    if not out.write("{"):
        return False
    for i, (name, s, e) in enumerate(parts):
        if not out.write(("," if i else "") + dumps(name) + ":"):
            return False
        if not _write_json(out, doc, s, e, 0):
            return False
    return out.write("}")


def _tool_schema(args: ToolArgs, ws: Workspace) -> ToolResult:
    doc = _tool_doc(args, ws)
    path = _path_arg(args)
    depth = args.integer("depth")
    m = resolve(doc, path)
    args.notes.extend(m.notes)
    plan = Schema(doc, depth)
    result = plan.run(m)
    args.notes.extend(plan.notes)
    out = CappedOutput(args.limit)
    target = format_path(parse_path(path))
    sampling = result["sampling"]
    head = f"schema of {target}"
    if m.fanned:
        head += f" ({plural(len(m), 'value')} merged)"
    head += f" (depth {depth}"
    if doc.format == "yaml":
        head += ", YAML"
    head += ")"
    if not sampling["complete"]:
        head += (f"; sampling stopped after {SCHEMA_BUDGET:,} values: ask for a deeper path "
                 "for the rest")
    out.write(head + "\n")
    _render_schema(out, result, "", 0, None)
    notice = (f"[output cut at {out.limit:,} bytes: ask for the schema of a deeper path, "
              "or a smaller depth]")
    return ToolResult(True, _finish(out, notice), result, truncated=out.truncated)


def _tool_validate(args: ToolArgs, ws: Workspace) -> ToolResult:
    fmt = args.text("format")
    has_file = args.has("file")  # the declaration checked that one of file and text is given
    if has_file:
        raw, name, fmt = _read_file(args, ws)
        result = validate(raw, fmt, name)
    else:
        if isinstance(args.raw["text"], (dict, list)):
            raise ToolError("@json validate: 'text' must be the document as a string; an object "
                            "was sent, which is already parsed")
        text = args.text("text")
        name = "the text"
        result = validate(text, fmt, name)
    kind = {"yaml": "YAML", "jsonl": "JSON Lines"}.get(result["format"], "JSON")
    if result["valid"]:
        output = f"valid {kind}" + (" (the text is not JSON; it is read as YAML)"
                                    if kind == "YAML" and fmt == "auto" and not has_file else "")
    elif result["line"] is not None:
        output = (f"invalid {kind}: {result['message']} at line {result['line']}, column "
                  f"{result['column']}\n{result['snippet']}")
    else:
        output = f"invalid {kind}: {result['message']}"
    out = CappedOutput(args.limit)
    out.write(output)
    return ToolResult(True, out.getvalue("[cut: the report was too long]"), result,
                      truncated=out.truncated)


def _tool_pretty(args: ToolArgs, ws: Workspace) -> ToolResult:
    doc = _tool_doc(args, ws)
    path = _path_arg(args)
    compact = args.flag("compact")
    m = resolve_one(doc, path, "pretty")
    s, e = m.span(0)
    # the command line's whole result: room for the indentation of any sane
    # document (a deep nesting grows with the square of its depth)
    room = PRETTY_DATA_LIMIT if args.limit is not None else max(PRETTY_DATA_LIMIT,
                                                                 PRETTY_CLI_FACTOR * len(doc.text))
    full, complete = doc.reformat(s, e, 0 if compact else 2, room)
    out = CappedOutput(args.limit)
    out.write(full)
    data = full if complete else None
    size = human_size(len(full)) if complete else f"more than {room / (1 << 20):g} MB"
    # past the data limit the text itself stops there, however large the cap
    cut_at = out.limit if complete or out.limit < len(full) else len(full)
    notice = (f"[output cut at {cut_at:,} bytes of {size}"
              f"{'' if complete else ' (too large to return as data)'}: pretty a deeper path, "
              "or use get/keys/query to read parts]")
    if not complete and not out.truncated:
        out.truncated = True
    return ToolResult(True, _finish(out, notice), data, truncated=out.truncated)

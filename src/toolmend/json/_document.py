"""A JSON (or YAML) document held as validated JSON text, and paths into it.

A :class:`Document` is immutable: the JSON text as UTF-8 bytes (a file as it
was read, never decoded as a whole; YAML is converted once, see
``toolmend.jsonyaml``), the span of its root value, whether any number in it
needs the exact decoder, and the index of its big containers the scanner
built while validating. Paths are resolved on the bytes by the scanner
kernel; only the values a verb returns are ever decoded and turned into
Python objects. That keeps a 20 MB document at about its own size in memory,
and makes every operation safe to run from many threads at once (nothing is
shared or cached). Offsets are in bytes; line and column, in characters, are
computed only for an error.
"""

from __future__ import annotations

import codecs
import difflib
import os
import re
from array import array
from dataclasses import dataclass, field, replace
from typing import Any, Iterator, Sequence

from .._files import read_capped
from .._kernels import jsonscan as _k
from .._text import UTF8_BOM, decode_utf8, human_size, non_finite, not_utf8
from ..errors import (
    EncodingError,
    JSONError,
    NestingError,
    PathNotFound,
    WorkspaceError,
    YAMLDocumentError,
)
from ._duplicates import DUPLICATES_SHOWN, duplicate_notes, path_notes, unique_members
from ._exact import dumps, load_span
from ._path import Key, Segment, Slice, as_index, format_path, format_segment, parse_path, walk, walk_many
from ._syntax import syntax_error, syntax_error_in_bytes
from ._yaml import compose, yaml_to_json

__all__ = [
    "Document", "Matches", "FILE_LIMIT", "FORMATS", "parse_document", "parse_bytes", "load_file",
    "from_value", "resolve", "values", "describe_value", "nearest_keys", "document_of_bytes",
    "format_of_name",
]

#: Largest file (and text) the verbs read, checked before reading.
FILE_LIMIT = 20 * 1024 * 1024
FORMATS = ("auto", "json", "yaml", "jsonl")
YAML_SUFFIXES = (".yaml", ".yml")
JSONL_SUFFIXES = (".jsonl", ".ndjson")
KEYS_SHOWN = 40
#: Members a fan-out follows the rest of its path from in one kernel call.
_CHUNK = 1 << 14


@dataclass(frozen=True)
class Document:
    """Validated JSON text: UTF-8 ``bytes`` (offsets in bytes), or a ``str``
    only for text that UTF-8 cannot hold (a lone surrogate). ``start``/``end``
    delimit the root value; ``lossy`` says whether some number needs the
    exact decoder (orjson would change it); ``format`` is where it came from
    ("json" or "yaml"); ``name`` names it in messages; ``index`` is the
    scanner's index of the big containers (``scan_index``); ``notes`` are what
    a reader should know about how it was read (YAML 1.1 surprises)."""

    text: bytes | str
    start: int
    end: int
    lossy: bool
    format: str = "json"
    name: str = "the text"
    index: array[int] | None = field(default=None, repr=False, compare=False)
    notes: tuple[str, ...] = ()

    def __repr__(self) -> str:
        unit = "bytes" if isinstance(self.text, bytes) else "characters"
        return f"Document({self.name}, {self.format}, {len(self.text):,} {unit}, lossy={self.lossy})"

    def value(self) -> Any:
        """The whole document as Python values (numbers exact)."""
        return load_span(self.text, self.start, self.end, self.lossy)

    # the kernel's walkers on this text, with its index

    def members(self, pos: int) -> tuple[list[str] | None, array[int]]:
        return _k.members(self.text, pos, self.index)

    def lookup(self, pos: int, segments: Sequence[Segment]) -> tuple[int, int, int, int]:
        return walk(self.text, pos, segments, self.index)

    def lookup_many(self, spans: array[int], segments: Sequence[Segment]) -> array[int]:
        return walk_many(self.text, spans, segments, self.index)

    def summary(self, pos: int) -> tuple[str, int]:
        return _k.summary(self.text, pos, self.index)

    def value_end(self, pos: int) -> int:
        return _k.value_end(self.text, pos, self.index)

    def lead(self, pos: int) -> str:
        """The first character of the value at ``pos`` (ASCII: ``{``, ``"``,
        ``-``, a digit, ``t``...)."""
        text = self.text
        return chr(text[pos]) if isinstance(text, bytes) else text[pos]

    def slice(self, start: int, end: int) -> str:
        """The JSON text of [start, end) as it is written (a token, a value)."""
        part = self.text[start:end]
        return part.decode("utf-8") if isinstance(part, bytes) else part

    def reformat(self, start: int, end: int, indent: int = 2,
                 max_bytes: int | None = None) -> tuple[str, bool]:
        """The value at [start, end) re-indented by ``indent`` spaces (0:
        compact), key order and number text kept, and whether it is whole: the
        text stops before its UTF-8 size would pass ``max_bytes`` (None: no
        cap), so a cut value is never built whole first."""
        return _k.reformat(self.text, start, end, indent, -1 if max_bytes is None else max_bytes)

    def chars(self, start: int, end: int, count: int) -> str:
        """The first ``count`` characters of the text of [start, end), without
        decoding the rest."""
        text = self.text
        if not isinstance(text, bytes):
            return text[start:min(end, start + count)]
        # a character is at most 4 bytes: decode enough, drop a cut one at the end
        return text[start:min(end, start + 4 * count)].decode("utf-8", "ignore")[:count]


def _check_format(fmt: str) -> str:
    fmt = (fmt or "auto").strip().lower()
    if fmt not in FORMATS:
        raise JSONError(f"format must be one of {', '.join(FORMATS)}, not {fmt!r}")
    return fmt


def parse_document(text: str, *, name: str = "the text", format: str = "auto") -> Document:
    """Validate ``text`` and return its Document.

    ``format``: "json", "yaml", or "auto": JSON, and only when the text is
    not JSON, does not start with ``{`` or ``[`` and is a YAML mapping or
    list, YAML. A leading BOM is ignored. Raises JSONSyntaxError or
    YAMLDocumentError (ValueErrors with line, column and a snippet). The
    text is encoded to UTF-8 once and read as bytes, like a file.
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be str, not {type(text).__name__}")
    fmt = _check_format(format)
    if text.startswith("\ufeff"):
        text = text[1:]
    if fmt == "yaml":
        return _from_yaml(text, name, None)
    if fmt == "jsonl":
        return _json_lines(_utf8_or_text(text), 0, name)
    doc = _json_document(_utf8_or_text(text), 0, name, "json")
    if doc is not None:
        return doc
    return _not_json(text, name, fmt)


def _utf8_or_text(text: str) -> bytes | str:
    """The UTF-8 bytes of ``text``; the text itself when it holds a lone
    surrogate, which UTF-8 cannot encode (the kernel reads str too)."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return text


def _json_document(text: bytes | str, start: int, name: str, fmt: str) -> Document | None:
    """The Document of valid JSON text from ``start``, or None."""
    pos, code, lossy, index = _k.scan_index(text, start)
    if code:
        return None
    root = _k.skip_space(text, start)
    end = _k.value_end(text, root, index)
    return Document(text, root, end, bool(lossy), fmt, name, index)


def _not_json(text: str, name: str, fmt: str) -> Document:
    """``text`` is not JSON: its YAML Document (format auto, and the text
    is a YAML mapping or list), else the JSONSyntaxError."""
    pos, code, lossy = _k.scan(text)
    error = syntax_error(text, pos, code, name)
    if fmt == "auto" and not text.lstrip(" \t\r\n").startswith(("{", "[")):
        try:
            composed = compose(text, name)
        except (YAMLDocumentError, NestingError) as yaml_error:
            # text that reads as YAML (a "key:" line, a "- " item) gets the
            # YAML error: the JSON one would only say its first word is unquoted
            if _YAML_LOOK.search(text):
                raise yaml_error from None
            raise error from None
        notes: list[str] = []
        converted = yaml_to_json(text, name, require_collection=True, composed=composed,
                                 notes=notes)
        if converted is not None:
            return _json_of_yaml(converted, name, notes)
    raise error


#: A line YAML writes and JSON never starts with: "key:", "- item", "---".
_YAML_LOOK = re.compile(r"^[ \t]*(?:[^\s\"'{}\[\],#:][^\n:]*:(?:[ \t]|$)|- |-$|---(?:[ \t]|$))",
                        re.MULTILINE)


def _from_yaml(text: str, name: str, composed: Any) -> Document:
    notes: list[str] = []
    converted = yaml_to_json(text, name, composed=composed, notes=notes)
    assert converted is not None
    return _json_of_yaml(converted, name, notes)


def _json_of_yaml(converted: str, name: str, notes: list[str]) -> Document:
    doc = _json_document(_utf8_or_text(converted), 0, name, "yaml")
    if doc is None:  # pragma: no cover - our own writer produced it
        raise JSONError(f"{name}: internal error converting YAML to JSON")
    return replace(doc, notes=tuple(notes)) if notes else doc


def document_of_bytes(data: bytes, name: str = "the text", format: str = "auto") -> Document:
    """The Document of UTF-8 bytes, read as they are (a BOM is skipped): the
    text is decoded as a whole only to report an error, which is then the
    same as for the decoded text (EncodingError first)."""
    fmt = _check_format(format)
    data = bytes(data) if not isinstance(data, bytes) else data
    start = 3 if data.startswith(UTF8_BOM) else 0
    if data.startswith(UTF8_BOM, start):  # as decoding, then parse_document, would
        start += 3
    if fmt == "jsonl":
        bad = _first_bad_utf8(data, 3 if data.startswith(UTF8_BOM) else 0, name)
        if bad is not None:
            raise bad
        return _json_lines(data, start, name)
    if fmt != "yaml":
        pos, code, lossy, index = _k.scan_index(data, start)
        if not code:
            root = _k.skip_space(data, start)
            return Document(data, root, _k.value_end(data, root, index), bool(lossy), "json", name, index)
        first = _k.skip_space(data, start)
        if fmt == "json" or data.startswith((b"{", b"["), first):  # no YAML to try
            bad = _first_bad_utf8(data, 3 if data.startswith(UTF8_BOM) else 0, name)
            if bad is not None:
                raise bad
            error = syntax_error_in_bytes(data, start, pos, code, name)
            if code == _k.E_TRAILING and _lines_hint(data, start):
                error.args = (error.args[0].replace("\n", " (one value a line is JSON Lines: "
                                                    "format jsonl, or a .jsonl file)\n", 1),)
            raise error
    text = decode_utf8(data, name)
    if text.startswith("\ufeff"):
        text = text[1:]
    if fmt == "yaml":
        return _from_yaml(text, name, None)
    return _not_json(text, name, fmt)


def _lines_hint(data: bytes, start: int) -> bool:
    """Whether data is two or more JSON values, one a line (JSON Lines read
    as JSON): its first two lines each hold a whole value."""
    first = data.find(b"\n", start)
    if first < 0:
        return False
    second = data.find(b"\n", first + 1)
    lines = [data[start:first], data[first + 1:second if second >= 0 else len(data)]]
    return all(line.strip(_BLANK_BYTES) and not _k.scan(line)[1] for line in lines)


# JSON's blanks, which alone make a line blank (not a form feed's, not U+0085's: no JSON value)
_BLANKS = " \t\r\n"
_BLANK_BYTES = b" \t\r\n"


def _json_lines(text: bytes | str, start: int, name: str) -> Document:
    """The Document of JSON Lines (one value a line, blank lines skipped): the
    array of the lines' values, so ``[n]`` is the value of line n (counting
    values from 0) and query filters the lines. A line that is not one whole
    value is refused with its line number."""
    lines: list[Any] = (text[start:].split(b"\n") if isinstance(text, bytes)
                        else text[start:].split("\n"))
    blanks: Any = _BLANK_BYTES if isinstance(text, bytes) else _BLANKS
    kept: list[Any] = [line for line in lines if line.strip(blanks)]
    if isinstance(text, bytes):
        joined: bytes | str = b"[" + b",".join(kept) + b"]"
        comma: Any = b","
    else:
        joined = "[" + ",".join(kept) + "]"
        comma = ","
    pos, code, lossy, index = _k.scan_index(joined, 0)
    if not code:
        doc = Document(joined, 0, _k.value_end(joined, 0, index), bool(lossy), "jsonl", name, index)
        # each value must lie within its own line: "1, 2" or a value split over
        # two lines would join into a valid array all the same
        _, spans = doc.members(0)
        if len(spans) // 2 == len(kept):
            a = 1
            for k, line in enumerate(kept):
                b = a + len(line)
                if not (a <= spans[2 * k] and spans[2 * k + 1] <= b):
                    break
                a = b + len(comma)
            else:
                return doc
    # find the first line that is not one value, and say so at its place
    offset = start
    for line in lines:
        if line.strip(blanks):
            pos, code, _ = _k.scan(line)
            if code:
                if isinstance(text, bytes):
                    error = syntax_error_in_bytes(text, 0, offset + pos, code, name)
                else:
                    error = syntax_error(text, offset + pos, code, name)
                if pos >= len(line.rstrip(b"\r" if isinstance(line, bytes) else "\r")):
                    error.message += " (a value of JSON Lines is written on one line)"
                error.args = (f"{name} is not valid JSON Lines: {error.message} at line "
                              f"{error.line}, column {error.column}\n{error.snippet}",)
                raise error
        offset += len(line) + 1
    raise JSONError(f"{name} is not valid JSON Lines")  # pragma: no cover - a line failed above


def _first_bad_utf8(data: bytes, base: int, what: str) -> EncodingError | None:
    """The error decode_utf8 gives for data, or None when it is UTF-8:
    decoded a piece at a time, so the whole text never is."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    step = 1 << 18
    for a in range(base, len(data), step):
        pending = len(decoder.getstate()[0])
        try:
            decoder.decode(data[a:a + step], a + step >= len(data))
        except UnicodeDecodeError as exc:
            bad = a - pending + exc.start
            break
    else:
        return None
    return not_utf8(data, bad, what, base)  # (as decode_utf8 says it, of the text after its BOM)


def parse_bytes(data: bytes, *, name: str = "the text", format: str = "auto",
                limit: int | None = FILE_LIMIT) -> Document:
    """Validate UTF-8 bytes (a BOM is dropped) and return their Document;
    refused past ``limit`` bytes (None: no limit). The bytes are kept and
    walked as they are: only the values a verb returns are decoded."""
    if limit is not None and len(data) > limit:
        raise JSONError(f"{name} is {human_size(len(data))}; the limit is {human_size(limit)}")
    return document_of_bytes(data, name, format)


def load_file(path: str | os.PathLike[str], *, format: str = "auto",
              limit: int | None = FILE_LIMIT) -> Document:
    """Read and validate a file: ``.yaml``/``.yml`` files are YAML and
    ``.jsonl``/``.ndjson`` files JSON Lines unless ``format`` says otherwise;
    refused past ``limit`` bytes before reading (None: no limit). (The tools
    confine the paths an agent names to a workspace first.)"""
    fmt = _check_format(format)
    name = os.fspath(path)
    what = f"file {name!r}"
    try:
        data = read_capped(name, limit, name, pipes=True)
    except WorkspaceError as exc:
        raise JSONError(str(exc)) from None
    if fmt == "auto":
        fmt = format_of_name(os.fspath(path), fmt)
    return parse_bytes(data, name=what, format=fmt, limit=limit)


def format_of_name(path: str, fmt: str = "auto") -> str:
    """``fmt``, or with "auto" the format a file's suffix says: yaml for
    .yaml/.yml, jsonl for .jsonl/.ndjson, else auto."""
    if fmt.strip().lower() != "auto":
        return fmt
    suffix = os.path.splitext(path)[1].lower()
    if suffix in YAML_SUFFIXES:
        return "yaml"
    if suffix in JSONL_SUFFIXES:
        return "jsonl"
    return fmt


def from_value(value: Any, name: str = "the text") -> Document:
    """A Document for an already-parsed value (a dict or list sent in place of the text)."""
    try:
        text = dumps(value)
    except TypeError as exc:
        raise JSONError(f"{name}: {exc}") from None
    if "null" in text and non_finite(value):  # (written as null: a value the caller never had)
        raise JSONError(f"{name} holds NaN or Infinity, which JSON cannot carry")
    return parse_document(text, name=name, format="json")


# ---------------------------------------------------------------------------
# Paths


def describe_value(doc: Document, pos: int, distinct: bool = True) -> str:
    """``object{3}``, ``array[10]``, ``string(5)``, number, bool or null.
    ``distinct=False`` counts an object's members as written, without
    decoding its keys (a key given twice counts twice): for long listings."""
    kind, size = doc.summary(pos)
    if kind == "object":
        if size > 1 and distinct:  # a key given twice counts once, as get and keys see it
            size = len(set(doc.members(pos)[0] or ()))
        return f"object{{{size}}}"
    if kind == "array":
        return f"array[{size}]"
    if kind == "string":
        return f"string({size})"
    return kind


#: keys of one object compared letter by letter with a mistyped one, at most
NEAREST_COMPARED = 10_000


def nearest_keys(key: str, keys: Sequence[str]) -> list[str]:
    """Keys that look like a mistyped ``key`` (case, a typo), from all of the
    object's keys: the same key in another case, then the closest of those
    whose length could make them close (a ratio of 0.75 needs the shorter at
    least 0.6 of the longer), at most NEAREST_COMPARED of them, the nearest
    in length first (~0.3 s for 200,000 keys)."""
    if len(key) > 200:
        return []
    folded_key = key.casefold()
    folded = [k for k in keys if k != key and k.casefold() == folded_key]
    low, high = 0.6 * len(key), len(key) / 0.6
    candidates = [k for k in keys if low <= len(k) <= high]
    if len(candidates) > NEAREST_COMPARED:  # those of the nearest lengths (a typo keeps it, or nearly)
        candidates.sort(key=lambda k: abs(len(k) - len(key)))
    close = difflib.get_close_matches(key, candidates[:NEAREST_COMPARED], n=3, cutoff=0.75)
    return list(dict.fromkeys(folded + close))[:3]


def _keys_listing(keys: Sequence[str]) -> str:
    unique = list(dict.fromkeys(keys))
    shown = ", ".join(format_segment(k, True) for k in unique[:KEYS_SHOWN])
    more = len(unique) - KEYS_SHOWN
    return shown + (f", and {more:,} more" if more > 0 else "")


def _diagnose(doc: Document, reached: tuple[Segment, ...], pos: int, seg: str | int,
              full: str) -> PathNotFound:
    """The error for ``seg`` failing on the value at ``pos`` (reached by the
    concrete path ``reached``)."""
    where = format_path(reached)
    shown = format_segment(seg, True) if isinstance(seg, str) else format_segment(seg)
    there = describe_value(doc, pos)
    prefix = f"path {full!r}: " if full else ""
    c = doc.lead(pos)
    if c == "{":
        keys = doc.members(pos)[0] or []  # objects always have a key list
        if isinstance(seg, int):
            msg = (f"{where} is {there}, not an array: index [{seg}] needs an array. "
                   f"Its keys: {_keys_listing(keys)}")
            reason = "not_array"
        else:
            near = nearest_keys(seg, keys)
            hint = f" Did you mean {', '.join(repr(k) for k in near)}?" if near else ""
            listing = f" Its keys: {_keys_listing(keys)}" if keys else " It is empty."
            msg = f"key {seg!r} not found in {where} ({there}).{hint}{listing}"
            reason = "missing_key"
        return PathNotFound(prefix + msg, path=where, segment=shown, reason=reason, found=there)
    if c == "[":
        size = doc.summary(pos)[1]
        index = seg if isinstance(seg, int) else as_index(seg)
        if index is None:  # ("1" quoted: a key, which an array has none of)
            msg = (f"{where} is {there}: {format_segment(seg)} is a key (quoted), and an array has no "
                   f"keys; write {where}[{seg}] for the element at index {seg}" if type(seg) is Key else
                   f"{where} is {there}: {seg!r} is not an index. Use an index "
                   f"({where}[0]) or [*] for every element ({where}[*]{format_segment(seg)})")
            reason = "not_index"
        elif size == 0:
            msg = f"index [{index}] is out of range: {where} is an empty array"
            reason = "out_of_range"
        else:
            msg = (f"index [{index}] is out of range: {where} is {there} "
                   f"(indexes 0..{size - 1}, or -{size}..-1)")
            reason = "out_of_range"
        return PathNotFound(prefix + msg, path=where, segment=shown, reason=reason, found=there)
    preview = _preview(doc, pos)
    step = format_segment(seg) if not isinstance(seg, str) else "." + shown
    msg = f"{where} is {there}{preview}, not an object or array: nothing to follow with {step}"
    return PathNotFound(prefix + msg, path=where, segment=shown, reason="not_container",
                        found=there + preview)


def _preview(doc: Document, pos: int, width: int = 40) -> str:
    raw = doc.chars(pos, doc.value_end(pos), width + 1)
    return "" if raw == "null" else " " + (raw if len(raw) <= width else raw[:width] + "...")


class Matches:
    """The values a path selected: their spans in document order, and their
    concrete paths (computed on demand: a fan-out over a million elements
    does not build a million path tuples).

    ``fanned`` is True when the path holds ``*``; ``skipped`` counts the
    branches of a fan-out where the rest of the path did not apply (a key
    missing in some elements, ``*`` over a scalar); ``notes`` say which
    objects a ``*`` met had a key given twice (only its last value is a match).
    """

    __slots__ = ("doc", "spans", "fanned", "skipped", "notes", "_levels")

    def __init__(self, doc: Document) -> None:
        self.doc = doc
        self.spans = array("q")
        self.fanned = False
        self.skipped = 0
        self.notes: list[str] = []
        # per level: (parents, keys, keytab, run); level 0 has no parents. When
        # every match of a level has one parent, parents is its index and keys
        # None: match k is member k (no per-match arrays for a big fan-out)
        self._levels: list[tuple[array[int] | int | None, array[int] | None, list[str],
                                 tuple[Segment, ...]]] = []

    def __len__(self) -> int:
        return len(self.spans) // 2

    def span(self, k: int) -> tuple[int, int]:
        return self.spans[2 * k], self.spans[2 * k + 1]

    def path(self, k: int) -> tuple[Segment, ...]:
        """The concrete path of match ``k`` (indexes and keys, no ``*``)."""
        parts: list[tuple[Segment, ...]] = []
        for parents, keys, keytab, run in reversed(self._levels):
            parts.append(run)
            if parents is None:
                break
            code = keys[k] if keys is not None else (-1 - k if keytab else k)
            parts.append((code if code >= 0 else keytab[-1 - code],))
            k = parents if isinstance(parents, int) else parents[k]
        out: list[Segment] = []
        for part in reversed(parts):
            out.extend(part)
        return tuple(out)

    def label(self, k: int) -> str:
        return format_path(self.path(k))

    def __iter__(self) -> Iterator[tuple[int, int]]:
        spans = self.spans
        for k in range(0, len(spans), 2):
            yield spans[k], spans[k + 1]


def _runs(segs: tuple[Segment, ...]) -> tuple[list[tuple[str | int, ...]], list[Segment]]:
    """Split at fan-outs: [head, run after the 1st, run after the 2nd, ...]
    and the fan-out segments (``*`` or a slice) between them."""
    runs: list[list[str | int]] = [[]]
    fans: list[Segment] = []
    for seg in segs:
        if isinstance(seg, (str, int)):
            runs[-1].append(seg)
        else:
            fans.append(seg)
            runs.append([])
    return [tuple(r) for r in runs], fans


def resolve(doc: Document, path: Any) -> Matches:
    """The values at ``path`` (text, or a sequence of segments).

    Without ``*`` there is exactly one match or a PathNotFound that names the
    failing segment, what was there and the keys available. With ``*`` there
    may be any number; the error comes only when no branch matched.
    """
    segs = parse_path(path)
    full = path if isinstance(path, str) else format_path(segs)
    runs, fans = _runs(segs)
    m = Matches(doc)
    m.fanned = len(runs) > 1
    head = runs[0]
    start, end, failed, repeated = (doc.lookup(doc.start, head) if head
                                    else (doc.start, doc.end, -1, -1))
    if failed >= 0:
        raise _diagnose(doc, head[:failed], start, head[failed], full)
    m.spans = array("q", (start, end))
    if repeated >= 0:  # a key on the path given more than once: its last value is the one read
        m.notes.extend(path_notes(doc, head, repeated))
    m._levels.append((None, None, [], head))
    for fan, run in zip(fans, runs[1:], strict=True):
        _expand(m, run, full, fan)
    return m


def _expand(m: Matches, run: tuple[str | int, ...], full: str, fan: Segment) -> None:
    """Apply ``fan`` (``*``, or a slice of arrays) then ``run`` to every current match."""
    doc = m.doc
    spans = array("q")
    parents: array[int] | int = array("q")
    keys: array[int] | None = array("q")
    keytab: list[str] = []
    containers = 0
    first_scalar = -1
    slicing = isinstance(fan, Slice)
    takes = "[" if slicing else "{["
    if len(m) == 1 and doc.lead(m.spans[0]) in takes and not slicing:
        # one container (the common case, ``items[*]``): its spans as they are
        names, spans, dupes = unique_members(doc, m.spans[0])
        if dupes:
            m.notes.extend(duplicate_notes(m.label(0), dupes))
        parents, keys, keytab, containers = 0, None, names or [], 1
    for k in range(len(m) if containers == 0 else 0):
        start = m.spans[2 * k]
        if doc.lead(start) not in takes:
            m.skipped += 1
            if first_scalar < 0:
                first_scalar = k
            continue
        containers += 1
        names, member_spans, dupes = unique_members(doc, start)
        if dupes and len(m.notes) < DUPLICATES_SHOWN:  # a few objects are enough to say it
            m.notes.extend(duplicate_notes(m.label(k), dupes))
        if isinstance(fan, Slice):  # the elements in range only
            picks = fan.indexes(len(member_spans) // 2)
            spans.extend(member_spans[2 * picks.start:2 * picks.stop])
            assert isinstance(parents, array) and keys is not None
            parents.extend(array("q", (k,)) * len(picks))
            keys.extend(picks)
            continue
        count = len(member_spans) // 2
        spans.extend(member_spans)
        assert isinstance(parents, array) and keys is not None
        parents.extend(array("q", (k,)) * count)
        if names is None:
            keys.extend(range(count))
        else:
            base = len(keytab)
            keytab.extend(names)
            keys.extend(range(-1 - base, -1 - base - count, -1))
    if containers == 0 and first_scalar >= 0:
        where = m.label(first_scalar)
        pos = m.spans[2 * first_scalar]
        there = describe_value(doc, pos) + _preview(doc, pos)
        need = f"{fan} needs an array" if slicing else "* needs an object or array"
        raise PathNotFound(f"path {full!r}: {need}, but {where} is {there}",
                           path=where, segment=format_segment(fan), reason="not_container",
                           found=there)
    if run and len(spans):
        # the rest of the path from each member, a chunk at a time
        kept = array("q")
        found = array("q")
        for a in range(0, len(spans), 2 * _CHUNK):
            part = doc.lookup_many(spans[a:a + 2 * _CHUNK], run)
            for j in range(0, len(part), 2):
                if part[j] >= 0:
                    kept.append(a + j)
                    found.append(part[j])
                    found.append(part[j + 1])
        if not kept:
            # no branch matched: explain the first one
            s, e = spans[0], spans[1]
            start, _, failed, _ = doc.lookup(s, run)
            probe = Matches(doc)
            probe.spans = array("q", (s, e))
            probe._levels = m._levels + [(parents if isinstance(parents, int) else parents[:1],
                                          None if keys is None else keys[:1], keytab, ())]
            reached = probe.path(0) + run[:failed]
            raise _diagnose(doc, reached, start, run[failed], full)
        m.skipped += len(spans) // 2 - len(kept)
        if len(kept) * 2 != len(spans):
            if isinstance(parents, int):
                keys = array("q", ((-1 - k // 2 if keytab else k // 2) for k in kept))
                parents = array("q", (parents,)) * len(kept)
            else:
                assert keys is not None
                parents = array("q", (parents[k // 2] for k in kept))
                keys = array("q", (keys[k // 2] for k in kept))
        spans = found
    m.spans = spans
    m._levels.append((parents, keys, keytab, run))


def values(doc: Document, spans: Any) -> list[Any]:
    """The Python values of ``spans`` (start, end pairs), numbers exact, a
    few thousand to a decoder call (the pieces of text stay small)."""
    text = doc.text
    count = len(spans) // 2
    if count == 1:
        return [load_span(text, spans[0], spans[1], doc.lossy)]
    out: list[Any] = []
    for lo in range(0, count, _VALUES_CHUNK):
        hi = min(count, lo + _VALUES_CHUNK)
        joined: bytes | str
        if isinstance(text, bytes):
            joined = b"[" + b",".join(text[spans[2 * k]:spans[2 * k + 1]] for k in range(lo, hi)) + b"]"
        else:
            joined = "[" + ",".join(text[spans[2 * k]:spans[2 * k + 1]] for k in range(lo, hi)) + "]"
        out.extend(load_span(joined, 0, len(joined), doc.lossy))
    return out


_VALUES_CHUNK = 2048

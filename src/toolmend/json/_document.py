"""A JSON (or YAML) document held as validated JSON text, and paths into it.

A :class:`Document` is immutable: the JSON text (YAML is converted once, see
``toolmend.jsonyaml``), the span of its root value and whether any number in
it needs the exact decoder. Paths are resolved on the text by the scanner
kernel; only the values a verb returns are ever turned into Python objects.
That keeps a 20 MB document at about its own size in memory, and makes every
operation safe to run from many threads at once (nothing is shared or cached).
"""

from __future__ import annotations

import difflib
import os
from array import array
from dataclasses import dataclass
from typing import Any, Iterator, Sequence

from .._kernels import jsonscan as _k
from .._text import decode_utf8, human_size
from ..errors import JSONError, NestingError, PathNotFound, YAMLDocumentError
from ._exact import dumps, load_span
from ._path import Segment, Slice, as_index, format_path, format_segment, parse_path
from ._syntax import syntax_error
from ._yaml import compose, yaml_to_json

__all__ = [
    "Document", "Matches", "FILE_LIMIT", "FORMATS", "parse_document", "parse_bytes", "load_file",
    "from_value", "resolve", "values", "describe_value", "nearest_keys",
]

#: Largest file (and text) the verbs read, checked before reading.
FILE_LIMIT = 20 * 1024 * 1024
FORMATS = ("auto", "json", "yaml")
YAML_SUFFIXES = (".yaml", ".yml")
KEYS_SHOWN = 40


@dataclass(frozen=True)
class Document:
    """Validated JSON text. ``start``/``end`` delimit the root value;
    ``lossy`` says whether some number needs the exact decoder (orjson would
    change it); ``format`` is where it came from ("json" or "yaml");
    ``name`` names it in messages; ``notes`` are what a reader should know
    about how it was read (YAML 1.1 surprises)."""

    text: str
    start: int
    end: int
    lossy: bool
    format: str = "json"
    name: str = "the text"
    notes: tuple[str, ...] = ()

    def __repr__(self) -> str:
        return (f"Document({self.name}, {self.format}, {len(self.text):,} characters, "
                f"lossy={self.lossy})")

    def value(self) -> Any:
        """The whole document as Python values (numbers exact)."""
        return load_span(self.text, self.start, self.end, self.lossy)


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
    YAMLDocumentError (ValueErrors with line, column and a snippet).
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be str, not {type(text).__name__}")
    fmt = _check_format(format)
    if text.startswith("\ufeff"):
        text = text[1:]
    if fmt == "yaml":
        return _from_yaml(text, name, None)
    pos, code, lossy = _k.scan(text)
    if code:
        error = syntax_error(text, pos, code, name)
        if fmt == "auto" and not text.lstrip(" \t\r\n").startswith(("{", "[")):
            try:
                composed = compose(text, name)
            except (YAMLDocumentError, NestingError):
                raise error from None
            notes: list[str] = []
            converted = yaml_to_json(text, name, require_collection=True, composed=composed,
                                     notes=notes)
            if converted is not None:
                return _json_of_yaml(converted, name, notes)
        raise error
    start = _k.skip_space(text, 0)
    end = _k.value_end(text, start)
    return Document(text, start, end, bool(lossy), "json", name)


def _from_yaml(text: str, name: str, composed: Any) -> Document:
    notes: list[str] = []
    converted = yaml_to_json(text, name, composed=composed, notes=notes)
    assert converted is not None
    return _json_of_yaml(converted, name, notes)


def _json_of_yaml(converted: str, name: str, notes: list[str]) -> Document:
    pos, code, lossy = _k.scan(converted)
    if code:  # pragma: no cover - our own writer produced it
        raise JSONError(f"{name}: internal error converting YAML to JSON")
    return Document(converted, 0, len(converted), bool(lossy), "yaml", name, tuple(notes))


def parse_bytes(data: bytes, *, name: str = "the text", format: str = "auto",
                limit: int = FILE_LIMIT) -> Document:
    """Validate UTF-8 bytes (a BOM is dropped) and return their Document;
    refused past ``limit`` bytes."""
    if len(data) > limit:
        raise JSONError(f"{name} is {human_size(len(data))}; the limit is {human_size(limit)}")
    return parse_document(decode_utf8(bytes(data), name), name=name, format=format)


def load_file(path: str | os.PathLike[str], *, format: str = "auto",
              limit: int = FILE_LIMIT) -> Document:
    """Read and validate a file: ``.yaml``/``.yml`` files are YAML unless
    ``format`` says otherwise; refused past ``limit`` bytes before reading.
    (The tools confine the paths an agent names to a workspace first.)"""
    fmt = _check_format(format)
    what = f"file {os.fspath(path)!r}"
    try:
        size = os.stat(path).st_size
        if size > limit:
            raise JSONError(f"{what} is {human_size(size)}; the limit is {human_size(limit)}")
        with open(path, "rb") as fh:
            data = fh.read(limit + 1)
    except OSError as exc:
        raise JSONError(f"{what}: {exc.strerror or exc}") from None
    if fmt == "auto" and os.path.splitext(os.fspath(path))[1].lower() in YAML_SUFFIXES:
        fmt = "yaml"
    return parse_bytes(data, name=what, format=fmt, limit=limit)


def from_value(value: Any, name: str = "the text") -> Document:
    """A Document for an already-parsed value (a dict or list sent in place
    of the text); its numbers are whatever the caller's parser made of them."""
    try:
        text = dumps(value)
    except TypeError as exc:
        raise JSONError(f"{name}: {exc}") from None
    return parse_document(text, name=name, format="json")


# ---------------------------------------------------------------------------
# Paths


def describe_value(doc: Document, pos: int) -> str:
    """``object{3}``, ``array[10]``, ``string(5)``, number, bool or null."""
    kind, size = _k.summary(doc.text, pos)
    if kind == "object":
        return f"object{{{size}}}"
    if kind == "array":
        return f"array[{size}]"
    if kind == "string":
        return f"string({size})"
    return kind


def nearest_keys(key: str, keys: Sequence[str]) -> list[str]:
    """Keys that look like a mistyped ``key`` (case, a typo)."""
    if len(key) > 200:
        return []
    candidates = [k for k in keys[:2000] if len(k) <= 200]
    folded = [k for k in candidates if k.casefold() == key.casefold() and k != key]
    close = difflib.get_close_matches(key, candidates, n=3, cutoff=0.75)
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
    text = doc.text
    where = format_path(reached)
    shown = format_segment(seg, True) if isinstance(seg, str) else format_segment(seg)
    there = describe_value(doc, pos)
    prefix = f"path {full!r}: " if full else ""
    c = text[pos]
    if c == "{":
        keys = _k.members(text, pos)[0] or []  # objects always have a key list
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
        size = _k.summary(text, pos)[1]
        index = seg if isinstance(seg, int) else as_index(seg)
        if index is None:
            msg = (f"{where} is {there}: {seg!r} is not an index. Use an index "
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
    text = doc.text
    end = _k.value_end(text, pos)
    raw = text[pos:min(end, pos + width + 1)]
    return " " + (raw if end - pos <= width else raw[:width] + "...")


class Matches:
    """The values a path selected: their spans in document order, and their
    concrete paths (computed on demand: a fan-out over a million elements
    does not build a million path tuples).

    ``fanned`` is True when the path holds ``*``; ``skipped`` counts the
    branches of a fan-out where the rest of the path did not apply (a key
    missing in some elements, ``*`` over a scalar).
    """

    __slots__ = ("doc", "spans", "fanned", "skipped", "_levels")

    def __init__(self, doc: Document) -> None:
        self.doc = doc
        self.spans = array("q")
        self.fanned = False
        self.skipped = 0
        # per level: (parents, keys, keytab, run); level 0 has no parents
        self._levels: list[tuple[array[int] | None, array[int] | None, list[str], tuple[Segment, ...]]] = []

    def __len__(self) -> int:
        return len(self.spans) // 2

    def span(self, k: int) -> tuple[int, int]:
        return self.spans[2 * k], self.spans[2 * k + 1]

    def path(self, k: int) -> tuple[Segment, ...]:
        """The concrete path of match ``k`` (indexes and keys, no ``*``)."""
        parts: list[tuple[Segment, ...]] = []
        for parents, keys, keytab, run in reversed(self._levels):
            parts.append(run)
            if parents is None or keys is None:
                break
            code = keys[k]
            parts.append((code if code >= 0 else keytab[-1 - code],))
            k = parents[k]
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
    text = doc.text
    runs, fans = _runs(segs)
    m = Matches(doc)
    m.fanned = len(runs) > 1
    head = runs[0]
    start, end, failed = _k.lookup(text, doc.start, head) if head else (doc.start, doc.end, -1)
    if failed >= 0:
        raise _diagnose(doc, head[:failed], start, head[failed], full)
    m.spans = array("q", (start, end))
    m._levels.append((None, None, [], head))
    for fan, run in zip(fans, runs[1:], strict=True):
        _expand(m, run, full, fan)
    return m


def _expand(m: Matches, run: tuple[str | int, ...], full: str, fan: Segment) -> None:
    """Apply ``fan`` (``*``, or a slice of arrays) then ``run`` to every current match."""
    doc = m.doc
    text = doc.text
    spans = array("q")
    parents = array("q")
    keys = array("q")
    keytab: list[str] = []
    containers = 0
    first_scalar = -1
    slicing = isinstance(fan, Slice)
    for k in range(len(m)):
        start = m.spans[2 * k]
        if text[start] not in ("[" if slicing else "{["):
            m.skipped += 1
            if first_scalar < 0:
                first_scalar = k
            continue
        containers += 1
        if isinstance(fan, Slice):
            total = _k.summary(text, start)[1]
            picks = fan.indexes(total)
            if len(picks):
                member_spans = _k.members(text, start)[1]
                for j in picks:
                    spans.append(member_spans[2 * j])
                    spans.append(member_spans[2 * j + 1])
                parents.extend([k] * len(picks))
                keys.extend(picks)
            continue
        names, member_spans = _k.members(text, start)
        count = len(member_spans) // 2
        spans.extend(member_spans)
        parents.extend([k] * count)
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
        found = _k.lookup_many(text, spans, run)
        kept = [k for k in range(0, len(found), 2) if found[k] >= 0]
        if not kept:
            # no branch matched: explain the first one
            s, e = spans[0], spans[1]
            start, _, failed = _k.lookup(text, s, run)
            probe = Matches(doc)
            probe.spans = array("q", (s, e))
            probe._levels = m._levels + [(parents[:1], keys[:1], keytab, ())]
            reached = probe.path(0) + run[:failed]
            raise _diagnose(doc, reached, start, run[failed], full)
        m.skipped += len(spans) // 2 - len(kept)
        if len(kept) * 2 != len(found):
            spans = array("q")
            for k in kept:
                spans.append(found[k])
                spans.append(found[k + 1])
            parents = array("q", (parents[k // 2] for k in kept))
            keys = array("q", (keys[k // 2] for k in kept))
        else:
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
    for lo in range(0, count, _CHUNK):
        hi = min(count, lo + _CHUNK)
        joined = "[" + ",".join(text[spans[2 * k]:spans[2 * k + 1]] for k in range(lo, hi)) + "]"
        out.extend(load_span(joined, 0, len(joined), doc.lossy))
    return out


_CHUNK = 2048

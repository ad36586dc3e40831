"""Schema inference for ``@json schema``: the shape of an unknown payload.

Breadth-first over the value, sampling: see :class:`Schema`.
"""

from __future__ import annotations

from typing import Any

from ._document import Document, Matches
from ._duplicates import DUPLICATES_SHOWN, duplicate_notes, unique_members
from ._exact import decode_string, load_span

__all__ = ["Schema", "SCHEMA_DEPTH", "SCHEMA_DEPTH_MAX", "SCHEMA_SAMPLE", "SCHEMA_BUDGET",
           "SCHEMA_KEYS_MAX"]

SCHEMA_DEPTH = 3
SCHEMA_DEPTH_MAX = 8
#: Elements looked at per array (evenly spread) and values visited per call.
SCHEMA_SAMPLE = 50
SCHEMA_BUDGET = 20_000
#: Objects with more keys than this are summarized as maps (sampled values).
SCHEMA_KEYS_MAX = 200
#: Containers nested below this many levels (arrays too) are not walked.
SCHEMA_NEST_MAX = 64


class _Var:
    """One type seen at a schema position."""

    __slots__ = ("kind", "count", "keys", "key_order", "more_keys", "sizes", "items", "sampled",
                 "example", "map_values", "cut")

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.count = 0
        self.keys: dict[str, _SNode] = {}
        self.more_keys: set[str] = set()
        self.sizes: list[int] = []  # [min, max]
        self.items: _SNode | None = None
        self.sampled = 0
        self.example: Any = None
        self.map_values: _SNode | None = None
        self.cut = False  # keys not listed: depth limit


class _SNode:
    __slots__ = ("count", "variants")

    def __init__(self) -> None:
        self.count = 0
        self.variants: dict[str, _Var] = {}


def _sample_indexes(n: int, k: int) -> list[int]:
    if n <= k:
        return list(range(n))
    return sorted({round(i * (n - 1) / (k - 1)) for i in range(k)})


class Schema:
    """Breadth-first over the value: each array (and map-like object)
    contributes up to SCHEMA_SAMPLE evenly spread elements, each object its
    keys down to ``depth`` object levels (stepping into array elements does
    not count as a level), and at most SCHEMA_BUDGET values are visited in
    all. A key's ``count`` against its object's ``count`` is how often it
    occurs among the sampled objects (47/50)."""

    def __init__(self, doc: Document, depth: int) -> None:
        self.doc = doc
        self.depth = depth
        self.visited = 0
        self.complete = True
        self.notes: list[str] = []  # keys given twice in a sampled object

    def run(self, m: Matches) -> dict[str, Any]:
        root = _SNode()
        queue: list[tuple[_SNode, int, int, int]] = [(root, s, 0, 0) for s, _ in m]
        head = 0
        while head < len(queue):
            if self.visited >= SCHEMA_BUDGET:
                self.complete = False
                break
            node, pos, level, nest = queue[head]
            head += 1
            self._visit(node, pos, level, nest, queue)
        out = self._export(root)
        out["sampling"] = {"visited": self.visited, "complete": self.complete,
                           "sample_per_array": SCHEMA_SAMPLE, "depth": self.depth}
        if m.fanned:
            out["sampling"]["values"] = len(m)
        return out

    def _visit(self, node: _SNode, pos: int, level: int, nest: int,
               queue: list[tuple[_SNode, int, int, int]]) -> None:
        doc = self.doc
        self.visited += 1
        c = doc.lead(pos)
        kind = ("object" if c == "{" else "array" if c == "[" else "string" if c == '"'
                else "bool" if c in "tf" else "null" if c == "n" else "number")
        var = node.variants.get(kind)
        if var is None:
            var = node.variants[kind] = _Var(kind)
        var.count += 1
        node.count += 1
        if kind == "object":
            keys, spans, dupes = unique_members(doc, pos)  # (a key given twice: its last value)
            names = keys or []
            self._size(var, len(names))
            if dupes and len(self.notes) < DUPLICATES_SHOWN:
                self.notes.extend(duplicate_notes("an object", dupes))
            if level >= self.depth:
                var.cut = var.cut or bool(names)
                return
            if len(names) > SCHEMA_KEYS_MAX:
                if var.map_values is None:
                    var.map_values = _SNode()
                for j in _sample_indexes(len(names), SCHEMA_SAMPLE):
                    queue.append((var.map_values, spans[2 * j], level + 1, nest + 1))
                return
            for i, name in enumerate(names):
                child = var.keys.get(name)
                if child is None:
                    if len(var.keys) >= SCHEMA_KEYS_MAX:
                        if len(var.more_keys) < 100_000:
                            var.more_keys.add(name)
                        continue
                    child = var.keys[name] = _SNode()
                queue.append((child, spans[2 * i], level + 1, nest + 1))
        elif kind == "array":
            n = doc.summary(pos)[1]
            self._size(var, n)
            if nest >= SCHEMA_NEST_MAX:  # arrays in arrays past any real shape: stop there
                var.cut = var.cut or bool(n)
                return
            _, spans = doc.members(pos)
            if n:
                if var.items is None:
                    var.items = _SNode()
                picks = _sample_indexes(n, SCHEMA_SAMPLE)
                var.sampled += len(picks)
                for j in picks:
                    queue.append((var.items, spans[2 * j], level, nest + 1))
        elif kind in ("string", "number") and var.example is None:
            end = doc.value_end(pos)
            if kind == "string":
                token = doc.slice(pos, end)
                var.example = decode_string(token)[:60] if len(token) > 200 else load_span(token)
            else:
                var.example = load_span(doc.text, pos, end, None if doc.lossy else False)

    @staticmethod
    def _size(var: _Var, n: int) -> None:
        if not var.sizes:
            var.sizes = [n, n]
        else:
            var.sizes[0] = min(var.sizes[0], n)
            var.sizes[1] = max(var.sizes[1], n)

    def _export(self, node: _SNode) -> dict[str, Any]:
        variants = sorted(node.variants.values(), key=lambda v: -v.count)
        if len(variants) == 1:
            return self._export_var(variants[0])
        return {"type": "mixed", "count": node.count,
                "variants": [self._export_var(v) for v in variants]}

    def _export_var(self, var: _Var) -> dict[str, Any]:
        out: dict[str, Any] = {"type": var.kind, "count": var.count}
        if var.kind == "object":
            out["size"] = list(var.sizes)
            if var.keys:
                out["keys"] = {name: self._export(child) for name, child in var.keys.items()}
            if var.more_keys:
                out["more_keys"] = len(var.more_keys)
            if var.map_values is not None:
                out["values"] = self._export(var.map_values)
            if var.cut:
                out["truncated"] = True
        elif var.kind == "array":
            out["length"] = list(var.sizes)
            out["sampled"] = var.sampled
            if var.items is not None and var.items.count:
                out["items"] = self._export(var.items)
            if var.cut:
                out["truncated"] = True
        elif var.example is not None:
            out["example"] = var.example
        return out



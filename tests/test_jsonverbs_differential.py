"""Differential test: on generated multi-MB documents, random existing paths
give the same values as walking the document parsed by the stdlib, numbers
compared by their exact text (in data and in the output)."""

from __future__ import annotations

import json
import random
from typing import Any

import orjson
import pytest

import toolmend
from toolmend import json as jsonverbs
from toolmend.json import WILD, format_path
from toolmend.tools import run_tool

# Fewer probes on the pure twins: same code paths, slower walks.
PROBES = 200 if toolmend.compiled else 50
# The pure twin walks a document in Python: a smaller one, the same shapes and paths.
TARGET_BYTES = 2_000_000 if toolmend.compiled else 600_000

NUMBERS = ["0", "-1", "42", "1.10", "1E5", "-0", "1e400", "2.50", "0.1", "-3.25e-7", "1e+16",
           "123456789012345678901234567890", "18446744073709551616", "-9223372036854775809",
           "9223372036854775807", "3.141592653589793", "6.02214076e23"]
KEY_PARTS = ["id", "name", "a.b", "x y", "[0]", "ключ", "é", "😀", 'q"t', "back\\slash", "", "*",
             "tab\there", "0", "-1", "$ref", "data", "items"]


def _number(rnd: random.Random) -> orjson.Fragment:
    if rnd.random() < 0.6:
        return orjson.Fragment(rnd.choice(NUMBERS))
    if rnd.random() < 0.5:
        return orjson.Fragment(str(rnd.randrange(-10 ** 12, 10 ** 12)))
    return orjson.Fragment(repr(rnd.uniform(-1e6, 1e6)))


def _string(rnd: random.Random, wide: bool) -> str:
    alphabet = "abcxyz -_/.\\\"\n\t" + ("éü€日本😀\u2028" if wide else "")
    length = rnd.randrange(0, 24) if rnd.random() < 0.95 else rnd.randrange(100, 600)
    return "".join(rnd.choice(alphabet) for _ in range(length))


def _value(rnd: random.Random, depth: int, wide: bool) -> Any:
    roll = rnd.random()
    if depth > 6 or roll < 0.45:
        pick = rnd.random()
        if pick < 0.35:
            return _number(rnd)
        if pick < 0.8:
            return _string(rnd, wide)
        return rnd.choice([True, False, None])
    if roll < 0.75:
        return [_value(rnd, depth + 1, wide) for _ in range(rnd.randrange(0, 8))]
    return {rnd.choice(KEY_PARTS) + str(rnd.randrange(50)): _value(rnd, depth + 1, wide)
            for _ in range(rnd.randrange(0, 8))}


def _document(seed: int, wide: bool) -> str:
    rnd = random.Random(seed)
    root: dict[str, Any] = {"meta": _value(rnd, 3, wide), "records": [], "by key": {}}
    size = 0
    while size < TARGET_BYTES:
        rec = {"id": _number(rnd), "name": _string(rnd, wide), "body": _value(rnd, 1, wide),
               "tags": [_string(rnd, wide) for _ in range(rnd.randrange(4))]}
        if rnd.random() < 0.5:
            root["records"].append(rec)
        else:
            root["by key"][f"k{len(root['by key'])}.{rnd.choice(KEY_PARTS)}"] = rec
        size += len(orjson.dumps(rec))
    indent = orjson.OPT_INDENT_2 if seed % 2 else 0
    return orjson.dumps(root, option=indent).decode()


def _oracle(text: str) -> Any:
    """The stdlib's parse, numbers as ("num", token)."""
    def num(token: str) -> tuple[str, str]:
        return ("num", token)
    return json.loads(text, parse_float=num, parse_int=num)


def _norm(value: Any) -> Any:
    """Our values in the oracle's form (numbers by their exact text)."""
    root: list[Any] = [None]
    todo: list[tuple[Any, Any, Any]] = [(value, root, 0)]
    while todo:
        src, parent, slot = todo.pop()
        if isinstance(src, bool) or src is None or isinstance(src, str):
            parent[slot] = src
        elif isinstance(src, (int, float)):
            parent[slot] = ("num", str(src))
        elif isinstance(src, list):
            out: Any = [None] * len(src)
            parent[slot] = out
            todo.extend((v, out, i) for i, v in enumerate(src))
        else:
            out = {}
            parent[slot] = out
            for k, v in src.items():
                out[k] = None
                todo.append((v, out, k))
    return root[0]


def _paths(tree: Any, rnd: random.Random, count: int) -> list[tuple[tuple[Any, ...], Any]]:
    """Up to ``count`` random (path, value) pairs, reservoir-sampled over
    every value; array steps sometimes use negative indexes, and on dicts
    the last of duplicate keys is what json.loads kept."""
    chosen: list[tuple[tuple[Any, ...], Any]] = []
    seen = 0
    todo: list[tuple[tuple[Any, ...], Any]] = [((), tree)]
    while todo:
        path, node = todo.pop()
        seen += 1
        if len(chosen) < count:
            chosen.append((path, node))
        else:
            j = rnd.randrange(seen)
            if j < count:
                chosen[j] = (path, node)
        if isinstance(node, list):
            for i, v in enumerate(node):
                step = i - len(node) if rnd.random() < 0.3 else i
                todo.append((path + (step,), v))
        elif isinstance(node, dict):
            for k, v in node.items():
                todo.append((path + (k,), v))
    return chosen


@pytest.fixture(scope="module", params=[(1, False), (2, True), (3, True)],
                ids=["ascii-indented", "wide-compact", "wide-indented"])
def corpus(request, tmp_path_factory):
    seed, wide = request.param
    text = _document(seed, wide)
    assert len(text.encode()) >= TARGET_BYTES
    folder = tmp_path_factory.mktemp("differential")
    (folder / "doc.json").write_text(text, encoding="utf-8")
    doc = jsonverbs.load_file(folder / "doc.json") if wide else jsonverbs.parse_document(text)
    assert isinstance(doc.text, bytes)  # walked as the file's bytes
    return folder, text, _oracle(text), doc


def test_random_paths_match_the_parsed_document(corpus) -> None:
    folder, text, tree, doc = corpus
    rnd = random.Random(7)
    probes = _paths(tree, rnd, PROBES)
    assert len(probes) == PROBES
    for path, expected in probes:
        got = jsonverbs.get(doc, path)
        assert _norm(got) == expected, format_path(path)
    # through the tool and the path text, output compared too
    for path, expected in probes[:20]:
        r = run_tool("@json", {"cmd": "get", "args": {"file": "doc.json", "path": format_path(path)}},
                     workspace=folder)
        assert r.ok, r.output
        assert _norm(r.data) == expected
        if "[output cut at" not in r.output:
            assert _oracle(r.output) == expected


def test_fan_out_matches_a_comprehension(corpus) -> None:
    folder, text, tree, doc = corpus
    records = tree["records"]
    assert _norm(jsonverbs.get(doc, ("records", WILD, "name"))) == [r["name"] for r in records]
    assert _norm(jsonverbs.get(doc, "records[*].tags[*]")) == [t for r in records for t in r["tags"]]
    by_key = tree["by key"]
    assert _norm(jsonverbs.get(doc, '["by key"].*.id')) == [r["id"] for r in by_key.values()]
    bodies = [r["body"] for r in records]
    assert any(isinstance(b, (dict, list)) for b in bodies)
    flat = []
    for b in bodies:
        if isinstance(b, dict):
            flat.extend(b.values())
        elif isinstance(b, list):
            flat.extend(b)
    assert _norm(jsonverbs.get(doc, ("records", WILD, "body", WILD))) == flat


def test_keys_and_summaries_match(corpus) -> None:
    folder, text, tree, doc = corpus
    rnd = random.Random(11)
    containers = [(p, v) for p, v in _paths(tree, rnd, PROBES * 3) if isinstance(v, (dict, list))]
    assert containers

    def summary(v: Any) -> str:
        if isinstance(v, dict):
            return f"object{{{len(v)}}}"
        if isinstance(v, list):
            return f"array[{len(v)}]"
        if isinstance(v, str):
            return f"string({len(v)})"
        if isinstance(v, bool):
            return "bool"
        return "null" if v is None else "number"

    for path, value in containers[:PROBES // 3]:
        got = jsonverbs.keys(doc, path)
        items = value.items() if isinstance(value, dict) else enumerate(value)
        assert got == [[k, summary(v)] for k, v in items], format_path(path)


def test_whole_document_round_trips(corpus) -> None:
    folder, text, tree, doc = corpus
    assert _norm(doc.value()) == tree
    compact = jsonverbs.pretty(doc, compact=True)
    assert _oracle(compact) == tree and len(compact) <= len(text)

"""@json on UTF-8 bytes: a document keeps the file's bytes and answers every
verb exactly as the same document held as text (the decoded ``str``) does;
errors still speak of lines and columns in characters."""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
import textwrap

import pytest

import toolmend
from toolmend import json as jsonverbs
from toolmend.errors import EncodingError, JSONSyntaxError
from toolmend.json import _document
from toolmend.tools import _json_tool, run_tool


def _wide_document(seed: int) -> str:
    rnd = random.Random(seed)
    words = ["café", "naïve", "Straße", "данные", "日本語", "😀", "—", "plain", "x" * 30, "\n", '"q"',
             "\\", "\u2028", "\x01"]

    def text(lo: int, hi: int) -> str:
        return " ".join(rnd.choice(words) for _ in range(rnd.randrange(lo, hi)))

    rows = [{"id": i, "k": text(1, 80), "u": f"café — {i}", "n": rnd.choice([1.10, -0.0, 10 ** 20, 7]),
             "tags": [text(0, 3) for _ in range(rnd.randrange(4))],
             "sub": {"é": text(0, 5), "deep": [[text(0, 2)]]} if rnd.random() < 0.5 else None}
            for i in range(300)]
    doc = {"meta": {"name": text(1, 4), "ключ": "значение"}, "rows": rows,
           "by name": {text(1, 2) + str(i): i for i in range(50)}}
    raw = json.dumps(doc, ensure_ascii=rnd.random() < 0.2, indent=rnd.choice([None, 2]))
    return raw.replace('"n": 1.1', '"n": 1.10')


def _answer(verb, *args):
    """A verb's value, or its error (type, message and fields)."""
    try:
        return ("ok", verb(*args))
    except ValueError as exc:
        return ("error", type(exc).__name__, str(exc), sorted(vars(exc).items()))


def _text_held(text: str) -> jsonverbs.Document:
    """The document held as a str, as the verbs held every document before."""
    doc = _document._json_document(text, 0, "the text", "json")
    assert doc is not None and isinstance(doc.text, str)
    return doc


_SIZE = re.compile(r"[0-9.]+ (?:bytes|KB|MB) of JSON")
PATHS = ["", "meta", "rows[0]", "rows[-1].k", "rows[*].u", "rows[*].sub.é", "rows[5].tags",
         '["by name"]', "rows[*].tags[*]", "meta.ключ", "rows[3].n", "rows[2].sub.deep[0][0]"]


@pytest.mark.parametrize("seed", range(4))
def test_every_verb_answers_as_on_the_text(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    text = _wide_document(seed)
    data_doc = jsonverbs.parse_document(text)
    assert isinstance(data_doc.text, bytes)
    text_doc = _text_held(text)
    for path in PATHS:
        assert _answer(jsonverbs.get, data_doc, path) == _answer(jsonverbs.get, text_doc, path), path
    for path in ["", "meta", "rows", "rows[7]", '["by name"]', "rows[7].k"]:
        for verb in (jsonverbs.keys, jsonverbs.pretty, jsonverbs.schema):
            assert _answer(verb, data_doc, path) == _answer(verb, text_doc, path), (verb, path)
    for where in ["u~café", "k~данные && id>10", "n=1.1", "sub.é!=''", "tags[0]~^\\S"]:
        a = jsonverbs.query(data_doc, "rows", where, ["u", "sub.é"], 50)
        b = jsonverbs.query(text_doc, "rows", where, ["u", "sub.é"], 50)
        assert (a.rows, a.paths, a.matched, a.total) == (b.rows, b.paths, b.matched, b.total)
    # through the tool: output and data alike
    calls = [("get", {"path": p}) for p in PATHS] + [
        ("keys", {"path": "rows[1]"}), ("keys", {"path": "rows"}), ("schema", {"path": "rows"}),
        ("query", {"path": "rows", "where": "k~é", "select": ["u", "tags"]}),
        ("query", {"path": "rows", "where": "id<5"}), ("pretty", {"path": "rows[0]"}),
        ("get", {"path": "rows[0].missing"}), ("get", {"path": "rows[0].k.x"}),
        ("keys", {"path": "rows[0].k"})]
    for verb, args in calls:
        outputs = []
        for doc in (data_doc, text_doc):
            monkeypatch.setattr(_json_tool, "_tool_doc", lambda a, w, doc=doc: doc)
            r = run_tool("@json", {"cmd": verb, "args": {"text": "[]", **args}})
            # the size in a cut notice is the JSON's size in bytes (a str counts characters)
            outputs.append((r.ok, _SIZE.sub("N of JSON", r.output), r.data))
        assert outputs[0] == outputs[1], (verb, args)


def test_previews_cut_on_characters() -> None:
    """Previews (in keys and in errors) count characters, not bytes."""
    long = "é" * 39 + "😀" + "日" * 30
    text = json.dumps({"a": long, "b": "ü" * 60, "c": "x" * 61}, ensure_ascii=False)
    r = run_tool("@json", {"cmd": "keys", "args": {"text": text}})
    assert '"' + "é" * 39 + "😀" + "日" * 19 + "...\n" in r.output
    assert '"' + "ü" * 59 + "...\n" in r.output
    for doc in (jsonverbs.parse_document(text), _text_held(text)):
        with pytest.raises(jsonverbs.PathNotFound) as info:
            jsonverbs.get(doc, "a.x")
        assert ('"' + "é" * 39 + "...") in str(info.value)


@pytest.mark.parametrize("raw, line, column", [
    ('{"é": "ü",\n "日本": [1, 2,]}', 2, 14),
    ('["😀😀", tru]', 1, 8),
    ('{"a": "x"}\n\n  é', 3, 3),
    ('["\u00e9\u0001"]', 1, 4),
])
def test_errors_in_characters_from_bytes_and_text(tmp_path, raw: str, line: int, column: int) -> None:
    (tmp_path / "doc.json").write_bytes(raw.encode())
    by_file = run_tool("@json", {"cmd": "validate", "args": {"file": "doc.json"}}, workspace=tmp_path)
    by_text = run_tool("@json", {"cmd": "validate", "args": {"text": raw}})
    assert by_file.data == by_text.data
    assert (by_file.data["line"], by_file.data["column"]) == (line, column)
    with pytest.raises(JSONSyntaxError) as info:
        jsonverbs.parse_bytes(raw.encode(), name="x")
    assert (info.value.line, info.value.column) == (line, column)
    assert info.value.pos == jsonverbs.parse_document.__globals__["_k"].scan(raw)[0]


def test_encoding_errors_and_boms() -> None:
    with pytest.raises(EncodingError) as info:
        jsonverbs.parse_bytes(b'{"a": [1, 2,], "b": "\xff"}', name="f")
    assert info.value.offset == 21  # the bad byte, before the syntax error is looked at
    result = jsonverbs.validate(b'["ok", "\xc3("]')
    assert result["valid"] is False and "not valid UTF-8" in result["message"]
    bom = b"\xef\xbb\xbf"
    assert jsonverbs.get(jsonverbs.parse_bytes(bom + b'{"a": 1}'), "a") == 1
    assert jsonverbs.get(jsonverbs.parse_bytes(bom + bom + b'{"a": 1}'), "a") == 1
    with pytest.raises(JSONSyntaxError):
        jsonverbs.parse_bytes(bom * 3 + b"[]", format="json")
    doc = jsonverbs.parse_bytes(bom + b" [1]")
    assert (doc.start, doc.end) == (4, 7)
    assert jsonverbs.parse_bytes(b"a: 1\nb: [x]").format == "yaml"


@pytest.mark.parametrize(("data", "why"), [
    ('{"a": 1}'.encode("utf-16"), "UTF-16's byte-order mark: convert it to UTF-8"),
    ('{"a": 1}'.encode("utf-32"), "UTF-32's byte-order mark: convert it to UTF-8"),
    (b"\x1f\x8b\x08\x00", "gzip data does: decompress it first"),
    (b"PK\x03\x04\x14\x00\x08\x00\xa5", "a zip archive"), (b"%PDF-1.7\n\xe2\xe3\xcf\xd3", "a PDF document"),
])
def test_a_file_that_is_not_utf8_says_what_it_seems_to_be(tmp_path, data: bytes, why: str) -> None:
    with pytest.raises(EncodingError) as info:
        jsonverbs.parse_bytes(data, name="f")
    assert "is not valid UTF-8" in str(info.value) and why in str(info.value)
    (tmp_path / "f.json").write_bytes(data)
    r = run_tool("@json", {"cmd": "keys", "args": {"file": "f.json"}}, workspace=str(tmp_path))
    assert not r.ok and why in r.output, r.output
    with pytest.raises(EncodingError) as info:  # Latin-1 text: the byte's place, no guess
        jsonverbs.parse_bytes('{"a": "\u00e9"}'.encode("latin-1"), name="f")
    assert str(info.value).endswith("(offset 7)")


def test_text_with_a_lone_surrogate_stays_text() -> None:
    text = '{"a": "\ud800 x", "b": [1]}'
    doc = jsonverbs.parse_document(text)
    assert isinstance(doc.text, str)
    assert jsonverbs.get(doc, "a") == "\ud800 x"
    assert jsonverbs.keys(doc) == [["a", "string(3)"], ["b", "array[1]"]]


@pytest.mark.skipif(not toolmend.compiled, reason="the memory bound is for the compiled kernels (the "
                    "pure twin validates with the stdlib parser, which builds the document)")
def test_get_on_a_20_mb_file_stays_within_1_5x_its_size(tmp_path) -> None:
    """Measured in a fresh process: Python's allocations (tracemalloc, the
    file's bytes included) and, on Linux, the growth of the peak resident
    size (every allocation, the kernel's own included)."""
    rows = [{"id": i, "name": f"service-{i}", "k": "café — naïve " * (i % 7), "n": [i, 1.5, None]}
            for i in range(20_000)]
    piece = json.dumps(rows, ensure_ascii=False).encode()
    path = tmp_path / "big.json"
    with open(path, "wb") as fh:
        fh.write(b'{"meta": {"v": 1}, "items": [')
        written = 0
        while written < 19_000_000:
            fh.write(piece[1:-1] + b",")
            written += len(piece)
        fh.write('{"last": "é"}]}'.encode())
    size = os.path.getsize(path)
    script = textwrap.dedent(f"""
        import sys, tracemalloc
        from toolmend.tools import run_tool

        def status(field):  # kB, Linux only (the peak resident size of this process)
            try:
                with open("/proc/self/status") as fh:
                    return next(int(l.split()[1]) for l in fh if l.startswith(field + ":"))
            except (OSError, StopIteration):
                return -1

        run_tool("@json", {{"cmd": "get", "args": {{"text": "[1]", "path": "[0]"}}}})
        base = status("VmRSS")
        tracemalloc.start()
        r = run_tool("@json", {{"cmd": "get", "args": {{"file": "big.json", "path": "items[-1].last"}}}},
                     workspace={str(tmp_path)!r})
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        assert r.ok and r.data == "é", r.output
        print(peak, (status("VmHWM") - base) * 1024 if base >= 0 else -1)
    """)
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    traced, resident = map(int, out.stdout.split())
    print(f"\nget on {size / 1e6:.1f} MB: traced peak {traced / size:.2f}x, resident growth "
          f"{resident / size:.2f}x")
    assert traced <= 1.5 * size
    assert resident <= 1.5 * size


def _bad_texts(seed: int) -> list[bytes]:
    rnd = random.Random(seed)
    base = _wide_document(seed)
    out = []
    for _ in range(40):
        raw = base
        if rnd.random() < 0.5:  # one long line: the snippet is a window of it
            raw = json.dumps(json.loads(raw), ensure_ascii=False)
        data = raw.encode()
        pos = rnd.randrange(len(data))
        while pos < len(data) and (data[pos] & 0xC0) == 0x80:
            pos += 1
        junk = rnd.choice([b",", b"}", b"]", b"x", b"'", b"//", b"\n\n   ", b"tru", b"01", b"1.", b"\xff",
                           "é".encode(), b'"', b"\\", b"\x01", b"NaN", b" " * 300])
        op = rnd.random()
        if op < 0.4:
            data = data[:pos] + junk + data[pos:]
        elif op < 0.7:
            data = data[:pos] + data[pos + 1:]
        elif op < 0.85:
            data = data[:pos]
        else:
            data = b"\xef\xbb\xbf" + data[:pos] + junk
        out.append(data)
    return out


@pytest.mark.parametrize("seed", range(3))
def test_errors_from_bytes_are_the_errors_of_the_decoded_text(seed: int) -> None:
    """A syntax or encoding error in a file is reported from the bytes around
    it, exactly as the error for the decoded text."""
    def from_text(data: bytes) -> jsonverbs.Document:
        text = data.decode("utf-8")
        return jsonverbs.parse_document(text[1:] if text.startswith("\ufeff") else text,
                                        name="f", format="json")

    def from_bytes(data: bytes) -> jsonverbs.Document:
        return jsonverbs.parse_bytes(data, name="f", format="json")

    for data in _bad_texts(seed):
        got = _answer(from_bytes, data)
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            with pytest.raises(EncodingError) as info:
                toolmend._text.decode_utf8(data, "f")
            assert got == ("error", "EncodingError", str(info.value), sorted(vars(info.value).items()))
            continue
        assert got == _answer(from_text, data), data[:80]

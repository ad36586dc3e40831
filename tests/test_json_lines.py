"""JSON Lines (``.jsonl``, one value a line) and the notes of ``query``."""

from __future__ import annotations

import json
import os

import pytest

import toolmend
from toolmend import json as jsonverbs
from toolmend.errors import JSONSyntaxError, QueryError
from toolmend.json import JSONNumber
from toolmend.tools import Workspace, run_tool, run_tools, run_verb

LINES = (b'{"id": 1, "name": "web1", "status": "ok", "price": 1.50}\n'
         b'{"id": 2, "name": "db", "status": "failed", "price": 20}\n'
         b'\n'
         b'  {"id": 3, "name": "web2", "status": "failed", "price": 7}  \r\n')


def test_a_jsonl_document_is_the_array_of_its_lines():
    doc = jsonverbs.parse_bytes(LINES, format="jsonl")
    assert doc.format == "jsonl"
    assert jsonverbs.get(doc, "[1].name") == "db"
    assert jsonverbs.get(doc, "[-1].id") == 3  # the blank line is skipped
    assert jsonverbs.get(doc, "[0].price") == JSONNumber("1.50")
    assert jsonverbs.get(doc, "[*].id") == [1, 2, 3]
    assert [k for k, _ in jsonverbs.keys(doc)] == [0, 1, 2]
    assert jsonverbs.schema(doc)["type"] == "array"
    # query filters the lines
    result = jsonverbs.query(doc, "", "status=failed", ["name"])
    assert result.rows == [{"name": "db"}, {"name": "web2"}] and result.paths == ["[1]", "[2]"]
    same = jsonverbs.parse_document(LINES.decode(), format="jsonl")
    assert jsonverbs.get(same, "[*].name") == ["web1", "db", "web2"]
    assert jsonverbs.get(jsonverbs.parse_bytes(b"", format="jsonl")) == []
    assert jsonverbs.get(jsonverbs.parse_bytes(b'"one"', format="jsonl")) == ["one"]


def test_jsonl_files_by_their_suffix(tmp_path):
    for name in ("log.jsonl", "log.ndjson", "LOG.JSONL"):
        (tmp_path / name).write_bytes(LINES)
        assert jsonverbs.get(jsonverbs.load_file(tmp_path / name), "[2].name") == "web2"
        r = run_tool("@json", {"cmd": "get", "args": {"file": name, "path": "[2].name"}},
                     workspace=str(tmp_path))
        assert r.ok and r.data == "web2"
    r = run_tool("@json", {"cmd": "validate", "args": {"file": "log.jsonl"}}, workspace=str(tmp_path))
    assert r.ok and r.output == "valid JSON Lines"


@pytest.mark.parametrize("text,line,column", [
    (b'{"a": 1}\n{"a": 2, }\n', 2, 10),      # a bad line
    (b'1\n2, 3\n', 2, 2),                   # two values on one line: joined they would pass
    (b'{"a":\n1}\n', 1, 6),                 # one value over two lines
    (b'[1,\n2]\n', 1, 4),
    (b'{"a": 1}\n[1,\n2], 5\n', 2, 4),      # joined "[[1,2],5]" has as many values as lines
    (b'{"a": 1}\n{"b" 2}\n', 2, 6),
])
def test_a_line_that_is_not_one_value_is_refused_with_its_line(text, line, column):
    with pytest.raises(JSONSyntaxError) as info:
        jsonverbs.parse_bytes(text, name="log.jsonl", format="jsonl")
    assert (info.value.line, info.value.column) == (line, column)
    assert str(info.value).startswith("log.jsonl is not valid JSON Lines: ")
    assert f"at line {line}, column {column}" in str(info.value)
    result = jsonverbs.validate(text, "jsonl")
    assert not result["valid"] and result["format"] == "jsonl" and result["line"] == line


def test_jsonl_that_is_not_utf8_is_refused():
    with pytest.raises(ValueError, match="not valid UTF-8"):
        jsonverbs.parse_bytes(b'{"a": "caf\xe9"}\n', format="jsonl")


def test_json_lines_read_as_json_say_so():
    with pytest.raises(JSONSyntaxError, match="JSON Lines: format jsonl"):
        jsonverbs.parse_bytes(LINES)
    with pytest.raises(JSONSyntaxError) as info:  # not two whole lines: no such hint
        jsonverbs.parse_bytes(b'{"a": 1} x\n')
    assert "JSON Lines" not in str(info.value)


# ---------------------------------------------------------------------------
# query: no silent empty answer

ROWS = [{"name": "web1", "a": 1, "b": 3, "price": 10, "code": "10", "tags": ["x"], "mixed": "10"},
        {"name": "db", "a": 2, "b": 1, "price": 5, "code": "9", "tags": ["y"], "mixed": 12},
        {"name": "web2", "a": 1, "b": 1, "price": 7, "code": "12", "tags": [], "mixed": 3}]


def _notes(where: str, **kw) -> tuple[int, list[str]]:
    result = jsonverbs.query(json.dumps(ROWS), "", where, **kw)
    return result.matched, result.notes


@pytest.mark.parametrize("where,matched,expected", [
    ("name=~web", 0, "the value starts with '~'; a regex match is written name~web"),
    ("name!=~web", 3, "a regex match is written name!~web"),
    ("a=1 and b>2", 0, "did you mean 'a=1 && b>2'?"),
    ("a=1 AND b>2", 0, "did you mean 'a=1 && b>2'?"),
    ("name=db or name=web1", 0, "did you mean 'name=db || name=web1'?"),
    ("a=1,b=3", 0, "did you mean 'a=1 && b=3'?"),
    ("price>abc", 0, "price holds numbers and 'abc' is not one"),
    ("price=ten", 0, "price holds numbers and 'ten' is not one"),
    ("code>9", 0, "code holds text (such as '10'), compared as text with '9'"),
    ("mixed>9", 1, "mixed holds text among its numbers (such as '10'), compared as text with '9'"),
    ("tags[*]=~x", 0, "a regex match is written tags[*]~x"),
])
def test_query_notes_what_went_wrong(where, matched, expected):
    got, notes = _notes(where)
    assert got == matched
    assert any(expected in note for note in notes), notes
    assert all(note.startswith(f"note: where {where!r}: ") for note in notes)


@pytest.mark.parametrize("where", [
    "name~web", "name=db", 'name="~web"', "name='a and b'", "price>5", "code>'9'",
    "name=web1 || name=~nothing-matches-this",  # the regex-looking value is a note: see below
])
def test_query_gives_no_note_for_a_condition_that_worked(where):
    got, notes = _notes(where)
    if "~nothing" in where:
        assert got == 1 and len(notes) == 1 and "name~nothing-matches-this" in notes[0]
    else:
        assert notes == [], notes


def test_query_a_condition_that_kept_rows_gets_no_note_even_if_it_looks_odd():
    rows = [{"title": "~home"}, {"title": "x and y"}, {"title": "a,b"}]
    for where in ("title=~home", "title=x and y", "title=a,b"):
        result = jsonverbs.query(json.dumps(rows), "", where)
        assert result.matched == 1 and result.notes == [], (where, result.notes)


def test_query_sort_field_no_row_has_is_refused_with_a_did_you_mean():
    with pytest.raises(QueryError, match=r"sort field 'pirce'.*did you mean 'price'\?"):
        jsonverbs.query(json.dumps(ROWS), "", sort="pirce")
    with pytest.raises(QueryError, match="did you mean 'price'"):
        jsonverbs.query(json.dumps(ROWS), "", "a=1", sort="Price")
    # present in some rows only: sorted, those without it last
    rows = ROWS + [{"name": "none"}]
    result = jsonverbs.query(json.dumps(rows), "", sort="price")
    assert [r["name"] for r in result.rows] == ["db", "web2", "web1", "none"]
    assert jsonverbs.query("[]", "", sort="pirce").rows == []  # no rows: nothing to refuse


def test_query_select_field_gets_a_did_you_mean():
    result = jsonverbs.query(json.dumps(ROWS), "", select=["nmae"])
    assert any("did you mean 'name'?" in note for note in result.notes), result.notes


def test_the_notes_reach_the_tool_output(tmp_path):
    (tmp_path / "rows.json").write_text(json.dumps(ROWS))
    for where, expected in [("name=~web", "name~web"), ("a=1 and b>2", "a=1 && b>2"),
                            ("price>abc", "'abc' is not one")]:
        r = run_tool("@json", {"cmd": "query", "args": {"file": "rows.json", "where": where}},
                     workspace=str(tmp_path))
        assert r.ok and r.output.startswith(f"note: where {where!r}: ") and expected in r.output
        assert "0 of 3 rows in $ matched" in r.output
    r = run_tool("@json", {"cmd": "query", "args": {"file": "rows.json", "sort": "pirce"}},
                 workspace=str(tmp_path))
    assert not r.ok and "did you mean 'price'?" in r.output
    r = run_verb("json", "query", {"file": "rows.json", "where": "name=~web"},
                 Workspace(str(tmp_path)))
    assert r.ok and any("name~web" in w for w in r.warnings)


# ---------------------------------------------------------------------------
# workspace=None is the current folder; the workspace's size and pipe rules

def test_workspace_none_is_the_current_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "d.json").write_text('{"k": 7}')
    call = {"cmd": "get", "args": {"file": "d.json", "path": "k"}}
    assert run_tool("@json", call, workspace=None).data == 7
    assert toolmend.run_tool("@json", call, None).data == 7
    assert run_verb("json", "get", {"file": "d.json", "path": "k"}, None).data == 7
    [one] = run_tools([{"name": "@json", "arguments": call}], workspace=None)
    assert one.data == 7
    assert Workspace(None).root == os.path.realpath(tmp_path)


def test_workspace_max_size_and_pipes(tmp_path):
    (tmp_path / "f.txt").write_bytes(b"x" * 5000)
    assert Workspace(str(tmp_path)).cap(100) == 100
    assert Workspace(str(tmp_path), max_size=None).read_bytes("f.txt", 100) == b"x" * 5000
    with pytest.raises(ValueError, match="the limit is 1000 B|the limit is 1,000|limit is"):
        Workspace(str(tmp_path), max_size=1000).read_bytes("f.txt", 10**9)
    for bad in (-1, "big", 1.5, True):
        with pytest.raises(ValueError, match="max_size"):
            Workspace(str(tmp_path), max_size=bad)  # type: ignore[arg-type]
    if hasattr(os, "mkfifo"):
        os.mkfifo(tmp_path / "fifo")
        # an agent's workspace never opens a FIFO (it could wait forever)
        with pytest.raises(ValueError, match="not a regular file"):
            Workspace(str(tmp_path)).read_bytes("fifo", 100)
    if os.path.exists("/dev/null"):
        ws = Workspace("/", confined=False, pipes=True)
        assert ws.read_bytes("/dev/null", 100) == b""
        with pytest.raises(ValueError, match="not a regular file"):
            Workspace("/", confined=False).read_bytes("/dev/null", 100)


# ---------------------------------------------------------------------------
# plurals: "1 file", "2 branches"

def test_counts_agree_with_their_nouns(tmp_path):
    from toolmend._text import human_size, plural

    assert [plural(n, "file") for n in (0, 1, 2, 1000)] == ["0 files", "1 file", "2 files",
                                                             "1,000 files"]
    assert plural(1, "branch") == "1 branch" and plural(3, "branch") == "3 branches"
    assert plural(2, "entry") == "2 entries" and plural(2, "key") == "2 keys"
    assert human_size(1) == "1 byte" and human_size(2) == "2 bytes"
    doc = '{"a": [{"x": 1}, {"y": 2}, {"y": 3}], "b": [{"x": 5}]}'
    r = run_tool("@json", {"cmd": "get", "args": {"text": doc, "path": "a[*].x"}})
    assert r.ok and r.output.startswith("1 value for a[*].x (2 branches skipped")
    r = run_tool("@json", {"cmd": "get", "args": {"text": doc, "path": "a[*].y"}})
    assert r.output.startswith("2 values for a[*].y (1 branch skipped")
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "f.txt").write_text("1\n")
    (tmp_path / "b" / "f.txt").write_text("2\n")
    r = run_tool("@diff", {"cmd": "dirs", "args": {"a": "a", "b": "b"}}, workspace=str(tmp_path))
    assert r.ok and "1 file compared" in r.output
    (tmp_path / "one.txt").write_text("x\n")
    patch = "--- one.txt\n+++ one.txt\n@@ -1 +1 @@\n-x\n+y\n"
    r = run_tool("@diff", {"cmd": "apply", "args": {"file": "one.txt", "patch": patch}},
                 workspace=str(tmp_path))
    assert r.ok and "1 hunk, +1 -1 lines (1 -> 1 lines)" in r.output, r.output
    (tmp_path / "z.bin").write_bytes(b"\0")
    (tmp_path / "y.bin").write_bytes(b"\0\0")
    r = run_tool("@diff", {"cmd": "files", "args": {"a": "z.bin", "b": "y.bin"}},
                 workspace=str(tmp_path))
    assert r.ok and "(1 byte and 2 bytes)" in r.output


@pytest.mark.parametrize("blank", ["\x0b", "\x0c", "\x1c", "\u0085", "\u3000"])
def test_a_line_of_what_json_calls_no_blank_is_refused_not_skipped(blank):
    # (JSON's blanks are space, tab, CR and LF: a line holding another is no value, and no blank line)
    text = "1\n" + blank + "\n2\n"
    for read in (lambda: jsonverbs.parse_bytes(text.encode(), format="jsonl"),
                 lambda: jsonverbs.parse_document(text, format="jsonl")):
        with pytest.raises(JSONSyntaxError, match="line 2"):
            read()
    assert jsonverbs.get(jsonverbs.parse_document("1\n \t\r\n\n2\n", format="jsonl"), "[1]") == 2

"""@json on real payloads: YAML streams, queries that say what they missed,
paths with slices, data that orjson can write, indexes that cannot blow up."""

from __future__ import annotations

import json
import subprocess
import sys

import orjson
import pytest
from clirun import cli

import toolmend
from toolmend import json as tj
from toolmend.errors import PathNotFound, QueryError

MANIFESTS = """\
apiVersion: v1
kind: Service
metadata: {name: web}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 3
---
"""

ROWS = json.dumps({"items": [
    {"id": i, "name": f"svc-{i}", "status": "failed" if i % 3 == 0 else "ok",
     "score": (i * 7) % 10, "labels": [{"name": "bug" if i % 4 == 0 else "feature"}]}
    for i in range(20)]})


def run(cmd: str, **args):
    return toolmend.run_tool("@json", {"cmd": cmd, "args": args})


def test_multi_document_yaml_reads_as_a_list(tmp_path, monkeypatch):
    doc = tj.parse_document(MANIFESTS, format="yaml")
    assert tj.get(doc, "[*].kind") == ["Service", "Deployment"]
    assert tj.get(doc, "[1].spec.replicas") == 3
    r = run("keys", text=MANIFESTS, format="yaml")
    assert r.ok and r.data == [[0, "object{3}"], [1, "object{4}"]]
    monkeypatch.chdir(tmp_path)
    (tmp_path / "k8s.yaml").write_text(MANIFESTS)
    out = cli("json", "get", "--file", "k8s.yaml", "--path", "[*].metadata.name")
    assert out.rc == 0 and out.text.startswith("2 values for *.metadata.name")
    # one document with a leading '---' stays one document
    assert tj.get("---\nkind: Pod\n", "kind") == "Pod"


def test_a_field_no_row_has_is_refused_with_the_near_name():
    with pytest.raises(QueryError) as info:
        tj.query(ROWS, "items", "stauts=failed")
    assert info.value.field == "stauts"
    assert "no row of 20 has the field 'stauts'" in str(info.value)
    assert "did you mean 'status'" in str(info.value)
    r = run("query", text=ROWS, path="items", where="name=x && stauts=failed")
    assert not r.ok and "'stauts'" in r.output
    # a field that exists but matches nothing: an empty answer, not an error
    assert tj.query(ROWS, "items", "status=gone").rows == []
    r = run("query", text=ROWS, path="items", where="id<3", select=["id", "nmae"])
    assert r.ok and any("no row shown has the field 'nmae'" in w and "'name'" in w
                        for w in r.warnings)


def test_offset_sort_and_descending():
    q = tj.query(ROWS, "items", "", select=["id", "score"], limit=3, sort="score", desc=True)
    assert [(row["id"], row["score"]) for row in q.rows] == [(7, 9), (17, 9), (4, 8)]
    assert q.matched == 20
    q = tj.query(ROWS, "items", "status=ok", select=["id"], limit=2, offset=2, sort="id")
    assert [row["id"] for row in q.rows] == [4, 5]
    r = run("query", text=ROWS, path="items", where="status=ok", select="id", limit=2, offset=4,
            sort="id", desc=True)
    assert r.ok and [row["id"] for row in r.data] == [13, 11]
    assert "sorted by id (descending)" in r.output and "from row 4" in r.output
    mixed = '[{"v": "b"}, {"v": 2}, {}, {"v": null}, {"v": true}, {"v": "a"}, {"v": 1.5}]'
    assert [r.get("v", "-") for r in tj.query(mixed, "", "", sort="v").rows] == [
        None, True, 1.5, 2, "a", "b", "-"]


def test_slices_in_paths():
    data = '{"items": [10, 11, 12, 13, 14, 15], "obj": {"a": 1}}'
    assert tj.get(data, "items[0:2]") == [10, 11]
    assert tj.get(data, "items[-2:]") == [14, 15]
    assert tj.get(data, "items[:0]") == []
    assert tj.get(ROWS, "items[1:3].id") == [1, 2]
    with pytest.raises(PathNotFound) as info:
        tj.get(data, "obj[0:1]")
    assert info.value.reason == "not_container" and "needs an array" in str(info.value)
    r = run("get", text=data, path="items[2:4]")
    assert r.ok and r.data == [12, 13] and r.output.startswith("2 values for items[2:4]")
    assert tj.format_path(tj.parse_path("a[1:3].b[:2]")) == "a[1:3].b[:2]"


def test_conditions_on_any_element_and_alternatives():
    bugs = tj.query(ROWS, "items", "labels[*].name=bug", select=["id"], limit=100).rows
    assert [row["id"] for row in bugs] == [0, 4, 8, 12, 16]
    none = tj.query(ROWS, "items", "labels[*].name!=bug", select=["id"], limit=100).rows
    assert len(none) == 15 and {"id": 4} not in none
    either = tj.query(ROWS, "items", "id=1 || id=2 && status=ok || id=3", select=["id"]).rows
    assert [row["id"] for row in either] == [1, 2, 3]
    assert tj.query(ROWS, "items", "id<2 || id>=18", select=["id"]).matched == 4


def test_library_verbs_accept_parsed_values():
    value = {"a": {"b": [1, 2, 3]}, "n": 1.5}
    assert tj.get(value, "a.b[-1]") == 3
    assert tj.keys(value) == [["a", "object{1}"], ["n", "number"]]
    assert tj.query([{"x": 1}, {"x": 2}], "", "x>1").rows == [{"x": 2}]
    assert tj.schema(value)["type"] == "object"
    assert tj.pretty([1, {"a": None}], compact=True) == '[1,{"a":null}]'


def test_numbers_in_data_are_written_exactly():
    r = run("get", text='{"a": [1.10, 1E5, -0, 1e400, 2.5]}', path="a")
    assert tj.dumps(r.data) == "[1.10,1E5,-0,1e400,2.5]"
    assert orjson.dumps(r.data, default=tj.default) == b"[1.10,1E5,-0,1e400,2.5]"
    big = tj.loads('{"big": 123456789012345678901234567890}')
    assert big["big"] == 123456789012345678901234567890 and tj.dumps(big) == (
        '{"big":123456789012345678901234567890}')


@pytest.mark.parametrize("index", ["[-999999999999]", "[-99999999]", "[-5000]", "[-4]"])
def test_a_negative_index_never_allocates_more_than_the_array(index):
    code = ("import toolmend.json as j, sys\n"
            "def peak():  # VmHWM: ru_maxrss keeps the parent's peak across exec\n"
            "    return [int(l.split()[1]) for l in open('/proc/self/status') if l.startswith('VmHWM')][0]\n"
            "before = peak()\n"
            "try:\n"
            f"    j.get('[1, 2, 3]', {index!r})\n"
            "except j.PathNotFound as e:\n"
            "    assert e.reason == 'out_of_range', e.reason\n"
            "else:\n"
            "    sys.exit('no error')\n"
            "grew = peak() - before\n"
            "assert grew < 50_000, grew\n")
    run_ = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert run_.returncode == 0, run_.stderr
    assert tj.get("[1, 2, 3]", "[-3]") == 1
    big = "[" + ",".join(map(str, range(10_000))) + "]"
    assert tj.get(big, "[-5000]") == 5000 and tj.get(big, "[-10000]") == 0


def test_yaml_keys_that_are_one_json_key_are_noted():
    # 1, true and "1" are three keys in YAML; a Python dict merged 1 and true
    # (equal in Python) before the conversion could see them
    r = run("get", text='1: a\ntrue: b\n"1": c\n', format="yaml")
    assert r.ok and r.data == {"1": "c", "true": "b"}
    assert r.warnings == ('note: YAML at line 3: the keys 1 (line 1) and "1" are both the JSON '
                          'key "1"; the last value is kept',)
    r = run("get", text="1: a\n0x1: b\n1.0: c\nnull: d\n~: e\nFalse: f\n", format="yaml")
    assert r.data == {"1": "b", "1.0": "c", "null": "e", "false": "f"}
    assert [w.split(": the keys ")[1] for w in r.warnings] == [
        '1 (line 1) and 0x1 are both the JSON key "1"; the last value is kept',
        'null (line 4) and ~ are both the JSON key "null"; the last value is kept']
    assert tj.keys('1: a\ntrue: b\n"1": c\n') == [["1", "string(1)"], ["true", "string(1)"]]
    # a set keeps every member, as an object of nulls in the written order
    assert tj.get("!!set {a, 1, true}\n") == {"a": None, "1": None, "true": None}
    # the same key twice keeps its own note, once
    assert run("get", text="a: 1\n'a': 2\n", format="yaml").warnings == (
        "note: YAML at line 2: the key 'a' is there already (line 1); the last value is kept",)


def test_json_duplicate_keys_follow_last_wins_in_every_verb():
    text = '{"a": 1, "b": {"x": 1, "x": 2}, "a": 2}'
    assert tj.get(text, "a") == 2
    assert tj.get(text, "*") == [2, {"x": 2}]
    assert tj.get(text, "b.*") == [2]
    # a listing counts a member's keys as written (decoding them all would double its time)
    assert tj.keys(text) == [["a", "number"], ["b", "object{2}"]]
    assert tj.keys(text, "b") == [["x", "number"]]
    assert tj.schema(text)["size"] == [2, 2] and tj.schema(text)["keys"]["b"]["size"] == [1, 1]
    assert tj.query('{"r": {"k": 1}, "r": {"k": 2}}', "", "k>0").rows == [{"k": 2}]
    assert tj.query('[{"t": {"n": 1, "n": 2}}]', "", "t.*=1").matched == 0
    r = run("keys", text=text)
    assert "\n$: object{2}\n" in r.output  # after the note: an agent reads notes first
    assert "  b: object{2}" in r.output
    assert "\nb: object{1}\n" in run("keys", text=text, path="b").output
    assert r.warnings == ("note: JSON: the key 'a' is given 2 times in $; the last value is kept",)
    r = run("get", text=text, path="*")
    assert r.data == [2, {"x": 2}] and "\n2 values for *\n" in r.output
    assert r.warnings == ("note: JSON: the key 'a' is given 2 times in $; the last value is kept",)
    assert run("get", text=text, path="b.*").warnings == (
        "note: JSON: the key 'x' is given 2 times in b; the last value is kept",)
    r = run("schema", text=text)
    assert "note: JSON: the key 'a' is given 2 times in an object; the last value is kept" in (
        r.warnings)
    # a cut get says the size get returns
    big = "{" + ",".join(f'"k{i % 30000}": {i}' for i in range(60000)) + "}"
    r = run("get", text=big)
    assert r.truncated and "object{30000}" in r.output and len(r.data) == 30000
    assert run("keys", text='{"a": 1, "b": 2}').warnings == ()
    assert run("get", text='{"a": {"b": 1}}', path="*").warnings == ()
    # a plain path through a key given twice says which value it read, and where
    r = run("get", text=text, path="a")
    assert r.data == 2
    assert r.warnings == ("note: JSON: the key 'a' is given 2 times in $; the last value is kept",)
    r = run("get", text='{"b": {"x": 1, "x": 2, "x": 3}}', path="b.x")
    assert r.data == 3
    assert r.warnings == ("note: JSON: the key 'x' is given 3 times in b; the last value is kept",)
    assert run("get", text=text, path="b").warnings == ()  # (b itself is given once)
    r = run("get", text='{"a": 0, "a": {"b": {"c": 1, "c": 2}}}', path="a.b.c")  # each repeat said
    assert r.data == 2 and r.warnings == (
        "note: JSON: the key 'a' is given 2 times in $; the last value is kept",
        "note: JSON: the key 'c' is given 2 times in a.b; the last value is kept")


def test_yaml_1_1_surprises_are_noted_on_stderr_not_in_the_data(tmp_path, monkeypatch):
    text = "country: no\nmode: 0777\ntime: 1:20\nquoted: \"yes\"\nflag: true\n"
    r = run("get", text=text, format="yaml")
    assert r.ok and r.data == {"country": False, "mode": 511, "time": 80, "quoted": "yes",
                               "flag": True}
    assert r.warnings == (
        "note: YAML 1.1 at line 1: 'no' is read as a boolean (quote it to keep the text)",
        "note: YAML 1.1 at line 2: '0777' is read as an octal number (quote it to keep the text)",
        "note: YAML 1.1 at line 3: '1:20' is read as a base-60 number (quote it to keep the text)",
    )
    monkeypatch.chdir(tmp_path)
    (tmp_path / "c.yaml").write_text(text)
    out = cli("json", "get", "--file", "c.yaml", "--path", "country")
    assert out.rc == 0 and out.text == "false\n" and "'no' is read as a boolean" in out.err
    assert run("get", text="a: true\nb: 'no'\n", format="yaml").warnings == ()
    # YAML 1.2 reads these as text; PyYAML (1.1) as numbers
    r = run("get", text="n: 1_000\nb: 0b101\nf: 1_0.5\nh: 0x1F\ns: '1_000'\n", format="yaml")
    assert r.data == {"n": 1000, "b": 5, "f": 10.5, "h": 31, "s": "1_000"}
    assert r.warnings == (
        "note: YAML 1.1 at line 1: '1_000' is read as a number, its underscores dropped (quote it to keep "
        "the text)",
        "note: YAML 1.1 at line 2: '0b101' is read as a binary number (quote it to keep the text)",
        "note: YAML 1.1 at line 3: '1_0.5' is read as a number, its underscores dropped (quote it to keep "
        "the text)")
    # ... and these as text, where YAML 1.2 and JSON read numbers
    r = run("get", text="a: 1e5\nb: -2E5\nc: 1.5e3\nd: 0o17\nok: 1.0e+5\ns: '1e5'\n", format="yaml")
    assert r.data == {"a": "1e5", "b": "-2E5", "c": "1.5e3", "d": "0o17", "ok": 100000.0, "s": "1e5"}
    assert r.warnings == tuple(f"note: YAML 1.1 at line {n}: {v!r} is read as text, where YAML 1.2 {how}"
                               for n, v, how in (
        (1, "1e5", "and JSON read a number (write 1.0e+5 for the number)"),
        (2, "-2E5", "and JSON read a number (write -2.0e+5 for the number)"),
        (3, "1.5e3", "and JSON read a number (write 1.5e+3 for the number)"),
        (4, "0o17", "reads the octal number 15 (write 15 for the number)")))


def test_yaml_numbers_json_cannot_hold_are_text_with_a_note():
    r = run("get", text="a: .inf\nb: -.Inf\nc: .nan\nd: '.inf'\n", format="yaml")
    assert r.ok and r.data == {"a": ".inf", "b": "-.Inf", "c": ".nan", "d": ".inf"}
    why = "is kept as text (JSON has no infinity and no NaN)"
    assert list(r.warnings) == [f"note: YAML 1.1 at line {n}: '{v}' {why}"
                                for n, v in ((1, ".inf"), (2, "-.Inf"), (3, ".nan"))]


def test_a_yaml_key_given_twice_is_noted():
    # YAML forbids it; PyYAML keeps the last value silently: we say so
    r = run("get", text="a: 1\nb: 2\na: 3\n", format="yaml")
    assert r.ok and r.data == {"a": 3, "b": 2}
    assert r.warnings == ("note: YAML at line 3: the key 'a' is there already (line 1); "
                          "the last value is kept",)
    assert run("get", text="- {k: 1, k: 2}", format="yaml").warnings[0].startswith(
        "note: YAML at line 1: the key 'k'")
    # merge keys and one anchor used twice are not duplicates
    assert run("get", text="<<: {x: 1}\n<<: {y: 2}\nb: &b {a: 1}\nc: *b\n", format="yaml").warnings == ()


def test_a_scalar_whose_tag_gives_another_type_gets_no_yaml_1_1_note():
    # (the tag is the type asked for, in any YAML version: "123" is text, 1e5 a number)
    r = run("get", text="a: !!str 123\nb: !!float 1e5\nc: !!str yes\n", format="yaml")
    assert r.ok and r.data == {"a": "123", "b": 1e5, "c": "yes"} and r.warnings == ()


def test_a_scalar_whose_tag_gives_the_type_it_reads_as_gets_no_yaml_1_1_note():
    # (!!bool yes asks for the boolean, !!str 1e5 for the text: nothing to quote, in any version;
    # an anchor before the tag too, a line break between them too, and a value in a flow list)
    text = ("a: !!bool yes\nb: !!str 1e5\nc: &x !!str 1e5\nd: &y\n  !!int 0777\ne: [!!bool on, off]\n"
            "f: \"\u00e9\u20ac\U0001F600\"\ng: !!bool no\nh: yes\ni: &z yes\n")
    r = run("get", text=text, format="yaml")
    assert r.ok and r.data == {"a": True, "b": "1e5", "c": "1e5", "d": 511, "e": [True, False],
                               "f": "\u00e9\u20ac\U0001F600", "g": False, "h": True, "i": True}
    assert r.warnings == (
        "note: YAML 1.1 at line 6: 'off' is read as a boolean (quote it to keep the text)",
        "note: YAML 1.1 at line 9: 'yes' is read as a boolean (quote it to keep the text)",
        "note: YAML 1.1 at line 10: 'yes' is read as a boolean (quote it to keep the text)")

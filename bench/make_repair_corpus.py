#!/usr/bin/env python3
"""Write the repair corpus, tests/data/repair/<category>.jsonl, and check it.

    python bench/make_repair_corpus.py          # rewrite the files
    python bench/make_repair_corpus.py --check  # only check that the files are up to date

The cases are Python literals here, so that the JSON escaping of the files is never written by
hand: ``input`` is the text exactly as a model wrote it, ``expect`` the value intended. Where the
exactness of a number matters, ``expect_text`` gives the canonical JSON text and the file's
``expect`` is written from that text, digit for digit. Refuse cases carry ``why``.

The rules the expectations follow (SPEC §5): a repair adds structure only (quotes, commas,
colons, closing brackets, ``null`` for a missing value) and never content; when two readings are
plausible the one that keeps every character wins; when no reading is safe, the input is refused.
Inputs whose intended value is genuinely debatable are left out.

Checks: every input that is not marked as valid JSON really is invalid JSON, ids are unique,
``expect_text`` parses to ``expect``, tools are known, every file parses back to the same cases.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from score_repair import parse_exact, same_value, tool_field  # noqa: E402

OUT_DIR = Path(__file__).resolve().parent.parent / "tests" / "data" / "repair"

_NO = object()
CASES: dict[str, list[dict]] = {}


def add(category, text, expect=_NO, *, tool=None, refuse=False, why=None, note=None,
        expect_text=None, expect_raw=None, valid=False, cut=False):
    """One case. ``valid=True``: the input is allowed to be valid JSON already;
    ``cut=True``: the input ends inside a value (a string, a number, a key, a
    literal, after a comma, a colon or an opening bracket), so ``expect`` is the
    completed reading, which must be reported as cut and never as whole."""
    cases = CASES.setdefault(category, [])
    case = {"id": f"{category}-{len(cases) + 1:03d}", "category": category}
    if tool is not None:
        case["tool"] = tool
    case["input"] = text
    if refuse:
        assert expect is _NO and expect_text is None and why, case
        case["refuse"] = True
        case["why"] = why
    else:
        assert (expect is not _NO) or expect_text is not None or expect_raw is not None, case
        case["_expect"] = expect
        case["_raw"] = expect_raw if expect_raw is not None else expect_text
        if expect_text is not None:
            case["expect_text"] = expect_text
    if cut:
        case["cut"] = True
    if note:
        case["note"] = note
    case["_valid"] = valid
    cases.append(case)


def refuse(category, text, why, *, tool=None, note=None):
    add(category, text, tool=tool, refuse=True, why=why, note=note)


def add_cut(category, text, expect, **kw):
    """A case whose input ends inside a value (see ``add``)."""
    add(category, text, expect, cut=True, **kw)


# ---------------------------------------------------------------------------
# code fences, prose and chat-template tokens around the JSON

C = "fence"
add(C, '```json\n{"cmd": "ls -la /var/log"}\n```', {"cmd": "ls -la /var/log"})
add(C, '```\n{"file": "src/main.py"}\n```', {"file": "src/main.py"})
add(C, '```JSON\n{"path": "README.md", "limit": 40}\n```', {"path": "README.md", "limit": 40})
add(C, '```jsonc\n{"query": "SELECT id, name FROM users WHERE active = 1"}\n```  \n',
    {"query": "SELECT id, name FROM users WHERE active = 1"})
add(C, '```json {"a": 1} ```', {"a": 1}, note="the fence on the JSON's own line")
add(C, '```json\n{"pattern": "*.py", "path": "src"}```', {"pattern": "*.py", "path": "src"})
add(C, 'Here is the tool call:\n```json\n{"path": "/etc/hosts"}\n```', {"path": "/etc/hosts"})
add(C, '```json\n{"dir": "tests/unit", "verbose": true}\n```\nLet me know if you need anything else.',
    {"dir": "tests/unit", "verbose": True})
add(C, "Sure! I'll run the tests now.\n\n{\"dir\": \"tests/unit\", \"verbose\": true}",
    {"dir": "tests/unit", "verbose": True}, note="an apostrophe in the prose is not a quote")
add(C, '{"command": "git status"}\nI have run git status to check the working tree.',
    {"command": "git status"})
add(C, 'Calling the tool with {"pattern": "*.py"} now.', {"pattern": "*.py"})
add(C, 'Arguments: {"x": 1, "y": [2, 3]}', {"x": 1, "y": [2, 3]})
add(C, 'Let me search for "TODO" comments:\n{"pattern": "TODO", "path": "src"}',
    {"pattern": "TODO", "path": "src"}, note="a quoted word in the prose is prose")
add(C, '{"cmd": "make test"}<|im_end|>', {"cmd": "make test"})
add(C, '<|im_start|>assistant\n{"cmd": "pwd"}<|im_end|>\n', {"cmd": "pwd"})
add(C, '{"location": "Paris", "unit": "celsius"}<|eot_id|>', {"location": "Paris", "unit": "celsius"})
add(C, '<|python_tag|>{"name": "get_weather", "parameters": {"city": "Oslo"}}<|eom_id|>',
    {"name": "get_weather", "parameters": {"city": "Oslo"}})
add(C, '<|channel|>final<|message|>{"cmd": "uptime"}<|call|>', {"cmd": "uptime"})
add(C, '{"a": 1}</s>', {"a": 1})
add(C, '<tool_call>\n{"name": "read_file", "arguments": {"path": "app.py"}}\n</tool_call>',
    {"name": "read_file", "arguments": {"path": "app.py"}})
add(C, '<think>I need the list of files first.</think>\n{"dir": "."}', {"dir": "."})
add(C, 'json\n{"a": 1, "b": "two"}', {"a": 1, "b": "two"}, note="a fence that lost its backticks")
add(C, '```json\n{"file": "notes.md"}', {"file": "notes.md"}, note="fence never closed")
add(C, '```json\n{"file": "notes.md", "mode": "w"', {"file": "notes.md", "mode": "w"},
    note="fence never closed and the JSON cut off")
add(C, "I'll call `read_file` with:\n```json\n{\"path\": \"/etc/hosts\"}\n```",
    {"path": "/etc/hosts"})
add(C, 'The answer is:\n\n```json\n{\n  "name": "deploy",\n  "args": {"env": "prod", "dry_run": true}\n}\n```',
    {"name": "deploy", "args": {"env": "prod", "dry_run": True}})
add(C, '```json\n{"a": 1}\n```<|im_end|>', {"a": 1})
add(C, '```json\n[{"op": "add", "path": "/a", "value": 1}]\n```', [{"op": "add", "path": "/a", "value": 1}])
add(C, '```json\n{"content": "```python\\nprint(1)\\n```\\n", "file_path": "README.md"}\n```',
    {"content": "```python\nprint(1)\n```\n", "file_path": "README.md"},
    note="a fence inside a JSON string is content")
add(C, "```json\n\n{\"sql\": \"SELECT * FROM t WHERE name = 'O''Brien'\"}\n\n```",
    {"sql": "SELECT * FROM t WHERE name = 'O''Brien'"})
add(C, '~~~json\n{"cmd": "cargo build --release"}\n~~~', {"cmd": "cargo build --release"})
add(C, '  \n```json\n  {"a": true}\n```\n\nDone.', {"a": True})
add(C, 'Okay, here you go:\n{"file_path": "src/lib.rs", "old_string": "fn a()", "new_string": "fn b()"}\nThis renames the function.',
    {"file_path": "src/lib.rs", "old_string": "fn a()", "new_string": "fn b()"})
add(C, '```json\n{"command": "npm run build"}\n```', {"command": "npm run build"}, tool="bash")
add(C, '<|start_header_id|>assistant<|end_header_id|>\n\n{"query": "weather in Lisbon"}<|eot_id|>',
    {"query": "weather in Lisbon"})

# ---------------------------------------------------------------------------
# comments: //, /* */ and # outside strings

C = "comments"
add(C, '{\n  // the file to read\n  "file": "main.go"\n}', {"file": "main.go"})
add(C, '{"cmd": "ls", /* list */ "dir": "/tmp"}', {"cmd": "ls", "dir": "/tmp"})
add(C, '{\n  "a": 1, # count\n  "b": 2\n}', {"a": 1, "b": 2})
add(C, '{"url": "http://example.com/x", // homepage\n "n": 1}', {"url": "http://example.com/x", "n": 1},
    note="// inside the string is content")
add(C, '{"pattern": "#include <stdio.h>", # the pattern\n "path": "src"}',
    {"pattern": "#include <stdio.h>", "path": "src"})
add(C, '[/* a */ 1, 2]', [1, 2])
add(C, '[/* a */,1,2]', [1, 2], note="the comment goes, then the stray leading comma")
add(C, '{"a": 1 // trailing\n}', {"a": 1})
add(C, '{"a": 1}\n// done', {"a": 1})
add(C, '// tool call\n{"a": 1}', {"a": 1})
add(C, '/* multi\n   line */ {"a": 1}', {"a": 1})
add(C, '{"a": 1 /* unfinished', {"a": 1}, note="cut off inside a comment")
add(C, '{cmd: "ls", // list\n dir: "/tmp"}', {"cmd": "ls", "dir": "/tmp"})
add(C, "{'regex': 'a/*b*/c', /* real comment */ 'x': 1}", {"regex": "a/*b*/c", "x": 1})
add(C, '{"a": 1, /* "b": 2, */ "c": 3}', {"a": 1, "c": 3})
add(C, '{\n  "cmd": "npm test" // run tests\n}', {"cmd": "npm test"})
add(C, '[\n  1,\n  # two\n  3\n]', [1, 3])
add(C, '{"path": "C:\\\\tmp\\\\x.log" // windows\n}', {"path": "C:\\tmp\\x.log"})
add(C, '{"a": 1, // x\n}', {"a": 1})
add(C, '{"a": /* none */ null}', {"a": None})
add(C, '{"a" /* k */ : 1}', {"a": 1})
add(C, '{"opts": {/* none yet */}}', {"opts": {}})
add(C, '{"a": 1} /* trailing */', {"a": 1})
add(C, '{"a": 1} # done', {"a": 1})
add(C, ' // first\n// second\n{"x": [1, 2]}', {"x": [1, 2]})
add(C, '{"s": "/* not a comment */", /* but this is */ "t": "# nor this"}',
    {"s": "/* not a comment */", "t": "# nor this"})
add(C, '{\n  "sql": "SELECT 1 -- not a comment either",\n  // real\n  "db": "main"\n}',
    {"sql": "SELECT 1 -- not a comment either", "db": "main"})
add(C, '{"a": 1,\n#"b": 2,\n"c": 3}', {"a": 1, "c": 3})
add(C, '{\n  "file_path": "app.py", // target\n  "content": "# header\\nprint(1)\\n" /* body */\n}',
    {"file_path": "app.py", "content": "# header\nprint(1)\n"})
add(C, "{\n  'recursive': true, // walk subdirectories\n  'glob': '**/*.md',\n}",
    {"recursive": True, "glob": "**/*.md"})
add(C, '{"cmd": "curl https://example.com/api//v1"} // fetch', {"cmd": "curl https://example.com/api//v1"})

# ---------------------------------------------------------------------------
# Python and JavaScript literals

C = "literals"
add(C, '{"enabled": True, "force": False, "backup": None}', {"enabled": True, "force": False, "backup": None})
add(C, "{'recursive': True, 'pattern': '*.py'}", {"recursive": True, "pattern": "*.py"})
add(C, '{"a": undefined}', {"a": None}, note="undefined maps to null, the key kept")
add(C, '[True, False, None]', [True, False, None])
add(C, '{"values": [1, None, 3]}', {"values": [1, None, 3]})
add(C, '{cmd: "rm", force: True}', {"cmd": "rm", "force": True})
add(C, '{"msg": "True story", "ok": True}', {"msg": "True story", "ok": True})
add(C, "{'msg': 'None of the files matched', 'count': 0, 'partial': False}",
    {"msg": "None of the files matched", "count": 0, "partial": False})
add(C, '{"a": TRUE, "b": FALSE, "c": NULL}', {"a": True, "b": False, "c": None})
add(C, '{"a": Null}', {"a": None})
add(C, '{"a": none}', {"a": None})
add(C, '{"flags": {"dry_run": True, "verbose": False}, "paths": ["a.txt", None]}',
    {"flags": {"dry_run": True, "verbose": False}, "paths": ["a.txt", None]})
add(C, "{'cmd': 'pytest -x', 'env': None, 'timeout': 30}", {"cmd": "pytest -x", "env": None, "timeout": 30})
add(C, '{"a": undefined, "b": 2}', {"a": None, "b": 2})
add(C, '[undefined, 1]', [None, 1])
add(C, '{"ok": True,}', {"ok": True})
add(C, '{"enabled":True}', {"enabled": True})
add(C, '{"when": None, "where": "None"}', {"when": None, "where": "None"})
add(C, "{'content': 'print(True)\\nprint(None)\\n', 'mode': 'w'}",
    {"content": "print(True)\nprint(None)\n", "mode": "w"})
add(C, '{"a": [[True], {"b": [False, None]}]}', {"a": [[True], {"b": [False, None]}]})
add(C, "{'file_path': 'config.py', 'old_string': 'DEBUG = False', 'new_string': 'DEBUG = True', 'replace_all': False}",
    {"file_path": "config.py", "old_string": "DEBUG = False", "new_string": "DEBUG = True", "replace_all": False})
add(C, '{"x": undefined, "y": None, "z": null}', {"x": None, "y": None, "z": None})

# ---------------------------------------------------------------------------
# NaN and Infinity: our documented mapping is null

C = "nan_inf"
NOTE_NAN = "documented mapping: NaN, Infinity and -Infinity become null"
add(C, '{"score": NaN}', {"score": None}, note=NOTE_NAN)
add(C, '[1, Infinity, -Infinity]', [1, None, None], note=NOTE_NAN)
add(C, '{"min": -Infinity, "max": Infinity}', {"min": None, "max": None}, note=NOTE_NAN)
add(C, '{"values": [0.5, NaN, 2]}', {"values": [0.5, None, 2]}, note=NOTE_NAN)
add(C, '{"threshold": +Infinity}', {"threshold": None}, note=NOTE_NAN)
add(C, "{'mean': NaN, 'std': NaN}", {"mean": None, "std": None}, note=NOTE_NAN)
add(C, '{"label": "NaN", "v": NaN}', {"label": "NaN", "v": None}, note=NOTE_NAN + "; the string stays")
add(C, '{"v": NaN,}', {"v": None}, note=NOTE_NAN)
add(C, '[NaN]', [None], note=NOTE_NAN)
add(C, '{"a": {"b": [Infinity]}}', {"a": {"b": [None]}}, note=NOTE_NAN)
add(C, '{"s": "Infinity and beyond", "n": Infinity}', {"s": "Infinity and beyond", "n": None}, note=NOTE_NAN)
add(C, '{"metrics": {"loss": NaN, "acc": 0.91, "best": -Infinity}}',
    {"metrics": {"loss": None, "acc": 0.91, "best": None}}, note=NOTE_NAN)
add(C, '{loss: NaN, step: 12}', {"loss": None, "step": 12}, note=NOTE_NAN)

# ---------------------------------------------------------------------------
# missing commas between complete values

C = "missing_comma"
add(C, '{"a": 1 "b": 2}', {"a": 1, "b": 2})
add(C, '["a" "b"]', ["a", "b"])
add(C, '[{}{}]', [{}, {}])
add(C, '[1 2 3]', [1, 2, 3])
add(C, '{"cmd": "ls"\n"dir": "/tmp"}', {"cmd": "ls", "dir": "/tmp"})
add(C, '{"file": "a.txt" "mode": "r" "encoding": "utf-8"}', {"file": "a.txt", "mode": "r", "encoding": "utf-8"})
add(C, '[{"id": 1}{"id": 2}]', [{"id": 1}, {"id": 2}])
add(C, '{"a": {"x": 1} "b": [1, 2] "c": true}', {"a": {"x": 1}, "b": [1, 2], "c": True})
add(C, '{"a": true "b": false "c": null}', {"a": True, "b": False, "c": None})
add(C, '["-la" "/var/log"]', ["-la", "/var/log"])
add(C, '{"args": ["-n" "5"], "cmd": "head"}', {"args": ["-n", "5"], "cmd": "head"})
add(C, '{"n": 1.5 "m": -2}', {"n": 1.5, "m": -2})
add(C, "{'a': 'x' 'b': 'y'}", {"a": "x", "b": "y"})
add(C, '{"a": [1, 2] "b": 3}', {"a": [1, 2], "b": 3})
add(C, '{"patch": "--- a/x\\n+++ b/x\\n" "file": "x"}', {"patch": "--- a/x\n+++ b/x\n", "file": "x"})
add(C, '[[1, 2] [3, 4]]', [[1, 2], [3, 4]])
add(C, '{\n  "name": "web"\n  "version": "1.0.0"\n  "private": true\n}', {"name": "web", "version": "1.0.0", "private": True})
add(C, '{"a": 1, "b": 2 "c": 3}', {"a": 1, "b": 2, "c": 3})
add(C, '[true false]', [True, False])
add(C, '{"q": "select * from users" "limit": 10}', {"q": "select * from users", "limit": 10})
add(C, '[1\n2\n3]', [1, 2, 3])
add(C, '{"x": 1 /* c */ "y": 2}', {"x": 1, "y": 2})
add(C, '{"items": [{"a": 1} {"a": 2} {"a": 3}]}', {"items": [{"a": 1}, {"a": 2}, {"a": 3}]})
add(C, '{"env": {"A": "1" "B": "2"}}', {"env": {"A": "1", "B": "2"}})
add(C, '{"command": "pytest -q" "timeout": 120 "description": "Run the test suite"}',
    {"command": "pytest -q", "timeout": 120, "description": "Run the test suite"})
add(C, '{"edits": [{"old": "a", "new": "b"}\n  {"old": "c", "new": "d"}]}',
    {"edits": [{"old": "a", "new": "b"}, {"old": "c", "new": "d"}]})

# ---------------------------------------------------------------------------
# missing colons between a key and its value

C = "missing_colon"
add(C, '{"a" 1}', {"a": 1})
add(C, '{"cmd" "ls -la"}', {"cmd": "ls -la"})
add(C, '{"file" "main.go", "line" 12}', {"file": "main.go", "line": 12})
add(C, '{"opts" {"force": true}}', {"opts": {"force": True}})
add(C, '{"list" [1, 2]}', {"list": [1, 2]})
add(C, '{"a": 1, "b" 2}', {"a": 1, "b": 2})
add(C, '{"ok" true}', {"ok": True})
add(C, '{"path" "/tmp/x", "mode" "0644"}', {"path": "/tmp/x", "mode": "0644"})
add(C, '{"a" null}', {"a": None})
add(C, '{"key"\n  "value"}', {"key": "value"})
add(C, '{"x" -1}', {"x": -1})
add(C, '{"n" 1.5e3}', {"n": 1500.0})
add(C, '{"a": 1, "b" {"c" 2}}', {"a": 1, "b": {"c": 2}})
add(C, '{"name" "build" "args" ["--release"]}', {"name": "build", "args": ["--release"]},
    note="colons and commas both missing")
add(C, '{"command" "git log --oneline -n 5", "cwd": "."}', {"command": "git log --oneline -n 5", "cwd": "."})
add(C, "{'pattern' 'TODO', 'path': 'src'}", {"pattern": "TODO", "path": "src"})

# ---------------------------------------------------------------------------
# missing values: null

C = "missing_value"
add(C, '{"a": , "b": 2}', {"a": None, "b": 2})
add(C, '{"a": }', {"a": None})
add(C, '{"file": "x.txt", "offset": , "limit": 10}', {"file": "x.txt", "offset": None, "limit": 10})
add(C, '{"a": 1, "b":}', {"a": 1, "b": None})
add(C, '{"opts": {"x": }}', {"opts": {"x": None}})
add(C, '[{"a": }]', [{"a": None}])
refuse(C, '{"a" , "b": 1}', "a key with neither colon nor value: a null, a flag's true or a list's string is a guess")
add(C, '{"a":,}', {"a": None})
add(C, "{'a': , 'b': 'x'}", {"a": None, "b": "x"})
add(C, '{a: , b: 2}', {"a": None, "b": 2})
add(C, '{"a": /* todo */ , "b": 1}', {"a": None, "b": 1})
add(C, '{"cmd": "ls", "cwd":\n}', {"cmd": "ls", "cwd": None})
add(C, '{"a": , }', {"a": None})
add(C, '{"x": {"y": , "z": }}', {"x": {"y": None, "z": None}})
add(C, '[1, {"k": }, 3]', [1, {"k": None}, 3])
add(C, '{"path": "src/app.ts", "line": , "column": 4}', {"path": "src/app.ts", "line": None, "column": 4})

# ---------------------------------------------------------------------------
# truncation: hand-written cases, then documents cut at many points

C = "truncation"
add(C, '{"cmd": "read", "file": "main.go"', {"cmd": "read", "file": "main.go"})
add_cut(C, '{"cmd": "cat /var/log/sy', {"cmd": "cat /var/log/sy"}, note="a cut string keeps what was written")
add_cut(C, '{"a": [1, 2, 3', {"a": [1, 2, 3]})
add_cut(C, '{"a": tru', {"a": True})
add_cut(C, '{"a": fals', {"a": False})
add_cut(C, '[nul', [None])
add_cut(C, '{"a": nu', {"a": None})
add_cut(C, '[true, fa', [True, False])
add_cut(C, '{"n": 12.', {"n": 12}, note="12. cut before its decimals is 12")
add_cut(C, '{"x": 1.5e', {"x": 1.5})
add_cut(C, '{"v": 1.25E+', {"v": 1.25})
add_cut(C, '{"v": 3e-', {"v": 3})
add_cut(C, '{"a": 1, "b"', {"a": 1}, note="the dangling key is dropped")
add_cut(C, '{"a": 1, "b', {"a": 1}, note="the cut key is dropped")
add_cut(C, '{"a": 1,', {"a": 1})
add_cut(C, '[', [])
add_cut(C, '{', {})
add_cut(C, '{"content": "line1\\nline2', {"content": "line1\nline2"})
add_cut(C, '{"a": {"b": {"c": [', {"a": {"b": {"c": []}}})
add_cut(C, '{"a": "x", "b": [{"c": 1}, {"d": "y', {"a": "x", "b": [{"c": 1}, {"d": "y"}]})
add_cut(C, '[1, 2, ', [1, 2])
add_cut(C, '{"a": -12', {"a": -12})
add_cut(C, '{"patch": "@@ -1,3 +1,3 @@\\n-old\\n+new', {"patch": "@@ -1,3 +1,3 @@\n-old\n+new"})
add_cut(C, '{"a": "', {"a": ""}, note="the string was opened and nothing written: empty")
add_cut(C, '"abc', "abc")
add_cut(C, '{"cmd": "echo \\"hi', {"cmd": 'echo "hi'})
add_cut(C, '{"a": [1, 2], "b": {"c": tr', {"a": [1, 2], "b": {"c": True}})
add_cut(C, '[{"a": 1}, {"b": 2', [{"a": 1}, {"b": 2}])
add_cut(C, "{'cmd': 'ls -la", {"cmd": "ls -la"})
add_cut(C, '{cmd: "ls", dir: "/tm', {"cmd": "ls", "dir": "/tm"})
add_cut(C, '{"text": "caf\u00e9 cr\u00e8me', {"text": "caf\u00e9 cr\u00e8me"})
add_cut(C, '{"a": "x\\u00e9', {"a": "x\u00e9"})
add_cut(C, '{"command": "ls -la', {"command": "ls -la"}, tool="bash")
add_cut(C, '{"file_path": "src/app.py", "content": "import os\\n\\ndef main():\\n    pri',
    {"file_path": "src/app.py", "content": "import os\n\ndef main():\n    pri"})
add_cut(C, '{"ok": true, "n": 0.', {"ok": True, "n": 0})
add_cut(C, '{"items": [{"id": 1, "tags": ["x", "y"]}, {"id": 2, "tags": [',
    {"items": [{"id": 1, "tags": ["x", "y"]}, {"id": 2, "tags": []}]})

# Documents cut at sampled points. Cut points whose reading is debatable are never used:
# right after a colon (null or drop the key?), inside an escape sequence, after the first
# letter of a literal, after a lone minus sign.

DOCS = {
    "shell": {"command": 'grep -rn "TODO" src/ | head -n 20', "timeout": 30,
              "cwd": "/home/dev/project"},
    "write": {"file_path": "src/app.py",
              "content": 'import os\n\ndef main():\n    print("hi")\n', "overwrite": True},
    "winpath": {"path": "C:\\Users\\dev\\notes.txt", "lines": [1, 2, 3], "encoding": None},
    "sql": {"query": "SELECT name, total FROM orders WHERE total > 100.5 ORDER BY total DESC",
            "params": [], "limit": 25},
    "edits": {"edits": [{"old": "foo()", "new": "bar()"}, {"old": "x = -1", "new": "x = 2.75e-3"}],
              "ratio": -0.125, "dry_run": False},
    "regex": {"name": "search", "arguments": {"pattern": "\\bfoo\\d+", "flags": ["-i", "-E"],
                                              "max": 1000}},
    "rows": [{"id": 101, "tags": ["a", "b"], "score": 12.5}, {"id": 102, "tags": [], "ok": True}],
    "unicode": {"msg": "na\u00efve caf\u00e9 \U0001F600 done", "emoji": "\U0001F389"},
}


class _Skip(Exception):
    """A cut point left out of the corpus."""


def complete_prefix(s):
    """The value a strict-JSON prefix stands for, closed as SPEC §5 prescribes,
    and whether the prefix ends inside a value (not only before closing brackets)."""
    n = len(s)
    pos = 0
    cut = False

    def ws():
        nonlocal pos
        while pos < n and s[pos] in " \t\n\r":
            pos += 1

    def string():
        nonlocal pos, cut
        assert s[pos] == '"'
        pos += 1
        out = []
        while pos < n:
            c = s[pos]
            if c == '"':
                pos += 1
                return "".join(out), True
            if c == "\\":
                if pos + 1 >= n:
                    raise _Skip("inside an escape")
                e = s[pos + 1]
                if e == "u":
                    if pos + 6 > n:
                        raise _Skip("inside a unicode escape")
                    code = int(s[pos + 2:pos + 6], 16)
                    pos += 6
                    if 0xD800 <= code < 0xDC00:
                        if pos + 6 > n:
                            raise _Skip("between the halves of a surrogate pair")
                        low = int(s[pos + 2:pos + 6], 16)
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                        pos += 6
                    out.append(chr(code))
                    continue
                out.append({"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f",
                            "/": "/", "\\": "\\", '"': '"'}[e])
                pos += 2
                continue
            out.append(c)
            pos += 1
        cut = True
        return "".join(out), False

    def number():
        nonlocal pos, cut
        start = pos
        while pos < n and s[pos] in "0123456789+-.eE":
            pos += 1
        text = s[start:pos]
        if pos < n:
            return json.loads(text)
        cut = True
        # cut inside the number: drop an unfinished exponent, then a bare decimal point
        for tail in ("e+", "e-", "E+", "E-", "e", "E"):
            if text.endswith(tail):
                text = text[: -len(tail)]
                break
        text = text.rstrip(".")
        if text in ("", "-"):
            raise _Skip("a lone minus sign")
        return json.loads(text)

    def value():
        nonlocal pos, cut
        ws()
        c = s[pos]
        if c == "{":
            pos += 1
            obj = {}
            while True:
                ws()
                if pos >= n:
                    cut = cut or not obj  # right after the opening bracket
                    return obj
                if s[pos] == "}":
                    pos += 1
                    return obj
                if s[pos] == ",":
                    pos += 1
                    ws()
                    if pos >= n:
                        cut = True
                        return obj
                key, closed = string()
                ws()
                if not closed or pos >= n:
                    cut = True
                    return obj  # a cut or dangling key is dropped
                assert s[pos] == ":"
                pos += 1
                ws()
                if pos >= n:
                    raise _Skip("right after a colon")
                obj[key] = value()
                if pos >= n:
                    return obj
        if c == "[":
            pos += 1
            arr = []
            while True:
                ws()
                if pos >= n:
                    cut = cut or not arr  # right after the opening bracket
                    return arr
                if s[pos] == "]":
                    pos += 1
                    return arr
                if s[pos] == ",":
                    pos += 1
                    ws()
                    if pos >= n:
                        cut = True
                        return arr
                arr.append(value())
                if pos >= n:
                    return arr
        if c == '"':
            return string()[0]
        for word, val in (("true", True), ("false", False), ("null", None)):
            if word.startswith(s[pos:pos + len(word)]) and c == word[0]:
                got = s[pos:pos + len(word)]
                if len(got) < 2:
                    raise _Skip("one letter of a literal")
                pos += len(got)
                cut = cut or len(got) < len(word)
                return val
        return number()

    whole = value()
    return whole, cut


rng = random.Random(20240610)
for name, doc in DOCS.items():
    for text in (json.dumps(doc), json.dumps(doc, indent=2, ensure_ascii=False)):
        points = []
        for cut in range(1, len(text)):
            try:
                points.append((cut, complete_prefix(text[:cut])))
            except _Skip:
                pass
        for cut, (val, inside) in sorted(rng.sample(points, 4)):
            add(C, text[:cut], val, cut=inside,
                note=f"the {name} document cut after {cut} of {len(text)} characters")

# ---------------------------------------------------------------------------
# raw newlines, tabs and control characters inside strings

C = "control_chars"
add(C, '{"content": "line one\nline two\n"}', {"content": "line one\nline two\n"})
add(C, '{"file_path": "app.py", "content": "def main():\n    print(\'hi\')\n\nif __name__ == \'__main__\':\n    main()\n"}',
    {"file_path": "app.py", "content": "def main():\n    print('hi')\n\nif __name__ == '__main__':\n    main()\n"})
add(C, '{"sep": "\t"}', {"sep": "\t"})
add(C, '{"tsv": "a\tb\tc\nd\te\tf"}', {"tsv": "a\tb\tc\nd\te\tf"})
add(C, '{"text": "first\r\nsecond"}', {"text": "first\r\nsecond"})
add(C, '{"s": "a\x01b"}', {"s": "a\x01b"})
add(C, '{"sql": "SELECT *\nFROM users\nWHERE id = 1"}', {"sql": "SELECT *\nFROM users\nWHERE id = 1"})
add(C, '{"path": "Makefile", "content": "all:\n\tgcc -o app main.c\n"}', {"path": "Makefile", "content": "all:\n\tgcc -o app main.c\n"})
add(C, '{"file": "x.py", "patch": "@@ -1,2 +1,2 @@\n-a = 1\n+a = 2\n b = 3\n"}',
    {"file": "x.py", "patch": "@@ -1,2 +1,2 @@\n-a = 1\n+a = 2\n b = 3\n"})
add(C, '["one\ntwo", "three"]', ["one\ntwo", "three"])
add(C, "{'content': 'a\nb'}", {"content": "a\nb"})
add(C, '{"a": "x\x00y"}', {"a": "x\x00y"})
add(C, '{"a": "bell\x07"}', {"a": "bell\x07"})
add(C, '{"content": "#!/bin/sh\nset -e\necho \\"done\\"\n"}', {"content": '#!/bin/sh\nset -e\necho "done"\n'})
add(C, '{"page": "one\x0ctwo"}', {"page": "one\x0ctwo"})
add(C, '{"yaml": "a: 1\n  b: 2\n"}', {"yaml": "a: 1\n  b: 2\n"})
add_cut(C, '{"content": "line1\nline2', {"content": "line1\nline2"}, note="raw newline, then cut off")
add(C, '{"msg": "tab\there", "n": 1}', {"msg": "tab\there", "n": 1})
add(C, '{"a\nb": 1}', {"a\nb": 1})
add(C, '{"lines": ["  indented\tcode", "\tmore"]}', {"lines": ["  indented\tcode", "\tmore"]})
add(C, '{"diff": "--- a/f\n+++ b/f\n@@ -1 +1 @@\n-x\n+y\n"}', {"diff": "--- a/f\n+++ b/f\n@@ -1 +1 @@\n-x\n+y\n"})
add(C, '{"file_path": "main.go", "content": "package main\n\nimport \\"fmt\\"\n\nfunc main() {\n\tfmt.Println(\\"hello\\")\n}\n"}',
    {"file_path": "main.go", "content": 'package main\n\nimport "fmt"\n\nfunc main() {\n\tfmt.Println("hello")\n}\n'})
add(C, '{"esc": "\x1b[31mred\x1b[0m"}', {"esc": "\x1b[31mred\x1b[0m"})
add(C, "{'command': 'for f in *.log; do\n  gzip \"$f\"\ndone'}", {"command": 'for f in *.log; do\n  gzip "$f"\ndone'})
add(C, '{"content": "a\r\nb\r\n", "mode": "w"}', {"content": "a\r\nb\r\n", "mode": "w"})

# ---------------------------------------------------------------------------
# invalid escapes keep their backslash

C = "invalid_escape"
add(C, r'{"path": "C:\Users\me"}', {"path": "C:\\Users\\me"})
add(C, r'{"pattern": "\d+\.\d+"}', {"pattern": r"\d+\.\d+"})
add(C, r'{"regex": "^\s*#"}', {"regex": r"^\s*#"})
add(C, r'{"cmd": "dir C:\Program Files\App"}', {"cmd": r"dir C:\Program Files\App"})
add(C, r'{"grep": "foo\|bar"}', {"grep": r"foo\|bar"})
add(C, r'{"path": "D:\data\logs\app.log"}', {"path": r"D:\data\logs\app.log"})
add(C, r'{"sed": "s/\./,/g"}', {"sed": r"s/\./,/g"})
add(C, r'{"regex": "\w+@\w+\.com"}', {"regex": r"\w+@\w+\.com"})
add(C, r'{"cmd": "echo \$HOME"}', {"cmd": r"echo \$HOME"})
add(C, r'{"hosts": "C:\Windows\System32\drivers\etc\hosts"}', {"hosts": r"C:\Windows\System32\drivers\etc\hosts"})
add(C, r'{"a": "\x41"}', {"a": r"\x41"})
add(C, r'{"re": "[\w-]+\.(jpg|png)$"}', {"re": r"[\w-]+\.(jpg|png)$"})
add(C, r'{"msg": "line\nnext \d"}', {"msg": "line\nnext \\d"}, note="\\n is a valid escape, \\d is kept")
add(C, r"{'path': 'C:\Users\me\Documents'}", {"path": r"C:\Users\me\Documents"})
add(C, r'{"pattern": "\(foo\)"}', {"pattern": r"\(foo\)"})
add(C, r'{"cmd": "findstr /R \"^[0-9]\" C:\Logs\*.txt"}', {"cmd": r'findstr /R "^[0-9]" C:\Logs\*.txt'})
add(C, r'{"re": "\p{L}+"}', {"re": r"\p{L}+"})
add(C, r'{"glob": "src\**\*.ts"}', {"glob": r"src\**\*.ts"})
add(C, r'{"cmd": "cd C:\Users\me && dir"}', {"cmd": r"cd C:\Users\me && dir"})
add(C, r'{"re": "\d{3}-\d{4}", "flags": "i"}', {"re": r"\d{3}-\d{4}", "flags": "i"})
add_cut(C, r'{"path": "C:\Users\me', {"path": r"C:\Users\me"}, note="and cut off")
add(C, r'{"path": "C:\users\me"}', {"path": r"C:\users\me"}, note="\\u not followed by four hex digits")
add(C, r'{"command": "Get-ChildItem -Path C:\Projects\api -Recurse"}', {"command": r"Get-ChildItem -Path C:\Projects\api -Recurse"})
add(C, r'{"pattern": "^\[ERROR\] (\d+)", "path": "logs"}', {"pattern": r"^\[ERROR\] (\d+)", "path": "logs"})

# ---------------------------------------------------------------------------
# unescaped double quotes inside strings

C = "inner_quotes"
add(C, '{"msg": "say "hi" now"}', {"msg": 'say "hi" now'})
add(C, '{"cmd": "echo "hello world""}', {"cmd": 'echo "hello world"'})
add(C, '{"cmd": "git commit -m "fix: handle empty input"", "cwd": "."}', {"cmd": 'git commit -m "fix: handle empty input"', "cwd": "."})
add(C, '{"title": "The "best" option", "n": 2}', {"title": 'The "best" option', "n": 2})
add(C, '{"content": "print("hello")"}', {"content": 'print("hello")'})
add(C, '{"sql": "SELECT * FROM t WHERE name = "bob""}', {"sql": 'SELECT * FROM t WHERE name = "bob"'})
add(C, '{"html": "<a href="/x">link</a>"}', {"html": '<a href="/x">link</a>'})
add(C, '["He said "no"", "ok"]', ['He said "no"', "ok"])
add(C, '{"msg": "a "b" c", "other": "d "e" f"}', {"msg": 'a "b" c', "other": 'd "e" f'})
add(C, '{"cmd": "grep -r "TODO" src/"}', {"cmd": 'grep -r "TODO" src/'})
add(C, '{"text": "6" tall"}', {"text": '6" tall'})
add(C, '{"a": "x"y"}', {"a": 'x"y'})
add(C, '{"cmd": "python -c "print(1)""}', {"cmd": 'python -c "print(1)"'})
add(C, '{"query": "name:"foo bar" AND status:open"}', {"query": 'name:"foo bar" AND status:open'})
add(C, '{"description": "Use the "--force" flag", "priority": 1}', {"description": 'Use the "--force" flag', "priority": 1})
add(C, '{"command": "curl -H "Content-Type: application/json" https://api.example.com/v1"}',
    {"command": 'curl -H "Content-Type: application/json" https://api.example.com/v1'})
add(C, '{"old_string": "name = "old"", "new_string": "name = "new""}', {"old_string": 'name = "old"', "new_string": 'name = "new"'})
add(C, '{"file_path": "a.py", "content": "s = "x"\nprint(s)\n"}', {"file_path": "a.py", "content": 's = "x"\nprint(s)\n'})
add(C, '{"note": "the "quick" brown "fox" jumps"}', {"note": 'the "quick" brown "fox" jumps'})
add(C, '{"arg": "--name="John Smith"", "x": 1}', {"arg": '--name="John Smith"', "x": 1})

# ---------------------------------------------------------------------------
# double-encoded JSON: a JSON string holding the object, or the object backslash-escaped

C = "double_encoded"
for tool, obj in [
    ("run_command", {"cmd": "ls -la"}),
    ("read_file", {"file": "main.go"}),
    ("bash", {"command": 'echo "hi" > out.txt'}),
    ("Edit", {"file_path": "a.py", "old_string": "x = 1", "new_string": "x = 2"}),
    ("search_files", {"term": "TODO", "path": "src"}),
    ("exec", {"cmd": "make", "args": {"jobs": [1, 2]}}),
    ("Write", {"file_path": "C:\\tmp\\out.txt", "content": "line1\nline2\n"}),
]:
    add(C, json.dumps(json.dumps(obj)), obj, tool=tool, valid=True,
        note="a JSON string that holds the object: the object (with a tool)")
add(C, '{\\"a\\": \\"b\\"}', {"a": "b"})
add(C, '{\\"cmd\\": \\"ls\\", \\"dir\\": \\"/tmp\\"}', {"cmd": "ls", "dir": "/tmp"})
add(C, '{\\"n\\": 1, \\"ok\\": true}', {"n": 1, "ok": True})
add(C, '[{\\"id\\": 1}, {\\"id\\": 2}]', [{"id": 1}, {"id": 2}])
add(C, '{\\"path\\": \\"C:\\\\\\\\Users\\\\\\\\me\\"}', {"path": "C:\\Users\\me"},
    note="one level of escaping removed: the inner JSON has C:\\\\Users\\\\me")
add(C, '{\\"content\\": \\"line1\\\\nline2\\"}', {"content": "line1\nline2"})
add(C, '{\\"command\\": \\"git status\\", \\"description\\": \\"Show the working tree\\"}',
    {"command": "git status", "description": "Show the working tree"})
add(C, '{\\"q\\": \\"say \\\\\\"hi\\\\\\"\\"}', {"q": 'say "hi"'})

# ---------------------------------------------------------------------------
# concatenated values and JSON lines: all of them, as a list

C = "concatenated"
add(C, '{"a": 1}{"b": 2}', [{"a": 1}, {"b": 2}])
add(C, '{"cmd": "ls"}\n{"cmd": "pwd"}\n', [{"cmd": "ls"}, {"cmd": "pwd"}])
add(C, '{"a": 1} {"a": 2} {"a": 3}', [{"a": 1}, {"a": 2}, {"a": 3}])
add(C, '[1, 2][3]', [[1, 2], [3]])
add(C, '{"file": "a.txt"}\n{"file": "b.txt"}\n{"file": "c.txt"}', [{"file": "a.txt"}, {"file": "b.txt"}, {"file": "c.txt"}])
add(C, '{"a": 1}\n\n{"b": [1, 2]}', [{"a": 1}, {"b": [1, 2]}])
add(C, '{"x": 1}{"x": 2}', [{"x": 1}, {"x": 2}])
add(C, '{"a":1}\r\n{"b":2}\r\n', [{"a": 1}, {"b": 2}])
add(C, '{"name": "read_file", "arguments": {"path": "a"}}\n{"name": "read_file", "arguments": {"path": "b"}}',
    [{"name": "read_file", "arguments": {"path": "a"}}, {"name": "read_file", "arguments": {"path": "b"}}])
add(C, '{"a": 1},{"b": 2}', [{"a": 1}, {"b": 2}])
add_cut(C, '{"a": 1}{"b": 2', [{"a": 1}, {"b": 2}], note="the last one cut off")
add(C, '{"event": "start"}\n{"event": "progress", "pct": 50}\n{"event": "done"}',
    [{"event": "start"}, {"event": "progress", "pct": 50}, {"event": "done"}])
add(C, "{'a': 1}{'b': 2}", [{"a": 1}, {"b": 2}])
add(C, '[{"a": 1}]\n[{"b": 2}]', [[{"a": 1}], [{"b": 2}]])
add(C, '{a: 1}{b: 2}', [{"a": 1}, {"b": 2}])
add(C, '{"op": "replace", "path": "/a", "value": 1}\n{"op": "remove", "path": "/b"}',
    [{"op": "replace", "path": "/a", "value": 1}, {"op": "remove", "path": "/b"}])

# ---------------------------------------------------------------------------
# ellipsis standing for omitted elements

C = "ellipsis"
add(C, '[1, 2, ...]', [1, 2])
add(C, '{"files": ["a.py", "b.py", ...]}', {"files": ["a.py", "b.py"]})
add(C, '[1, 2, \u2026]', [1, 2], note="U+2026 HORIZONTAL ELLIPSIS")
add(C, '{"a": 1, ...}', {"a": 1})
add(C, '[...]', [])
add(C, '{"rows": [{"id": 1}, {"id": 2}, ...], "total": 100}', {"rows": [{"id": 1}, {"id": 2}], "total": 100})
add(C, '[1, 2, ... ]', [1, 2])
add(C, '{"items": [...], "n": 0}', {"items": [], "n": 0})
add(C, '["x", "y", ..., "z"]', ["x", "y", "z"])
add(C, "['a', 'b', ...]", ["a", "b"])
add(C, '{"args": ["-v", ...]}', {"args": ["-v"]})
add(C, '{"opts": {"x": 1, ...}}', {"opts": {"x": 1}})
add(C, '{"msg": "loading...", "steps": [1, ...]}', {"msg": "loading...", "steps": [1]})

# ---------------------------------------------------------------------------
# JSONP and assignments

C = "jsonp"
add(C, 'callback({"a": 1});', {"a": 1})
add(C, 'cb({"status": "ok", "items": [1, 2]})', {"status": "ok", "items": [1, 2]})
add(C, 'var config = {"debug": true};', {"debug": True})
add(C, 'const args = {"file": "main.go"};', {"file": "main.go"})
add(C, 'let x = {cmd: "ls"};', {"cmd": "ls"})
add(C, 'jQuery1124_1700000000({"q": "test"});', {"q": "test"})
add(C, 'window.__DATA__ = {"page": 1};', {"page": 1})
add(C, 'var x = [1, 2, 3];', [1, 2, 3])
add(C, '/**/ cb({"a": 1});', {"a": 1})
add(C, 'callback({"a": 1})\n', {"a": 1})
add(C, 'var data = {\n  "name": "app",\n  "deps": ["a", "b"]\n};\n', {"name": "app", "deps": ["a", "b"]})
add(C, 'handleResponse({"path": "C:\\\\logs", "ok": false});', {"path": "C:\\logs", "ok": False})

# ---------------------------------------------------------------------------
# MongoDB shell types

C = "mongo"
add(C, '{"_id": ObjectId("507f1f77bcf86cd799439011")}', {"_id": "507f1f77bcf86cd799439011"})
add(C, '{"created": ISODate("2024-01-15T10:30:00Z")}', {"created": "2024-01-15T10:30:00Z"})
add(C, '{"count": NumberLong(5)}', {"count": 5})
add(C, '{"count": NumberLong("5")}', {"count": 5})
add(C, '{"big": NumberLong("9223372036854775807")}', expect_text='{"big": 9223372036854775807}')
add(C, '{"n": NumberInt(42)}', {"n": 42})
add(C, "{\"_id\": ObjectId('65a1b2c3d4e5f60718293a4b')}", {"_id": "65a1b2c3d4e5f60718293a4b"})
add(C, '[{"_id": ObjectId("a1"), "n": NumberLong(2)}, {"_id": ObjectId("b2"), "n": NumberLong(3)}]',
    [{"_id": "a1", "n": 2}, {"_id": "b2", "n": 3}])
add(C, '{"filter": {"createdAt": {"$gte": ISODate("2023-01-01T00:00:00.000Z")}}}',
    {"filter": {"createdAt": {"$gte": "2023-01-01T00:00:00.000Z"}}})
add(C, '{"n": NumberLong(-12)}', {"n": -12})
add(C, '{"user": ObjectId("5f8d0d55b54764421b7156c9"), "roles": ["admin"], "since": ISODate("2021-06-01")}',
    {"user": "5f8d0d55b54764421b7156c9", "roles": ["admin"], "since": "2021-06-01"})
add(C, '{_id: ObjectId("abc"), qty: NumberInt(3)}', {"_id": "abc", "qty": 3})

# ---------------------------------------------------------------------------
# string concatenation

C = "string_concat"
add(C, '{"a": "abc" + "def"}', {"a": "abcdef"})
add(C, '{"cmd": "ls " + "-la"}', {"cmd": "ls -la"})
add(C, '{"content": "line1\\n" +\n  "line2\\n"}', {"content": "line1\nline2\n"})
add(C, '{"sql": "SELECT * " + "FROM users " + "WHERE id = 1"}', {"sql": "SELECT * FROM users WHERE id = 1"})
add(C, "{'msg': 'hello ' + 'world'}", {"msg": "hello world"})
add(C, '["a" + "b", "c"]', ["ab", "c"])
add(C, '{"path": "/home/" + "dev" + "/x.txt"}', {"path": "/home/dev/x.txt"})
add(C, '{"a": "x" +"y"}', {"a": "xy"})
add(C, '{"long": "part one, " +\n    "part two"}', {"long": "part one, part two"})
add(C, '{"a": "1" + "2"}', {"a": "12"})
add(C, '{"file_path": "README.md", "content": "# Title\\n\\n" + "Some text.\\n"}',
    {"file_path": "README.md", "content": "# Title\n\nSome text.\n"})

# ---------------------------------------------------------------------------
# mismatched and extra brackets, stray commas around the document

C = "brackets"
add(C, '{"a": 1]', {"a": 1})
add(C, '[1, 2}', [1, 2])
add(C, '{"a": [1, 2}', {"a": [1, 2]})
add(C, '[{"a": 1]', [{"a": 1}])
add(C, '{"a": 1}}', {"a": 1})
add(C, '[1, 2]]', [1, 2])
add(C, '{"a": {"b": 1}}}', {"a": {"b": 1}})
add(C, '{"a": [1, 2]]}', {"a": [1, 2]})
add(C, '{"cmd": "ls"}]', {"cmd": "ls"})
add(C, '{"a": 1},', {"a": 1}, note="a stray comma after the document")
add(C, '[,1, 2]', [1, 2], note="a stray comma before the first element")
add(C, '{, "a": 1}', {"a": 1})
add(C, '{"items": [{"id": 1}, {"id": 2}}', {"items": [{"id": 1}, {"id": 2}]})
add(C, '{"a": [{"b": 1}, {"c": 2]}', {"a": [{"b": 1}, {"c": 2}]})
add(C, '[{"a": 1}}, {"b": 2}]', [{"a": 1}, {"b": 2}])
add(C, '{"a": 1]]', {"a": 1})
add(C, '{"a": [1, 2, 3}]', {"a": [1, 2, 3]})
add(C, '{"command": "ls -la", "cwd": "/tmp"}}\n', {"command": "ls -la", "cwd": "/tmp"})
add(C, '{"edits": [{"old": "a", "new": "b"}]]}', {"edits": [{"old": "a", "new": "b"}]})

# ---------------------------------------------------------------------------
# odd whitespace between tokens (kept inside strings)

C = "whitespace"
add(C, '\ufeff{"a": 1}', {"a": 1}, note="BOM")
add(C, '{\u00a0"a":\u00a01}', {"a": 1}, note="NBSP")
add(C, '{"a":\u200b"foo"}', {"a": "foo"}, note="zero-width space")
add(C, '{"a": 1,\u2028"b": 2}', {"a": 1, "b": 2}, note="U+2028 LINE SEPARATOR")
add(C, '\ufeff{"name": "a\u00a0b"}', {"name": "a\u00a0b"}, note="the NBSP inside the string stays")
add(C, '{"a"\u00a0:\u00a0"b"}', {"a": "b"})
add(C, '{"a":\u30001}', {"a": 1}, note="U+3000 IDEOGRAPHIC SPACE")
add(C, '{"a": 1,\u2029"b": 2}', {"a": 1, "b": 2}, note="U+2029 PARAGRAPH SEPARATOR")
add(C, '{"a": 1,\ufeff"b": 2}', {"a": 1, "b": 2}, note="U+FEFF in the middle")
add(C, '\u200b{"cmd": "ls"}\u200b', {"cmd": "ls"})
add(C, '{"a":\x0b1}', {"a": 1}, note="vertical tab")
add(C, '{\u00a0cmd: "ls"}', {"cmd": "ls"}, note="NBSP before a bare key")
add(C, '\ufeff{"s": "x\u200by"}', {"s": "x\u200by"}, note="the zero-width space inside the string stays")
add(C, '{"a":\u20091,\u2009"b":\u20092}', {"a": 1, "b": 2}, note="U+2009 THIN SPACE")
add(C, '{"a":\x0c1}', {"a": 1}, note="form feed")
add(C, '{"a": [1,\u00a02,\u00a03]}', {"a": [1, 2, 3]})
add(C, '\ufeff{"t": "a\u2028b"}', {"t": "a\u2028b"}, note="U+2028 inside the string stays")
add(C, '\ufeff\ufeff{"cmd": "pwd"}', {"cmd": "pwd"})

# ---------------------------------------------------------------------------
# number forms (numbers compared by exact value; expect_text where the digits matter)

C = "numbers"
# Leading zeros are not a JSON number: "007" may be an id, a zip code or an octal mode, and
# reading it as 7 loses the digits, so such a token is kept as the string it was written as.
add(C, '{"mode": 007}', {"mode": "007"})
add(C, '{"n": 0x1F}', {"n": 31})
add(C, '{"n": +5}', {"n": 5})
add(C, '{"n": .5}', {"n": 0.5})
add(C, '{"n": 5.}', expect_text='{"n": 5.0}',
    note="5. is the number five, written 5.0 (5 is the same value and scores the same)")
add(C, '{"n": 1_000}', {"n": 1000})
add(C, '{"n": -.25}', {"n": -0.25})
add(C, '[2.]', expect_text="[2.0]")
add(C, '{"n": 2.e3}', {"n": 2000.0})
add(C, '{"big": 123456789012345678901234567890}', expect_text='{"big": 123456789012345678901234567890}',
    valid=True, note="valid JSON: the big integer must stay exact")
add(C, '{"big": 123456789012345678901234567890,}', expect_text='{"big": 123456789012345678901234567890}')
add(C, "{'id': 9007199254740993}", expect_text='{"id": 9007199254740993}', note="2**53 + 1")
add(C, '{"price": 1.10,}', expect_text='{"price": 1.10}')
add(C, '{"n": 0xff}', {"n": 255})
add(C, '{"n": 1_000_000.5}', {"n": 1000000.5})
add(C, '{"n": +1.5e3}', {"n": 1500.0})
add(C, '{"port": 08080}', {"port": "08080"})
add(C, '{"n": -007}', {"n": "-007"})
add(C, '{"n": 00}', {"n": "00"})
add(C, '[.5, -.5, +.5]', [0.5, -0.5, 0.5])
add(C, '{"hex": 0xDEADBEEF}', {"hex": 3735928559})
add(C, '{"pi": 3.141592653589793238462643383279}', expect_text='{"pi": 3.141592653589793238462643383279}',
    valid=True, note="valid JSON: all the digits must stay")
add(C, '{"n": 1e400}', expect_text='{"n": null}', valid=True,
    note="valid JSON, beyond a double: null with a nan fix logged, as NaN and Infinity (never inf)")
add(C, '{"neg": -0x10}', {"neg": -16})
add(C, '{"v": 1.}', expect_text='{"v": 1.0}', note="as 5. above")
add(C, '{"id": 0x7FFFFFFFFFFFFFFFFF}', expect_text='{"id": 2361183241434822606847}')
add(C, "{'amount': 0.1000000000000000055511151231257827}", expect_text='{"amount": 0.1000000000000000055511151231257827}')
add(C, '{cmd: read, n: 1.50, ok: TRUE, x: None}', expect_text='{"cmd": "read", "n": 1.50, "ok": true, "x": null}')
add(C, '{cmd: read, id: 12345678901234567890}', expect_text='{"cmd": "read", "id": 12345678901234567890}')
add(C, '{"sizes": [1_024, 4_096, 65_536]}', {"sizes": [1024, 4096, 65536]})

# ---------------------------------------------------------------------------
# surrogate pairs and astral characters, kept whole

C = "surrogates"
add(C, "{'emoji': '\\ud83d\\ude00'}", {"emoji": "\U0001F600"})
add(C, '{"emoji": "\\ud83d\\ude00",}', {"emoji": "\U0001F600"})
add(C, "{'msg': 'done \U0001F389'}", {"msg": "done \U0001F389"})
add(C, '{"a": "x\\ud83d\\ude00y"', {"a": "x\U0001F600y"})
add(C, '{name: "\\ud83d\\udc4d"}', {"name": "\U0001F44D"})
add(C, '{"s": "\\uD83D\\uDE00", // smile\n}', {"s": "\U0001F600"})
add(C, '{"a": "\U0001F600 and \\ud83d\\ude03"', {"a": "\U0001F600 and \U0001F603"})
add(C, '["\\ud834\\udd1e" "\\ud83d\\ude00"]', ["\U0001D11E", "\U0001F600"])
add(C, "{'\U0001F511': 1}", {"\U0001F511": 1})
add(C, r'{"a": "\d \ud83d\ude00"}', {"a": "\\d \U0001F600"})
add(C, '{"flag": "\U0001F1F5\U0001F1F9", "ok": True}', {"flag": "\U0001F1F5\U0001F1F9", "ok": True})

# ---------------------------------------------------------------------------
# deep nesting

C = "deep"
# Nesting is recovered up to MAX_DEPTH (1024 levels, as deep as orjson reads); past it the
# text is refused at the bracket past the bound, valid JSON too: a value that deep is one
# that repr and json.dumps cannot walk, and building it took seconds for a million levels.
TOO_DEEP = "nesting past 1024 levels is refused at the bracket past the bound"
for depth in (1000, 1024):
    add(C, "[" * depth + "]" * depth, expect_raw="[" * depth + "]" * depth, valid=True,
        note=f"valid JSON, {depth} levels")
add(C, '{"a":' * 1000 + "1" + "}" * 1000, expect_raw='{"a":' * 1000 + "1" + "}" * 1000, valid=True,
    note="valid JSON, 1000 levels of objects")
add(C, "{a:" * 1000 + "1" + "}" * 1000, expect_raw='{"a":' * 1000 + "1" + "}" * 1000,
    note="1000 levels of bare keys")
add(C, "{'k': " * 1000 + "'v'" + "}" * 1000, expect_raw='{"k": ' * 1000 + '"v"' + "}" * 1000,
    note="1000 levels of single quotes")
add(C, "[" * 1000 + "1" + ",]" * 1000, expect_raw="[" * 1000 + "1" + "]" * 1000,
    note="1000 levels of trailing commas")
for depth in (1025, 5000, 10000):
    add(C, "[" * depth + "]" * depth, refuse=True, why=f"valid JSON, {depth} levels: {TOO_DEEP}")
add(C, "[" * 5000, refuse=True, why=f"5000 levels, none closed: {TOO_DEEP}")
add(C, "{a:" * 5000 + "1" + "}" * 5000, refuse=True, why=f"5000 levels of bare keys: {TOO_DEEP}")
add(C, "{'k': " * 5000 + "'v'" + "}" * 5000, refuse=True, why=f"5000 levels of single quotes: {TOO_DEEP}")
add(C, "[" * 5000 + "1" + ",]" * 5000, refuse=True, why=f"5000 levels of trailing commas: {TOO_DEEP}")
add(C, '{"a":' * 5000 + "1" + "}" * 5000, refuse=True, why=f"valid JSON, 5000 levels of objects: {TOO_DEEP}")
add(C, '{"a": [' * 3000 + "true", refuse=True, why=f"6000 levels, cut off: {TOO_DEEP}")

# ---------------------------------------------------------------------------
# the seven strategies of SPEC §1.1, curly quotes, bare values with a tool

C = "classic"
add(C, "{'cmd': 'read', 'file': 'main.go'}", {"cmd": "read", "file": "main.go"})
add(C, '{cmd: "read", file: "main.go"}', {"cmd": "read", "file": "main.go"})
add(C, "{cmd: 'read', file: 'main.go'}", {"cmd": "read", "file": "main.go"})
add(C, '{"cmd":"read","file":"main.go",}', {"cmd": "read", "file": "main.go"})
add(C, "main.go", {"file": "main.go"}, tool="read_file")
add(C, "ls -la", {"cmd": "ls -la"}, tool="run_command")
add(C, "{cmd: read, file: main.go, append: true}", {"cmd": "read", "file": "main.go", "append": True})
add(C, "{cmd: 'read', \"file\": main.go}", {"cmd": "read", "file": "main.go"})
add(C, "{'msg': \"it's fine\"}", {"msg": "it's fine"})
add(C, "{'msg': 'say \"hi\"'}", {"msg": 'say "hi"'})
add(C, "{'msg': 'it\\'s'}", {"msg": "it's"})
add(C, '{"a": [1, 2, 3,],}', {"a": [1, 2, 3]})
add(C, "{cmd: 'read', args: {file: 'x',},}", {"cmd": "read", "args": {"file": "x"}})
add(C, "git commit -m x", {"command": "git commit -m x"}, tool="bash")
add(C, "**/*.py", {"pattern": "**/*.py"}, tool="Glob")
add(C, "TODO|FIXME", {"pattern": "TODO|FIXME"}, tool="Grep")
add(C, "src/", {"dir": "src/"}, tool="list_directory")
add(C, "read the docs", {"term": "read the docs"}, tool="search_files")
add(C, "/etc/hosts", {"file_path": "/etc/hosts"}, tool="Read")
add(C, "def main", {"pattern": "def main"}, tool="grep", note="tool names are case-insensitive where unambiguous")
add(C, '{\u201ccmd\u201d: \u201cread\u201d}', {"cmd": "read"}, note="curly double quotes")
add(C, '{\u2018file\u2019: \u2018main.go\u2019}', {"file": "main.go"}, note="curly single quotes")
add(C, "make build", {"cmd": "make build"}, tool="exec")
add(C, "out.txt", {"file": "out.txt"}, tool="write_file")
add(C, 'echo "hello" > out.txt', {"command": 'echo "hello" > out.txt'}, tool="shell")
add(C, 'grep -rn "def main" .', {"command": 'grep -rn "def main" .'}, tool="bash")
add(C, r"type C:\Users\me\notes.txt", {"cmd": r"type C:\Users\me\notes.txt"}, tool="run_command")
add(C, '"main.go"', {"file": "main.go"}, tool="read_file", valid=True, note="a JSON string is wrapped")
add(C, "{'path': 'C:\\\\Users\\\\me'}", {"path": "C:\\Users\\me"})
add(C, "{'sql': \"SELECT * FROM t WHERE name = 'x'\"}", {"sql": "SELECT * FROM t WHERE name = 'x'"})
add(C, '{file: "src/main.rs", line: 42, column: 7}', {"file": "src/main.rs", "line": 42, "column": 7})
add(C, '{"a": {"b": {"c": 1,},},}', {"a": {"b": {"c": 1}}})
add(C, "[{'id': 1}, {'id': 2},]", [{"id": 1}, {"id": 2}])
add(C, '{a: 1, b: [1, 2,], c: {d: null,},}', {"a": 1, "b": [1, 2], "c": {"d": None}})
add(C, '{name: "x", "version": 2}', {"name": "x", "version": 2})
add(C, "{'cmd': 'ls', 'args': ['-l', '-a']}", {"cmd": "ls", "args": ["-l", "-a"]})
add(C, '{file_path: "a.py", old_string: "x = 1", new_string: "x = 2"}', {"file_path": "a.py", "old_string": "x = 1", "new_string": "x = 2"})
add(C, "{'a': 'b'}", {"a": "b"})
add(C, '{$schema: "x", _id: 1}', {"$schema": "x", "_id": 1})
add(C, "{'content': 'a, b: \"c\"'}", {"content": 'a, b: "c"'})
add(C, '{ "files" : [ "a.txt" , "b.txt" , ] , }', {"files": ["a.txt", "b.txt"]})
add(C, "{'regex': '\\\\d+'}", {"regex": "\\d+"})
add(C, "", {}, tool="git_status", valid=False, note="no arguments at all, with a tool: {}")
add(C, "find . -name '*.py' -exec wc -l {} +", {"command": "find . -name '*.py' -exec wc -l {} +"}, tool="bash")
add(C, "src/utils/helpers.py", {"file_path": "src/utils/helpers.py"}, tool="Edit")
add(C, r"\bclass\s+\w+", {"pattern": r"\bclass\s+\w+"}, tool="Grep")
add(C, "docker ps -a", {"cmd": "docker ps -a"}, tool="run_command")
add(C, "{'cmd': 'echo \"a, b\"', 'cwd': '/tmp'}", {"cmd": 'echo "a, b"', "cwd": "/tmp"})
add(C, "{cmd: 'read', file: 'main.go', opts: {follow: true, lines: [1, 20]}}",
    {"cmd": "read", "file": "main.go", "opts": {"follow": True, "lines": [1, 20]}})
add(C, "tests/", {"dir": "tests/"}, tool="run_tests")
add(C, "{'file_path': '/tmp/x.sh', 'content': '#!/bin/sh\\necho \"$1\"\\n'}",
    {"file_path": "/tmp/x.sh", "content": '#!/bin/sh\necho "$1"\n'})

# ---------------------------------------------------------------------------
# refusals: no JSON, or no safe reading

C = "refuse"
NO_JSON = "prose with no JSON in it"
refuse(C, "I'm sorry, I can't do that.", NO_JSON)
refuse(C, "I'm sorry, but I cannot help with that request.", NO_JSON)
refuse(C, "Sure! Let me look into it.", NO_JSON)
refuse(C, "I can't do that, it's not allowed.", NO_JSON + "; the apostrophes are not quotes")
refuse(C, "I don't have access to the file system; could you paste the file's contents?", NO_JSON)
refuse(C, "Note: I'll need the 'path' argument before I can read it.", NO_JSON + "; 'path' is a quoted word, not a value")
refuse(C, 'I could not find "main.go" in the repository.', NO_JSON + "; a quoted word in a sentence is not the arguments")
refuse(C, "I think the answer is 42.", NO_JSON + "; a number in a sentence is not the arguments")
refuse(C, "The file does not exist.", NO_JSON)
refuse(C, "Error: rate limit exceeded", NO_JSON)
refuse(C, "Sorry, the tool call failed: permission denied", NO_JSON)
refuse(C, "Let me try again with a different approach.", NO_JSON)
refuse(C, "Please provide the file path.", NO_JSON)
refuse(C, "The command failed with exit code 1.", NO_JSON)
refuse(C, "Here is the JSON you asked for:", NO_JSON + "; it never came")
refuse(C, "I'll use the read_file tool to look at main.py, then I'll summarise it for you.", NO_JSON)
refuse(C, "As an AI language model, I don't have the ability to execute commands.", NO_JSON)
refuse(C, "Done.", NO_JSON)
refuse(C, "I apologize, but I'm unable to execute shell commands in this environment.", NO_JSON)
refuse(C, "Could you clarify which file you mean?", NO_JSON)
refuse(C, "Thinking...", NO_JSON)
refuse(C, "TODO", "a bare word and no tool")
refuse(C, "<tool_call>read_file</tool_call>", "a tool name with no arguments, and no tool to take a bare value")
refuse(C, "OK", "a bare word and no tool")
refuse(C, "yes", "a bare word and no tool")
refuse(C, "hello", "a bare word and no tool")
refuse(C, "main.go", "a bare value and no tool to take it")
refuse(C, "ls -la", "a bare value and no tool to take it")
refuse(C, "read --file main.go", "CLI text and no tool")
refuse(C, "N/A", "a bare word and no tool")
refuse(C, "ERROR", "a bare word and no tool")
refuse(C, "SELECT * FROM users;", "a bare value and no tool to take it")
refuse(C, "", "no input and no tool")
refuse(C, "   \n  ", "only whitespace and no tool")
refuse(C, "// TODO: call the tool", "only a comment")
refuse(C, "/* nothing here */", "only a comment")
refuse(C, "```json\n```", "an empty code fence")
refuse(C, "```\n\n```", "an empty code fence")
refuse(C, "```\nI am not able to run that command.\n```", "prose in a code fence")
refuse(C, "<tool_call>\n</tool_call>", "an empty tool-call block")
refuse(C, "<|im_end|>", "only a chat-template token")
refuse(C, "<|eot_id|>", "only a chat-template token")
refuse(C, "<think>I should read the file first.</think>", "only reasoning, no arguments")
refuse(C, "<html><body><h1>502 Bad Gateway</h1></body></html>", "an HTML error page")
refuse(C, "Traceback (most recent call last):\n  File \"run.py\", line 3, in <module>\n    main()\nNameError: name 'main' is not defined",
       "a Python traceback")
refuse(C, "@@ -1,3 +1,3 @@", "a patch header, no JSON and no tool")
refuse(C, "...", "only an ellipsis")
refuse(C, "}", "only a closing bracket")
refuse(C, "]", "only a closing bracket")
refuse(C, ",", "only a comma")
refuse(C, ":", "only a colon")
refuse(C, "%%%", "no JSON")
refuse(C, "{: 1}", "a member with no key: a key would have to be invented")
refuse(C, '{"a": 1, : 2}', "a member with no key: a key would have to be invented")
refuse(C, '{"a": [1, }, 2]', "the brace inside the array has no safe reading")
refuse(C, '{"a": 1, "b": {"c": 2, "d": [3, 4}, "e": 5}',
       "the brace may close the array or the object: \"e\" belongs to a different object in each reading")
refuse(C, '{"a": "x" + y}', "a concatenation with a variable whose value is unknown")
refuse(C, '{"a": foo"bar"}', "a bare token never absorbs a quote")
refuse(C, "{cmd: echo a, b}", "a piece without a colon: 'b' is neither a member nor part of the value")
refuse(C, '{"cmd": "ls" : "la"}', "a colon after a value")
refuse(C, '{"a": "b": "c"}', "a colon after a value")
refuse(C, '{"items": [1, 2, "a": 3]}', "a key inside an array")
refuse(C, '[1, 2, "a": 3]', "a key inside an array")
refuse(C, '{[1, 2]: "x"}', "an array as a key")
refuse(C, "42", "a number is not tool arguments", tool="read_file")
refuse(C, '["a.txt", "b.txt"]', "an array is not tool arguments", tool="read_file")
refuse(C, "true", "a boolean is not tool arguments", tool="bash")
refuse(C, "[1, 2]", "an array is not tool arguments", tool="exec")
refuse(C, "I will read the file first.", "prose is not a command", tool="@coder")
refuse(C, "I'm sorry, I can't help with that.", "prose is not a command", tool="coder")
refuse(C, "read main.go", "a subcommand line is left for the tool's CLI parser", tool="@coder")


# ---------------------------------------------------------------------------
# checking and writing

def _strictly_valid(text: str) -> bool:
    try:
        parse_exact(text)
        return True
    except ValueError:
        return False


def build() -> dict[str, list[str]]:
    files, ids, problems = {}, set(), []
    for category, cases in CASES.items():
        lines = []
        for case in cases:
            cid = case["id"]
            if cid in ids:
                problems.append(f"{cid}: duplicate id")
            ids.add(cid)
            text = case["input"]
            if not case["_valid"] and not case.get("refuse") and text.strip() and _strictly_valid(text):
                problems.append(f"{cid}: the input is already valid JSON")
            if "tool" in case and tool_field(case["tool"]) is None:
                problems.append(f"{cid}: unknown tool {case['tool']!r}")
            record = {k: v for k, v in case.items() if not k.startswith("_")}
            if case.get("refuse"):
                lines.append(json.dumps(record, ensure_ascii=True))
                continue
            raw = case["_raw"]
            if raw is None:
                raw = json.dumps(case["_expect"], ensure_ascii=True)
            else:
                expected = parse_exact(raw)
                if case["_expect"] is not _NO and not same_value(expected, case["_expect"]):
                    problems.append(f"{cid}: expect_text does not parse to expect")
            # "expect" goes right after "input", written from its canonical text
            head = {k: record[k] for k in record if k in ("id", "category", "tool", "input")}
            tail = {k: record[k] for k in record if k not in head}
            line = json.dumps(head, ensure_ascii=True)[:-1] + ', "expect": ' + raw
            if tail:
                line += ", " + json.dumps(tail, ensure_ascii=True)[1:-1]
            lines.append(line + "}")
        files[category] = lines
    # every line reads back to the same case
    for category, lines in files.items():
        for line, case in zip(lines, CASES[category], strict=True):
            back = parse_exact(line)
            if back["input"] != case["input"]:
                problems.append(f"{case['id']}: input does not round-trip")
            if not case.get("refuse") and case["_expect"] is not _NO:
                if not same_value(back["expect"], case["_expect"]):
                    problems.append(f"{case['id']}: expect does not round-trip")
    if problems:
        sys.exit("corpus problems:\n  " + "\n  ".join(problems))
    return files


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="only check that the files are up to date")
    args = ap.parse_args(argv)
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20000))
    files = build()
    stale = []
    for category, lines in files.items():
        path = OUT_DIR / f"{category}.jsonl"
        content = "\n".join(lines) + "\n"
        if args.check:
            if not path.exists() or path.read_text(encoding="utf-8") != content:
                stale.append(path.name)
        else:
            OUT_DIR.mkdir(parents=True, exist_ok=True)
            path.write_text(content, encoding="utf-8", newline="\n")
    if args.check and stale:
        print("out of date: " + ", ".join(stale))
        return 1
    total = sum(len(v) for v in files.values())
    for category, lines in files.items():
        print(f"{category:16} {len(lines):4}")
    print(f"{'total':16} {total:4}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

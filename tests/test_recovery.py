"""Tool-call argument recovery: the contract of SPEC §1 and what we do better."""

from __future__ import annotations

import json
import re
import time

import orjson
import pytest
from hypothesis import given, settings, strategies as st

import toolmend
from toolmend import (
    Recovered,
    RecoveryError,
    field_for_tool,
    loads,
    looks_like_cli_args,
    normalize_quotes,
    normalize_tool_args,
    register_tool_field,
)

# ---------------------------------------------------------------------------
# SPEC §1: the fault table and the strategy examples

FAULT_TABLE = [
    # fault, raw, tool, value, strategy
    ("single quotes", "{'cmd': 'read'}", None, {"cmd": "read"}, "single_quotes"),
    ("unquoted keys", '{cmd: "read", file: "main.go"}', None,
     {"cmd": "read", "file": "main.go"}, "unquoted_keys"),
    ("trailing commas", '{"cmd":"read","file":"main.go",}', None,
     {"cmd": "read", "file": "main.go"}, "trailing_commas"),
    ("bare value", "main.go", "read_file", {"file": "main.go"}, "wrap_plain"),
    ("mixed styles", "{cmd: 'read', \"file\": main.go}", None,
     {"cmd": "read", "file": "main.go"}, "object_literal"),
    ("JS object literal", "{cmd: read, file: main.go}", None,
     {"cmd": "read", "file": "main.go"}, "object_literal"),
]

STRATEGY_EXAMPLES = [
    ('{"cmd":"read","args":{"file":"main.go"}}', None,
     {"cmd": "read", "args": {"file": "main.go"}}, "parse"),
    ("{'cmd':'read','file':'main.go'}", None, {"cmd": "read", "file": "main.go"}, "single_quotes"),
    ('{cmd: "read"}', None, {"cmd": "read"}, "unquoted_keys"),
    ("{cmd: 'read', file: 'main.go'}", None, {"cmd": "read", "file": "main.go"},
     "quotes_and_keys"),
    ('{"cmd":"read","file":"main.go",}', None, {"cmd": "read", "file": "main.go"},
     "trailing_commas"),
    ("main.go", "read_file", {"file": "main.go"}, "wrap_plain"),
    ("ls -la", "run_command", {"cmd": "ls -la"}, "wrap_plain"),
    ("TODO", "search_files", {"term": "TODO"}, "wrap_plain"),
    ("go build", "run_command", {"cmd": "go build"}, "wrap_plain"),
    ("./src", "list_directory", {"dir": "./src"}, "wrap_plain"),
    ("{cmd: read, file: main.go, append: true}", None,
     {"cmd": "read", "file": "main.go", "append": True}, "object_literal"),
]


@pytest.mark.parametrize("fault,raw,tool,value,strategy", FAULT_TABLE,
                         ids=[row[0] for row in FAULT_TABLE])
def test_fault_table(fault, raw, tool, value, strategy):
    r = normalize_tool_args(raw, tool)
    assert r.ok, r.error
    assert r.value == value
    assert r.strategy == strategy
    assert json.loads(r.text) == value
    assert loads(raw, tool) == value


def test_fault_table_cli_text_is_left_for_the_cli_parser():
    # "CLI text instead of JSON": not JSON, handed back unchanged (trimmed).
    r = normalize_tool_args("  read --file main.go \n", "@coder")
    assert (r.ok, r.text, r.strategy, r.value) == (False, "read --file main.go", None, None)
    assert "CLI arguments" in r.error


@pytest.mark.parametrize("raw,tool,value,strategy", STRATEGY_EXAMPLES)
def test_strategy_examples(raw, tool, value, strategy):
    r = normalize_tool_args(raw, tool)
    assert (r.ok, r.value, r.strategy) == (True, value, strategy)


def test_object_literal_text_is_compact_json():
    r = normalize_tool_args("{cmd: read, file: main.go, append: true}")
    assert r.text == '{"cmd":"read","file":"main.go","append":true}'


def test_single_quotes_keeps_and_escapes_inner_quotes():
    r = normalize_tool_args("""{'msg': 'say "hi"', "note": "it's"}""")
    assert r.strategy == "single_quotes"
    assert r.value == {"msg": 'say "hi"', "note": "it's"}
    assert r.text == """{"msg": "say \\"hi\\"", "note": "it's"}"""


def test_strategies_compose_and_name_the_first_valid_step():
    r = normalize_tool_args("{'a':'b',}")
    assert (r.strategy, r.value) == ("trailing_commas", {"a": "b"})
    r = normalize_tool_args("{cmd: 'read', args: {file: 'x',},}")
    assert r.ok and r.strategy == "trailing_commas"
    assert r.value == {"cmd": "read", "args": {"file": "x"}}  # nested object, not a string
    r = normalize_tool_args('{a: 1, b: [1, 2,],}')
    assert (r.strategy, r.value) == ("trailing_commas", {"a": 1, "b": [1, 2]})


def test_valid_json_comes_back_unchanged():
    raw = '  {"b": 1.50, "a": [1E5, -0, 123456789012345678901234567890]}  \n'
    r = normalize_tool_args(raw)
    assert r.ok and r.strategy == "parse" and r.text == raw
    assert list(r.value) == ["b", "a"]


def test_recovered_unpacks_as_four_fields():
    text, ok, strategy, value = normalize_tool_args("{'a': 1}")
    assert (text, ok, strategy, value) == ('{"a": 1}', True, "single_quotes", {"a": 1})
    assert isinstance(normalize_tool_args("{}"), Recovered)
    assert "strategy='parse'" in repr(normalize_tool_args("{}"))


# ---------------------------------------------------------------------------
# Scanners never touch text inside strings

@pytest.mark.parametrize("raw,value", [
    ('{"msg": "a, }", "x": 1,}', {"msg": "a, }", "x": 1}),
    ('{"msg": "{key: 1}", other: 2}', {"msg": "{key: 1}", "other": 2}),
    ("{'msg': 'x, ]', 'k': 'v',}", {"msg": "x, ]", "k": "v"}),
    ('{"path": "C:\\\\dir\\\\", cmd: \'run\'}', {"path": "C:\\dir\\", "cmd": "run"}),
    ('{"q": "it\'s", a: 1}', {"q": "it's", "a": 1}),
])
def test_repairs_leave_string_contents_alone(raw, value):
    r = normalize_tool_args(raw)
    assert r.ok, r.error
    assert r.value == value


# ---------------------------------------------------------------------------
# The object-literal parser

def test_object_literal_is_recursive_and_keeps_key_order():
    r = normalize_tool_args("{z: 1, cmd: read, args: {file: main.go, opts: [a, 2, {deep: yes}]}}")
    assert r.strategy == "object_literal"
    assert r.value == {"z": 1, "cmd": "read",
                       "args": {"file": "main.go", "opts": ["a", 2, {"deep": "yes"}]}}
    assert list(r.value) == ["z", "cmd", "args"]


def test_object_literal_keeps_numbers_exactly():
    r = normalize_tool_args("{id: 12345678901234567890, price: 1.50, zero: -0, cmd: read}")
    assert r.strategy == "object_literal"
    assert r.value["id"] == 12345678901234567890 and isinstance(r.value["id"], int)
    assert '"id":12345678901234567890' in r.text
    assert '"price":1.50' in r.text
    assert '"zero":-0' in r.text
    assert r.value["price"] == 1.5
    # leading zeros, '+', hex are number forms JSON lacks: the repair engine
    # reads them (the literal parser never takes them as text); digits are data,
    # so leading zeros stay a string
    r = normalize_tool_args("{zip: 01234, plus: +1, hex: 0x1F}")
    assert (r.strategy, r.value) == ("repair", {"zip": "01234", "plus": 1, "hex": 31})
    assert [f.code for f in r.fixes] == ["key", "number", "key", "number", "key", "number"]
    # a number too large for a double is null, as NaN is, logged (JSON has no Infinity)
    r = normalize_tool_args("{price: 1.50, big: -1e400}")
    assert (r.strategy, r.value, r.text) == ("repair", {"price": 1.5, "big": None},
                                             '{"price":1.50,"big":null}')
    assert [(f.code, f.offset) for f in r.fixes] == [("key", 1), ("key", 14), ("nan", 19)]


def test_object_literal_literals_are_case_insensitive():
    r = normalize_tool_args("{a: TRUE, b: False, c: None, d: NULL, e: none, f: nil}")
    assert r.value == {"a": True, "b": False, "c": None, "d": None, "e": None, "f": "nil"}


def test_object_literal_quoted_values_and_escapes():
    r = normalize_tool_args("""{cmd: 'it\\'s', path: C:\\Users\\me, "q": "a\\"b", n: 'x\\ny'}""")
    assert r.ok, r.error
    assert r.value == {"cmd": "it's", "path": "C:\\Users\\me", "q": 'a"b', "n": "x\ny"}


def test_object_literal_newlines_separate_pieces():
    r = normalize_tool_args("{\n  cmd: read\n  file: main.go\n}")
    assert r.value == {"cmd": "read", "file": "main.go"}


def test_object_literal_values_may_hold_colons_and_spaces():
    r = normalize_tool_args("{url: http://example.com:8080/a b, cmd: go test ./...}")
    assert r.value == {"url": "http://example.com:8080/a b", "cmd": "go test ./..."}


@pytest.mark.parametrize("raw,value,codes", [
    ("{a: 1}{b: 2}", [{"a": 1}, {"b": 2}], {"concatenated"}),
    ("{a: 1} {b: 2}", [{"a": 1}, {"b": 2}], {"concatenated"}),
    ("{a: 1,, b: 2}", {"a": 1, "b": 2}, {"comma"}),
    ("{a: }", {"a": None}, {"value"}),
    ("{a: true", {"a": True}, {"truncated"}),
    ("{a: [1, 2}", {"a": [1, 2]}, {"bracket"}),
    ("{a: 'x}'", {"a": "x}"}, {"truncated"}),
])
def test_what_the_literal_parser_refuses_the_repair_engine_repairs(raw, value, codes):
    r = normalize_tool_args(raw)
    assert (r.ok, r.strategy, r.value) == (True, "repair", value)
    assert codes <= {f.code for f in r.fixes}
    assert json.loads(r.text) == value


@pytest.mark.parametrize("raw,why", [
    ("{a: 1, b}", "piece 'b' has no colon"),
    ("{cmd: echo a, b}", "piece 'b' has no colon"),
    ("{: 1}", "empty key"),
])
def test_object_literal_refuses_rather_than_invents(raw, why):
    r = normalize_tool_args(raw)
    assert not r.ok
    assert r.text == raw.strip()
    assert why in r.error
    with pytest.raises(RecoveryError, match="could not recover"):
        loads(raw)


def test_refusal_names_the_place():
    r = normalize_tool_args("{a: 1,\n b}")
    assert "line 2, column 2" in r.error


# ---------------------------------------------------------------------------
# Tool rules: with a tool, arguments are always an object

def test_bare_json_string_is_wrapped_into_the_tool_field():
    r = normalize_tool_args('"main.go"', "read_file")
    assert (r.ok, r.value, r.text, r.strategy) == (True, {"file": "main.go"},
                                                   '{"file":"main.go"}', "wrap_plain")
    assert normalize_tool_args("'main.go'", "read_file").value == {"file": "main.go"}


def test_double_encoded_object_is_decoded():
    r = normalize_tool_args(json.dumps(json.dumps({"file": "x", "n": 1})), "read_file")
    assert (r.ok, r.value, r.strategy) == (True, {"file": "x", "n": 1}, "double_encoded")
    r = normalize_tool_args(json.dumps("{file: 'x'}"), "read_file")
    assert (r.ok, r.value, r.strategy) == (True, {"file": "x"}, "double_encoded")


@pytest.mark.parametrize("raw", ["42", "true", "null", "[1, 2]", '["main.go"]', "3.5"])
def test_other_scalars_and_arrays_are_not_ok_with_a_tool(raw):
    r = normalize_tool_args(raw, "read_file")
    assert not r.ok and r.text == raw and "takes an object" in r.error
    assert normalize_tool_args(raw).ok  # without a tool any JSON value is fine


def test_empty_arguments():
    for raw in ("", "   ", "\n\t"):
        r = normalize_tool_args(raw, "read_file")
        assert (r.ok, r.value, r.text, r.strategy) == (True, {}, "{}", "empty")
        r = normalize_tool_args(raw)
        assert not r.ok and r.text == "" and "empty" in r.error


def test_bare_value_without_a_tool_is_not_ok():
    r = normalize_tool_args("main.go")
    assert not r.ok and r.text == "main.go" and "no tool" in r.error


def test_unknown_tool_cannot_wrap():
    r = normalize_tool_args("main.go", "frobnicate")
    assert not r.ok and "no known primary field" in r.error
    assert normalize_tool_args('{"a": 1}', "frobnicate").ok


# ---------------------------------------------------------------------------
# Tool -> field table (SPEC §1.2): every pair

TOOL_FIELDS = {
    "read_file": "file", "read": "file", "write_file": "file", "write": "file",
    "patch_file": "file", "patch": "file", "list_directory": "dir", "tree": "dir",
    "search_files": "term", "search": "term", "run_command": "cmd", "exec": "cmd",
    "run_tests": "dir", "test": "dir", "rollback_file": "file", "rollback": "file",
    "git_status": "dir", "git-status": "dir", "git_diff": "dir", "git-diff": "dir",
    "git_log": "dir", "git-log": "dir", "git_changed": "dir", "git-changed": "dir",
    "git_branch": "dir", "git-branch": "dir", "clean_backups": "dir", "clean": "dir",
    "@coder": "cmd", "coder": "cmd", "bash": "command", "shell": "command", "Bash": "command",
    "Read": "file_path", "Write": "file_path", "Edit": "file_path",
    "Glob": "pattern", "Grep": "pattern",
}


def test_table_has_the_38_reference_names():
    assert len(TOOL_FIELDS) == 38


@pytest.mark.parametrize("tool,field", sorted(TOOL_FIELDS.items()))
def test_every_tool_field_pair(tool, field):
    assert field_for_tool(tool) == field
    value = "x" if tool != "@coder" and tool != "coder" else "tree"
    r = normalize_tool_args(value, tool)
    assert r.ok and r.value == {field: value} and r.strategy == "wrap_plain"


@pytest.mark.parametrize("tool,field", [
    ("GLOB", "pattern"), ("grep", "pattern"), ("edit", "file_path"), ("@read_file", "file"),
    ("READ_FILE", "file"), ("@Bash", "command"), ("BASH", "command"), ("@CODER", "cmd"),
    ("Run_Command", "cmd"),
])
def test_tool_lookup_is_case_insensitive_where_unambiguous(tool, field):
    assert field_for_tool(tool) == field


def test_ambiguous_case_has_no_field():
    # "read" is the coder subcommand (file), "Read" the file_path tool.
    assert field_for_tool("read") == "file" and field_for_tool("Read") == "file_path"
    assert field_for_tool("READ") is None
    assert field_for_tool("nope") is None


def test_register_tool_field():
    register_tool_field("fetch_url", "url")
    assert field_for_tool("fetch_url") == "url"
    assert field_for_tool("@FETCH_URL") == "url"
    assert normalize_tool_args("https://example.com", "fetch_url").value == {
        "url": "https://example.com"}
    register_tool_field("my_cli", "cmd", style="subcommand")
    assert not normalize_tool_args("read --file x", "my_cli").ok
    with pytest.raises(ValueError):
        register_tool_field("", "x")
    with pytest.raises(ValueError):
        register_tool_field("t", "x", style="weird")


# ---------------------------------------------------------------------------
# The CLI-argument guard

@pytest.mark.parametrize("text,expected", [
    ("read --file main.go", True),
    ("tree ./src", True),
    ("READ main.go", True),
    ("git-log -n 5", True),
    ("ls -l", True),
    ("grep --color x", True),
    ("main.go", False),
    ("read", False),            # one word
    ("hello world", False),
    ("echo -5 items", False),   # a negative number is not a flag
    ("-x something", False),    # only later words count as flags
    ("the docs are here", False),
])
def test_looks_like_cli_args(text, expected):
    assert looks_like_cli_args(text) is expected


@pytest.mark.parametrize("tool,text,field", [
    ("run_command", "ls -l", "cmd"),
    ("run_command", "git commit -m x", "cmd"),
    ("exec", "make test --jobs 4", "cmd"),
    ("bash", "ls -la /tmp", "command"),
    ("shell", "rm -rf build", "command"),
    ("Bash", "npm test -- --watch", "command"),
    ("search", "read the docs", "term"),
    ("search_files", "--verbose flag", "term"),
    ("Grep", "TODO -i", "pattern"),
])
def test_guard_does_not_apply_to_command_lines_or_search_terms(tool, text, field):
    r = normalize_tool_args(text, tool)
    assert (r.ok, r.value, r.strategy) == (True, {field: text}, "wrap_plain")


@pytest.mark.parametrize("text", ["read --file x", "tree ./src", "exec -c ls"])
def test_subcommand_lines_for_coder_go_to_the_cli_parser(text):
    for tool in ("@coder", "coder"):
        r = normalize_tool_args(text, tool)
        assert not r.ok and r.text == text and "CLI arguments" in r.error


@pytest.mark.parametrize("text", ["I will now read the file", "please check main.go", "hello"])
def test_prose_to_coder_is_not_a_recovered_command(text):
    r = normalize_tool_args(text, "@coder")
    assert not r.ok and r.text == text and "prose" in r.error


# ---------------------------------------------------------------------------
# Curly quotes

def test_structural_curly_quotes_are_normalized_before_repairs():
    r = normalize_tool_args("{\u201ccmd\u201d: \u201cread\u201d}")
    assert (r.ok, r.value, r.strategy) == (True, {"cmd": "read"}, "curly_quotes")
    r = normalize_tool_args("{\u2018cmd\u2019: \u2018read\u2019, file: \u2018x\u2019,}")
    assert r.ok and r.value == {"cmd": "read", "file": "x"}


def test_structural_mode_keeps_curly_quotes_inside_strings():
    raw = '{"msg": "he said \u201chi\u201d", x: 1}'
    r = normalize_tool_args(raw)
    assert r.value == {"msg": "he said \u201chi\u201d", "x": 1}
    r = normalize_tool_args("{\u201cmsg\u201d: \u201cit\u2019s \"ok\"\u201d}")
    assert r.value == {"msg": "it\u2019s \"ok\""}
    # valid JSON is never touched
    raw = '{"msg": "\u201cquoted\u201d"}'
    assert normalize_tool_args(raw).text == raw


def test_quotes_always_and_off():
    raw = '{"msg": "he said \u201chi\u201d \u00abok\u00bb"}'
    r = normalize_tool_args(raw, quotes="always")
    assert (r.ok, r.strategy) == (True, "parse")
    assert r.value == {"msg": 'he said "hi" <<ok>>'}
    assert r.text == '{"msg": "he said \\"hi\\" <<ok>>"}'
    r = normalize_tool_args("{\u201ccmd\u201d: \u201cread \u2018x\u2019\u201d}", quotes="always")
    assert (r.strategy, r.value) == ("curly_quotes", {"cmd": "read 'x'"})
    r = normalize_tool_args("{n: 1.50, s: \u201cq\u201d x}", quotes="always")
    assert r.strategy == "object_literal" and '"n":1.50' in r.text
    assert r.value == {"n": 1.5, "s": '"q" x'}
    r = normalize_tool_args('{"msg": "it\u2019s \u2032x\u2033"}', quotes="always")
    assert r.value == {"msg": "it's 'x\""}
    # "off": curly quotes are plain text, even where JSON needs a quote
    r = normalize_tool_args("{\u201ccmd\u201d: \u201cread\u201d}", quotes="off")
    assert (r.strategy, r.value) == ("object_literal", {"\u201ccmd\u201d": "\u201cread\u201d"})
    with pytest.raises(ValueError, match="quotes must be one of"):
        normalize_tool_args("{}", quotes="sometimes")


def test_normalize_quotes_table_and_paths():
    text = "\u2018a\u2019 \u201cb\u201d \u2032 \u2033 \u00abc\u00bb"
    assert normalize_quotes(text) == "'a' \"b\" ' \" <<c>>"
    assert normalize_quotes(text, "main.go") == "'a' \"b\" ' \" <<c>>"
    assert normalize_quotes(text, "src/app.tsx") == "'a' \"b\" ' \" <<c>>"
    assert normalize_quotes(text, "Dockerfile") == "'a' \"b\" ' \" <<c>>"
    assert normalize_quotes(text, "build/Makefile") == "'a' \"b\" ' \" <<c>>"
    assert normalize_quotes(text, "README.md") == text
    assert normalize_quotes(text, "notes.txt") == text
    from toolmend.recovery import CODE_EXTENSIONS
    assert len(CODE_EXTENSIONS) >= 60


# ---------------------------------------------------------------------------
# Input types, errors, robustness

def test_bytes_input():
    assert normalize_tool_args(b"{'a': 1}").value == {"a": 1}
    r = normalize_tool_args(b"{'a': '\xff'}")
    assert not r.ok and "not valid UTF-8" in r.error


def test_wrong_types_raise_type_error():
    with pytest.raises(TypeError):
        normalize_tool_args(42)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        normalize_tool_args("{}", tool=3)  # type: ignore[arg-type]


def test_loads_error_is_a_value_error_that_says_why():
    with pytest.raises(ValueError) as info:
        loads("{a: 1, b}")
    assert isinstance(info.value, RecoveryError)
    assert "piece 'b' has no colon" in str(info.value)
    assert info.value.text == "{a: 1, b}"


@pytest.mark.parametrize("depth", [1_000, 100_000])
def test_deep_nesting_gives_a_result_or_a_clear_error(depth):
    for raw in ("[" * depth + "]" * depth, "{a:" * depth + "1" + "}" * depth,
                "[" * depth, "{'a': " * depth):
        r = normalize_tool_args(raw)
        if not r.ok and r.cut is None:
            assert r.error and r.text == raw.strip()
        elif not r.ok:  # cut: the completed reading is shown
            assert r.error and r.cut.offset <= len(raw) and orjson.loads(r.text) is not None
    r = normalize_tool_args("{a:" * depth + "x" + "}" * depth)
    # the literal parser and the repair engine both stop past MAX_DEPTH
    if depth <= toolmend.recovery.MAX_DEPTH:
        assert r.ok and r.strategy == "object_literal"
    else:
        assert not r.ok and f"nesting deeper than {toolmend.recovery.MAX_DEPTH} levels" in r.error


def test_moderate_literal_nesting_is_fine():
    raw = "{a:" * 500 + "x" + "}" * 500
    r = normalize_tool_args(raw)
    assert r.ok and r.strategy == "object_literal"
    assert json.loads(r.text) == r.value


def test_compiled_flag_matches_the_environment():
    import os
    if os.environ.get("TOOLMEND_PURE_PYTHON") == "1":
        assert toolmend.compiled is False
    elif os.environ.get("TOOLMEND_REQUIRE_COMPILED") == "1":
        assert toolmend.compiled is True


# ---------------------------------------------------------------------------
# Markdown code fences

@pytest.mark.parametrize("raw,tool,value,strategy", [
    ('```json\n{"cmd": "read"}\n```', None, {"cmd": "read"}, "code_fence"),
    ("```\n{'cmd': 'read',}\n```", None, {"cmd": "read"}, "trailing_commas"),
    ("  ```JSON\r\n{cmd: read, file: main.go}\r\n```  ", None,
     {"cmd": "read", "file": "main.go"}, "object_literal"),
    ("```json\n\"main.go\"\n```", "read_file", {"file": "main.go"}, "wrap_plain"),
])
def test_code_fenced_arguments(raw, tool, value, strategy):
    r = normalize_tool_args(raw, tool)
    assert (r.ok, r.value, r.strategy) == (True, value, strategy)
    assert json.loads(r.text) == value


def test_code_fence_with_bad_content_is_refused_whole():
    r = normalize_tool_args("```json\n{a: 1, b}\n```")
    assert not r.ok and r.text.startswith("```") and "inside the code block" in r.error
    # not a single fenced block: with a tool, the text is a bare value as usual
    r = normalize_tool_args("```py\nprint(1)", "run_command")
    assert r.ok and r.value == {"cmd": "```py\nprint(1)"}


def test_code_blocks_nested_past_a_bound_are_refused_not_a_crash():
    deep = "```\n" * 1000  # each level reads the next: a bound, not the stack, ends it
    r = normalize_tool_args(deep)
    assert not r.ok and "nested more than 16 deep" in r.error
    assert r.error.count("inside the code block") == 1
    with pytest.raises(toolmend.RecoveryError, match="nested more than 16 deep"):
        toolmend.loads(deep)
    (call,) = toolmend.parse_tool_calls('<tool_call name="bash">' + deep + "</tool_call>")
    assert not call.ok and "nested more than 16 deep" in call.error
    # a few levels are read through, as before
    assert normalize_tool_args("```\n```json\n{\"a\": 1}\n```\n```").value == {"a": 1}


# the code block's reading before it was written out (a lazy body before "[ \t]*```\Z",
# quadratic in a run of blanks): what _fenced must find, on texts short enough for it
_FENCE_REGEX = re.compile(r"\A(`{3,})[ \t]*[\w+.-]*[ \t]*\r?\n(.*?)\r?\n?[ \t]*\1\Z", re.S)


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(["`", "```", "````", " ", "\t", "\n", "\r", "json", "x", "{", "}"]),
                max_size=14).map("".join))
def test_the_code_block_reading_finds_what_the_regex_did(text):
    from toolmend.recovery._strategies import _fenced

    m = _FENCE_REGEX.match(text)
    assert _fenced(text) == (None if m is None else m.span(2))


@pytest.mark.parametrize("text", [
    "```json\n{" + " " * 100_000 + '"a": 1}\n```',     # wide indentation inside the block
    "```\n" + "\t" * 100_000 + "\n```",
    "`" * 100_000 + '\n{"a": 1}\n' + "`" * 99_999,   # a long opening run the end lacks
    "```" + " " * 100_000 + "x",                        # an info string that never ends its line
])
def test_code_blocks_are_read_in_linear_time(text):
    start = time.thread_time()
    normalize_tool_args(text)
    toolmend.parse_tool_calls('<tool_call name="f">' + text + "</tool_call>")
    assert time.thread_time() - start < 2.0  # (quadratic: minutes)


# ---------------------------------------------------------------------------
# Comments

@pytest.mark.parametrize("raw,value", [
    ('{"a": 1, // the count\n "b": 2}', {"a": 1, "b": 2}),
    ("{a: 1, /* note */ b: 'x',}", {"a": 1, "b": "x"}),
    ('// arguments follow\n{"cmd": "read"}', {"cmd": "read"}),
    ('{"cmd": "read"} /* done */', {"cmd": "read"}),
    ('[1, 2, // three\n 3]', [1, 2, 3]),
])
def test_json_with_comments(raw, value):
    r = normalize_tool_args(raw)
    assert (r.ok, r.strategy, r.value) == (True, "comments", value)
    assert json.loads(r.text) == value


@pytest.mark.parametrize("raw,value,strategy", [
    ('{"url": "http://example.com/*x*/"}', {"url": "http://example.com/*x*/"}, "parse"),
    ("{url: http://example.com/a, n: 1}", {"url": "http://example.com/a", "n": 1},
     "object_literal"),
    ("{'path': '//server/share'}", {"path": "//server/share"}, "single_quotes"),
])
def test_comment_markers_inside_values_are_left_alone(raw, value, strategy):
    r = normalize_tool_args(raw)
    assert (r.ok, r.strategy, r.value) == (True, strategy, value)


def test_bare_values_keep_their_slashes():
    r = normalize_tool_args("https://example.com/x", "search")
    assert (r.strategy, r.value) == ("wrap_plain", {"term": "https://example.com/x"})
    assert not normalize_tool_args("// just a comment").ok


def test_many_trailing_commas():
    raw = "[" + "[1,]," * 300 + "{'a': 2,},]"   # more cuts than the kernel keeps on its stack
    r = normalize_tool_args(raw)
    assert r.ok and r.strategy == "trailing_commas"
    assert r.value == [[1]] * 300 + [{"a": 2}]


@pytest.mark.parametrize("text", ["{\u2018'\u2018", "{\u2018a'b\u2018", "{\u2018a'b\u2019: [1,,,"])
def test_offsets_point_into_the_input_after_curly_quotes_were_straightened(text):
    # Straightening a curly-quoted string escapes the ASCII quotes inside it
    # (one backslash added each): the cut and the fixes still point into the
    # text as given.
    r = normalize_tool_args(text)
    assert not r.ok and r.cut is not None and r.cut.offset == len(text)
    assert all(0 <= f.offset <= len(text) for f in r.fixes)


def test_a_refusal_after_straightened_quotes_names_the_input_offset():
    text = "{\u2018a'b\u2019: 1 2 3 ::}"
    r = normalize_tool_args(text)
    assert not r.ok
    offsets = [int(m) for m in re.findall(r"offset (\d+)", r.error)]
    assert offsets and all(o <= len(text) for o in offsets)

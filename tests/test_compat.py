"""toolmend.compat.json_repair keeps json-repair's signatures and conventions."""

from __future__ import annotations

import io
import json

import pytest

from toolmend import RecoveryError
from toolmend.compat import json_repair


def test_repair_json_returns_json_text():
    assert json.loads(json_repair.repair_json("{'a': 1,}")) == {"a": 1}
    assert json_repair.repair_json("{'a': 'é'}") == '{"a": "\\u00e9"}'
    # json-repair's separators on every path, ensure_ascii=False included
    assert json_repair.repair_json("{'a': 'é', 'b': [1,2]}", ensure_ascii=False) == \
        '{"a": "é", "b": [1, 2]}'
    assert json_repair.repair_json('{"a":1}', ensure_ascii=False) == '{"a": 1}'
    assert json_repair.repair_json("{a: 1}", indent=2) == '{\n  "a": 1\n}'


def test_return_objects_and_loads():
    assert json_repair.repair_json("{a: [1, 2,]}", return_objects=True) == {"a": [1, 2]}
    assert json_repair.loads("{cmd: read, n: 12345678901234567890}") == {
        "cmd": "read", "n": 12345678901234567890}
    assert json_repair.loads('{"big": 123456789012345678901234567890}') == {
        "big": 123456789012345678901234567890}


def test_unrecoverable_gives_empty_string_like_json_repair():
    assert json_repair.loads("{a: 1, b}") == ""
    assert json_repair.repair_json("{a: 1, b}") == ""
    assert not json_repair.repair_json("I'm sorry, I can't do that.")
    with pytest.raises(RecoveryError):
        json_repair.loads("{a: 1, b}", strict=True)


def test_logging_returns_value_and_log():
    value, log = json_repair.repair_json('{"a": 1}', logging=True)
    assert value == {"a": 1} and log == []
    value, log = json_repair.repair_json("{'a': 1}", logging=True)
    assert value == {"a": 1} and "single_quotes" in log[0]["context"]
    value, log = json_repair.repair_json('{"a": 1 "b": 2', logging=True)
    assert value == {"a": 1, "b": 2}
    assert [entry["context"].split()[0] for entry in log] == ["comma", "cut", "truncated"]
    value, log = json_repair.loads("{a: 1, b}", logging=True)
    assert value == "" and "no colon" in log[0]["context"]


def test_schema_checks_the_value_and_salvage_needs_one():
    assert json_repair.repair_json('{"a": 1}', schema={"type": "object"}) == '{"a": 1}'
    assert json_repair.repair_json('{"a": 1}', schema={"type": "array"}) == '[{"a": 1}]'
    with pytest.raises(RecoveryError, match="Expected string at"):
        json_repair.repair_json('{"a": 1}', schema={"type": "string"})
    with pytest.raises(RecoveryError, match="schema"):
        json_repair.loads('{"a": 1}', schema_repair_mode="salvage")
    with pytest.raises(RecoveryError, match="schema_repair_mode"):
        json_repair.loads('{"a": 1}', schema={}, schema_repair_mode="guess")


def test_load_and_from_file(tmp_path):
    assert json_repair.load(io.StringIO("{'x': true,}")) == {"x": True}
    path = tmp_path / "args.json"
    path.write_text("{file: main.go}", encoding="utf-8")
    assert json_repair.from_file(path) == {"file": "main.go"}


def test_strict_mode_refuses_what_json_repair_strict_refuses():
    for raw, words in [('{"a": 1}{"b": 2}', "Multiple top-level JSON elements"),
                       ('{"missing" "colon"}', "Missing ':' after key"),
                       ('{"key": , "k2": 1}', "Parsed value is empty"),
                       ('{"key": """"}', "doubled quotes"),
                       ('[{"key": "first", "key": "second"}]', "Duplicate key 'key'")]:
        with pytest.raises(RecoveryError, match=words):
            json_repair.repair_json(raw, strict=True)
        assert json_repair.repair_json(raw)  # repaired without strict
    # a quote inside a string opening a quotation that only the string's closing quote closes: one
    # quote is missing, where the string ends is a guess (read whole it gave '" "value'): refused in
    # both modes
    raw = '{"key": "" "value"}'
    with pytest.raises(RecoveryError, match="where the string ends is a guess"):
        json_repair.repair_json(raw, strict=True)
    assert json_repair.repair_json(raw) == ""


def test_strict_mode_checks_keys_at_any_depth():
    assert json_repair.repair_json('[{"a": 1}, {"a": 2}]', strict=True) == '[{"a": 1}, {"a": 2}]'
    deep = '{"a": ' * 1000 + "1" + "}" * 1000
    assert json_repair.loads(deep, strict=True)
    with pytest.raises(RecoveryError, match="Duplicate key 'b'"):
        json_repair.loads('{"a": ' * 1000 + '{"b": 1, "b": 2}' + "}" * 1000, strict=True)

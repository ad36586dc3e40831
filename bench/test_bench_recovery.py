"""Recovery against the libraries users would pick instead, in one run.

Fault table (SPEC §1): toolmend.loads vs json_repair.loads vs
fast_json_repair.loads. Valid ~1 KB arguments: toolmend.normalize_tool_args
vs a bare orjson.loads (the floor).
"""

from __future__ import annotations

import orjson
import pytest
from conftest import contend

import toolmend

json_repair = pytest.importorskip("json_repair")
try:  # published for CPython 3.11-3.14 on the main platforms only
    import fast_json_repair
except ImportError:
    fast_json_repair = None

FAULTS = {
    "single_quotes": "{'cmd': 'read', 'file': 'main.go'}",
    "unquoted_keys": '{cmd: "read", file: "main.go"}',
    "trailing_commas": '{"cmd":"read","file":"main.go",}',
    "mixed_styles": "{cmd: 'read', \"file\": main.go}",
    "object_literal": "{cmd: read, file: main.go, append: true}",
    "nested_compose": "{cmd: 'read', args: {file: 'x',},}",
}

CONTENDERS = {
    "toolmend": toolmend.loads,
    "json_repair": json_repair.loads,
    "fast_json_repair": fast_json_repair.loads if fast_json_repair else None,
}

VALID_1KB = orjson.dumps({
    "cmd": "write",
    "args": {
        "file": "src/service/handlers/user_profile.py",
        "content": "def handler(request):\n    user = load(request.user_id)\n" * 12,
        "append": False,
        "mode": 420,
        "tags": ["agent", "tool-call", "recovery", "benchmark"],
        "meta": {"attempt": 3, "ratio": 0.75, "trace": "a1b2c3d4e5f6" * 4},
    },
}).decode()


@pytest.mark.parametrize("contender", list(CONTENDERS))
@pytest.mark.parametrize("case", list(FAULTS))
def test_fault_table(benchmark, contender, case):
    if not toolmend.compiled and contender == "toolmend":
        pytest.skip("the ratio targets are for the compiled kernels")
    fn = CONTENDERS[contender]
    if fn is None:
        pytest.skip(f"{contender} is not installed here")
    text = FAULTS[case]
    contend(benchmark, "recover-fault", contender, case)
    result = benchmark(fn, text)
    assert isinstance(result, dict) and result


@pytest.mark.parametrize("contender", ["toolmend", "orjson"])
def test_valid_1kb(benchmark, contender):
    if not toolmend.compiled and contender == "toolmend":
        pytest.skip("the ratio targets are for the compiled kernels")
    assert 800 <= len(VALID_1KB) <= 1300
    fn = toolmend.loads if contender == "toolmend" else orjson.loads
    contend(benchmark, "recover-valid", contender, "valid ~1 KB")
    value = benchmark(fn, VALID_1KB)
    assert value["cmd"] == "write"

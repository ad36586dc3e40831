"""Exact integers on the fast path (issue 18): valid ~50 KB arguments that
hold a run of 19 digits (a nanosecond timestamp; an id inside a string) cost
``normalize_tool_args`` no more than a bare ``orjson.loads`` plus a little,
compiled: the kernel reads exact numbers itself, and only where an integer
beyond 64 bits may really be."""

from __future__ import annotations

import orjson
import pytest
from conftest import contend

import toolmend

_CONTENT = "def handler(request):\n    user = load(request.user_id)\n    return user\n" * 685


def _argument(extra: dict[str, object]) -> str:
    text = orjson.dumps({"file": "src/service/handlers/user_profile.py", "content": _CONTENT,
                         "append": False, "mode": 420, **extra}).decode()
    assert 49_000 <= len(text) <= 52_000
    return text


CASES = {
    "19-digit integer": _argument({"ts": 1733059200123456789}),
    "19 digits in a string": _argument({"id": "1733059200123456789"}),
}

CONTENDERS = {
    "toolmend": lambda text: toolmend.normalize_tool_args(text, "write_file"),
    "orjson": orjson.loads,
}


@pytest.mark.parametrize("contender", list(CONTENDERS))
@pytest.mark.parametrize("case", list(CASES))
def test_valid_50kb_with_long_digits(benchmark, contender, case):
    if not toolmend.compiled and contender == "toolmend":
        pytest.skip("the ratio targets are for the compiled kernels")
    text = CASES[case]
    result = contend(benchmark, "recover-exact", contender, case, CONTENDERS[contender], text)
    value = result.value if contender == "toolmend" else result
    assert value == orjson.loads(text)

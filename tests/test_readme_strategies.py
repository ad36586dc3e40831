"""The README's table of the seven strategies, run as written: each row's
example gives the row's strategy and result (the seed's documented outcomes,
issue 19). The table is read from the README, so a row changed there is
checked as changed."""

from __future__ import annotations

import json
import pathlib
import re

import pytest

import toolmend

README = pathlib.Path(__file__).resolve().parents[1] / "README.md"


def _rows() -> list[tuple[int, str, str, str | None, str]]:
    text = README.read_text(encoding="utf-8")
    table = text[text.index("### The strategies, in order"):]
    table = table[:table.index("Further strategies")]
    rows = []
    for line in table.splitlines():
        m = re.match(r"\| (\d) \| `(\w+)` \| `([^`]+)`( with tool `([^`]+)`)? \| (.+) \|$", line)
        if m:
            rows.append((int(m[1]), m[2], m[3], m[5], m[6]))
    return rows


ROWS = _rows()


def test_the_table_has_the_seven_strategies():
    assert [r[0] for r in ROWS] == [1, 2, 3, 4, 5, 6, 7]


@pytest.mark.parametrize("number, strategy, example, tool, result", ROWS, ids=[r[1] for r in ROWS])
def test_each_example_gives_its_strategy_and_result(number, strategy, example, tool, result):
    r = toolmend.normalize_tool_args(example, tool)
    assert r.ok, r.error
    assert r.strategy == strategy
    if result.startswith("returned as is"):
        assert r.text is example or r.text == example
        expected = json.loads(example)
    else:
        expected = json.loads(re.match(r"`([^`]+)`", result)[1])
    assert r.value == expected
    if number == 7:  # digits as written: 1.50 stays 1.50 in the text
        assert '"n":1.50' in r.text.replace(" ", "")

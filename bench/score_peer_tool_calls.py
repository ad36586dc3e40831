#!/usr/bin/env python3
"""Score ``parse_tool_calls`` on the serving stacks' own parser test cases and on our family corpus.

    python bench/score_peer_tool_calls.py                  # per family: right / wrong, detected and forced
    python bench/score_peer_tool_calls.py --show-wrong     # and each wrong case, with what came back

Reads every ``*.jsonl`` in ``tests/data/tool_calls/peers/`` (cases extracted
from vLLM's ``tests/tool_parsers/`` by extract_peer_tool_calls.py, and cases
taken by hand from SGLang's and llama.cpp's suites) and
``tests/data/tool_calls/families.jsonl`` (our own: every family, several calls
per message, cut and broken variants, decoys). A row holds ``text``, the
expected ``calls`` ([{name, args}], ``"ok": false`` for a call that must come
back not ok) and optionally ``tools`` (the request's tool definitions).

A case is right when the calls returned ok equal, in order, the expected calls
not marked ``"ok": false`` (names exactly, arguments as JSON values: see
score_tool_calls.py), and every expected not-ok call comes back not ok. Each
case runs twice: with ``format=None`` (detected) and with its family's name
forced. Rows extracted from assertions in a test's body may say ``"match":
"names"`` (the test checks only the names) or ``"subset"`` (only the argument
keys listed). The peers' tests give their parsers the request's tools, so that XML
parameters come back typed; a row without ``tools`` is given a schema built
from its expected arguments' JSON types (only the types, never the values),
as the request would carry.
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import sys
from collections import defaultdict
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
DATA = os.path.normpath(os.path.join(HERE, os.pardir, "tests", "data", "tool_calls"))

from score_tool_calls import load, same  # noqa: E402

_JSON_TYPES = ((bool, "boolean"), (int, "integer"), (float, "number"), (str, "string"), (dict, "object"),
               (list, "array"), (type(None), "null"))


def _type(v: Any) -> str:
    return next(t for k, t in _JSON_TYPES if isinstance(v, k))


def schema_from_expected(calls: list[dict[str, Any]]) -> list[dict[str, Any]] | None:
    tools: dict[str, dict[str, Any]] = {}
    for c in calls:
        props = tools.setdefault(c["name"], {})
        for k, v in (c.get("args") or {}).items():
            t = _type(v)
            old = props.get(k)
            props[k] = {"type": t} if old is None or old["type"] == t else {"type": sorted({old["type"], t})}
    if not tools:
        return None
    return [{"type": "function", "function": {"name": n, "parameters": {"type": "object", "properties": p}}}
            for n, p in tools.items()]


def rows() -> list[dict[str, Any]]:
    out = []
    paths = sorted(glob.glob(os.path.join(DATA, "peers", "*.jsonl"))) + [os.path.join(DATA, "families.jsonl")]
    for path in paths:
        if os.path.exists(path):
            for r in load(path):
                r.setdefault("file", os.path.basename(path))
                out.append(r)
    return out


def judge(row: dict[str, Any], fmt: str | None) -> tuple[bool, str]:
    from toolmend import parse_tool_calls

    tools = row.get("tools")
    if tools is None and not row.get("untyped"):
        tools = schema_from_expected([c for c in row["calls"] if c.get("ok", True)])
    try:
        got = parse_tool_calls(row["text"], format=fmt, tools=tools)
    except Exception as e:  # noqa: BLE001 -- a crash is a wrong answer
        return False, f"raised {type(e).__name__}: {e}"
    want_ok = [c for c in row["calls"] if c.get("ok", True)]
    want_bad = [c for c in row["calls"] if not c.get("ok", True)]
    ok = [c for c in got if c.ok]
    bad = [c for c in got if not c.ok]
    match = row.get("match", "exact")

    def args_right(w: dict[str, Any], got_args: Any) -> bool:
        if match == "names":
            return True
        if match == "subset":
            return isinstance(got_args, dict) and all(k in got_args and same(v, got_args[k])
                                                      for k, v in w.get("args", {}).items())
        return same(w.get("args", {}), got_args)

    right = (len(ok) == len(want_ok) and all(c.name == w["name"] and args_right(w, c.args)
                                              for c, w in zip(ok, want_ok, strict=True))
             and len(bad) >= len(want_bad))
    if row.get("decoy"):
        right = not got
    return right, "; ".join(f"{c.name}{'' if c.ok else ' NOT OK'} {json.dumps(c.args)[:120]}"
                            f"{'' if c.ok else ' (' + str(c.error)[:100] + ')'}" for c in got) or "(nothing)"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--show-wrong", action="store_true")
    a = ap.parse_args(argv)
    table: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    wrong = []
    for row in rows():
        fam = f"{row['file'].removesuffix('.jsonl')}/{row['format']}"
        for n, fmt in enumerate((None, row["format"])):
            right, got = judge(row, fmt)
            table[fam][2 * n + (0 if right else 1)] += 1
            if not right:
                wrong.append((fam, fmt, row, got))
    print(f"{'file/format':34} {'detected':>14} {'forced':>14}")
    tot = [0, 0, 0, 0]
    for fam in sorted(table):
        r = table[fam]
        tot = [x + y for x, y in zip(tot, r, strict=True)]
        print(f"{fam:34} {r[0]:>5} right {r[1]:>2} wrong {r[2]:>5} right {r[3]:>2} wrong")
    print(f"{'total':34} {tot[0]:>5} right {tot[1]:>2} wrong {tot[2]:>5} right {tot[3]:>2} wrong")
    if a.show_wrong:
        for fam, fmt, row, got in wrong:
            print(f"\n--- {row['id']} ({fam}, format={fmt})\n  text: {row['text'][:300]!r}\n"
                  f"  want: {json.dumps(row['calls'])[:300]}\n  got:  {got}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

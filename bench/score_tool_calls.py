#!/usr/bin/env python3
"""Score ``toolmend.parse_tool_calls`` on the tool-call corpus.

    python bench/score_tool_calls.py                 # tables per format, per kind, overall
    python bench/score_tool_calls.py --show-wrong    # and every message scored wrong, with what came back
    python bench/score_tool_calls.py --fail-under 95 # exit 1 below 95% overall

The corpus is ``tests/data/tool_calls/calls.jsonl`` (model messages with the
calls they mean) and ``tests/data/tool_calls/decoys.jsonl`` (model messages
with no call); bench/make_tool_call_corpus.py writes both and describes their
fields.

What counts as right:

* A message of calls.jsonl is exactly right when the ``(name, args)`` of the
  calls returned with ``ok=True`` equal, in order, the expected calls that are
  not marked ``"ok": false``. Nothing more, nothing less: a missing call, an
  extra call, a wrong argument or a wrong order makes the message wrong.
* Names are compared exactly. The expected names are as the model wrote
  them: ``@json`` stays ``@json`` and ``json`` stays ``json``; no leading ``@``
  is stripped and case is not folded.
* Arguments are compared as JSON values: same keys, lists in order, strings
  character for character, numbers by value, and a boolean is never equal to
  a number (``True != 1`` here, unlike in Python).
* A decoy is right when no call at all is returned, ok or not: a not-ok call
  is still something a backend answers the model about.
* A parse that raises is wrong.

Reported beside the score, not counted in it: how many of the expected
``"ok": false`` calls came back as a not-ok call with the same name (the
"failures reported" line).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import defaultdict
from decimal import Decimal, InvalidOperation
from numbers import Number
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.normpath(os.path.join(HERE, os.pardir, "tests", "data", "tool_calls"))


def load(path: str) -> list[dict]:
    rows = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if line.strip():
                try:
                    rows.append(json.loads(line))
                except ValueError as e:
                    raise SystemExit(f"{path}:{n}: not JSON: {e}") from None
    return rows


def same(expected: Any, got: Any) -> bool:
    """JSON equality: bool is not a number, numbers compare by value."""
    if isinstance(expected, bool) or isinstance(got, bool):
        return type(expected) is type(got) and expected == got
    if isinstance(expected, Number) and isinstance(got, Number):
        try:
            return Decimal(str(expected)) == Decimal(str(got))
        except (InvalidOperation, ValueError):
            return expected == got
    if isinstance(expected, dict):
        return (isinstance(got, dict) and expected.keys() == got.keys()
                and all(same(v, got[k]) for k, v in expected.items()))
    if isinstance(expected, list):
        return (isinstance(got, (list, tuple)) and len(expected) == len(got)
                and all(same(a, b) for a, b in zip(expected, got, strict=True)))
    if expected is None:
        return got is None
    return type(got) is type(expected) and expected == got


def parse(fn, text: str) -> tuple[list[Any] | None, str | None]:
    try:
        return list(fn(text)), None
    except Exception as e:  # noqa: BLE001 -- a crash is a wrong answer, not the end of the run
        return None, f"{type(e).__name__}: {e}"


def describe(calls: list[Any] | None, error: str | None) -> str:
    if error is not None:
        return f"raised {error}"
    if not calls:
        return "[]"
    out = []
    for c in calls:
        if getattr(c, "ok", False):
            out.append(f"ok {c.name!r} {json.dumps(c.args, ensure_ascii=False, default=str)}")
        else:
            out.append(f"NOT OK {getattr(c, 'name', None)!r} ({getattr(c, 'error', None)}) "
                       f"raw={str(getattr(c, 'raw_args', ''))[:80]!r}")
    return "\n        ".join(out)


def clip(text: str, n: int = 160) -> str:
    text = text.replace("\n", "\\n")
    return text if len(text) <= n else text[:n] + "..."


def table(title: str, groups: dict[str, list[bool]]) -> tuple[int, int]:
    print(f"\n{title}")
    print(f"  {'':28} {'n':>4} {'right':>6} {'%':>7}")
    right = total = 0
    for key in sorted(groups):
        oks = groups[key]
        r = sum(oks)
        right += r
        total += len(oks)
        print(f"  {key:28} {len(oks):4d} {r:6d} {100 * r / len(oks):6.1f}%")
    if total:
        print(f"  {'all':28} {total:4d} {right:6d} {100 * right / total:6.1f}%")
    return right, total


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Score toolmend.parse_tool_calls on the tool-call corpus.")
    ap.add_argument("--calls", default=os.path.join(DATA, "calls.jsonl"))
    ap.add_argument("--decoys", default=os.path.join(DATA, "decoys.jsonl"))
    ap.add_argument("--show-wrong", action="store_true",
                    help="list every wrong message and what was returned")
    ap.add_argument("--fail-under", type=float, default=None, metavar="PCT",
                    help="exit with status 1 when the overall score is below PCT")
    opts = ap.parse_args(argv)

    try:
        from toolmend import parse_tool_calls
    except Exception as e:  # noqa: BLE001 -- a half-built package is reported, not a traceback
        print(f"cannot import toolmend.parse_tool_calls: {type(e).__name__}: {e}", file=sys.stderr)
        return 2

    calls_rows = load(opts.calls)
    decoy_rows = load(opts.decoys)

    by_format: dict[str, list[bool]] = defaultdict(list)
    by_fault: dict[str, list[bool]] = defaultdict(list)
    by_kind: dict[str, list[bool]] = defaultdict(list)
    wrong: list[str] = []
    failures_expected = failures_reported = 0
    elapsed = 0.0

    for row in calls_rows:
        expected = [c for c in row["calls"] if c.get("ok", True)]
        t = time.perf_counter()
        got, error = parse(parse_tool_calls, row["text"])
        elapsed += time.perf_counter() - t
        ok_calls = [c for c in (got or []) if c.ok]
        right = error is None and len(ok_calls) == len(expected) and all(
            c.name == e["name"] and same(e["args"], c.args) for c, e in zip(ok_calls, expected, strict=True))
        by_format[row["format"]].append(right)
        by_fault[row.get("fault", "(none)")].append(right)
        for e in row["calls"]:
            if e.get("ok", True) is False:
                failures_expected += 1
                failures_reported += any(not c.ok and c.name == e["name"] for c in (got or []))
        if not right:
            want = [f"{e['name']!r} {json.dumps(e['args'], ensure_ascii=False)}"
                    if e.get("ok", True) else f"{e['name']!r} ok=false (must not come back ok)"
                    for e in row["calls"]]
            wrong.append(f"  {row['id']} [{row['format']}]\n"
                         f"      text:     {clip(row['text'])}\n"
                         f"      expected: {'; '.join(want) or 'no call'}\n"
                         f"      got:      {describe(got, error)}")

    for row in decoy_rows:
        t = time.perf_counter()
        got, error = parse(parse_tool_calls, row["text"])
        elapsed += time.perf_counter() - t
        right = error is None and not got
        by_kind[row["kind"]].append(right)
        if not right:
            wrong.append(f"  {row['id']} [decoy: {row['kind']}]\n"
                         f"      text:     {clip(row['text'])}\n"
                         f"      expected: no call\n"
                         f"      got:      {describe(got, error)}")

    r1, t1 = table(f"calls ({os.path.relpath(opts.calls)}), by format", by_format)
    table("calls, by fault", by_fault)
    r2, t2 = table(f"decoys ({os.path.relpath(opts.decoys)}), by kind", by_kind)
    right, total = r1 + r2, t1 + t2
    score = 100 * right / total if total else 0.0
    print(f"\ncalls exactly right: {r1}/{t1}   decoys with no call: {r2}/{t2}")
    print(f"failures reported (expected ok=false calls returned not-ok with that name): "
          f"{failures_reported}/{failures_expected}")
    print(f"overall: {right}/{total} = {score:.1f}%   ({1000 * elapsed:.1f} ms parsing)")

    if opts.show_wrong and wrong:
        print(f"\nwrong ({len(wrong)}):")
        print("\n".join(wrong))
    if opts.fail_under is not None and score < opts.fail_under:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

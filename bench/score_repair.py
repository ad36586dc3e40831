#!/usr/bin/env python3
"""Accuracy of JSON repair on the corpus in tests/data/repair/, three contenders in one run.

    python bench/score_repair.py                      # the table, per category and overall
    python bench/score_repair.py --category truncation
    python bench/score_repair.py --show-wrong toolmend
    python bench/score_repair.py --json               # machine-readable

Each line of a corpus file is one case: ``{"id", "category", "input", "expect"}``, optionally
``"tool"`` (the tool whose primary field, SPEC §1.2, takes a bare value), ``"expect_text"``
(the canonical JSON text, given where the exactness of a number matters), ``"cut": true`` (the
input ends inside a value: ``expect`` is the completed reading) and ``"note"``; or, for an
input that must be refused, ``{"id", "category", "input", "refuse": true, "why"}``.

Every case ends in one of three outcomes for each contender:

- ``right``: the expected value returned as success; for a refuse case, a refusal; for a cut
  case, for a contender that can say a text was cut (toolmend: ``Recovered.cut``), a refusal
  that reports the cut and shows the expected completed reading.
- ``refused``: no value, although one was expected.
- ``wrong``: silently wrong, a value returned as success that is not the expected one, or any
  value at all for a refuse case, or (for a contender that reports cuts) a cut case returned
  as whole. This is the
  outcome that matters most (SPEC §5).

Values are compared as JSON values: object key order is ignored, booleans are not numbers, and
numbers are compared by their exact decimal value (``1.10`` equals ``1.1`` and ``5`` equals
``5.0``, but a float that lost digits of ``123456789012345678901234567890`` does not equal it).

Contenders:

- ``toolmend``: ``toolmend.normalize_tool_args(input, tool=tool)``; success is ``.ok``; the value
  is ``.text`` parsed with exact numbers (text that is not JSON counts as wrong). A cut result
  (``ok`` False, ``.cut`` set) gives its completed reading, scored against a cut case's ``expect``.
- ``json_repair``: ``json_repair.loads(input)``; ``''`` or an exception is a refusal.
- ``fast_json_repair``: ``fast_json_repair.loads(input)``; the same.

The last two have no notion of a tool, nor of a cut: on a cut case they are scored on the value
they complete, as before, although a caller cannot tell it from a whole one. For a case with a
tool they get what a backend would do with their result: an object is taken as is, a non-empty
string is wrapped in the tool's primary field, anything else (a number, a list, ...) is a refusal.

A contender that is not installed is reported as unavailable and left out of the table.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
import time
from decimal import Decimal
from json.decoder import scanstring
from pathlib import Path

CORPUS_DIR = Path(__file__).resolve().parent.parent / "tests" / "data" / "repair"

RIGHT, REFUSED, WRONG = "right", "refused", "wrong"
CONTENDERS = ("toolmend", "json_repair", "fast_json_repair")

# SPEC §1.2: tool -> primary field (used to give the tool-less contenders the same contract).
TOOL_FIELDS = {
    "read_file": "file", "read": "file", "write_file": "file", "write": "file",
    "patch_file": "file", "patch": "file", "rollback_file": "file", "rollback": "file",
    "list_directory": "dir", "tree": "dir", "run_tests": "dir", "test": "dir",
    "clean_backups": "dir", "clean": "dir",
    "search_files": "term", "search": "term",
    "run_command": "cmd", "exec": "cmd", "@coder": "cmd", "coder": "cmd",
    "bash": "command", "shell": "command", "Bash": "command",
    "Read": "file_path", "Write": "file_path", "Edit": "file_path",
    "Glob": "pattern", "Grep": "pattern",
}
for _git in ("status", "diff", "log", "changed", "branch"):
    TOOL_FIELDS[f"git_{_git}"] = TOOL_FIELDS[f"git-{_git}"] = "dir"


def tool_field(tool: str) -> str | None:
    """Exact name, then without a leading ``@``, then case-insensitively when unambiguous."""
    for name in (tool, tool[1:] if tool.startswith("@") else None):
        if name and name in TOOL_FIELDS:
            return TOOL_FIELDS[name]
    fields = {f for n, f in TOOL_FIELDS.items() if n.lower() == tool.lstrip("@").lower()}
    return fields.pop() if len(fields) == 1 else None


# ---------------------------------------------------------------------------
# exact JSON: parsing (with an iterative fallback for deep documents) and comparison

def _reject_constant(name: str):
    raise ValueError(f"{name} is not JSON")


_WS = " \t\n\r"
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?")


def _skip_ws(s: str, i: int) -> int:
    n = len(s)
    while i < n and s[i] in _WS:
        i += 1
    return i


def _parse_iterative(s: str):
    """Strict JSON, exact numbers, no recursion (for documents deeper than json.loads allows)."""
    n = len(s)
    stack: list[list] = []  # [container, pending key]
    i = _skip_ws(s, 0)

    def read_key(i: int):
        if i >= n or s[i] != '"':
            raise ValueError(f"expected a key at {i}")
        key, i = scanstring(s, i + 1)
        i = _skip_ws(s, i)
        if i >= n or s[i] != ":":
            raise ValueError(f"expected ':' at {i}")
        return key, _skip_ws(s, i + 1)

    while True:
        c = s[i] if i < n else ""
        if c == "{":
            i = _skip_ws(s, i + 1)
            if s.startswith("}", i):
                value, i = {}, i + 1
            else:
                key, i = read_key(i)
                stack.append([{}, key])
                continue
        elif c == "[":
            i = _skip_ws(s, i + 1)
            if s.startswith("]", i):
                value, i = [], i + 1
            else:
                stack.append([[], None])
                continue
        elif c == '"':
            value, i = scanstring(s, i + 1)
        elif s.startswith("true", i):
            value, i = True, i + 4
        elif s.startswith("false", i):
            value, i = False, i + 5
        elif s.startswith("null", i):
            value, i = None, i + 4
        else:
            m = _NUMBER.match(s, i)
            if not m:
                raise ValueError(f"expected a value at {i}")
            text = m.group()
            value = Decimal(text) if (m.group(1) or m.group(2)) else int(text)
            i = m.end()
        while True:  # attach the value; close every container that ends here
            if not stack:
                if _skip_ws(s, i) != n:
                    raise ValueError(f"extra data at {i}")
                return value
            top = stack[-1]
            if isinstance(top[0], dict):
                top[0][top[1]] = value
            else:
                top[0].append(value)
            i = _skip_ws(s, i)
            c = s[i] if i < n else ""
            if c == ",":
                i = _skip_ws(s, i + 1)
                if isinstance(top[0], dict):
                    top[1], i = read_key(i)
                break
            if c == ("}" if isinstance(top[0], dict) else "]"):
                value = stack.pop()[0]
                i += 1
                continue
            raise ValueError(f"expected ',' or a closing bracket at {i}")


def parse_exact(text: str):
    """Parse strict JSON keeping numbers exact (ints as int, others as Decimal)."""
    try:
        return json.loads(text, parse_float=Decimal, parse_constant=_reject_constant)
    except RecursionError:
        return _parse_iterative(text)


def _kind(x):
    if x is None:
        return "null"
    if isinstance(x, bool):
        return "bool"
    if isinstance(x, (int, float, Decimal)):
        return "number"
    if isinstance(x, str):
        return "string"
    if isinstance(x, (list, tuple)):
        return "array"
    if isinstance(x, dict):
        return "object"
    return type(x).__name__


def _number(x):
    if isinstance(x, float):
        if not math.isfinite(x):
            return ("non-finite", repr(x))  # NaN and inf equal no JSON number
        return Decimal(repr(x))
    return Decimal(x)


def same_value(a, b) -> bool:
    """JSON-value equality (see the module docstring), without recursion."""
    todo = [(a, b)]
    while todo:
        x, y = todo.pop()
        kind = _kind(x)
        if kind != _kind(y):
            return False
        if kind == "number":
            nx, ny = _number(x), _number(y)
            if type(nx) is not type(ny) or nx != ny:
                return False
        elif kind == "array":
            if len(x) != len(y):
                return False
            todo.extend(zip(x, y, strict=True))
        elif kind == "object":
            if len(x) != len(y) or set(x) != set(y):
                return False
            todo.extend((x[k], y[k]) for k in x)
        elif kind in ("null", "bool", "string"):
            if x != y:
                return False
        else:
            return False
    return True


def _display(value) -> str:
    """JSON text of a value for people: numbers as written, anything else by its repr."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(k, ensure_ascii=False)}: {_display(v)}"
                               for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_display(v) for v in value) + "]"
    if isinstance(value, Decimal):
        return str(value)
    if value is None or isinstance(value, (bool, int, float, str)):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def short(value, limit: int = 100) -> str:
    """A one-line view of a value (numbers as written, lone surrogates escaped)."""
    try:
        text = _display(value)
    except (RecursionError, ValueError, TypeError):
        text = f"<{_kind(value)} too deep to show>"
    text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text if len(text) <= limit else text[: limit - 3] + "..."


# ---------------------------------------------------------------------------
# the corpus

def load_corpus(directory: Path) -> list[dict]:
    cases, seen = [], set()
    files = sorted(directory.glob("*.jsonl"))
    if not files:
        sys.exit(f"no corpus files (*.jsonl) in {directory}")
    for path in files:
        with path.open(encoding="utf-8", newline="\n") as fh:
            for lineno, line in enumerate(fh, 1):
                if not line.strip():
                    continue
                try:
                    case = parse_exact(line)
                except ValueError as exc:
                    sys.exit(f"{path.name}:{lineno}: not JSON: {exc}")
                cid = case.get("id")
                if cid in seen:
                    sys.exit(f"{path.name}:{lineno}: duplicate id {cid!r}")
                seen.add(cid)
                if case.get("refuse"):
                    case["expected"] = None
                elif "expect_text" in case:
                    case["expected"] = parse_exact(case["expect_text"])
                elif "expect" in case:
                    case["expected"] = case["expect"]
                else:
                    sys.exit(f"{path.name}:{lineno}: {cid}: neither expect nor refuse")
                case["_file"] = path.name
                cases.append(case)
    return cases


# ---------------------------------------------------------------------------
# contenders: each returns (success, value) or raises

def _toolmend():
    import toolmend

    def run(case):
        r = toolmend.normalize_tool_args(case["input"], tool=case.get("tool"))
        if getattr(r, "cut", None) is not None:
            try:
                return CUT, parse_exact(r.text)
            except ValueError as exc:
                return CUT, _NotJSON(r.text, exc)
        if not r.ok:
            return False, r.error if hasattr(r, "error") else None
        try:
            return True, parse_exact(r.text)
        except ValueError as exc:
            return True, _NotJSON(r.text, exc)
    run.reports = (CUT,)
    return run


#: what a contender's run returns as its success flag for a refusal that reports a cut
CUT = "cut"


class _NotJSON:
    """A success whose text is not JSON: never equal to anything."""

    def __init__(self, text, exc):
        self.text, self.exc = text, exc

    def __str__(self):
        return f"<not JSON: {self.text[:60]!r}>"


def _tool_contract(case, value):
    """A tool-less contender's value under the tool contract (see the module docstring)."""
    if not case.get("tool"):
        return True, value
    if isinstance(value, dict):
        return True, value
    if isinstance(value, str) and value:
        field = tool_field(case["tool"])
        return (True, {field: value}) if field else (False, None)
    return False, None


def _loads_contender(loads):
    def run(case):
        value = loads(case["input"])
        if isinstance(value, str) and value == "":
            return False, None
        return _tool_contract(case, value)
    return run


def _json_repair():
    import json_repair
    return _loads_contender(json_repair.loads)


def _fast_json_repair():
    import fast_json_repair
    return _loads_contender(fast_json_repair.loads)


FACTORIES = {"toolmend": _toolmend, "json_repair": _json_repair,
             "fast_json_repair": _fast_json_repair}


def score_case(run, case):
    """-> (outcome, detail)"""
    try:
        ok, value = run(case)
    except Exception as exc:  # a crash is a refusal (and is reported in the detail)
        return REFUSED if not case.get("refuse") else RIGHT, f"raised {type(exc).__name__}: {exc}"[:200]
    if case.get("refuse"):
        return (WRONG, short(value)) if ok else (RIGHT, None)
    if ok == CUT:  # refused as cut: right on a cut case when the completed reading is the expected one
        if not case.get("cut"):
            return REFUSED, f"reported as cut: {short(value)}"
        if same_value(value, case["expected"]):
            return RIGHT, None
        return REFUSED, f"reported as cut, with another reading: {short(value)}"
    if ok and case.get("cut") and CUT in getattr(run, "reports", ()):
        return WRONG, f"a cut text returned as whole: {short(value)}"
    if not ok:
        return REFUSED, (str(value)[:200] if value else None)
    if same_value(value, case["expected"]):
        return RIGHT, None
    return WRONG, short(value)


# ---------------------------------------------------------------------------

def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--json", action="store_true", help="machine-readable output")
    ap.add_argument("--category", action="append", metavar="X",
                    help="score only this category (repeatable)")
    ap.add_argument("--show-wrong", action="append", metavar="CONTENDER", choices=CONTENDERS,
                    help="list the ids this contender does not get right (repeatable)")
    ap.add_argument("--corpus", type=Path, default=CORPUS_DIR, help="corpus directory")
    args = ap.parse_args(argv)
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20000))

    cases = load_corpus(args.corpus)
    if args.category:
        known = {c["category"] for c in cases}
        unknown = [c for c in args.category if c not in known]
        if unknown:
            sys.exit(f"unknown category {', '.join(unknown)}; known: {', '.join(sorted(known))}")
        cases = [c for c in cases if c["category"] in args.category]
    categories = sorted({c["category"] for c in cases})

    runners, unavailable = {}, {}
    for name in CONTENDERS:
        try:
            runners[name] = FACTORIES[name]()
        except Exception as exc:  # not installed, or does not import
            unavailable[name] = f"{type(exc).__name__}: {exc}"

    results: dict[str, dict] = {}
    for name, run in runners.items():
        t0 = time.perf_counter()
        per_case = {c["id"]: score_case(run, c) for c in cases}
        results[name] = {"seconds": time.perf_counter() - t0, "cases": per_case}

    def tally(name, subset):
        counts = {RIGHT: 0, REFUSED: 0, WRONG: 0}
        for c in subset:
            counts[results[name]["cases"][c["id"]][0]] += 1
        return counts

    by_cat = {cat: [c for c in cases if c["category"] == cat] for cat in categories}

    if args.json:
        out = {
            "cases": len(cases),
            "unavailable": unavailable,
            "contenders": {},
        }
        for name in results:
            out["contenders"][name] = {
                "seconds": round(results[name]["seconds"], 4),
                "overall": {"n": len(cases), **tally(name, cases)},
                "categories": {cat: {"n": len(sub), **tally(name, sub)}
                               for cat, sub in by_cat.items()},
                "not_right": {
                    cid: {"outcome": outcome, "got": detail}
                    for cid, (outcome, detail) in results[name]["cases"].items()
                    if outcome != RIGHT
                },
            }
        json.dump(out, sys.stdout, indent=2, ensure_ascii=True)
        print()
        return 0

    names = list(results)
    width = max([len("category")] + [len(c) for c in categories]) + 1
    head1 = f"{'':{width}} {'':>4} " + " ".join(f"| {n:^20}" for n in names)
    head2 = f"{'category':{width}} {'n':>4} " + " ".join(
        f"| {'right':>6} {'refus':>5} {'WRONG':>6}" for _ in names)
    print(head1)
    print(head2)
    print("-" * len(head2))

    def row(label, subset):
        cells = []
        for n in names:
            t = tally(n, subset)
            cells.append(f"| {t[RIGHT]:>6} {t[REFUSED]:>5} {t[WRONG]:>6}")
        return f"{label:{width}} {len(subset):>4} " + " ".join(cells)

    for cat in categories:
        print(row(cat, by_cat[cat]))
    print("-" * len(head2))
    print(row("overall", cases))
    if cases:
        pct = []
        for n in names:
            t = tally(n, cases)
            pct.append(f"| {100 * t[RIGHT] / len(cases):>5.1f}% {100 * t[REFUSED] / len(cases):>4.1f}%"
                       f" {100 * t[WRONG] / len(cases):>5.1f}%")
        print(f"{'':{width}} {'':>4} " + " ".join(pct))
    print()
    print("right: expected value, or refused when it should be; refus: refused though a value was"
          " expected;")
    print("WRONG: silently wrong (a value returned as success that is not the expected one, or any"
          " value for a refuse case)")
    n_cut = sum(1 for c in cases if c.get("cut"))
    if n_cut:
        print(f"cut: {n_cut} cases end inside a value; right for toolmend is a refusal that reports the"
              " cut and shows the expected completed reading (json_repair and fast_json_repair return"
              " their completion as whole)")
    print("time: " + ", ".join(f"{n} {results[n]['seconds']:.2f}s" for n in names))
    for name, why in unavailable.items():
        print(f"unavailable: {name} ({why})")

    for name in args.show_wrong or []:
        if name not in results:
            print(f"\n{name}: unavailable")
            continue
        print(f"\n{name}: cases not right")
        for c in cases:
            outcome, detail = results[name]["cases"][c["id"]]
            if outcome == RIGHT:
                continue
            want = "refuse" if c.get("refuse") else short(c["expected"], 60)
            print(f"  {outcome:<7} {c['id']:<22} input={short(c['input'], 50)}  want={want}"
                  + (f"  got={detail}" if detail else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())

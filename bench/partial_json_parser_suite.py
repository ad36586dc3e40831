#!/usr/bin/env python3
"""promplate/partial-json-parser's own tests (``tests/test_examples.py``) against
``toolmend.compat.partial_json_parser``.

    python bench/partial_json_parser_suite.py                    # right / refused / different
    python bench/partial_json_parser_suite.py --show             # every case that is not right
    python bench/partial_json_parser_suite.py --readme README.md # rewrite the suite's README table
    python bench/partial_json_parser_suite.py --extract GIT_DIR  # re-extract the cases

Every check of the test file on one call is a case: ``assert CALL == VALUE`` (a chain
``fix(x) == fix_fast(x) == y`` is one case a call), ``assert isnan(CALL)`` and ``with
raises(E): CALL``, where CALL is ``parse_json``, ``fix`` or ``fix_fast`` of a string and flags;
the flags are stored as their integer value, a float that JSON cannot hold as
``{"$float": "inf"}``. The suite's property tests (``fix`` and ``fix_fast`` agree on every prefix,
hypothesis' random documents) are not cases: ``tests/test_compat_dropins_complete.py`` and
``tests/test_compat_partial_json.py`` check the same properties. A refusal is an exception of
the class the check names; any other exception is a refusal where a value was expected.
"""

from __future__ import annotations

import ast
import math
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import score_peers  # noqa: E402

SUITE = "partial_json_parser"
TEST_FILE = "tests/test_examples.py"
CALLS = ("parse_json", "fix", "fix_fast")


def _namespace() -> dict[str, Any]:
    from toolmend.compat import partial_json_parser as ours

    return {name: getattr(ours, name) for name in ours.__all__} | {"float": float}


def _data(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return {"$float": repr(value)}
    if isinstance(value, (tuple, list)):
        return [_data(v) for v in value]
    return value


def extract(git_dir: Path) -> None:
    source = score_peers.git(git_dir, "show", f"HEAD:{TEST_FILE}").decode()
    names = _namespace()
    cases: list[dict[str, Any]] = []

    def call_of(node: ast.AST) -> dict[str, Any] | None:
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in CALLS):
            return None
        args = [eval(compile(ast.Expression(a), "<arg>", "eval"), names) for a in node.args]  # noqa: S307
        if not args or not isinstance(args[0], str):
            return None
        return {"func": node.func.id, "input": args[0], "allow": int(args[1]) if len(args) > 1 else None}

    def add(test: str, line: int, case: dict[str, Any]) -> None:
        where = f"{test}:{line}"
        earlier = sum(c["id"] == where or c["id"].startswith(where + "#") for c in cases)
        cases.append({"id": where + (f"#{earlier + 1}" if earlier else ""), **case})

    for fn in ast.parse(source).body:
        if not (isinstance(fn, ast.FunctionDef) and fn.name.startswith("test_")):
            continue
        for node in ast.walk(fn):
            if isinstance(node, ast.Assert):
                t = node.test
                if isinstance(t, ast.Compare) and all(isinstance(op, ast.Eq) for op in t.ops):
                    parts = [t.left, *t.comparators]
                    value = eval(compile(ast.Expression(parts[-1]), "<v>", "eval"), names)  # noqa: S307
                    for part in parts[:-1]:
                        c = call_of(part)
                        if c:
                            add(fn.name, node.lineno, {**c, "expect_py": _data(value)})
                elif isinstance(t, ast.Call) and isinstance(t.func, ast.Name) and t.func.id == "isnan":
                    c = call_of(t.args[0])
                    if c:
                        add(fn.name, node.lineno, {**c, "expect_py": {"$float": "nan"}})
            elif isinstance(node, ast.With):
                item = node.items[0].context_expr
                if isinstance(item, ast.Call) and getattr(item.func, "id", "") == "raises":
                    c = call_of(node.body[0].value) if isinstance(node.body[0], ast.Expr) else None
                    if c:
                        add(fn.name, node.lineno, {**c, "refuse": True, "raises": item.args[0].id})
    commit = score_peers.git(git_dir, "rev-parse", "HEAD").decode().strip()
    score_peers.write_suite(SUITE, cases, licence=score_peers.git(git_dir, "show", "HEAD:LICENSE").decode(),
                            source={"repository": "https://github.com/promplate/partial-json-parser",
                                    "commit": commit, "path": TEST_FILE, "licence": "MIT (LICENSE)",
                                    "extracted": "bench/partial_json_parser_suite.py --extract: the test "
                                                 "file's checks on one call, read from its syntax tree"})
    print(f"{len(cases)} cases written")


def _value(value: Any) -> Any:
    if isinstance(value, dict) and set(value) == {"$float"}:
        return float(value["$float"])
    if isinstance(value, list):
        return [_value(v) for v in value]
    return value


def run(case: dict[str, Any]) -> tuple[bool, Any]:
    from toolmend.compat import partial_json_parser as ours

    args = [case["input"]] + ([case["allow"]] if case["allow"] is not None else [])
    try:
        value = getattr(ours, case["func"])(*args)
    except Exception as exc:
        if case.get("raises") and isinstance(exc, getattr(ours, case["raises"])):
            return False, f"raised {case['raises']}"
        detail = f"raised {type(exc).__name__}: {exc}"
        return (True, "<" + detail + ">") if case.get("raises") else (False, detail)
    return True, list(value) if isinstance(value, tuple) else value


def expected(case: dict[str, Any]) -> Any:
    return _value(case["expect_py"])


def expected_text(case: dict[str, Any]) -> str:
    return score_peers.short(expected(case), 200)


TITLE = "partial-json-parser's tests (promplate/partial-json-parser), on the drop-in"
SCORING = (run, expected, expected_text, TITLE)

if __name__ == "__main__":
    sys.exit(score_peers.main(SUITE, __doc__, run, expected, expected_text=expected_text, title=TITLE,
                              extract=extract))

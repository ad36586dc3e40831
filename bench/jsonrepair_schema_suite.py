"""json-repair's schema tests against ``toolmend.compat.json_repair`` (``schema=``).

    python bench/jsonrepair_schema_suite.py --extract PATH/TO/json_repair/tests   # -> tests/data
    python bench/jsonrepair_schema_suite.py [--show] [--readme README.md]        # offline

``--extract`` runs json-repair's tests whose names say ``schema`` under the soft-check harness
of ``bench/jsonrepair_suite.py`` (every ``assert`` one check, each ``pytest.raises`` block one)
and keeps the checks made on exactly one call with ``schema=``: the text, the schema (a Pydantic
model as its ``model_json_schema()``, which is what the drop-in reads from it), the other
arguments and json-repair's expected value (``refuse`` for a ``pytest.raises`` block, with the
message it must match, and for json-repair's ``''``). Offline, each is run again and scored by
``bench/score_peers.py``: a refusal (our ``ValueError``, or ``''``) is right where json-repair
refuses, a value is right when it equals json-repair's; a ``pytest.raises`` check also needs the
message json-repair's test matches.
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import jsonrepair_suite as base  # noqa: E402
import score_peers  # noqa: E402

import toolmend.compat.json_repair as ours  # noqa: E402

SUITE = "json_repair_schema"
TITLE = "json-repair's schema tests (mangiucugna/json_repair, tests/), on the drop-in"


def _schema(value: Any) -> tuple[Any, bool]:
    if isinstance(value, type) and hasattr(value, "model_json_schema"):
        return value.model_json_schema(), True
    return value, False


def extract(tests_dir: Path) -> None:
    tests_dir = Path(tests_dir).resolve()
    base.run(tests_dir, False, False, ["-k", "schema"])
    cases: list[dict[str, Any]] = []
    skipped: Counter[str] = Counter()
    seen: Counter[str] = Counter()
    for c in base.REC.checks:
        calls = c.get("calls") or []
        if not c["dropin"] or not any("schema" in k.get("kwargs", {}) for k in calls):
            continue
        if len(calls) != 1 or not c.get("direct"):
            skipped["several calls, or a value computed before the check"] += 1
            continue
        call = calls[0]
        kwargs = dict(call["kwargs"])
        args = list(call["args"])
        text = args.pop(0) if args else kwargs.pop("json_str", None)
        if call["func"] not in ("repair_json", "loads") or not isinstance(text, str) or args:
            skipped["a file, or not one text argument"] += 1
            continue
        schema, model = _schema(kwargs.pop("schema"))
        try:
            kwargs = base._jsonable(kwargs)
            schema = base._jsonable(schema)
        except (TypeError, ValueError, RecursionError):
            skipped["arguments that are not JSON data"] += 1
            continue
        case: dict[str, Any] = {"test": c["nodeid"].split("::", 1)[-1], "func": call["func"], "input": text,
                                "schema": schema, "kwargs": kwargs}
        if model:
            case["pydantic"] = True
        if c["kind"] == "raises":
            m = re.search(r"match=(r?)([\"'])(.*?)\2", c["source"])
            case.update(refuse=True, match=m.group(3) if m else None)
        elif c.get("op") == "==" and c.get("expected") is not base._Missing:
            expected = c["expected"]
            if kwargs.get("logging"):  # (value, log): a check of both, or of the value alone
                result = call.get("result")
                whole = isinstance(result, tuple) and c.get("ours") is result
                if whole and isinstance(expected, (tuple, list)) and len(expected) == 2:
                    expected = expected[0]
                elif not (isinstance(result, tuple) and result and c.get("ours") is result[0]):
                    skipped["a check on the repair log"] += 1
                    continue
            if expected == "":
                case["refuse"] = True  # json-repair gives up: '' is its refusal
            else:
                try:
                    case["expect_py"] = base._jsonable(expected)
                except (TypeError, ValueError):
                    skipped["an expected value that is not JSON data"] += 1
                    continue
        else:
            skipped[f"a check with {c.get('op') or 'no comparison'}"] += 1
            continue
        where = f"{c['file'].split('/')[-1]}:{c['line']}"
        seen[where] += 1
        cases.append({"id": where if seen[where] == 1 else f"{where}#{seen[where]}", **case})
    repo = tests_dir.parent
    licence = (repo / "LICENSE").read_text(encoding="utf-8") if (repo / "LICENSE").exists() else ""
    score_peers.write_suite(SUITE, cases, licence=licence, source={
        "repository": "https://github.com/mangiucugna/json_repair",
        "commit": os.environ.get("JSON_REPAIR_COMMIT", "unknown: set JSON_REPAIR_COMMIT when extracting"),
        "path": "tests/", "licence": "MIT (LICENSE)",
        "extracted": "bench/jsonrepair_schema_suite.py --extract TESTS: json-repair's tests named *schema* "
                     "run under the soft-check harness, each single-call check with schema= recorded with "
                     "json-repair's expected value",
        "checks_not_extracted": dict(skipped.most_common()),
    })
    print(json.dumps({"cases": len(cases), **skipped}, indent=1))


def offline_run(case: dict[str, Any]) -> tuple[bool, Any]:
    try:
        value = getattr(ours, case["func"])(case["input"], schema=case["schema"], **case["kwargs"])
    except ValueError as exc:
        pattern = case.get("match")
        if case.get("refuse") and pattern and not re.search(pattern, str(exc)):
            return True, f"<raised ValueError: {str(exc)[:120]}, not matching {pattern!r}>"
        return False, f"raised {type(exc).__name__}: {str(exc)[:200]}"
    if case["kwargs"].get("logging") and isinstance(value, tuple):
        value = value[0]  # (value, log): the value (the log's checks are not extracted)
    return base._offline_value(case["func"], _plain(case), value)


def _plain(case: dict[str, Any]) -> dict[str, Any]:
    """The flags that say how to read a result, ``logging`` aside (``expect_py`` is the value)."""
    return {k: v for k, v in case["kwargs"].items() if k != "logging"}


def offline_expected(case: dict[str, Any]) -> Any:
    return base._offline_value(case["func"], _plain(case), case["expect_py"])[1]


def offline_text(case: dict[str, Any]) -> str:
    return score_peers.describe_value(offline_expected(case))


SCORING = (offline_run, offline_expected, offline_text, TITLE)


def main(argv: list[str] | None = None) -> int:
    return score_peers.main(SUITE, __doc__, offline_run, offline_expected, expected_text=offline_text,
                            title=TITLE, extract=extract, argv=argv)


if __name__ == "__main__":
    sys.exit(main())

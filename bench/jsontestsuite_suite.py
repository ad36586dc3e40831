#!/usr/bin/env python3
"""nst/JSONTestSuite (``test_parsing/``) against toolmend.

    python bench/jsontestsuite_suite.py                    # right / refused / different
    python bench/jsontestsuite_suite.py --show             # every case that is not right
    python bench/jsontestsuite_suite.py --readme README.md # rewrite the suite's README table
    python bench/jsontestsuite_suite.py --extract GIT_DIR  # copy the files again

The files are kept as they are, byte for byte, in ``tests/data/peers/jsontestsuite/``; the name
says what a parser must do:

- ``y_``: valid JSON. It must come back unchanged: ``normalize_tool_args(bytes)`` returns it as
  it is (the text unchanged), with the value the file means (exact numbers).
- ``n_``: not JSON. A refusal is right; a repair is listed, with the reason it is the one
  plausible reading (class a) or why it is a guess (class c).
- ``i_``: the parser may accept or refuse. A refusal is right; a value must be what the file
  means (read as JSON with exact numbers); a text that is not UTF-8, or a number too large for a
  float, has no meaning a JSON value can hold, so it must be refused.
"""

from __future__ import annotations

import math
import sys
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import score_peers  # noqa: E402

SUITE = "jsontestsuite"


def extract(git_dir: Path) -> None:
    names = score_peers.git(git_dir, "ls-tree", "--name-only", "HEAD", "test_parsing/").decode().split()
    names = sorted(n for n in names if n.endswith(".json"))
    dest = score_peers.suite_dir(SUITE)
    score_peers.copy_files(git_dir, names, dest)
    cases = []
    for name in names:
        base = name.split("/")[-1]
        case: dict = {"id": base[:-5], "file": name}
        data = (dest / name).read_bytes()
        meaning = _meaning(data)
        if base.startswith("y_"):
            case["expect"] = "the file"
        elif base.startswith("n_"):
            case["refuse"] = True
        else:
            if meaning is None:
                case["refuse"] = True
            else:
                case["expect"] = "the file"
                case["may_refuse"] = True
        cases.append(case)
    commit = score_peers.git(git_dir, "rev-parse", "HEAD").decode().strip()
    score_peers.write_suite(SUITE, cases, licence=score_peers.git(git_dir, "show", "HEAD:LICENSE").decode(),
                            source={"repository": "https://github.com/nst/JSONTestSuite", "commit": commit,
                                    "path": "test_parsing/", "licence": "MIT (LICENSE)",
                                    "extracted": "bench/jsontestsuite_suite.py --extract: the files copied "
                                                 "byte for byte"})
    print(f"{len(cases)} files copied")


def _meaning(data: bytes) -> object | None:
    """The value a JSON file means, or None when it has none a JSON value can hold."""
    try:
        text = data.decode("utf-8")
        text.encode("utf-8")  # no lone surrogates either
        value = score_peers.parse_exact(text)
    except (UnicodeError, ValueError, RecursionError, ArithmeticError):
        return None
    todo = [value]
    while todo:  # a number too large for a float: no JSON value a reader gives holds it
        x = todo.pop()
        if isinstance(x, (list, dict)):
            todo.extend(x.values() if isinstance(x, dict) else x)
        elif isinstance(x, (int, Decimal)) and not isinstance(x, bool) and not math.isfinite(float(x)):
            return None
    return _Meaning(value)


class _Meaning:
    def __init__(self, value: object) -> None:
        self.value = value


def toolmend_run(case: dict) -> tuple[bool, object]:
    import toolmend

    ok, value = score_peers.toolmend_value(case["input"])  # a cut text is a CutRefusal there
    if not ok:
        return False, value
    r = toolmend.normalize_tool_args(case["input"])
    if case["id"].startswith("y_") and r.text.strip(" \t\r\n") != case["shown"].strip(" \t\r\n"):
        return True, f"<the text was changed: {r.text[:80]!r}>"
    return True, value


def expected(case: dict) -> object:
    meaning = _meaning(case["input"])
    return meaning.value if meaning is not None else "<no meaning>"


def expected_text(case: dict) -> str:
    return "the file's value" if not case.get("may_refuse") else "the file's value, or a refusal"


TITLE = "JSONTestSuite (nst/JSONTestSuite, test_parsing/)"
SCORING = (toolmend_run, expected, expected_text, TITLE)

if __name__ == "__main__":
    sys.exit(score_peers.main(SUITE, __doc__, toolmend_run, expected, expected_text=expected_text,
                              title=TITLE, extract=extract))

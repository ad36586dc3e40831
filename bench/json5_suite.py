#!/usr/bin/env python3
"""json5/json5-tests against toolmend.

    python bench/json5_suite.py                    # right / refused / different
    python bench/json5_suite.py --show             # every case that is not right
    python bench/json5_suite.py --readme README.md # rewrite the suite's README table
    python bench/json5_suite.py --extract GIT_DIR  # copy the files again (needs node)

The files are kept as they are in ``tests/data/peers/json5_tests/``; the extension says what a
JSON5 parser must do (the suite's README): ``.json`` and ``.json5`` are valid, and their value is
what JavaScript's ``eval`` gives (JSON5 is a subset of ES5), recorded at extraction in
``meanings.json`` so that no JavaScript runs offline; ``.js`` (valid ES5 that JSON5 forbids) and
``.txt`` (not ES5) must fail, so a refusal is right and a repair is listed with its reason.

toolmend is ``normalize_tool_args(bytes)`` without a tool. JSON has no ``NaN`` or ``Infinity``:
toolmend writes them as ``null`` (its documented mapping), so a file whose value holds one is
listed with that reason.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import score_peers  # noqa: E402

SUITE = "json5_tests"

# node prints each file's eval'd value as JSON, NaN and the infinities as marked objects
_EVAL = r"""
const fs = require('fs');
const out = {};
for (const name of process.argv.slice(2)) {
  const text = fs.readFileSync(name, 'utf8');
  const value = eval('(' + text + '\n)');
  out[name] = JSON.stringify(value, (k, v) => (typeof v === 'number' && !Number.isFinite(v))
    ? {'$nonfinite': String(v)} : (Object.is(v, -0) ? {'$negzero': true} : v));
}
process.stdout.write(JSON.stringify(out));
"""


def extract(git_dir: Path) -> None:
    names = score_peers.git(git_dir, "ls-tree", "-r", "--name-only", "HEAD").decode().split("\n")
    names = sorted(n for n in names if n.rsplit(".", 1)[-1] in ("json", "json5", "js", "txt"))
    dest = score_peers.suite_dir(SUITE)
    score_peers.copy_files(git_dir, names, dest)
    valid = [n for n in names if n.endswith((".json", ".json5"))]
    with tempfile.NamedTemporaryFile("w", suffix=".cjs", delete=False) as fh:
        fh.write(_EVAL)
    out = subprocess.run(["node", fh.name, *valid], cwd=dest, check=True, capture_output=True,
                         text=True).stdout
    Path(fh.name).unlink()
    meanings = json.loads(out)
    (dest / "meanings.json").write_text(json.dumps(meanings, indent=1, ensure_ascii=False) + "\n",
                                        encoding="utf-8")
    cases = []
    for name in names:
        case: dict = {"id": name, "file": name}
        if name in meanings:
            case["expect"] = "meanings.json"
        else:
            case["refuse"] = True
        cases.append(case)
    commit = score_peers.git(git_dir, "rev-parse", "HEAD").decode().strip()
    licence = score_peers.git(git_dir, "show", "HEAD:LICENSE.md").decode()
    score_peers.write_suite(SUITE, cases, licence=licence, licence_name="LICENSE.md", source={
        "repository": "https://github.com/json5/json5-tests", "commit": commit, "path": "/",
        "licence": "MIT (LICENSE.md)",
        "extracted": "bench/json5_suite.py --extract: the files copied byte for byte; meanings.json: "
                     "each valid file's value by node's eval"})
    print(f"{len(cases)} files copied, {len(meanings)} meanings recorded")


_MEANINGS: dict[str, object] = {}


def _nonfinite(obj: dict) -> object:
    if "$nonfinite" in obj:
        return float(obj["$nonfinite"].replace("Infinity", "inf"))
    if "$negzero" in obj:
        return 0
    return obj


def expected(case: dict) -> object:
    if not _MEANINGS:
        path = score_peers.suite_dir(SUITE) / "meanings.json"
        _MEANINGS.update(json.loads(path.read_text(encoding="utf-8")))
    return json.loads(_MEANINGS[case["id"]], object_hook=_nonfinite, parse_float=score_peers.Decimal)


def expected_text(case: dict) -> str:
    return score_peers.short(expected(case), 200)


def toolmend_run(case: dict) -> tuple[bool, object]:
    return score_peers.toolmend_value(case["input"])


TITLE = "json5-tests (json5/json5-tests)"
SCORING = (toolmend_run, expected, expected_text, TITLE)

if __name__ == "__main__":
    sys.exit(score_peers.main(SUITE, __doc__, toolmend_run, expected, expected_text=expected_text,
                              title=TITLE, extract=extract))

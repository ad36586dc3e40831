#!/usr/bin/env python3
"""josdejong/jsonrepair's own suite (``src/index.test.ts``) against toolmend, and json-repair beside it.

    python bench/jsonrepair_js_suite.py                    # right / refused / different, from tests/data
    python bench/jsonrepair_js_suite.py --show             # every case that is not right
    python bench/jsonrepair_js_suite.py --readme README.md # rewrite the suite's table in the README
    python bench/jsonrepair_js_suite.py --extract GIT_DIR  # re-extract the cases (needs node)

The cases live in ``tests/data/peers/jsonrepair_js/cases.jsonl``, one check of the suite a line:
``assertRepair(text)`` (the text comes back as it is), ``expect(jsonrepair(a)).toBe(b)`` (``a``
repairs to ``b``) and ``expect(() => jsonrepair(a)).toThrow(...)`` (``a`` is refused). They are
read by running the test file itself in node with stand-ins for vitest and for ``jsonrepair``
that record each call, so the strings are exactly the ones JavaScript builds (escapes,
concatenations, ``.repeat``); only the suite's "regular" implementation is run (the streaming one
repeats the same checks).

toolmend is ``normalize_tool_args(text)`` without a tool; a case is right when its value is the
value of jsonrepair's answer (JSON values compared exactly, see ``score_repair.same_value``);
json-repair is ``json_repair.loads(text)`` (``''`` is a refusal). Scoring is in
``bench/score_peers.py``.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import score_peers  # noqa: E402

SUITE = "jsonrepair_js"
TEST_FILE = "src/index.test.ts"

# The test file runs in node as plain JavaScript: its imports become stand-ins, its two
# type-annotated functions lose their annotations (the streaming wrapper is not run).
_PRELUDE = r"""
const CASES = [];
console.log = () => {};
let current = null, where = '';
function jsonrepair(text) { current = text; return {__input: text}; }
class JSONRepairError extends Error {
  constructor(message, position) { super(message); this.position = position; }
}
function expect(actual, label) {
  const inputOf = (v) => (v && typeof v === 'object' && '__input' in v) ? v.__input : undefined;
  const equal = (expected) => {
    const input = inputOf(actual);
    if (input === undefined || typeof expected !== 'string') { CASES.push({skipped: where}); return; }
    CASES.push({kind: 'repair', input, output: expected, test: where});
  };
  return {
    toBe: equal, toEqual: equal, toStrictEqual: equal,
    toThrow(err) {
      current = null;
      try { actual(); } catch (e) { /* a stand-in never throws on its own */ }
      if (current === null) { CASES.push({skipped: where}); return; }
      CASES.push({kind: 'throws', input: current, message: err && err.message,
                  position: err && err.position, test: where});
    },
  };
}
const names = [];
function describe(name, fn) { names.push(name); try { fn(); } finally { names.pop(); } }
describe.each = (rows) => (name, fn) => describe(name.replace('$name', rows[0].name), () => fn(rows[0]));
function test(name, fn) {
  where = [...names, name].join(' > ');
  try { fn(); } catch (e) { CASES.push({skipped: where, error: String(e)}); }
}
const it = test;
const jsonRepairRegular = jsonrepair, jsonrepairCore = null;
"""


def _javascript(source: str) -> str:
    lines = []
    for line in source.splitlines():
        if line.startswith("import "):
            continue
        lines.append(line)
    text = "\n".join(lines)
    cut = text.index("function createStreamingRepairWrapper")
    text = text[:cut] + "function createStreamingRepairWrapper() { return jsonrepair }\n"
    text = text.replace("function assertRepair(text: string)", "function assertRepair(text)")
    return _PRELUDE + text + "\nprocess.stdout.write(JSON.stringify(CASES));\n"


def extract(git_dir: Path) -> None:
    commit = subprocess.run(["git", f"--git-dir={git_dir}", "rev-parse", "HEAD"], check=True,
                            capture_output=True, text=True).stdout.strip()
    source = subprocess.run(["git", f"--git-dir={git_dir}", "show", f"HEAD:{TEST_FILE}"], check=True,
                            capture_output=True, text=True).stdout
    licence = subprocess.run(["git", f"--git-dir={git_dir}", "show", "HEAD:LICENSE.md"], check=True,
                             capture_output=True, text=True).stdout
    with tempfile.NamedTemporaryFile("w", suffix=".cjs", delete=False, encoding="utf-8") as fh:
        fh.write(_javascript(source))
        script = fh.name
    out = subprocess.run(["node", script], check=True, capture_output=True, text=True).stdout
    Path(script).unlink()
    recorded = json.loads(out)
    skipped = [r for r in recorded if "skipped" in r]
    cases = []
    for r in recorded:
        if "skipped" in r:
            continue
        case = {"id": f"{len(cases) + 1:03d}", "test": r["test"], "input": r["input"]}
        if r["kind"] == "repair":
            case["expect_text"] = r["output"]
        else:
            case["refuse"] = True
            case["suite_error"] = f"{r['message']} (position {r['position']})"
        cases.append(case)
    score_peers.write_suite(SUITE, cases, licence=licence, source={
        "repository": "https://github.com/josdejong/jsonrepair", "commit": commit,
        "path": TEST_FILE, "licence": "ISC (LICENSE.md)",
        "extracted": "bench/jsonrepair_js_suite.py --extract: the test file run in node with "
                     "recording stand-ins for vitest and jsonrepair (the 'regular' implementation)",
        "checks_not_extracted": len(skipped),
    })
    print(f"{len(cases)} cases written ({len(skipped)} checks not on a jsonrepair() call)")


def toolmend_run(case: dict) -> tuple[bool, object]:
    return score_peers.toolmend_value(case["input"])


def json_repair_run(case: dict) -> tuple[bool, object]:
    import json_repair

    return score_peers.loads_value(json_repair.loads, case["input"])


def expected(case: dict) -> object:
    return score_peers.parse_exact(case["expect_text"])


def expected_text(case: dict) -> str:
    return score_peers.describe_value(expected(case))


TITLE = "jsonrepair's suite (josdejong/jsonrepair, src/index.test.ts)"
SCORING = (toolmend_run, expected, expected_text, TITLE)
OTHERS = {"json-repair": ("json-repair", json_repair_run)}  # name: (distribution, run)

if __name__ == "__main__":
    sys.exit(score_peers.main(SUITE, __doc__, toolmend_run, expected, expected_text=expected_text,
                              title=TITLE, extract=extract, others=OTHERS))

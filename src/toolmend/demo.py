"""``toolmend demo``: recover the bundled examples and show how.

The examples (examples/tool_calls.jsonl) are the fault table of the
specification plus a few harder cases; each line says what it should become
and by which strategy, and the demo checks that it does. Then a model message
(examples/model_message.txt) with tool calls in five shapes, one of them cut
off, is parsed and its calls are run on a copy of examples/workspace/.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from importlib import resources
from typing import Any, Sequence

import orjson

from . import compiled
from ._text import plural
from .recovery import normalize_tool_args


def load_examples() -> list[dict[str, Any]]:
    text = resources.files("toolmend").joinpath("examples/tool_calls.jsonl").read_text("utf-8")
    return [orjson.loads(line) for line in text.splitlines() if line.strip()]


def _short(text: str, width: int) -> str:
    text = text.replace("\n", "\\n")
    return text if len(text) <= width else text[: width - 1] + "\u2026"


def run_demo(argv: Sequence[str] = ()) -> int:
    if argv:
        print("toolmend demo takes no arguments", file=sys.stderr)
        return 2
    out = sys.stdout
    examples = load_examples()
    out.write(f"toolmend {'compiled' if compiled else 'pure-Python'} kernels: recovering "
              f"{len(examples)} malformed tool calls\n\n")
    failures = 0
    for ex in examples:
        r = normalize_tool_args(ex["args"], ex["tool"])
        expected_ok = ex["expect"] is not None
        good = (r.ok == expected_ok and r.strategy == ex["strategy"]
                and (not expected_ok or r.value == ex["expect"]))
        failures += not good
        mark = "ok " if good else "FAIL"
        tool = ex["tool"] or "(no tool)"
        out.write(f"[{mark}] {ex['fault']}\n")
        out.write(f"       {tool}: {_short(ex['args'], 70)}\n")
        if r.ok:
            out.write(f"    -> {_short(r.text, 70)}   [{r.strategy}]\n")
        else:
            out.write(f"    -> not recovered, text kept as it was: {ex.get('note') or r.error}\n")
        if not good:
            out.write(f"       expected {orjson.dumps(ex['expect']).decode()} by {ex['strategy']}\n")
        out.write("\n")
    total = len(examples)
    out.write(f"{total - failures}/{total} handled as documented\n")
    failures += _agent_demo(out)
    return 1 if failures else 0


#: what the bundled model message holds: (name, ok) of each call, in order
EXPECTED_CALLS = [("@json", True), ("diff", True), ("json", True), ("json", True), ("diff", False)]


def _agent_demo(out: Any) -> int:
    """Parse the bundled model message, run its calls; the number of surprises."""
    from .recovery import json_text, parse_tool_calls
    from .tools import run_tools

    examples = resources.files("toolmend").joinpath("examples")
    message = examples.joinpath("model_message.txt").read_text("utf-8")
    calls = parse_tool_calls(message)
    out.write(f"\ntool calls in a model message ({len(message)} characters: a thought, an inline example,"
              f" a tag, a fenced OpenAI call, an Anthropic block, a broken Hermes call, a cut call)\n\n")
    with tempfile.TemporaryDirectory(prefix="toolmend-demo-") as workspace:
        for name in ("resp.json", "old.yaml", "new.yaml"):
            with resources.as_file(examples.joinpath("workspace", name)) as src:
                shutil.copy(src, f"{workspace}/{name}")
        results = run_tools(calls, workspace=workspace)
    for n, (call, result) in enumerate(zip(calls, results, strict=True), 1):
        start, end = call.span
        out.write(f"[{n}] {call.name} at characters {start}-{end}: {_short(message[start:end], 60)}\n")
        if call.ok:
            out.write(f"    args  {_short(json_text(call.args), 90)}\n")
            out.write("    ran   " + "\n          ".join(_short(line, 90) for line in
                                                      result.output.splitlines()[:8]) + "\n")
        else:
            out.write(f"    not run: {call.error}\n")
        out.write("\n")
    got = [(c.name, c.ok) for c in calls]
    failed_runs = sum(not r.ok for c, r in zip(calls, results, strict=True) if c.ok)
    surprises = int(got != EXPECTED_CALLS) + failed_runs
    out.write(f"{plural(sum(c.ok for c in calls), 'call')} run, "
              f"{sum(not c.ok for c in calls)} refused as cut off"
              f"{'' if not surprises else '; UNEXPECTED: ' + repr(got)}\n")
    return surprises

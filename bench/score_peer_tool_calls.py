#!/usr/bin/env python3
"""Score ``parse_tool_calls`` on the serving stacks' own parser test cases and on our family corpus.

    python bench/score_peer_tool_calls.py                  # per family: right / wrong, detected and forced
    python bench/score_peer_tool_calls.py --show-wrong     # and each wrong case, with what came back
    python bench/score_peer_tool_calls.py --readme         # and the README's tables

Reads every ``*.jsonl`` in ``tests/data/tool_calls/peers/`` (cases extracted
from vLLM's ``tests/tool_parsers/`` by extract_peer_tool_calls.py, and cases
taken from the other projects' suites, each row with its source commit and licence) and
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
    elif row.get("named_only") and fmt is None:  # (a family read only when named: detected, nothing is)
        right = not ok
    return right, "; ".join(f"{c.name}{'' if c.ok else ' NOT OK'} {json.dumps(c.args)[:120]}"
                            f"{'' if c.ok else ' (' + str(c.error)[:100] + ')'}" for c in got) or "(nothing)"


_SUITES = {  # file -> (the project, its tests)
    "vllm": "vLLM, `tests/tool_parsers/`", "sglang": "SGLang, `test/registered/unit/function_call/`",
    "llamacpp": "llama.cpp, `tests/test-chat.cpp`", "ollama": "Ollama, `model/parsers/*_test.go`",
    "lmdeploy": "lmdeploy, tool and response parser tests", "vllm-mlx": "vllm-mlx, tool parser tests",
    "dynamo": "NVIDIA Dynamo, `lib/parsers` fixtures and tests", "trtllm": "TensorRT-LLM, tool parser tests",
    "sglrouter": "SGLang's router (smg), `crates/tool_parser/tests`",
    "mlxlm": "mlx-lm, `tests/test_tool_parsing.py`",
    "llamastack": "llama-stack, tool utils tests", "transformers": "transformers, chat parsing tests",
    "harmony": "openai/harmony, parsing tests",
    "xinference": "Xinference, `xinference/model/llm/tool_parsers/tests/`",
    "localai": "LocalAI, `pkg/functions/parse_test.go`", "litellm": "LiteLLM, Ollama JSON-mode tests",
    "langchain": "LangChain, agent output parser tests (ReAct, MRKL, JSON, structured chat)",
    "llamaindex": "LlamaIndex, ReAct output parser and agent tests",
    "crewai": "CrewAI, `tests/agents/test_crew_agent_parser.py`",
    "qwenagent": "Qwen-Agent, its tests' and docs' calls as its fncall prompts write and read them",
    "mistralrs": "mistral.rs, `mistralrs-core/src/tools/` parser tests",
    "areal": "AReaL, tool-call parsing tests", "verl": "verl, agent loop tool parser tests",
    "slime": "slime, agent adapter tests",
    "llamafactory": "LLaMA-Factory, `tests/data/test_formatter.py` and its tool formats' writers",
    "swift": "ms-swift, agent template tests and its agent templates' writers",
    "ovms": "OpenVINO Model Server, `src/test/llm/output_parsers/`",
}


def readme(table: dict[str, list[int]]) -> None:
    """The README's tables: each suite's score, and every difference counted by its reason."""
    with open(os.path.join(DATA, "peers", "differences.json"), encoding="utf-8") as f:
        known: dict[str, str] = json.load(f)
    suites: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for fam, r in table.items():
        suites[fam.split("/")[0]] = [x + y for x, y in zip(suites[fam.split("/")[0]], r, strict=True)]
    print("| suite | licence | cases | right, detected | right, named |\n|---|---|---|---|---|")
    tot = [0, 0, 0, 0]
    licences: dict[str, set[str]] = defaultdict(set)
    by_reason: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for row in rows():
        suite = row["file"].removesuffix(".jsonl")
        if isinstance(row.get("source"), dict):
            licences[suite].add(row["source"]["licence"])
        if row["id"] in known:
            by_reason[known[row["id"]]][suite] += 1
    for suite, name in _SUITES.items():
        r = suites[suite]
        n = r[0] + r[1]
        tot = [x + y for x, y in zip(tot, r, strict=True)]
        print(f"| {name} | {', '.join(sorted(licences[suite]))} | {n:,} | {r[0]:,} | {r[2]:,} |")
    n = tot[0] + tot[1]
    print(f"| **all** | | **{n:,}** | **{tot[0]:,}** ({100 * tot[0] / n:.1f}%) | **{tot[2]:,}** "
          f"({100 * tot[2] / n:.1f}%) |\n")
    print("| why we differ | cases (suite: count) |\n|---|---|")
    for reason, counts in sorted(by_reason.items(), key=lambda kv: -sum(kv[1].values())):
        where = ", ".join(f"{s} {c}" for s, c in sorted(counts.items(), key=lambda kv: -kv[1]))
        print(f"| {reason.replace('|', chr(92) + '|')} | {sum(counts.values())}: {where} |")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--show-wrong", action="store_true")
    ap.add_argument("--readme", action="store_true", help="print the README's tables (suites, differences)")
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
    if a.readme:
        print()
        readme({f: r for f, r in table.items() if not f.startswith("families/")})
    if a.show_wrong:
        for fam, fmt, row, got in wrong:
            print(f"\n--- {row['id']} ({fam}, format={fmt})\n  text: {row['text'][:300]!r}\n"
                  f"  want: {json.dumps(row['calls'])[:300]}\n  got:  {got}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

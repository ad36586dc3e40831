#!/usr/bin/env python3
"""Write tests/data/tool_calls/families.jsonl: every family's format, from the call specs.

    python bench/make_family_corpus.py            # write it
    python bench/make_family_corpus.py --check    # exit 1 when the file is not what this writes

Each family has a writer that renders a list of calls exactly as the model
family writes them (the markers as their chat templates and the serving
stacks' parsers and tests have them: see the README's format table). The
expected calls are the specs themselves, never what the parser returns. Per
family:

* ``several``: prose, then several calls in one message (two call sets; no prose
  for a family whose calls open the answer);
* ``cut``: the same text cut inside the last call's last value: the calls
  before it are ok, the cut one is not;
* ``broken``: JSON families miss a comma (recovered); XML families write
  ``three`` for an integer parameter, pythonic ones pass an argument by
  position (both not ok);
* ``reasoning``: a call inside ``<think>`` before the real ones, and a call
  before a bare ``</think>`` (the prompt opened the reasoning): neither runs;
* ``decoy``: the family's call shown in a fence introduced as an example
  (nothing comes back).

Rows carry ``tools`` built from the specs' types (what a request would declare).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from typing import Any

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "tests", "data", "tool_calls",
                   "families.jsonl")
Call = tuple[str, dict[str, Any]]

SET_A: list[Call] = [("get_weather", {"city": "Paris", "days": 3}), ("get_time", {"tz": "Europe/Paris"})]
SET_C: list[Call] = [("write_file", {"path": "src/a.py", "content": "def f():\n    return {'a': [1, 2]}\n",
                                      "overwrite": True}),
                     ("run", {"cmd": "pytest -q", "timeout": 30.5}), ("search", {"query": "x < y && \"z\"",
                                                                                  "tags": ["a", "b"]})]
CUT_AT = "Europe/Pa"  # the cut point: inside the last value of SET_A


def dumps(v: Any) -> str:
    return json.dumps(v, ensure_ascii=False)


def text_value(v: Any) -> str:
    return v if isinstance(v, str) else dumps(v)


def j(name: str, args: dict[str, Any], key: str = "arguments") -> str:
    return dumps({"name": name, key: args})


# -- writers: calls -> the text the family writes ---------------------------------------------

def hermes(calls: list[Call]) -> str:
    return "\n".join(f"<tool_call>\n{j(n, a)}\n</tool_call>" for n, a in calls)


def longcat(calls: list[Call]) -> str:
    return "\n".join(f"<longcat_tool_call>\n{j(n, a)}\n</longcat_tool_call>" for n, a in calls)


def _fn(n: str, a: dict[str, Any]) -> str:
    params = "".join(f"<parameter={k}>\n{text_value(v)}\n</parameter>\n" for k, v in a.items())
    return f"<function={n}>\n{params}</function>"


def qwen3_coder(calls: list[Call]) -> str:
    return "\n".join(f"<tool_call>\n{_fn(n, a)}\n</tool_call>" for n, a in calls)


def qwen3_no_opener(calls: list[Call]) -> str:
    return "\n".join(f"{_fn(n, a)}\n</tool_call>" for n, a in calls)


def seed_oss(calls: list[Call]) -> str:
    return "\n".join(f"<seed:tool_call>\n{_fn(n, a)}\n</seed:tool_call>" for n, a in calls)


def minimax_m1(calls: list[Call]) -> str:
    return "<tool_calls>\n" + "\n".join(j(n, a) for n, a in calls) + "\n</tool_calls>"


def _invoke(prefix: str, n: str, a: dict[str, Any], dsml: bool = False) -> str:
    ps = ""
    for k, v in a.items():
        attr = f' string="{"true" if isinstance(v, str) else "false"}"' if dsml else ""
        ps += f'<{prefix}parameter name="{k}"{attr}>{text_value(v)}</{prefix}parameter>\n'
    return f'<{prefix}invoke name="{n}">\n{ps}</{prefix}invoke>'


def minimax_m2(calls: list[Call]) -> str:
    return "<minimax:tool_call>\n" + "\n".join(_invoke("", n, a) for n, a in calls) + "\n</minimax:tool_call>"


def deepseek_v32(calls: list[Call]) -> str:
    p = "\uff5cDSML\uff5c"
    return f"<{p}function_calls>\n" + "\n".join(_invoke(p, n, a, True) for n, a in calls) + \
        f"\n</{p}function_calls>"


def deepseek_v4(calls: list[Call]) -> str:
    p = "\uff5cDSML\uff5c"
    return f"<{p}tool_calls>\n" + "\n".join(_invoke(p, n, a, True) for n, a in calls) + f"\n</{p}tool_calls>"


def deepseek_v3(calls: list[Call]) -> str:
    body = "\n".join(f"<｜tool▁call▁begin｜>function<｜tool▁sep｜>{n}\n```json\n{dumps(a)}\n```<｜tool▁call▁end｜>"
                     for n, a in calls)
    return f"<｜tool▁calls▁begin｜>{body}<｜tool▁calls▁end｜>"


def deepseek_v31(calls: list[Call]) -> str:
    body = "".join(f"<｜tool▁call▁begin｜>{n}<｜tool▁sep｜>{dumps(a)}<｜tool▁call▁end｜>" for n, a in calls)
    return f"<｜tool▁calls▁begin｜>{body}<｜tool▁calls▁end｜>"


def kimi_k2(calls: list[Call]) -> str:
    body = "".join(f"<|tool_call_begin|>functions.{n}:{i}<|tool_call_argument_begin|>{dumps(a)}<|tool_call_end|>"
                   for i, (n, a) in enumerate(calls))
    return f"<|tool_calls_section_begin|>{body}<|tool_calls_section_end|>"


def glm45(calls: list[Call]) -> str:
    return "\n".join(f"<tool_call>{n}\n" + "".join(f"<arg_key>{k}</arg_key>\n<arg_value>{text_value(v)}</arg_value>\n"
                                                   for k, v in a.items()) + "</tool_call>" for n, a in calls)


def glm47(calls: list[Call]) -> str:
    return "".join(f"<tool_call>{n}" + "".join(f"<arg_key>{k}</arg_key><arg_value>{text_value(v)}</arg_value>"
                                               for k, v in a.items()) + "</tool_call>" for n, a in calls)


def hy_v3(calls: list[Call]) -> str:
    return "<tool_calls>" + "".join(
        f"<tool_call>{n}<tool_sep>" + "".join(f"<arg_key>{k}</arg_key><arg_value>{text_value(v)}</arg_value>"
                                             for k, v in a.items()) + "</tool_call>" for n, a in calls) + \
        "</tool_calls>"


def harmony(calls: list[Call]) -> str:
    head = "<|channel|>analysis<|message|>The user wants this; I will call the tools.<|end|>"
    return head + "".join(f"<|start|>assistant<|channel|>commentary to=functions.{n} <|constrain|>json"
                          f"<|message|>{dumps(a)}<|call|>" for n, a in calls)


def mistral_pre_v11(calls: list[Call]) -> str:
    return "[TOOL_CALLS] " + dumps([{"name": n, "arguments": a} for n, a in calls])


def mistral_v11(calls: list[Call]) -> str:
    return "".join(f"[TOOL_CALLS]{n}[ARGS]{dumps(a)}" for n, a in calls)


def mistral_v13(calls: list[Call]) -> str:
    return "".join(f"[TOOL_CALLS]{n}[CALL_ID]c{i:08d}[ARGS]{dumps(a)}" for i, (n, a) in enumerate(calls))


def llama3_json(calls: list[Call]) -> str:
    return "<|python_tag|>" + "; ".join(j(n, a, "parameters") for n, a in calls)


def _py(v: Any) -> str:
    return repr(v)


def _pycall(n: str, a: dict[str, Any]) -> str:
    return f"{n}(" + ", ".join(f"{k}={_py(v)}" for k, v in a.items()) + ")"


def pythonic(calls: list[Call]) -> str:
    return "[" + ", ".join(_pycall(n, a) for n, a in calls) + "]"


def pythonic_quoted(calls: list[Call]) -> str:  # each name written as a string (Mistral's small models)
    return "[" + ", ".join(repr(n) + _pycall(n, a)[len(n):] for n, a in calls) + "]"


def llama4_pythonic(calls: list[Call]) -> str:
    return "<|python_start|>" + pythonic(calls) + "<|python_end|>"


def lfm2(calls: list[Call]) -> str:
    return "<|tool_call_start|>" + pythonic(calls) + "<|tool_call_end|>"


def olmo3(calls: list[Call]) -> str:
    return "<function_calls>" + "\n".join(_pycall(n, a) for n, a in calls) + "</function_calls>"


def _gemma(v: Any, q: str) -> str:
    if isinstance(v, str):
        return f"{q}{v}{q}"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, list):
        return "[" + ",".join(_gemma(x, q) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ",".join(f"{k}:{_gemma(x, q)}" for k, x in v.items()) + "}"
    return dumps(v)


def gemma4(calls: list[Call]) -> str:
    q = '<|"|>'
    return "".join("<|tool_call>call:" + n + "{" + ",".join(f"{k}:{_gemma(v, q)}" for k, v in a.items())
                   + "}<tool_call|>" for n, a in calls)


def functiongemma(calls: list[Call]) -> str:
    return "".join("<start_function_call>call:" + n + "{" + ",".join(
        f"{k}:<escape>{text_value(v) if not isinstance(v, bool) else str(v).lower()}<escape>"
        for k, v in a.items()) + "}<end_function_call>" for n, a in calls)


def granite(calls: list[Call]) -> str:
    return "<|tool_call|>" + dumps([{"name": n, "arguments": a} for n, a in calls])


def granite_20b_fc(calls: list[Call]) -> str:
    return " ".join(f"<function_call> {j(n, a)}" for n, a in calls)


def internlm(calls: list[Call]) -> str:
    return "".join(f"<|action_start|><|plugin|>\n{j(n, a, 'parameters')}<|action_end|>\n" for n, a in calls)


def jamba(calls: list[Call]) -> str:
    return "<tool_calls>" + dumps([{"name": n, "arguments": a} for n, a in calls]) + "</tool_calls>"


def command(calls: list[Call]) -> str:
    return "<|START_ACTION|>" + dumps([{"tool_call_id": str(i), "tool_name": n, "parameters": a}
                                       for i, (n, a) in enumerate(calls)]) + "<|END_ACTION|>"


def command_r_plus(calls: list[Call]) -> str:
    return "Action:\n```json\n" + dumps([{"tool_name": n, "parameters": a} for n, a in calls]) + "\n```"


def react(calls: list[Call]) -> str:
    return "".join(f"Action: {n}\nAction Input: {dumps(a)}\n" for n, a in calls)


def langchain(calls: list[Call]) -> str:  # its structured chat agent: one action a blob
    return "".join("Action:\n```json\n" + dumps({"action": n, "action_input": a}) + "\n```\n" for n, a in calls)


def apertus(calls: list[Call]) -> str:
    return "<|tools_prefix|>" + dumps([{n: a} for n, a in calls]) + "<|tools_suffix|>"


def phi4_mini(calls: list[Call]) -> str:
    return "functools" + dumps([{"name": n, "arguments": a} for n, a in calls])


def xlam(calls: list[Call]) -> str:
    return dumps([{"name": n, "arguments": a} for n, a in calls])


def xlam_fc_r(calls: list[Call]) -> str:  # (xLAM-fc-r's model card: the calls in a "tool_calls" object)
    return dumps({"tool_calls": [{"name": n, "arguments": a} for n, a in calls]})


def functionary(calls: list[Call]) -> str:
    return "".join(f">>>{n}\n{dumps(a)}" for n, a in calls)


def functionary_v31(calls: list[Call]) -> str:
    return "".join(f"<function={n}>{dumps(a)}</function>" for n, a in calls)


def glm4(calls: list[Call]) -> str:
    # (each call a message of its own, its header holding the name; the prompt holds the first
    # header when the reply opens with a call)
    return "".join(f"<|assistant|>{n}\n{dumps(a)}" for n, a in calls)


def nemotron_v2(calls: list[Call]) -> str:
    return "<TOOLCALL>" + dumps([{"name": n, "arguments": a} for n, a in calls]) + "</TOOLCALL>"


def step3(calls: list[Call]) -> str:
    body = "".join("<｜tool_call_begin｜>function<｜tool_sep｜>" + _invoke("steptml:", n, a) + "<｜tool_call_end｜>"
                   for n, a in calls)
    return f"<｜tool_calls_begin｜>{body}<｜tool_calls_end｜>"


def gigachat3(calls: list[Call]) -> str:
    return "".join(f"<|function_call|>{j(n, a)}" for n, a in calls[:1])


def qwen_agent(calls: list[Call]) -> str:  # Qwen-Agent's own prompt (its qwen_fncall_prompt)
    return "".join(f"\u273fFUNCTION\u273f: {n}\n\u273fARGS\u273f: {dumps(a)}\n" for n, a in calls)


def minicpm5(calls: list[Call]) -> str:  # a string holding <, & or a line break in CDATA, as its template does
    def param(k: str, v: Any) -> str:
        wrap = isinstance(v, str) and any(c in v for c in "<&\n")
        return f'<param name="{k}">' + (f"<![CDATA[{v}]]>" if wrap else text_value(v)) + "</param>"
    return "\n".join(f'<function name="{n}">' + "".join(param(k, v) for k, v in a.items()) + "</function>"
                     for n, a in calls)


def kimi_k3(calls: list[Call]) -> str:  # XTML, each argument typed as its template types it
    def kind(v: Any) -> str:
        return "boolean" if isinstance(v, bool) else "number" if isinstance(v, (int, float)) else \
            "string" if isinstance(v, str) else "object" if isinstance(v, dict) else "array"
    body = "".join(f'<|open|>call tool="{n}" index="{i}"<|sep|>' + "".join(
        f'<|open|>argument key="{k}" type="{kind(v)}"<|sep|>{text_value(v)}<|close|>argument<|sep|>'
        for k, v in a.items()) + "<|close|>call<|sep|>" for i, (n, a) in enumerate(calls, 1))
    return "<|close|>response<|sep|><|open|>tools<|sep|>" + body + "<|close|>tools<|sep|>"


def minimax_m3(calls: list[Call]) -> str:  # every tag after its namespace token, values as nested elements
    ns = "]<]minimax[>["

    def el(k: str, v: Any) -> str:
        inner = "".join(el("item", x) for x in v) if isinstance(v, list) else \
            "".join(el(a, b) for a, b in v.items()) if isinstance(v, dict) else \
            dumps(v) if isinstance(v, bool) else str(v)
        return f"{ns}<{k}>{inner}{ns}</{k}>"
    invokes = [f'{ns}<invoke name="{n}">' + "".join(el(k, v) for k, v in a.items()) + f"{ns}</invoke>"
               for n, a in calls]
    return f"{ns}<tool_call>\n" + "\n".join(invokes) + f"\n{ns}</tool_call>"


def solar_open2(calls: list[Call]) -> str:  # each argument's text between tokens, a line each
    return "".join(f"<|tool_call:start|>{n}\n" + "".join(
        f"<|tool_arg:start|>{k}<|tool_arg:value|>{text_value(v)}<|tool_arg:end|>\n" for k, v in a.items())
        + "<|tool_call:end|>" for n, a in calls)


def inkling(calls: list[Call]) -> str:  # one block a call, {"name", "args"}
    return "<|message_model|>".join("<|content_invoke_tool_json|>" + dumps({"name": n, "args": a})
                                     + "<|end_message|>" for n, a in calls)


def minimax_arrows(calls: list[Call]) -> str:  # MiniMax M2.5/M2.7's text: hash arrows, each argument a flag
    return "\n".join("[TOOL_CALL]\n{tool => " + dumps(n) + ", args => {\n" + "".join(
        f"  --{k} {dumps(v)}\n" for k, v in a.items()) + "}}\n[/TOOL_CALL]" for n, a in calls)


def minimax_arrows_json(calls: list[Call]) -> str:  # the same with the arguments as a JSON object
    return "\n".join("[TOOL_CALL]\n{tool => " + dumps(n) + ", args => " + dumps(a) + "}\n[/TOOL_CALL]"
                     for n, a in calls)


def nexusraven(calls: list[Call]) -> str:  # NexusRaven-V2's answer: its label, the calls, its end token
    return "Call: " + "; ".join(_pycall(n, a) for n, a in calls) + "<bot_end>"


def claude_xml(calls: list[Call]) -> str:  # Claude's prompted tool use: invokes named by an attribute
    return "<function_calls>\n" + "\n".join(_invoke("", n, a) for n, a in calls) + "\n</function_calls>"


def claude_tool_name(calls: list[Call]) -> str:  # Claude 2's and 3's: the name and each parameter an element
    return "<function_calls>\n" + "".join(
        f"<invoke>\n<tool_name>{n}</tool_name>\n<parameters>\n"
        + "".join(f"<{k}>{text_value(v)}</{k}>\n" for k, v in a.items()) + "</parameters>\n</invoke>\n"
        for n, a in calls) + "</function_calls>"


def _opener_dropped(write: Callable[[list[Call]], str], opener: str) -> Callable[[list[Call]], str]:
    """The family's calls, each after the first with its opener left out (models writing several
    calls in a row do: <|tool_call>call:f{..}<tool_call|>call:g{..}<tool_call|>)."""
    def dropped(calls: list[Call]) -> str:
        text = write(calls)
        k = text.find(opener) + len(opener)
        return text[:k] + text[k:].replace(opener, "")
    return dropped


def _minimax_m2_blocks(calls: list[Call]) -> str:  # each call in a block of its own
    return "\n".join(minimax_m2([c]) for c in calls)


def _gemma4_bare(calls: list[Call]) -> str:  # call: written as a bare ":", as Gemma 4 checkpoints do
    return gemma4(calls).replace("<|tool_call>call:", "<|tool_call>:")


def _harmony_dropped(calls: list[Call]) -> str:  # the next call's <|start|>assistant left out
    return harmony(calls[:1]) + "".join(f"to=functions.{n} <|channel|>commentary <|constrain|>json"
                                        f"<|message|>{dumps(a)}<|call|>" for n, a in calls[1:])


# family name (a format name parse_tool_calls knows) -> (writer, kind of arguments)
FAMILIES: dict[str, tuple[Callable[[list[Call]], str], str]] = {
    "hermes": (hermes, "json"), "longcat": (longcat, "json"), "qwen3_coder": (qwen3_coder, "xml"),
    "qwen3_coder/no_opener": (qwen3_no_opener, "xml"), "seed_oss": (seed_oss, "xml"),
    "minimax": (minimax_m1, "json"), "minimax_m2": (minimax_m2, "xml"), "deepseek_v3": (deepseek_v3, "json"),
    "deepseek_v31": (deepseek_v31, "json"), "deepseek_v32": (deepseek_v32, "xml"),
    "deepseek_v4": (deepseek_v4, "xml"), "kimi_k2": (kimi_k2, "json"), "glm45": (glm45, "xml"),
    "glm47": (glm47, "xml"), "hy_v3": (hy_v3, "xml"), "harmony": (harmony, "json"),
    "mistral/pre_v11": (mistral_pre_v11, "json"), "mistral/v11": (mistral_v11, "json"),
    "mistral/v13": (mistral_v13, "json"), "llama3_json": (llama3_json, "json"),
    "pythonic": (pythonic, "python"), "pythonic/quoted_name": (pythonic_quoted, "python"),
    "llama4_pythonic": (llama4_pythonic, "python"), "lfm2": (lfm2, "python"),
    "olmo3": (olmo3, "python"), "gemma4": (gemma4, "gemma"), "functiongemma": (functiongemma, "xml"),
    "granite": (granite, "json"), "granite_20b_fc": (granite_20b_fc, "json"), "internlm": (internlm, "json"),
    "jamba": (jamba, "json"), "command": (command, "json"),
    "command_r_plus": (command_r_plus, "json"), "apertus": (apertus, "json"),
    "phi4_mini": (phi4_mini, "json"), "xlam": (xlam, "json"), "xlam/fc_r": (xlam_fc_r, "json"),
    "functionary": (functionary, "json"),
    "functionary/v31": (functionary_v31, "json"), "nemotron_v2": (nemotron_v2, "json"), "step3": (step3, "xml"),
    "gigachat3": (gigachat3, "json"), "react": (react, "json"), "react/langchain": (langchain, "json"),
    "qwen_agent": (qwen_agent, "json"), "minicpm5": (minicpm5, "xml"), "kimi_k3": (kimi_k3, "xml"),
    "minimax_m3": (minimax_m3, "xml"), "solar_open2": (solar_open2, "xml"), "inkling": (inkling, "json"),
    "glm4": (glm4, "json"), "claude_xml": (claude_xml, "xml"), "claude_xml/tool_name": (claude_tool_name, "xml"),
    "minimax_arrows": (minimax_arrows, "xml"), "minimax_arrows/json": (minimax_arrows_json, "json"),
    "nexusraven": (nexusraven, "python"),
    "gemma4/bare_colon": (_gemma4_bare, "gemma"),
    # the next call's opener dropped after a call's closer
    "gemma4/dropped_opener": (_opener_dropped(gemma4, "<|tool_call>"), "gemma"),
    "functiongemma/dropped_opener": (_opener_dropped(functiongemma, "<start_function_call>"), "xml"),
    "glm45/dropped_opener": (_opener_dropped(glm45, "<tool_call>"), "xml"),
    "glm47/dropped_opener": (_opener_dropped(glm47, "<tool_call>"), "xml"),
    "hy_v3/dropped_opener": (_opener_dropped(hy_v3, "<tool_call>"), "xml"),
    "minimax_m2/dropped_opener": (_opener_dropped(_minimax_m2_blocks, "<minimax:tool_call>"), "xml"),
    "harmony/dropped_opener": (_harmony_dropped, "json"),
    "kimi_k2/dropped_opener": (_opener_dropped(kimi_k2, "<|tool_call_begin|>"), "json"),
    "deepseek_v31/dropped_opener": (_opener_dropped(deepseek_v31, "<\uff5ctool\u2581call\u2581begin\uff5c>"), "json"),
}


# families read only when named: their calls have no marker of their own to be detected by
NAMED_ONLY = frozenset({"glm4"})
# families whose calls only ever open the answer (after its reasoning): no prose before them
OPEN_THE_ANSWER = frozenset({"nexusraven"})


def _type(v: Any) -> str:
    for t, name in ((bool, "boolean"), (int, "integer"), (float, "number"), (str, "string"), (dict, "object"),
                    (list, "array")):
        if isinstance(v, t):
            return name
    return "null"


def tools_for(calls: list[Call]) -> list[dict[str, Any]]:
    seen: dict[str, dict[str, Any]] = {}
    for n, a in calls:
        seen.setdefault(n, {}).update({k: {"type": _type(v)} for k, v in a.items()})
    return [{"type": "function", "function": {"name": n, "parameters": {"type": "object", "properties": p}}}
            for n, p in seen.items()]


def expected(calls: list[Call]) -> list[dict[str, Any]]:
    return [{"name": n, "args": a} for n, a in calls]


def rows() -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    all_calls = SET_A + SET_C
    tools = tools_for(all_calls)
    for fam, (write, kind) in FAMILIES.items():
        fmt = fam.split("/")[0]
        single = fam == "gigachat3"

        def row(variant: str, text: str, calls: list[dict[str, Any]], fam: str = fam, fmt: str = fmt,
                **extra: Any) -> None:
            if fmt in NAMED_ONLY:  # (not detected: nothing comes back ok unless the format is named)
                extra["named_only"] = True
            out.append({"id": f"{fam}/{variant}", "format": fmt, "text": text, "calls": calls, "tools": tools,
                        "source": "written from the family's markers (bench/make_family_corpus.py)", **extra})

        for name, cs in (("several_a", SET_A), ("several_c", SET_C)):
            cs = cs[:1] if single else cs
            row(name, ("" if fmt in OPEN_THE_ANSWER else "I'll look that up.\n") + write(cs), expected(cs))
        # cut inside the last value of SET_A
        full = write(SET_A[-1:] if single else SET_A)
        at = full.rfind(CUT_AT)
        assert at > 0, fam
        cut_calls = [] if single else expected(SET_A[:-1])
        row("cut", full[:at + len(CUT_AT)], cut_calls + [{"name": SET_A[-1][0], "ok": False}])
        # broken
        if kind == "json":
            good = write(SET_A[:1])
            broken = good.replace('"Paris", "days"', '"Paris" "days"')
            assert broken != good, fam
            row("broken_comma", broken, expected(SET_A[:1]))
        elif kind == "xml":
            t = write([("get_weather", {"city": "Paris", "days": "three"})])
            row("broken_type", t, [{"name": "get_weather", "ok": False}])
        elif kind == "python":
            t = write([("get_weather", {"city": "Paris", "days": 3})]).replace("city='Paris'", "'Paris'")
            row("broken_positional", t, [{"name": "get_weather", "ok": False}])
        # reasoning: a call inside <think>, and before a bare </think>
        evil = write([("delete_all", {"confirm": True})])
        real = write(SET_A[:1])
        row("in_think", f"<think>\nMaybe:\n{evil}\nNo.\n</think>\n{real}", expected(SET_A[:1]))
        row("bare_think_close", f"Maybe:\n{evil}\nNo, first the weather.\n</think>\n\n{real}",
            expected(SET_A[:1]))
        row("decoy_example", "For example, a call looks like this:\n```\n" + write(SET_A[:1]) +
            "\n```\nbut I do not need a tool here.", [], decoy=True)
    return out


def main(argv: list[str] | None = None) -> int:
    text = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows())
    if "--check" in (argv if argv is not None else sys.argv[1:]):
        with open(OUT, encoding="utf-8") as f:
            if f.read() != text:
                print(f"{os.path.normpath(OUT)} is out of date: run bench/make_family_corpus.py")
                return 1
        return 0
    with open(OUT, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"{text.count(chr(10))} rows written to {os.path.normpath(OUT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

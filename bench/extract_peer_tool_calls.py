#!/usr/bin/env python3
"""Extract the serving stacks' own tool-parser test cases into tests/data/tool_calls/peers/.

    python bench/extract_peer_tool_calls.py --vllm VLLM_GIT --sglang SGLANG_GIT --llamacpp LLAMACPP_GIT

Each option names a bare clone (the forks local-inference-lab/vllm,
bytedance-iaas/sglang and ikawrakow/ik_llama.cpp hold the same test files) and
writes ``vllm.jsonl``, ``sglang.jsonl`` or ``llamacpp.jsonl``. The Python test
modules are executed with every ``vllm`` / ``sglang`` / ``transformers`` /
``tests`` import replaced by inert recording stand-ins, so that their
``pytest.mark.parametrize`` tables and the asserts of their test bodies
(``result.tool_calls[i].function.name == ...``, ``assertEqual(result.calls[i]
.name, ...)``, ``json.loads(...arguments) == {...}``) can be read: the model
output of each case and the calls it expects. llama.cpp's ``test-chat.cpp`` is
read for its ``tst.test("...")...expect...run()`` chains. Only the data is kept;
each row names its source file, test, case, commit and licence (vLLM and
SGLang Apache-2.0, llama.cpp MIT). A row that checks only names says
``"match": "names"``, one that checks some argument keys ``"subset"``. Cases the
extractor cannot read (streams, helpers it does not run) are left out;
``score_peer_tool_calls.py`` scores what is there.
"""

from __future__ import annotations

import argparse
import ast
import importlib.abc
import importlib.machinery
import json
import os
import re
import subprocess
import sys
import types
from typing import Any

# vLLM test file -> our format name
VLLM_FILES = {
    "apertus": "apertus", "deepseekv31": "deepseek_v31", "deepseekv32": "deepseek_v32",
    "deepseekv3": "deepseek_v3", "deepseekv4": "deepseek_v4", "ernie45_moe": "ernie45",
    "functiongemma": "functiongemma", "gemma4": "gemma4", "gigachat3": "gigachat3", "glm47_moe": "glm47",
    "glm4_moe": "glm45", "granite4": "granite4", "granite_20b_fc": "granite_20b_fc", "granite": "granite",
    "hermes": "hermes", "hunyuan_a13b": "hunyuan_a13b", "hy_v3": "hy_v3", "internlm2": "internlm2",
    "jamba": "jamba", "kimi_k2": "kimi_k2", "lfm2": "lfm2", "llama3_json": "llama3_json",
    "llama4_pythonic": "llama4_pythonic", "longcat": "longcat", "minimax_m2": "minimax_m2",
    "minimax": "minimax", "mistral": "mistral", "olmo3": "olmo3", "phi4mini": "phi4_mini",
    "pythonic": "pythonic", "qwen3coder": "qwen3_coder", "qwen3xml": "qwen3_xml", "seed_oss": "seed_oss",
    "step3": "step3", "step3p5": "step3p5", "xlam": "xlam",
}
STUBBED = ("sglang", "vllm", "transformers", "tests", "partial_json_parser", "openai_harmony",
           "mistral_common",
           "torch", "regex", "xgrammar", "pydantic")


class Rec:
    """A stand-in for anything a test imports: records how it was called."""

    def __init__(self, rec_name: str, /, *args: Any, **kwargs: Any) -> None:
        self._name, self._args, self._kwargs = rec_name, args, kwargs

    def __call__(self, *args: Any, **kwargs: Any) -> Rec:
        return Rec(self._name, *args, **kwargs)

    def __getattr__(self, attr: str) -> Rec:
        if attr.startswith("__"):
            raise AttributeError(attr)
        return Rec(f"{self._name}.{attr}")

    def __mro_entries__(self, bases: Any) -> tuple[type, ...]:
        return (type(self._name.split(".")[-1], (), {}),)


class _StubModule(types.ModuleType):
    def __getattr__(self, attr: str) -> Any:
        if attr.startswith("__"):
            raise AttributeError(attr)
        return Rec(attr)


class _Finder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, fullname: str, path: Any, target: Any = None) -> Any:
        if fullname.split(".")[0] in STUBBED:
            return importlib.machinery.ModuleSpec(fullname, self, is_package=True)
        return None

    def create_module(self, spec: Any) -> types.ModuleType:
        m = _StubModule(spec.name)
        m.__path__ = []
        return m

    def exec_module(self, module: types.ModuleType) -> None:
        pass


def _calls(value: Any) -> list[dict[str, Any]] | None:
    """Expected calls as [{name, args}] (None when the value is not a list of calls)."""
    if value is None:
        return []
    if not isinstance(value, (list, tuple)):
        value = [value]
    out = []
    for v in value:
        name = args = None
        if isinstance(v, Rec):
            fn = v._kwargs.get("function", v)
            if isinstance(fn, Rec):
                name, args = fn._kwargs.get("name"), fn._kwargs.get("arguments")
            elif isinstance(fn, dict):
                name, args = fn.get("name"), fn.get("arguments")
        elif isinstance(v, dict):
            fn = v.get("function", v)
            name = fn.get("name")
            args = fn.get("arguments", fn.get("parameters", fn.get("args")))
        elif isinstance(v, tuple) and len(v) == 2 and isinstance(v[0], str):
            name, args = v
        if not isinstance(name, str):
            return None
        if isinstance(args, str):
            try:
                args = json.loads(args)
            except ValueError:
                return None
        if args is None:
            args = {}
        if not isinstance(args, dict):
            return None
        out.append({"name": name, "args": args})
    return out


_TEXT_NAMES = ("model_output", "model_text", "text", "output", "input_text", "model_response", "response")


def _cases(module: types.ModuleType) -> list[tuple[str, str, list[dict[str, Any]]]]:
    found = []
    objs: list[tuple[str, Any]] = []
    for name, obj in vars(module).items():
        if name.startswith("test") and callable(obj):
            objs.append((name, obj))
        if isinstance(obj, type) and name.startswith("Test"):
            objs.extend((f"{name}.{k}", v) for k, v in vars(obj).items() if k.startswith("test"))
    for tname, fn in objs:
        for mark in getattr(fn, "pytestmark", []):
            if getattr(mark, "name", "") != "parametrize":
                continue
            argnames = mark.args[0] if mark.args else mark.kwargs.get("argnames")
            argvalues = mark.args[1] if len(mark.args) > 1 else mark.kwargs.get("argvalues", [])
            if argnames is None:
                continue
            names = [a.strip() for a in argnames.split(",")] if isinstance(argnames, str) else list(argnames)
            text_key = next((n for n in names if n in _TEXT_NAMES), None) or next(
                (n for n in names if "output" in n and "expected" not in n), None)
            if text_key is None:
                continue
            ids = mark.kwargs.get("ids")
            for n, row in enumerate(argvalues):
                values = getattr(row, "values", None)
                case_id = getattr(row, "id", None)
                if values is None:
                    values = row if len(names) > 1 else (row,)
                if case_id is None and isinstance(ids, (list, tuple)) and n < len(ids):
                    case_id = ids[n]
                d = dict(zip(names, values, strict=False))
                text = d.get(text_key)
                if not isinstance(text, str):
                    continue
                expected = None
                for key in names:
                    if "tool_call" in key and "expected" in key or key in ("expected_calls", "expected"):
                        expected = _calls(d[key])
                        break
                else:
                    if "expected_names" in d or "expected_name" in d:
                        ns = d.get("expected_names", [d.get("expected_name")])
                        args = d.get("expected_args_list", d.get("expected_args", [{}] * len(ns)))
                        if isinstance(args, dict):
                            args = [args]
                        expected = _calls([{"name": a, "arguments": b} for a, b in
                                           zip(ns, args, strict=False)]) if ns is not None else []
                if expected is None:
                    continue
                found.append((f"{tname}[{case_id if case_id is not None else n}]", text, expected))
    return found


_TEXT_VARS = ("model_output", "output", "text", "model_text", "full_text")


def _idx(node: ast.AST) -> tuple[int, str] | None:
    """``result.tool_calls[I].function.name`` / ``.arguments`` (vLLM), ``result.calls[I].name`` /
    ``.parameters`` (SGLang) -> (I, "name" | "arguments")."""
    if not (isinstance(node, ast.Attribute) and node.attr in ("name", "arguments", "parameters")):
        return None
    fn = node.value
    if isinstance(fn, ast.Attribute) and fn.attr == "function":
        fn = fn.value
    if not isinstance(fn, ast.Subscript):
        return None
    holder = fn.value
    if not (isinstance(holder, ast.Attribute) and holder.attr in ("tool_calls", "calls")
            or isinstance(holder, ast.Name) and holder.id == "calls"):
        return None
    if isinstance(fn.slice, ast.Constant) and isinstance(fn.slice.value, int):
        return fn.slice.value, "name" if node.attr == "name" else "arguments"
    return None


def _is_calls(node: ast.AST) -> bool:
    return isinstance(node, ast.Attribute) and node.attr in ("tool_calls", "calls") or \
        isinstance(node, ast.Name) and node.id == "calls"


class _Case:
    def __init__(self, text: str) -> None:
        self.text = text
        self.count: int | None = None
        self.names: dict[int, str] = {}
        self.args: dict[int, dict[str, Any]] = {}
        self.subset: dict[int, dict[str, Any]] = {}
        self.called: bool | None = None

    def row(self) -> tuple[list[dict[str, Any]], str] | None:
        n = self.count if self.count is not None else (max(self.names) + 1 if self.names else None)
        if n is None:
            return ([], "exact") if self.called is False else None
        if len(self.names) != n:
            return None
        calls, match = [], "exact"
        for i in range(n):
            c: dict[str, Any] = {"name": self.names[i]}
            if i in self.args:
                c["args"] = self.args[i]
            else:
                c["args"] = self.subset.get(i, {})
                match = "subset" if i in self.subset or match == "subset" else "names"
            calls.append(c)
        if match != "exact" and any("args" in c and c["args"] for c in calls):
            match = "subset"
        return calls, match


def _assert_equal(st: ast.stmt) -> ast.Compare | None:
    """``self.assertEqual(a, b)`` read as ``a == b``."""
    if isinstance(st, ast.Expr) and isinstance(st.value, ast.Call) and \
            isinstance(st.value.func, ast.Attribute) and st.value.func.attr == "assertEqual" and \
            len(st.value.args) >= 2:
        return ast.Compare(left=st.value.args[0], ops=[ast.Eq()], comparators=[st.value.args[1]])
    if isinstance(st, ast.Expr) and isinstance(st.value, ast.Call) and \
            isinstance(st.value.func, ast.Attribute) and st.value.func.attr in ("assertFalse", "assertTrue") \
            and st.value.args:
        return None
    return None


def _in_order(body: list[ast.stmt]) -> Any:
    """The statements of a function in the order they run (into with/for/if/try bodies)."""
    for st in body:
        yield st
        for field in ("body", "orelse", "finalbody"):
            inner = getattr(st, field, None)
            if isinstance(inner, list) and not isinstance(st, (ast.FunctionDef, ast.ClassDef)):
                yield from _in_order(inner)
        for h in getattr(st, "handlers", []) or []:
            yield from _in_order(h.body)


def _body_cases(module: types.ModuleType, src: str) -> list[tuple[str, str, list[dict[str, Any]], str]]:
    """Cases written in test bodies: ``model_output = ...``, ``extract_tool_calls(model_output)``,
    then asserts on ``result.tool_calls[i].function.name`` / ``.arguments``."""
    tree = ast.parse(src)
    env = module.__dict__
    out = []

    def ev(node: ast.AST, local: dict[str, Any]) -> Any:
        return eval(compile(ast.Expression(node), "<case>", "eval"), env, local)  # noqa: S307 -- peers' data

    owner = {id(m): c.name for c in ast.walk(tree) if isinstance(c, ast.ClassDef) for m in c.body}
    for fn in ast.walk(tree):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) or not fn.name.startswith("test"):
            continue
        qual = f"{owner[id(fn)]}.{fn.name}" if id(fn) in owner else fn.name
        local: dict[str, Any] = {}
        case: _Case | None = None
        aliases: dict[str, int] = {}
        n = 0

        def flush(qual: str = qual) -> None:
            nonlocal case, n
            if case is not None:
                r = case.row()
                if r is not None:
                    out.append((f"{qual}#{n}", case.text, r[0], r[1]))
                    n += 1
            case = None

        for st in _in_order(fn.body):
            try:
                if isinstance(st, ast.Assign) and len(st.targets) == 1 and \
                        isinstance(st.targets[0], ast.Name):
                    name = st.targets[0].id
                    v = st.value
                    if name in _TEXT_VARS:
                        local[name] = ev(v, local)
                    elif isinstance(v, ast.Call) and isinstance(v.func, ast.Attribute) and \
                            v.func.attr in ("extract_tool_calls", "detect_and_parse") and v.args:
                        flush()
                        text = ev(v.args[0], local)
                        case = _Case(text) if isinstance(text, str) else None
                    elif isinstance(v, ast.Attribute) and v.attr == "calls" and case is not None:
                        pass
                    elif not isinstance(v, ast.Call) or not (v.args and _idx(v.args[0])):
                        try:
                            value = ev(v, local)
                        except Exception:  # noqa: BLE001 -- not a value we can know
                            value = None
                        if isinstance(value, (str, list, dict)):
                            local[name] = value
                    elif case is not None and isinstance(v, ast.Call) and v.args and _idx(v.args[0]):
                        ix = _idx(v.args[0])
                        if ix and ix[1] == "arguments":
                            aliases[name] = ix[0]
                elif (isinstance(st, ast.Assert) or _assert_equal(st) is not None) and case is not None:
                    t = st.test if isinstance(st, ast.Assert) else _assert_equal(st)
                    if isinstance(t, ast.UnaryOp) and isinstance(t.op, ast.Not) and \
                            isinstance(t.operand, ast.Attribute) and t.operand.attr == "tools_called":
                        case.called = False
                    elif isinstance(t, ast.Attribute) and t.attr == "tools_called":
                        case.called = True
                    elif isinstance(t, ast.Compare) and len(t.ops) == 1 and isinstance(t.ops[0], ast.Eq):
                        left, right = t.left, t.comparators[0]
                        ix = _idx(left)
                        if ix is not None:
                            value = ev(right, local)
                            if ix[1] == "name":
                                case.names[ix[0]] = value
                            else:
                                case.args[ix[0]] = json.loads(value)
                        elif isinstance(left, ast.Call) and isinstance(left.func, ast.Name) and \
                                left.func.id == "len" and _is_calls(left.args[0]):
                            case.count = ev(right, local)
                        elif isinstance(left, ast.Call) and left.args and _idx(left.args[0]) and \
                                _idx(left.args[0])[1] == "arguments":  # type: ignore[index]
                            case.args[_idx(left.args[0])[0]] = ev(right, local)  # type: ignore[index]
                        elif isinstance(left, ast.Name) and left.id in aliases:
                            case.args[aliases[left.id]] = ev(right, local)
                        elif isinstance(left, ast.Subscript) and isinstance(left.value, ast.Name) and \
                                left.value.id in aliases and isinstance(left.slice, ast.Constant):
                            slot = case.subset.setdefault(aliases[left.value.id], {})
                            slot[left.slice.value] = ev(right, local)
            except Exception:  # noqa: BLE001,S112 -- a statement we cannot read: the case is skipped
                case = None
        flush()
    return out


SGLANG_DIR = "test/registered/unit/function_call/"
SGLANG_FILES = {"test_function_call_parser.py": None, "test_hermes_detector.py": "hermes",
                "test_hunyuan_detector.py": "hy_v3", "test_llama32_detector.py": "llama3_json",
                "test_mistral_detector.py": "mistral", "test_unknown_tool_name.py": None}
SGLANG_CLASSES = {"TestPythonicDetector": "pythonic", "TestMistralDetector": "mistral",
                  "TestLlama32Detector": "llama3_json", "TestKimiK2Detector": "kimi_k2",
                  "TestDeepSeekV3Detector": "deepseek_v3", "TestDeepSeekV32Detector": "deepseek_v32",
                  "TestDeepSeekV4Detector": "deepseek_v4", "TestQwen3CoderDetector": "qwen3_coder",
                  "TestGptOssDetector": "harmony", "TestGlm4MoeDetector": "glm45",
                  "TestGlm47MoeDetector": "glm47", "TestLfm2Detector": "lfm2",
                  "TestGigaChat3Detector": "gigachat3", "TestQwen25Detector": "hermes",
                  "TestGemma4Detector": "gemma4"}


def _run_module(git_dir: str, path: str, name: str) -> tuple[types.ModuleType, str] | None:
    try:
        src = subprocess.check_output(["git", "--git-dir", git_dir, "show", f"HEAD:{path}"], text=True)
    except subprocess.CalledProcessError:
        return None
    module = types.ModuleType(name)
    try:
        exec(compile(src, path, "exec"), module.__dict__)  # noqa: S102 -- the peer's test module, stubbed
    except Exception as exc:  # a module that needs more than stand-ins: skipped, said so
        print(f"{path}: not read ({type(exc).__name__}: {exc})", file=sys.stderr)
        return None
    return module, src


def _row(prefix: str, fmt: str, case_id: str, text: str, calls: list[dict[str, Any]], match: str,
         source: dict[str, str]) -> dict[str, Any]:
    row: dict[str, Any] = {"id": f"{prefix}/{case_id}", "format": fmt, "text": text, "calls": calls}
    if match != "exact":
        row["match"] = match
    row["source"] = source
    return row


def extract_vllm(git_dir: str) -> list[dict[str, Any]]:
    commit = subprocess.check_output(["git", "--git-dir", git_dir, "rev-parse", "HEAD"], text=True).strip()
    rows = []
    for stem, fmt in sorted(VLLM_FILES.items()):
        path = f"tests/tool_parsers/test_{stem}_tool_parser.py"
        got = _run_module(git_dir, path, f"peer_{stem}")
        if got is None:
            continue
        module, src = got
        source = {"repo": "vllm-project/vllm (fork local-inference-lab/vllm)", "commit": commit, "path": path,
                  "licence": "Apache-2.0"}
        cases = [(c, t, k, "exact") for c, t, k in _cases(module)] + _body_cases(module, src)
        rows.extend(_row(f"vllm/{stem}", fmt, *case, source) for case in cases)
    return rows


def extract_sglang(git_dir: str) -> list[dict[str, Any]]:
    commit = subprocess.check_output(["git", "--git-dir", git_dir, "rev-parse", "HEAD"], text=True).strip()
    rows = []
    for fname, default in SGLANG_FILES.items():
        path = SGLANG_DIR + fname
        got = _run_module(git_dir, path, f"peer_{fname[:-3]}")
        if got is None:
            continue
        module, src = got
        source = {"repo": "sgl-project/sglang (fork bytedance-iaas/sglang)", "commit": commit, "path": path,
                  "licence": "Apache-2.0"}
        for case_id, text, calls, match in _body_cases(module, src):
            fmt = SGLANG_CLASSES.get(case_id.split(".")[0], default)
            if fmt is not None:
                rows.append(_row(f"sglang/{fname[:-3]}", fmt, case_id, text, calls, match, source))
    return rows


LLAMACPP_TEMPLATES = {  # template file (in models/templates/) -> our format name
    "Qwen3.5-4B": "qwen3_coder", "NVIDIA-Nemotron-3-Nano-30B-A3B-BF16": "qwen3_coder",
    "Qwen3-Coder": "qwen3_coder", "ByteDance-Seed-OSS": "seed_oss",
    "mistralai-Ministral-3-14B-Reasoning-2512": "mistral", "mistralai-Mistral-Nemo-Instruct-2407": "mistral",
    "CohereForAI-c4ai-command-r7b-12-2024-tool_use": "command", "Cohere2MoE": "command",
    "CohereForAI-c4ai-command-r-plus-tool_use": "command_r_plus",
    "google-gemma-4-31B-it": "gemma4", "NousResearch-Hermes-2-Pro-Llama-3-8B-tool_use": "hermes",
    "Qwen-QwQ-32B": "hermes", "ibm-granite-granite-3.3-2B-Instruct": "granite4",
    "deepseek-ai-DeepSeek-V3.1": "deepseek_v31", "deepseek-ai-DeepSeek-V3.2": "deepseek_v32",
    "GLM-4.6": "glm45", "GLM-4.7-Flash": "glm47", "Kimi-K2-Thinking": "kimi_k2",
    "moonshotai-Kimi-K2": "kimi_k2",
    "LFM2-8B-A1B": "lfm2", "LFM2.5-Instruct": "lfm2", "Apertus-8B-Instruct": "apertus",
    "MiniMax-M2": "minimax_m2", "NVIDIA-Nemotron-Nano-v2": "nemotron_v2",
    "meetkai-functionary-medium-v3.1": "functionary", "meetkai-functionary-medium-v3.2": "functionary",
    "fireworks-ai-llama-3-firefunction-v2": "phi4_mini",
    "deepseek-ai-DeepSeek-R1-Distill-Llama-8B": "deepseek_r1",
    "llama-cpp-deepseek-r1": "deepseek_r1", "deepseek-ai-DeepSeek-R1-Distill-Qwen-32B": "deepseek_r1",
}
_CPP_STR = re.compile(r'R"([^(\s]*)\((.*?)\)\1"|"((?:[^"\\\n]|\\.)*)"', re.S)
_CPP_ESC = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\", "'": "'", "0": "\0"}


def _cpp_strings(src: str) -> list[str]:
    """The C++ string literals in ``src`` (adjacent ones are one string), in order."""
    out: list[str] = []
    last_end = None
    for m in _CPP_STR.finditer(src):
        if m.group(2) is not None:
            value = m.group(2)
        else:
            value = re.sub(r"\\(.)", lambda e: _CPP_ESC.get(e.group(1), "\\" + e.group(1)), m.group(3))
        between = src[last_end:m.start()] if last_end is not None else None
        if between is not None and not between.strip():
            out[-1] += value
        else:
            out.append(value)
        last_end = m.end()
    return out


def _first_arg(src: str, k: int) -> tuple[str, int] | None:
    """The text of the call's first argument at ``k`` (just past its ``(``): up to the matching ``)``."""
    depth, j = 1, k
    while j < len(src):
        m = _CPP_STR.match(src, j)
        if m is not None and src[j] in 'R"' and (src[j] == '"' or src.startswith('R"', j)):
            j = m.end()
            continue
        c = src[j]
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return src[k:j], j + 1
        j += 1
    return None


def extract_llamacpp(git_dir: str) -> list[dict[str, Any]]:
    commit = subprocess.check_output(["git", "--git-dir", git_dir, "rev-parse", "HEAD"], text=True).strip()
    path = "tests/test-chat.cpp"
    src = subprocess.check_output(["git", "--git-dir", git_dir, "show", f"HEAD:{path}"], text=True)
    source = {"repo": "ggml-org/llama.cpp (fork ikawrakow/ik_llama.cpp)", "commit": commit, "path": path,
              "licence": "MIT"}
    known = {"message_assist_call": [{"name": "special_function", "args": {"arg1": 1}}],
             "message_assist_call_thoughts": [{"name": "special_function", "args": {"arg1": 1}}],
             "message_assist": [], "message_assist_thoughts": []}
    rows = []
    tester = re.compile(r'peg_tester\("models/templates/([^"]+)\.jinja"')
    fmt = None
    n = 0
    pos = 0
    for m in re.finditer(r'peg_tester\("models/templates/[^"]+\.jinja"|tst\.test\(', src):
        if m.group().startswith("peg_tester"):
            t = tester.match(src, m.start())
            fmt = LLAMACPP_TEMPLATES.get(t.group(1)) if t else None
            continue
        if fmt is None or m.start() < pos:
            continue
        arg = _first_arg(src, m.end())
        if arg is None:
            continue
        text_src, after = arg
        run = src.find("run()", after)
        chain = src[after:run]
        pos = run
        strings = _cpp_strings(text_src)
        if len(strings) != 1 or any(x in chain for x in (
                "is_partial", "COMMON_REASONING_FORMAT_NONE", "json_schema", "expect_reasoning(",
                "reasoning_format(COMMON_REASONING_FORMAT_DEEPSEEK_LEGACY")):
            continue
        text = strings[0]
        calls = None
        e = re.search(r"\bexpect\((\w+)\)", chain)
        w = re.search(r'\bexpect\(message_with(?:_reasoning_and)?_tool_calls?\((?:"(?:[^"\\]|\\.)*",\s*)?'
                      r'"([^"]+)",\s*"((?:[^"\\]|\\.)*)"\)\)', chain)
        if w is not None:
            calls = [{"name": w.group(1), "args": json.loads(_cpp_strings('"' + w.group(2) + '"')[0])}]
        elif ".expect_tool_calls(" in chain:
            body = chain[chain.index(".expect_tool_calls("):]
            entries = re.findall(r'\{\s*((?:"(?:[^"\\]|\\.)*"|R"[^(]*\(.*?\)[^"]*")\s*,\s*'
                                 r'(?:"(?:[^"\\]|\\.)*"|R"[^(]*\(.*?\)[^"]*")(?:\s*"(?:[^"\\]|\\.)*")*)\s*,',
                                 body, re.S)
            calls = []
            for entry in entries:
                parts = _cpp_strings(entry)
                if len(parts) != 2:
                    calls = None
                    break
                try:
                    calls.append({"name": parts[0], "args": json.loads(parts[1])})
                except ValueError:
                    calls = None
                    break
        elif e is not None and e.group(1) in known:
            calls = known[e.group(1)]
        elif ".expect_content(" in chain and ".expect(" not in chain:
            calls = []
        if not calls and calls != []:
            continue
        rows.append(_row("llama.cpp/test-chat", fmt, f"{fmt}#{n}", text, calls, "exact", source))
        n += 1
    return rows


def _write(rows: list[dict[str, Any]], out: str) -> None:
    seen = set()
    kept = []
    for r in rows:
        key = (r["format"], r["text"], json.dumps(r["calls"], sort_keys=True))
        if key not in seen:
            seen.add(key)
            kept.append(r)
    with open(out, "w", encoding="utf-8") as f:
        for r in kept:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    counts: dict[str, int] = {}
    for r in kept:
        counts[r["format"]] = counts.get(r["format"], 0) + 1
    print(f"{len(kept)} cases written to {out}: {counts}")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--vllm", help="a bare git clone of vLLM")
    ap.add_argument("--sglang", help="a bare git clone of SGLang")
    ap.add_argument("--llamacpp", help="a bare git clone of llama.cpp")
    ap.add_argument("--out-dir", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir,
                                                      "tests", "data", "tool_calls", "peers"))
    a = ap.parse_args()
    sys.meta_path.insert(0, _Finder())
    if a.vllm:
        _write(extract_vllm(a.vllm), os.path.join(a.out_dir, "vllm.jsonl"))
    if a.sglang:
        _write(extract_sglang(a.sglang), os.path.join(a.out_dir, "sglang.jsonl"))
    if a.llamacpp:
        _write(extract_llamacpp(a.llamacpp), os.path.join(a.out_dir, "llamacpp.jsonl"))
    return 0


if __name__ == "__main__":
    sys.exit(main())

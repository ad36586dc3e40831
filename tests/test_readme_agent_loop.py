"""README "Use it in an agent loop": every example runs, with the SDK clients answering
from recorded responses (no network)."""

from __future__ import annotations

import json
import os
import re
import shutil

import pytest

openai = pytest.importorskip("openai")
anthropic = pytest.importorskip("anthropic")
from anthropic.types import Message  # noqa: E402
from openai.types.chat import ChatCompletion, ChatCompletionChunk  # noqa: E402

ROOT = os.path.join(os.path.dirname(__file__), os.pardir)
DATA = os.path.join(os.path.dirname(__file__), "data", "providers")
WORKSPACE = os.path.join(ROOT, "src", "toolmend", "examples", "workspace")


def recorded(name: str) -> dict:
    with open(os.path.join(DATA, name), encoding="utf-8") as f:
        return json.load(f)


def readme_examples() -> list[str]:
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        text = f.read()
    section = text.split("## Use it in an agent loop", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```python\n(.*?)```", section, re.S)


def chunks_of(completion: dict) -> list[ChatCompletionChunk]:
    """The stream the API sends for ``completion``: each call's name, then its arguments
    three characters at a time."""
    head = {k: completion[k] for k in ("id", "created", "model")}
    out = []
    for index, call in enumerate(completion["choices"][0]["message"]["tool_calls"]):
        first = {
            "index": index,
            "id": call["id"],
            "type": "function",
            "function": {"name": call["function"]["name"], "arguments": ""},
        }
        deltas = [first] + [
            {"index": index, "function": {"arguments": call["function"]["arguments"][i : i + 3]}}
            for i in range(0, len(call["function"]["arguments"]), 3)
        ]
        out += [
            {
                **head,
                "object": "chat.completion.chunk",
                "choices": [{"index": 0, "delta": {"tool_calls": [d]}, "finish_reason": None}],
            }
            for d in deltas
        ]
    out.append(
        {
            **head,
            "object": "chat.completion.chunk",
            "choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}],
        }
    )
    return [ChatCompletionChunk.model_validate(c) for c in out]


class _Recorder:
    def __init__(self, replies: list, check) -> None:  # type: ignore[no-untyped-def]
        self.replies = replies
        self.requests: list[dict] = []
        self.check = check

    def create(self, **request):  # type: ignore[no-untyped-def]
        self.requests.append(request)
        self.check(request)
        return self.replies.pop(0)


@pytest.fixture
def workspace(tmp_path, monkeypatch):
    for name in os.listdir(WORKSPACE):
        shutil.copy(os.path.join(WORKSPACE, name), tmp_path / name)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _tools_registered(request: dict, provider: str) -> None:
    import toolmend

    assert request["tools"] == toolmend.tools.schemas(provider)


def test_the_readme_has_the_three_examples():
    examples = readme_examples()
    assert len(examples) == 3
    assert "from openai import OpenAI" in examples[0] and "anthropic.Anthropic()" in examples[1]
    assert "StreamingArgs" in examples[2]


def test_openai_loop(workspace, monkeypatch, capsys):
    completions = _Recorder(
        [
            ChatCompletion.model_validate(recorded("openai_chat_completion.json")),
            ChatCompletion.model_validate(recorded("openai_final.json")),
        ],
        lambda r: _tools_registered(r, "openai"),
    )

    class FakeOpenAI:
        def __init__(self, **kwargs) -> None:  # type: ignore[no-untyped-def]
            self.chat = type("Chat", (), {"completions": completions})()

    monkeypatch.setattr(openai, "OpenAI", FakeOpenAI)
    exec(compile(readme_examples()[0], "README.md (OpenAI loop)", "exec"), {})
    assert "replicas went from 2 to 3" in capsys.readouterr().out
    sent = completions.requests[1]["messages"]
    assert sent[1]["role"] == "assistant" and len(sent[1]["tool_calls"]) == 3
    answers = sent[2:]
    assert [m["tool_call_id"] for m in answers] == [c["id"] for c in sent[1]["tool_calls"]]
    assert answers[0]["content"] == "1.10"
    assert "-replicas: 2" in answers[1]["content"] and "+replicas: 3" in answers[1]["content"]
    assert answers[2]["content"].startswith("$: object{1}")


def test_anthropic_loop(workspace, monkeypatch, capsys):
    messages = _Recorder(
        [
            Message.model_validate(recorded("anthropic_message.json")),
            Message.model_validate(recorded("anthropic_final.json")),
        ],
        lambda r: _tools_registered(r, "anthropic"),
    )

    class FakeAnthropic:
        def __init__(self, **kwargs) -> None:  # type: ignore[no-untyped-def]
            self.messages = messages

    monkeypatch.setattr(anthropic, "Anthropic", FakeAnthropic)
    exec(compile(readme_examples()[1], "README.md (Anthropic loop)", "exec"), {})
    assert "replicas to 3" in capsys.readouterr().out
    sent = messages.requests[1]["messages"]
    assert sent[1]["role"] == "assistant" and sent[1]["content"][1]["type"] == "tool_use"
    results = sent[2]["content"]
    assert [b["tool_use_id"] for b in results] == [
        "toolu_01T1x1fJ34qAmk2tNTrN7Up6",
        "toolu_01Hq7mWz2Lp8Xv3Rc5Nb9Ke4",
    ]
    assert results[0]["content"] == "1.10" and "is_error" not in results[1]


def test_streamed_arguments(workspace, monkeypatch, capsys):
    completions = _Recorder(
        [iter(chunks_of(recorded("openai_chat_completion.json")))],
        lambda r: _tools_registered(r, "openai") or r["stream"],
    )

    class FakeOpenAI:
        def __init__(self, **kwargs) -> None:  # type: ignore[no-untyped-def]
            self.chat = type("Chat", (), {"completions": completions})()

    monkeypatch.setattr(openai, "OpenAI", FakeOpenAI)
    namespace: dict = {}
    exec(compile(readme_examples()[2], "README.md (streaming)", "exec"), namespace)
    out = capsys.readouterr().out
    assert out.startswith("1.10\n") and "+replicas: 3" in out and "$: object{1}" in out
    assert set(namespace["args"]) == {0, 1, 2}
    streamed = namespace["args"]
    assert streamed[0].complete and streamed[1].complete
    assert (
        not streamed[2].complete and streamed[2].finish().strategy == "trailing_commas"
    )  # not JSON: recovered


def test_streamed_arguments_cut_off_are_not_run(workspace, monkeypatch, capsys):
    """The streaming example runs only ok values: a stream cut inside the patch of a write
    (the issue's repro) prints why it is not run and writes nothing."""
    nums = "".join(f"{i}\n" for i in range(1, 21))
    (workspace / "nums.txt").write_text(nums)
    completion = recorded("openai_chat_completion_cut.json")
    completion["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"] = (
        '{"cmd": "apply", "args": {"file": "nums.txt", "dry_run": false, "patch": "--- nums.txt\\n'
        '+++ nums.txt\\n@@ -1,3 +1,3 @@\\n 1\\n-2\\n+two\\n 3\\n')
    before = sorted(os.listdir(workspace))
    completions = _Recorder([iter(chunks_of(completion))], lambda r: None)

    class FakeOpenAI:
        def __init__(self, **kwargs) -> None:  # type: ignore[no-untyped-def]
            self.chat = type("Chat", (), {"completions": completions})()

    monkeypatch.setattr(openai, "OpenAI", FakeOpenAI)
    exec(compile(readme_examples()[2], "README.md (streaming)", "exec"), {})
    out = capsys.readouterr().out
    assert out.startswith("diff: not run: ") and "cut off inside a string at offset 73" in out
    assert (workspace / "nums.txt").read_text() == nums and sorted(os.listdir(workspace)) == before

#!/usr/bin/env python3
"""Write the tool-call corpus scored by bench/score_tool_calls.py.

    python bench/make_tool_call_corpus.py            # (re)writes tests/data/tool_calls/*.jsonl
    python bench/make_tool_call_corpus.py --check    # fails if the files differ from this script

Two files, one JSON object per line:

calls.jsonl
    {"id", "format", "text", "calls", "fault"?, "note"?}
    ``text`` is a whole model message. ``calls`` are exactly the calls the model
    meant, in order: ``{"name": ..., "args": {...}}``. A call that is in the
    text but cannot be recovered safely (cut inside a value, nothing left to
    read) is ``{"name": ..., "ok": false}``: a parser should report it with
    ``ok=False``, never as a call to run. A call cut inside its own name has no
    entry at all, and ``note`` says so. ``args`` are what the model meant, with
    every character it wrote kept: a bare value stands in the tool's primary
    field (``read_file`` -> ``file``, ``run_command`` -> ``cmd``, ``bash`` ->
    ``command``, ``search`` -> ``term``), curly quotes are ASCII, Python
    literals are JSON ones. Names are exactly as the model wrote them
    (``@json`` and ``json`` are different names).

    ``format`` is where the call sits (tag_attr, tag_body, hermes, openai,
    openai_function, anthropic, anthropic_blocks, mixed) or, for messages
    whose point is the damage, ``broken`` / ``truncated``; ``fault`` names the
    damage when there is one.

decoys.jsonl
    {"id", "kind", "text", "note"?}: model messages with no call in them.
    They mention tags, show examples (inline or fenced, framed as an example),
    carry JSON that is data, tool definitions, schemas, logs, transcripts.

The line between a fenced example and a fenced call is the framing: a fence
introduced as an illustration ("for example", "like this", "the format is",
"here is how you would call it", a placeholder value) is an example; a fence
the model writes as its own next step, with no such framing or none at all,
is a call.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, os.pardir, "tests", "data", "tool_calls")

CALLS: list[dict] = []
DECOYS: list[dict] = []


def call(name, args):
    return {"name": name, "args": args}


def failed(name):
    return {"name": name, "ok": False}


def C(id, format, text, calls, fault=None, note=None):
    row = {"id": id, "format": format, "text": text, "calls": calls}
    if fault:
        row["fault"] = fault
    if note:
        row["note"] = note
    CALLS.append(row)


def D(id, kind, text, note=None):
    row = {"id": id, "kind": kind, "text": text}
    if note:
        row["note"] = note
    DECOYS.append(row)


# ---------------------------------------------------------------------------
# calls: self-closing tags, <tool_call name=... args=... />
# ---------------------------------------------------------------------------

C("tag-sq-json-schema", "tag_attr",
  "Let me look at the shape of the response before querying it.\n"
  """<tool_call name="@json" args='{"cmd":"schema","args":{"file":"resp.json"}}' />""",
  [call("@json", {"cmd": "schema", "args": {"file": "resp.json"}})])

C("tag-sq-two-json-gets", "tag_attr",
  "The payload is large, so I'll pull only the two fields I need.\n\n"
  """<tool_call name="@json" args='{"cmd":"get","args":{"file":"resp.json","path":"data.items[3].name"}}' />\n"""
  """<tool_call name="@json" args='{"cmd":"get","args":{"file":"resp.json","path":"data.items[-1].id"}}' />\n""",
  [call("@json", {"cmd": "get", "args": {"file": "resp.json", "path": "data.items[3].name"}}),
   call("@json", {"cmd": "get", "args": {"file": "resp.json", "path": "data.items[-1].id"}})])

C("tag-sq-both-attrs", "tag_attr",
  """<tool_call name='run_command' args='{"cmd": "ls -la src"}' />""",
  [call("run_command", {"cmd": "ls -la src"})])

C("tag-dq-entities", "tag_attr",
  "Checking the keys at the top level first:\n"
  """<tool_call name="@json" args="{&quot;cmd&quot;:&quot;keys&quot;,&quot;args&quot;:{&quot;file&quot;:&quot;package.json&quot;}}" />""",
  [call("@json", {"cmd": "keys", "args": {"file": "package.json"}})])

C("tag-dq-single-quoted-json", "tag_attr",
  """I'll open the entry point.\n<tool_call name="read_file" args="{'file': 'cmd/server/main.go'}"/>""",
  [call("read_file", {"file": "cmd/server/main.go"})],
  fault="single_quotes")

C("tag-unquoted-name", "tag_attr",
  """<tool_call name=read_file args='{"file": "README.md"}'/>""",
  [call("read_file", {"file": "README.md"})])

C("tag-unquoted-both-compact", "tag_attr",
  "Reading the module file.\n"
  """<tool_call name=read_file args={"file":"go.mod"} />""",
  [call("read_file", {"file": "go.mod"})])

C("tag-unquoted-args-with-spaces", "tag_attr",
  """Let me see what changed.\n<tool_call name=run_command args={"cmd": "git status --short"} />\n""",
  [call("run_command", {"cmd": "git status --short"})],
  note="the unquoted attribute runs to the end of the JSON value, spaces included")

C("tag-sq-own-quote-echo", "tag_attr",
  """<tool_call name="run_command" args='{"cmd": "echo 'hi'"}' />""",
  [call("run_command", {"cmd": "echo 'hi'"})],
  fault="attribute_quote_inside")

C("tag-sq-own-quote-apostrophes", "tag_attr",
  "Searching the issue tracker export for the user's wording.\n"
  """<tool_call name="search" args='{"term": "it's the user's fault"}' />""",
  [call("search", {"term": "it's the user's fault"})],
  fault="attribute_quote_inside")

C("tag-sq-own-quote-bash-sed", "tag_attr",
  """<tool_call name="bash" args='{"command": "sed -n '1,20p' app/models.py"}' />\n""",
  [call("bash", {"command": "sed -n '1,20p' app/models.py"})],
  fault="attribute_quote_inside")

C("tag-dq-own-quote", "tag_attr",
  """Opening it now.\n<tool_call name="read_file" args="{"file": "src/app.py"}" />""",
  [call("read_file", {"file": "src/app.py"})],
  fault="attribute_quote_inside")

C("tag-dq-own-quote-two-keys", "tag_attr",
  """<tool_call name="get_weather" args="{"city": "Porto", "units": "metric"}"/>""",
  [call("get_weather", {"city": "Porto", "units": "metric"})],
  fault="attribute_quote_inside")

C("tag-args-before-name", "tag_attr",
  """<tool_call args='{"city": "Lisbon"}' name="get_weather" />""",
  [call("get_weather", {"city": "Lisbon"})])

C("tag-multiline-attrs-diff", "tag_attr",
  "Comparing the two configs:\n\n"
  "<tool_call\n"
  "  name=\"@diff\"\n"
  """  args='{"cmd":"files","args":{"a":"config/old.yaml","b":"config/new.yaml","context":3}}'\n"""
  "/>\n",
  [call("@diff", {"cmd": "files", "args": {"a": "config/old.yaml", "b": "config/new.yaml", "context": 3}})])

C("tag-open-close-empty-body", "tag_attr",
  """<tool_call name="get_weather" args='{"city": "Oslo", "days": 3}'></tool_call>""",
  [call("get_weather", {"city": "Oslo", "days": 3})])

C("tag-sq-diff-apply-patch", "tag_attr",
  "The patch is small; dry run first.\n"
  r"""<tool_call name="@diff" args='{"cmd":"apply","args":{"file":"main.go","patch":"@@ -3,3 +3,3 @@\n import (\n-\t\"fmt\"\n+\t\"log\"\n )\n","dry_run":true}}' />""",
  [call("@diff", {"cmd": "apply", "args": {
      "file": "main.go",
      "patch": "@@ -3,3 +3,3 @@\n import (\n-\t\"fmt\"\n+\t\"log\"\n )\n",
      "dry_run": True}})])

C("tag-sq-gt-in-value", "tag_attr",
  """<tool_call name="run_command" args='{"cmd": "pytest -q > /tmp/out.log 2>&1"}' />""",
  [call("run_command", {"cmd": "pytest -q > /tmp/out.log 2>&1"})])

C("tag-sq-selfclose-in-value", "tag_attr",
  """<tool_call name="search" args='{"term": "<br/>"}' />""",
  [call("search", {"term": "<br/>"})],
  note="'/>' inside the quoted attribute does not end the tag")

C("tag-sq-json-validate-nested-escape", "tag_attr",
  r"""<tool_call name="@json" args='{"cmd":"validate","args":{"text":"{\"a\": 1,}"}}' />""",
  [call("@json", {"cmd": "validate", "args": {"text": "{\"a\": 1,}"}})])

C("tag-sq-json-query", "tag_attr",
  "I'll filter the failed web deploys instead of reading the whole file.\n"
  """<tool_call name="@json" args='{"cmd":"query","args":{"file":"deploys.json","path":"data.items","where":"status=failed && name~^web","select":["id","name"],"limit":20}}' />""",
  [call("@json", {"cmd": "query", "args": {
      "file": "deploys.json", "path": "data.items", "where": "status=failed && name~^web",
      "select": ["id", "name"], "limit": 20}})])

C("tag-dirs-diff-plain-name", "tag_attr",
  """<tool_call name="diff" args='{"cmd":"dirs","args":{"a":"./v1","b":"./v2","glob":"*.go"}}' />""",
  [call("diff", {"cmd": "dirs", "args": {"a": "./v1", "b": "./v2", "glob": "*.go"}})])

C("tag-unicode-value", "tag_attr",
  """<tool_call name="get_weather" args='{"city": "São Paulo"}' />""",
  [call("get_weather", {"city": "São Paulo"})])

C("tag-big-integer", "tag_attr",
  """<tool_call name="@json" args='{"cmd":"query","args":{"file":"orders.json","where":"id=123456789012345678901234567890"}}' />""",
  [call("@json", {"cmd": "query", "args": {"file": "orders.json",
                                           "where": "id=123456789012345678901234567890"}})])

# ---------------------------------------------------------------------------
# calls: <tool_call name="x">ARGS</tool_call>
# ---------------------------------------------------------------------------

C("body-bare-file", "tag_body",
  """<tool_call name="read_file">main.go</tool_call>""",
  [call("read_file", {"file": "main.go"})],
  fault="bare_value")

C("body-json-run", "tag_body",
  "Running the unit tests.\n"
  """<tool_call name="run_command">{"cmd": "npm test -- --watch=false"}</tool_call>""",
  [call("run_command", {"cmd": "npm test -- --watch=false"})])

C("body-multiline-json-query", "tag_body",
  "<tool_call name=\"@json\">\n"
  "{\n"
  "  \"cmd\": \"query\",\n"
  "  \"args\": {\"file\": \"users.json\", \"where\": \"role=admin\", \"select\": [\"id\", \"email\"]}\n"
  "}\n"
  "</tool_call>",
  [call("@json", {"cmd": "query", "args": {"file": "users.json", "where": "role=admin",
                                           "select": ["id", "email"]}})])

C("body-bare-bash", "tag_body",
  """I'll list the directory.\n\n<tool_call name="bash">ls -la</tool_call>""",
  [call("bash", {"command": "ls -la"})],
  fault="bare_value")

C("body-bare-bash-flags", "tag_body",
  """<tool_call name="bash">pytest -x --tb=short tests/test_api.py</tool_call>""",
  [call("bash", {"command": "pytest -x --tb=short tests/test_api.py"})],
  fault="bare_value",
  note="a shell tool's whole body is the command, --flags included")

C("body-single-quotes", "tag_body",
  """<tool_call name="get_weather">{'city': 'Paris', 'units': 'metric'}</tool_call>""",
  [call("get_weather", {"city": "Paris", "units": "metric"})],
  fault="single_quotes")

C("body-bare-search-phrase", "tag_body",
  "The error string should appear somewhere in the client code.\n"
  """<tool_call name="search">connection reset by peer</tool_call>""",
  [call("search", {"term": "connection reset by peer"})],
  fault="bare_value")

C("body-angle-brackets-in-string", "tag_body",
  """<tool_call name="run_command">{"cmd": "grep -c '<div>' public/index.html"}</tool_call>""",
  [call("run_command", {"cmd": "grep -c '<div>' public/index.html"})])

C("body-close-tag-inside-string", "tag_body",
  """<tool_call name="write_file">{"file": "docs/format.md", "content": "Close every call with </tool_call> on its own line."}</tool_call>""",
  [call("write_file", {"file": "docs/format.md",
                       "content": "Close every call with </tool_call> on its own line."})],
  note="the first </tool_call> is inside a JSON string; the call ends at the second")

C("body-diff-text", "tag_body",
  r"""<tool_call name='diff'>{"cmd": "text", "args": {"a": "retries = 3\n", "b": "retries = 5\n"}}</tool_call>""",
  [call("diff", {"cmd": "text", "args": {"a": "retries = 3\n", "b": "retries = 5\n"}})])

C("body-bare-keys", "tag_body",
  """<tool_call name="read_file">{file: "src/index.ts", start: 1, end: 80}</tool_call>""",
  [call("read_file", {"file": "src/index.ts", "start": 1, "end": 80})],
  fault="unquoted_keys")

# ---------------------------------------------------------------------------
# calls: Hermes / Qwen, <tool_call>{"name": ..., "arguments": ...}</tool_call>
# ---------------------------------------------------------------------------

C("hermes-basic", "hermes",
  "<tool_call>\n"
  """{"name": "get_weather", "arguments": {"city": "Tokyo", "unit": "celsius"}}\n"""
  "</tool_call>",
  [call("get_weather", {"city": "Tokyo", "unit": "celsius"})])

C("hermes-after-think", "hermes",
  "<think>\nThe user wants to know why the build fails. The CI log mentions a missing module, "
  "so I should read go.mod first and then run the build myself. I'll call read_file.\n</think>\n\n"
  "<tool_call>\n"
  """{"name": "read_file", "arguments": {"file": "go.mod"}}\n"""
  "</tool_call>",
  [call("read_file", {"file": "go.mod"})])

C("hermes-parallel-two", "hermes",
  "<tool_call>\n"
  """{"name": "get_weather", "arguments": {"city": "Paris"}}\n"""
  "</tool_call>\n"
  "<tool_call>\n"
  """{"name": "get_weather", "arguments": {"city": "London"}}\n"""
  "</tool_call>",
  [call("get_weather", {"city": "Paris"}), call("get_weather", {"city": "London"})])

C("hermes-arguments-string", "hermes",
  r"""<tool_call>{"name": "read_file", "arguments": "{\"file\": \"setup.py\"}"}</tool_call>""",
  [call("read_file", {"file": "setup.py"})])

C("hermes-single-quotes", "hermes",
  """<tool_call>\n{'name': 'search', 'arguments': {'term': 'deadlock detected'}}\n</tool_call>""",
  [call("search", {"term": "deadlock detected"})],
  fault="single_quotes")

C("hermes-python-literals", "hermes",
  "<tool_call>\n"
  """{"name": "run_command", "arguments": {"cmd": "pytest tests/", "capture": False, "timeout": None, "verbose": True}}\n"""
  "</tool_call>",
  [call("run_command", {"cmd": "pytest tests/", "capture": False, "timeout": None, "verbose": True})],
  fault="python_literals")

C("hermes-at-json", "hermes",
  """<tool_call>\n{"name": "@json", "arguments": {"cmd": "keys", "args": {"file": "package.json"}}}\n</tool_call>""",
  [call("@json", {"cmd": "keys", "args": {"file": "package.json"}})])

C("hermes-json-name", "hermes",
  "I'll check how many items the export has.\n"
  """<tool_call>\n{"name": "json", "arguments": {"cmd": "get", "args": {"file": "export.json", "path": "meta.count"}}}\n</tool_call>""",
  [call("json", {"cmd": "get", "args": {"file": "export.json", "path": "meta.count"}})])

C("hermes-trailing-commas", "hermes",
  """<tool_call>\n{"name": "search", "arguments": {"term": "OOM killer",},}\n</tool_call>""",
  [call("search", {"term": "OOM killer"})],
  fault="trailing_commas")

C("hermes-bare-keys", "hermes",
  """<tool_call>\n{name: "get_weather", arguments: {city: "Berlin", days: 2}}\n</tool_call>""",
  [call("get_weather", {"city": "Berlin", "days": 2})],
  fault="unquoted_keys")

C("hermes-missing-final-brace", "hermes",
  """<tool_call>\n{"name": "read_file", "arguments": {"file": "go.sum"}\n</tool_call>""",
  [call("read_file", {"file": "go.sum"})],
  fault="missing_brace")

C("hermes-diff-files", "hermes",
  "<tool_call>\n"
  """{"name": "@diff", "arguments": {"cmd": "files", "args": {"a": "schema_v1.sql", "b": "schema_v2.sql", "context": 5}}}\n"""
  "</tool_call>",
  [call("@diff", {"cmd": "files", "args": {"a": "schema_v1.sql", "b": "schema_v2.sql", "context": 5}})])

C("hermes-unquoted-value", "hermes",
  """<tool_call>{"name": "read_file", "arguments": {"file": main.go}}</tool_call>""",
  [call("read_file", {"file": "main.go"})],
  fault="object_literal")

C("hermes-empty-arguments", "hermes",
  """<tool_call>\n{"name": "git_status", "arguments": {}}\n</tool_call>""",
  [call("git_status", {})])

# ---------------------------------------------------------------------------
# calls: OpenAI shape, fenced or bare
# ---------------------------------------------------------------------------

C("openai-fenced-args-string", "openai",
  "I'll check the forecast for you.\n\n"
  "```json\n"
  r"""{"name": "get_weather", "arguments": "{\"city\": \"Madrid\", \"unit\": \"celsius\"}"}"""
  "\n```",
  [call("get_weather", {"city": "Madrid", "unit": "celsius"})])

C("openai-fenced-args-object-no-prose", "openai",
  "```json\n"
  "{\n"
  "  \"name\": \"read_file\",\n"
  "  \"arguments\": {\"file\": \"Cargo.toml\"}\n"
  "}\n"
  "```",
  [call("read_file", {"file": "Cargo.toml"})])

C("openai-bare-whole-message", "openai",
  """{"name": "search", "arguments": {"term": "retry budget exceeded"}}""",
  [call("search", {"term": "retry budget exceeded"})])

C("openai-bare-after-prose", "openai",
  "Sure, checking the nginx logs now.\n"
  r"""{"name": "run_command", "arguments": "{\"cmd\": \"journalctl -u nginx -n 50 --no-pager\"}"}""",
  [call("run_command", {"cmd": "journalctl -u nginx -n 50 --no-pager"})])

C("openai-fenced-array", "openai",
  "Both files are needed to compare the handlers.\n"
  "```json\n"
  "[\n"
  r"""  {"name": "read_file", "arguments": "{\"file\": \"api/users.py\"}"},"""
  "\n"
  r"""  {"name": "read_file", "arguments": "{\"file\": \"api/orders.py\"}"}"""
  "\n]\n```",
  [call("read_file", {"file": "api/users.py"}), call("read_file", {"file": "api/orders.py"})])

C("openai-bare-array-objects", "openai",
  """[{"name": "get_weather", "arguments": {"city": "Rome"}}, {"name": "get_weather", "arguments": {"city": "Milan"}}]""",
  [call("get_weather", {"city": "Rome"}), call("get_weather", {"city": "Milan"})])

C("openai-args-string-single-quotes", "openai",
  "```json\n"
  """{"name": "get_weather", "arguments": "{'city': 'Quito'}"}\n"""
  "```",
  [call("get_weather", {"city": "Quito"})],
  fault="single_quotes")

C("openai-plain-fence", "openai",
  "Let me search for where the timeout is configured.\n"
  "```\n"
  """{"name": "search", "arguments": {"term": "READ_TIMEOUT"}}\n"""
  "```\n",
  [call("search", {"term": "READ_TIMEOUT"})])

C("openai-args-empty-string-object", "openai",
  r"""{"name": "git_status", "arguments": "{}"}""",
  [call("git_status", {})])

C("openai-json-tool", "openai",
  "```json\n"
  """{"name": "json", "arguments": {"cmd": "schema", "args": {"file": "events.sample.json", "depth": 4}}}\n"""
  "```",
  [call("json", {"cmd": "schema", "args": {"file": "events.sample.json", "depth": 4}})])

C("openai-args-string-js-literal", "openai",
  """{"name": "run_command", "arguments": "{cmd: 'docker ps -a'}"}""",
  [call("run_command", {"cmd": "docker ps -a"})],
  fault="quotes_and_keys")

C("openai-fenced-then-wait", "openai",
  "I need the current schema before writing the migration.\n\n"
  "```json\n"
  """{"name": "read_file", "arguments": {"file": "db/schema.sql"}}\n"""
  "```\n\n"
  "Once I have it I'll draft the ALTER statements.",
  [call("read_file", {"file": "db/schema.sql"})])

# ---------------------------------------------------------------------------
# calls: {"type": "function", "function": {...}}
# ---------------------------------------------------------------------------

C("function-wrapper-bare", "openai_function",
  r"""{"type": "function", "function": {"name": "search", "arguments": "{\"term\": \"rate limit\"}"}}""",
  [call("search", {"term": "rate limit"})])

C("function-wrapper-with-id-fenced", "openai_function",
  "```json\n"
  r"""{"id": "call_8f2a1c", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\":\"Cairo\"}"}}"""
  "\n```",
  [call("get_weather", {"city": "Cairo"})])

C("function-wrapper-array", "openai_function",
  "Running both checks at once:\n"
  "```json\n"
  "[\n"
  r"""  {"id": "call_1", "type": "function", "function": {"name": "run_command", "arguments": "{\"cmd\": \"ruff check .\"}"}},"""
  "\n"
  r"""  {"id": "call_2", "type": "function", "function": {"name": "run_command", "arguments": "{\"cmd\": \"mypy src\"}"}}"""
  "\n]\n```",
  [call("run_command", {"cmd": "ruff check ."}), call("run_command", {"cmd": "mypy src"})])

C("function-wrapper-args-object", "openai_function",
  """{"type": "function", "function": {"name": "diff", "arguments": {"cmd": "text", "args": {"a": "v1", "b": "v2"}}}}""",
  [call("diff", {"cmd": "text", "args": {"a": "v1", "b": "v2"}})])

C("function-wrapper-broken-args", "openai_function",
  "```json\n"
  """{"type": "function", "function": {"name": "read_file", "arguments": "{'file': 'app/config.py',}"}}\n"""
  "```",
  [call("read_file", {"file": "app/config.py"})],
  fault="single_quotes")

# ---------------------------------------------------------------------------
# calls: Anthropic tool_use and content blocks
# ---------------------------------------------------------------------------

C("anthropic-fenced", "anthropic",
  "```json\n"
  """{"type": "tool_use", "id": "toolu_01A09q90qw90lq917835lq9", "name": "get_weather", "input": {"city": "Paris", "unit": "celsius"}}\n"""
  "```",
  [call("get_weather", {"city": "Paris", "unit": "celsius"})])

C("anthropic-bare", "anthropic",
  "I'll run the linter on the package.\n"
  """{"type": "tool_use", "id": "toolu_7", "name": "bash", "input": {"command": "ruff check src/"}}""",
  [call("bash", {"command": "ruff check src/"})])

C("anthropic-blocks-text-and-tool", "anthropic_blocks",
  "```json\n"
  "[\n"
  """  {"type": "text", "text": "I'll look at the config first."},\n"""
  """  {"type": "tool_use", "id": "toolu_02", "name": "read_file", "input": {"file": "config.yaml"}}\n"""
  "]\n```",
  [call("read_file", {"file": "config.yaml"})])

C("anthropic-blocks-two-tools", "anthropic_blocks",
  """[{"type": "text", "text": "Checking both cities."}, """
  """{"type": "tool_use", "id": "toolu_a", "name": "get_weather", "input": {"city": "Seoul"}}, """
  """{"type": "tool_use", "id": "toolu_b", "name": "get_weather", "input": {"city": "Busan"}}]""",
  [call("get_weather", {"city": "Seoul"}), call("get_weather", {"city": "Busan"})])

C("anthropic-json-tool", "anthropic",
  """{"type": "tool_use", "id": "toolu_01", "name": "json", "input": {"cmd": "get", "args": {"file": "resp.json", "path": "data.total"}}}""",
  [call("json", {"cmd": "get", "args": {"file": "resp.json", "path": "data.total"}})])

C("anthropic-python-literals", "anthropic",
  "```json\n"
  """{"type": "tool_use", "id": "toolu_3", "name": "search", "input": {"term": "TODO", "case_sensitive": False, "path": None}}\n"""
  "```",
  [call("search", {"term": "TODO", "case_sensitive": False, "path": None})],
  fault="python_literals")

C("anthropic-empty-input", "anthropic",
  """{"type": "tool_use", "id": "toolu_4", "name": "git_status", "input": {}}""",
  [call("git_status", {})])

C("anthropic-blocks-pretty", "anthropic_blocks",
  "[\n"
  "  {\n"
  "    \"type\": \"text\",\n"
  "    \"text\": \"The diff between the releases will show what broke.\"\n"
  "  },\n"
  "  {\n"
  "    \"type\": \"tool_use\",\n"
  "    \"id\": \"toolu_01T1x1fJ34qAmk2tNTrN7Up6\",\n"
  "    \"name\": \"diff\",\n"
  "    \"input\": {\"cmd\": \"dirs\", \"args\": {\"a\": \"release-1.4\", \"b\": \"release-1.5\"}}\n"
  "  }\n"
  "]",
  [call("diff", {"cmd": "dirs", "args": {"a": "release-1.4", "b": "release-1.5"}})])

# ---------------------------------------------------------------------------
# calls: several in one message, mixed formats
# ---------------------------------------------------------------------------

C("mixed-tag-then-fenced-openai", "mixed",
  "First the file, then the tests.\n"
  """<tool_call name="read_file" args='{"file": "src/parser.rs"}' />\n\n"""
  "```json\n"
  """{"name": "run_command", "arguments": {"cmd": "cargo test parser"}}\n"""
  "```",
  [call("read_file", {"file": "src/parser.rs"}), call("run_command", {"cmd": "cargo test parser"})])

C("mixed-attr-body-hermes", "mixed",
  """<tool_call name="@json" args='{"cmd":"keys","args":{"file":"a.json"}}' />\n"""
  """<tool_call name="read_file">b.txt</tool_call>\n"""
  """<tool_call>{"name": "search", "arguments": {"term": "panic:"}}</tool_call>""",
  [call("@json", {"cmd": "keys", "args": {"file": "a.json"}}),
   call("read_file", {"file": "b.txt"}),
   call("search", {"term": "panic:"})])

C("mixed-anthropic-then-tag", "mixed",
  """{"type": "tool_use", "id": "toolu_x", "name": "bash", "input": {"command": "git diff --stat"}}\n"""
  "and then\n"
  """<tool_call name="@diff" args='{"cmd":"files","args":{"a":"old.txt","b":"new.txt"}}' />""",
  [call("bash", {"command": "git diff --stat"}),
   call("@diff", {"cmd": "files", "args": {"a": "old.txt", "b": "new.txt"}})])

C("mixed-example-then-real-call", "mixed",
  "A call to this tool takes the form `<tool_call name=\"read_file\" args='{\"file\": \"PATH\"}' />`. "
  "So for your file:\n\n"
  """<tool_call name="read_file" args='{"file": "notes/todo.md"}' />""",
  [call("read_file", {"file": "notes/todo.md"})],
  note="the inline code span is an example; the bare tag after it is the call")

C("mixed-fenced-example-then-call", "mixed",
  "The format is:\n\n"
  "```xml\n"
  "<tool_call name=\"TOOL\" args='{...}' />\n"
  "```\n\n"
  "Now the actual lookup:\n"
  """<tool_call name="get_weather" args='{"city": "Nairobi"}' />""",
  [call("get_weather", {"city": "Nairobi"})],
  note="the fenced block follows 'The format is:' and is an example")

C("mixed-prose-mention-then-call", "mixed",
  "I'll emit a <tool_call> to read the lockfile.\n\n"
  """<tool_call name="read_file" args='{"file": "package-lock.json"}' />""",
  [call("read_file", {"file": "package-lock.json"})],
  note="the first <tool_call> is a word in a sentence, not a tag")

C("mixed-hermes-and-openai-fence", "mixed",
  """<tool_call>{"name": "get_weather", "arguments": {"city": "Lima"}}</tool_call>\n"""
  "```json\n"
  r"""{"name": "get_weather", "arguments": "{\"city\": \"Cusco\"}"}"""
  "\n```",
  [call("get_weather", {"city": "Lima"}), call("get_weather", {"city": "Cusco"})])

C("mixed-three-with-markdown", "mixed",
  "## Plan\n\n"
  "1. Inspect the failing test.\n"
  "2. Look at the fixture data.\n"
  "3. Re-run only that test.\n\n"
  """<tool_call name="read_file" args='{"file": "tests/test_billing.py"}' />\n"""
  """<tool_call name="@json" args='{"cmd":"get","args":{"file":"tests/fixtures/invoice.json","path":"lines[*].amount"}}' />\n"""
  """<tool_call name="run_command" args='{"cmd": "pytest tests/test_billing.py -k rounding"}' />\n""",
  [call("read_file", {"file": "tests/test_billing.py"}),
   call("@json", {"cmd": "get", "args": {"file": "tests/fixtures/invoice.json", "path": "lines[*].amount"}}),
   call("run_command", {"cmd": "pytest tests/test_billing.py -k rounding"})])

C("mixed-inline-mention-then-hermes", "mixed",
  "Tool calls go inside `<tool_call>` tags, so here is mine:\n"
  """<tool_call>\n{"name": "search", "arguments": {"term": "ECONNREFUSED"}}\n</tool_call>""",
  [call("search", {"term": "ECONNREFUSED"})])

# ---------------------------------------------------------------------------
# calls: broken the way models break them
# ---------------------------------------------------------------------------

C("broken-openai-single-quotes", "broken",
  """{'name': 'read_file', 'arguments': {'file': 'index.ts'}}""",
  [call("read_file", {"file": "index.ts"})],
  fault="single_quotes")

C("broken-openai-bare-keys", "broken",
  "```json\n"
  """{name: "search", arguments: {term: "flaky test"}}\n"""
  "```",
  [call("search", {"term": "flaky test"})],
  fault="unquoted_keys")

C("broken-array-trailing-commas", "broken",
  "```json\n"
  "[\n"
  """  {"name": "read_file", "arguments": {"file": "a.py"},},\n"""
  """  {"name": "read_file", "arguments": {"file": "b.py"},},\n"""
  "]\n```",
  [call("read_file", {"file": "a.py"}), call("read_file", {"file": "b.py"})],
  fault="trailing_commas")

C("broken-tag-python-literals", "broken",
  """<tool_call name="search" args="{'term': 'TODO', 'case_sensitive': False, 'limit': None}" />""",
  [call("search", {"term": "TODO", "case_sensitive": False, "limit": None})],
  fault="python_literals")

C("broken-fenced-missing-final-brace", "broken",
  "```json\n"
  """{"name": "get_weather", "arguments": {"city": "Lima"}\n"""
  "```",
  [call("get_weather", {"city": "Lima"})],
  fault="missing_brace",
  note="the fence closes, so only the brace is missing, not content")

C("broken-comment-in-args", "broken",
  "<tool_call name=\"run_command\">\n"
  "{\n"
  "  \"cmd\": \"make build\",  // release build\n"
  "  \"cwd\": \"services/api\"\n"
  "}\n"
  "</tool_call>",
  [call("run_command", {"cmd": "make build", "cwd": "services/api"})],
  fault="comments")

C("broken-curly-quotes", "broken",
  """<tool_call name="read_file" args='{\u201cfile\u201d: \u201cmain.go\u201d}' />""",
  [call("read_file", {"file": "main.go"})],
  fault="curly_quotes")

C("broken-raw-newline-in-string", "broken",
  "<tool_call name=\"write_file\">\n"
  """{"file": "hello.py", "content": "import sys\nprint(sys.argv)\n"}\n"""
  "</tool_call>",
  [call("write_file", {"file": "hello.py", "content": "import sys\nprint(sys.argv)\n"})],
  fault="raw_newlines",
  note="real line breaks inside the JSON string; they are part of the content")

C("broken-object-literal-body", "broken",
  """<tool_call name="run_command">{cmd: ls, dir: src, all: true}</tool_call>""",
  [call("run_command", {"cmd": "ls", "dir": "src", "all": True})],
  fault="object_literal")

C("broken-hermes-python-dict-repr", "broken",
  """<tool_call>\n{'name': 'get_weather', 'arguments': {'city': 'Reykjavik', 'hourly': True}}\n</tool_call>""",
  [call("get_weather", {"city": "Reykjavik", "hourly": True})],
  fault="python_literals")

C("broken-anthropic-trailing-comma", "broken",
  """{"type": "tool_use", "id": "toolu_5", "name": "read_file", "input": {"file": "Dockerfile",},}""",
  [call("read_file", {"file": "Dockerfile"})],
  fault="trailing_commas")

C("broken-mixed-quote-styles", "broken",
  """<tool_call name="run_command" args="{cmd: 'git log --oneline -n 5', cwd: 'repo'}" />""",
  [call("run_command", {"cmd": "git log --oneline -n 5", "cwd": "repo"})],
  fault="quotes_and_keys")

C("broken-args-string-trailing-comma", "broken",
  r"""{"type": "function", "function": {"name": "search", "arguments": "{\"term\": \"segfault\",}"}}""",
  [call("search", {"term": "segfault"})],
  fault="trailing_commas")

# ---------------------------------------------------------------------------
# calls: cut off at the end of the text
# ---------------------------------------------------------------------------

C("cut-hermes-after-args", "truncated",
  """<tool_call>\n{"name": "read_file", "arguments": {"file": "main.go"}""",
  [call("read_file", {"file": "main.go"})],
  fault="cut_after_value",
  note="every value is complete; only the closing brace and tag are missing")

C("cut-tag-not-closed", "truncated",
  """Reading it now: <tool_call name="read_file" args='{"file": "Makefile"}'""",
  [call("read_file", {"file": "Makefile"})],
  fault="cut_after_value",
  note="the args attribute is complete, the tag's '/>' is missing")

C("cut-inside-string-value", "truncated",
  """<tool_call name="run_command" args='{"cmd": "rm -rf build/di""",
  [failed("run_command")],
  fault="cut_in_value",
  note="the command was cut; running the prefix would be wrong")

C("cut-inside-name", "truncated",
  """I'll open the file.\n<tool_call>\n{"name": "read_fi""",
  [],
  fault="cut_in_name",
  note="the name itself is cut: there is no tool to report, and nothing may run")

C("cut-openai-args-string", "truncated",
  "```json\n"
  r"""{"name": "search", "arguments": "{\"term\": \"time""",
  [failed("search")],
  fault="cut_in_value")

C("cut-anthropic-after-input", "truncated",
  """{"type": "tool_use", "id": "toolu_9", "name": "bash", "input": {"command": "make test"}""",
  [call("bash", {"command": "make test"})],
  fault="cut_after_value")

C("cut-after-colon", "truncated",
  """<tool_call>{"name": "get_weather", "arguments": {"city": """,
  [failed("get_weather")],
  fault="cut_in_value",
  note="the value is missing; a null city is not what the model meant")

C("cut-after-comma", "truncated",
  """<tool_call>{"name": "search", "arguments": {"term": "leak", """,
  [failed("search")],
  fault="cut_in_value",
  note="a comma says more arguments were coming; the call is not whole")

C("cut-second-of-two", "truncated",
  """<tool_call name="read_file" args='{"file": "a.go"}' />\n"""
  """<tool_call>\n{"name": "run_command", "arguments": {"cmd": "go vet ./""",
  [call("read_file", {"file": "a.go"}), failed("run_command")],
  fault="cut_in_value")

C("cut-inside-number", "truncated",
  """<tool_call name="@json" args='{"cmd":"query","args":{"file":"x.json","where":"ok=false","limit":2""",
  [failed("@json")],
  fault="cut_in_value",
  note="the number may have been 20 or 200")

C("cut-body-json-no-close-tag", "truncated",
  """<tool_call name="read_file">{"file": "src/main.rs"}""",
  [call("read_file", {"file": "src/main.rs"})],
  fault="cut_after_value")

C("cut-inside-close-tag", "truncated",
  """<tool_call>{"name": "get_weather", "arguments": {"city": "Hanoi"}}</tool_ca""",
  [call("get_weather", {"city": "Hanoi"})],
  fault="cut_after_value")

C("cut-inside-tag-name-attr", "truncated",
  """Let me check.\n<tool_call name="get_wea""",
  [],
  fault="cut_in_name",
  note="cut inside the name attribute: nothing to report as a call")

C("cut-bare-body", "truncated",
  """<tool_call name="read_file">src/ma""",
  [failed("read_file")],
  fault="cut_in_value",
  note="a bare body with no closing tag may be cut anywhere; only a closed tag proves it whole")

C("cut-array-second-element", "truncated",
  "```json\n"
  """[{"name": "read_file", "arguments": {"file": "a.py"}}, {"name": "read_file", "arguments": {"file": "b""",
  [call("read_file", {"file": "a.py"}), failed("read_file")],
  fault="cut_in_value")

# ---------------------------------------------------------------------------
# calls: prose, thinking, markdown around them
# ---------------------------------------------------------------------------

C("prose-mid-paragraph", "tag_attr",
  "The stack trace points at the retry loop. "
  """<tool_call name="read_file" args='{"file": "client/retry.py"}' /> """
  "Once I see it I can tell whether the backoff is capped.",
  [call("read_file", {"file": "client/retry.py"})])

C("prose-think-mentions-tool-use", "anthropic",
  "<think>The user asked for the weather. I have a get_weather tool; a tool_use block with the city "
  "should do it. No need to ask which unit, default is fine.</think>\n"
  """{"type": "tool_use", "id": "toolu_w1", "name": "get_weather", "input": {"city": "Montreal"}}""",
  [call("get_weather", {"city": "Montreal"})])

C("prose-table-then-call", "tag_attr",
  "| file | status |\n|---|---|\n| api.py | modified |\n| db.py | modified |\n\n"
  "Let me diff the two versions of `db.py`.\n"
  """<tool_call name="@diff" args='{"cmd":"files","args":{"a":"db.py.orig","b":"db.py"}}' />""",
  [call("@diff", {"cmd": "files", "args": {"a": "db.py.orig", "b": "db.py"}})])

C("prose-bullets-hermes", "hermes",
  "Here's what I know so far:\n"
  "- the job fails only on ARM runners\n"
  "- the failure is in `test_mmap`\n\n"
  "I'll look for other mmap usages.\n"
  "<tool_call>\n"
  """{"name": "search", "arguments": {"term": "mmap("}}\n"""
  "</tool_call>",
  [call("search", {"term": "mmap("})])

C("prose-inline-code-before-fenced-call", "openai",
  "Right, `arguments` must be a JSON string. Retrying the call:\n"
  "```json\n"
  r"""{"name": "get_weather", "arguments": "{\"city\": \"Dublin\"}"}"""
  "\n```",
  [call("get_weather", {"city": "Dublin"})])


# ---------------------------------------------------------------------------
# decoys: prose that mentions tags or tool_use
# ---------------------------------------------------------------------------

D("mention-tag-in-sentence", "prose_mention",
  "Models emit a <tool_call> tag when they want to act; the backend parses it and runs the tool.")
D("mention-open-close-pair", "prose_mention",
  "In the Hermes format each call is wrapped in <tool_call></tool_call> tags, one per call.")
D("mention-no-tools-here", "prose_mention",
  "I can't run that for you here: no <tool_call> interface is available in this chat, "
  "so please run `make test` yourself and paste the output.")
D("mention-tool-use-id", "prose_mention",
  "Every tool_use block carries an id, and the tool_result you send back must echo it in tool_use_id.")
D("mention-placeholder-attrs", "prose_mention",
  "Write calls as <tool_call name=... args=...> with the arguments as JSON.",
  note="the attribute values are ellipses, not a name and arguments")
D("mention-closing-tag-only", "prose_mention",
  "If the output stops before </tool_call>, the call was truncated and should be retried.")
D("mention-arguments-string", "prose_mention",
  "OpenAI returns \"arguments\" as a JSON string, not an object, so you have to json.loads it "
  "before you can read \"name\" and the fields.")
D("mention-ask-permission", "prose_mention",
  "Should I call run_command to delete the build directory? It contains 3 GB of artifacts "
  "and I'd rather confirm first.")
D("mention-past-call", "prose_mention",
  "I already called read_file on main.go earlier; the handler registers the route twice, once in "
  "init() and once in main().")
D("mention-tool-call-tags-explained", "prose_mention",
  "The <tool_call> and <tool_response> tags are how Qwen separates calls from results in its chat template.")
D("mention-announcement-only", "prose_mention",
  "I'll now call `read_file` on `src/lib.rs` and then summarise the public API.",
  note="an announced intent with no call written")
D("mention-tag-lowercase-html", "prose_mention",
  "Unlike <div> or <span>, a <tool_call> element is not HTML; browsers will render it as unknown.")

# ---------------------------------------------------------------------------
# decoys: inline code spans with an example
# ---------------------------------------------------------------------------

D("inline-selfclosing-tag", "inline_code",
  "To read a file the model writes `<tool_call name=\"read_file\" args='{\"file\": \"main.go\"}' />` "
  "and waits for the result.")
D("inline-placeholder-tag", "inline_code",
  "The syntax is `<tool_call name=\"x\" args='{}' />`, where x is the tool name.")
D("inline-openai-json", "inline_code",
  "A parsed call looks like `{\"name\": \"get_weather\", \"arguments\": \"{\\\"city\\\": \\\"Paris\\\"}\"}` "
  "once it comes back from the API.")
D("inline-anthropic-json", "inline_code",
  "Claude answers with a block such as `{\"type\": \"tool_use\", \"id\": \"toolu_1\", \"name\": \"bash\", "
  "\"input\": {\"command\": \"ls\"}}` in the content list.")
D("inline-hermes-double-backticks", "inline_code",
  "Qwen wraps it like ``<tool_call>{\"name\": \"search\", \"arguments\": {\"term\": \"x\"}}</tool_call>`` "
  "inside its reply.")
D("inline-body-form", "inline_code",
  "You can also pass the file directly, as in `<tool_call name=\"read_file\">main.go</tool_call>`.")
D("inline-two-examples-compared", "inline_code",
  "Both `<tool_call name=\"bash\">ls</tool_call>` and `<tool_call name=\"bash\" args='{\"command\": \"ls\"}' />` "
  "mean the same thing.")
D("inline-in-bullet-list", "inline_code",
  "Supported shapes:\n"
  "- `<tool_call name=\"...\" args='...' />`\n"
  "- `<tool_call>{\"name\": ..., \"arguments\": ...}</tool_call>`\n"
  "- `{\"type\": \"tool_use\", ...}`\n")
D("inline-function-wrapper", "inline_code",
  "The SDK gives you `{\"type\": \"function\", \"function\": {\"name\": \"search\", \"arguments\": \"{}\"}}` "
  "for every entry of tool_calls.")
D("inline-in-table", "inline_code",
  "| provider | call shape |\n|---|---|\n"
  "| OpenAI | `{\"name\": \"f\", \"arguments\": \"{}\"}` |\n"
  "| Anthropic | `{\"type\": \"tool_use\", \"name\": \"f\", \"input\": {}}` |\n")

# ---------------------------------------------------------------------------
# decoys: fenced blocks framed as examples
# ---------------------------------------------------------------------------

D("fence-for-example-tag", "fenced_example",
  "For example, to read a file the model would emit:\n\n"
  "```xml\n"
  """<tool_call name="read_file" args='{"file": "main.go"}' />\n"""
  "```\n\n"
  "and the backend replies with the file's contents.")
D("fence-here-is-how-you-would-call", "fenced_example",
  "Here is how you would call it:\n"
  "```xml\n"
  """<tool_call name="@json" args='{"cmd":"get","args":{"file":"resp.json","path":"data.id"}}' />\n"""
  "```")
D("fence-format-is-openai", "fenced_example",
  "The format is:\n\n"
  "```json\n"
  """{"name": "<tool name>", "arguments": "<JSON-encoded arguments>"}\n"""
  "```")
D("fence-like-this-hermes", "fenced_example",
  "Your reply should contain the call like this:\n"
  "```\n"
  "<tool_call>\n"
  """{"name": "get_weather", "arguments": {"city": "Paris"}}\n"""
  "</tool_call>\n"
  "```\n"
  "Don't add any text inside the tags.")
D("fence-example-anthropic", "fenced_example",
  "An example of a tool_use block:\n\n"
  "```json\n"
  """{"type": "tool_use", "id": "toolu_01A09q90qw90lq917835lq9", "name": "get_weather", "input": {"location": "San Francisco, CA"}}\n"""
  "```\n\n"
  "Your code should read `input` and call the function.")
D("fence-readme-usage", "fenced_example",
  "## Usage\n\n"
  "Ask the model to call the tool. A typical call:\n\n"
  "```text\n"
  """<tool_call name="@diff" args='{"cmd":"files","args":{"a":"old.txt","b":"new.txt"}}' />\n"""
  "```\n\n"
  "The result is a unified diff.")
D("fence-system-prompt-draft", "fenced_example",
  "Here's a system prompt you can use:\n\n"
  "```\n"
  "You can call tools. To call one, write exactly:\n"
  "<tool_call name=\"TOOL_NAME\" args='JSON_ARGS' />\n"
  "For instance: <tool_call name=\"search\" args='{\"term\": \"invoice\"}' />\n"
  "```")
D("fence-eg-array", "fenced_example",
  "Parallel calls are sent as an array, e.g.\n"
  "```json\n"
  "[\n"
  """  {"name": "get_weather", "arguments": {"city": "Paris"}},\n"""
  """  {"name": "get_weather", "arguments": {"city": "Rome"}}\n"""
  "]\n```")
D("fence-should-look-like", "fenced_example",
  "When the model decides to use a tool, its output should look like this:\n\n"
  "```json\n"
  r"""{"type": "function", "function": {"name": "search", "arguments": "{\"term\": \"refund policy\"}"}}"""
  "\n```")
D("fence-sample-output-explained", "fenced_example",
  "Sample output from a fine-tuned model, for reference:\n"
  "```\n"
  "<tool_call>\n"
  """{"name": "run_command", "arguments": {"cmd": "ls"}}\n"""
  "</tool_call>\n"
  "```\n"
  "Note that the JSON sits on its own line.")
D("fence-example-in-numbered-steps", "fenced_example",
  "1. Register the tool.\n"
  "2. The model answers with a call, for example:\n\n"
  "   ```json\n"
  """   {"name": "read_file", "arguments": {"file": "config.yaml"}}\n"""
  "   ```\n\n"
  "3. Run it and send the result back.")
D("fence-wrong-vs-right", "fenced_example",
  "A common mistake is putting the arguments in single quotes. Wrong:\n"
  "```\n"
  """<tool_call name="read_file" args="{'file': 'a.txt'}" />\n"""
  "```\n"
  "Right:\n"
  "```\n"
  """<tool_call name="read_file" args='{"file": "a.txt"}' />\n"""
  "```")
D("fence-blocks-example", "fenced_example",
  "The assistant message content is a list of blocks. For instance:\n"
  "```json\n"
  "[\n"
  """  {"type": "text", "text": "Let me check."},\n"""
  """  {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "Oslo"}}\n"""
  "]\n```")
D("fence-hypothetical", "fenced_example",
  "If I had shell access, the call I would make is:\n"
  "```json\n"
  """{"name": "bash", "arguments": {"command": "du -sh /var/log"}}\n"""
  "```\n"
  "Since I don't, please run `du -sh /var/log` and tell me the size.")
D("fence-template-placeholders", "fenced_example",
  "Template:\n"
  "```json\n"
  """{"type": "tool_use", "id": "{{id}}", "name": "{{tool}}", "input": {{input}}}\n"""
  "```")
D("fence-docstring-example", "fenced_example",
  "The parser's docstring shows the three accepted forms:\n\n"
  "```python\n"
  "def parse(text):\n"
  "    \"\"\"Find calls such as\n\n"
  "        <tool_call name=\"read_file\" args='{\"file\": \"x\"}' />\n"
  "        <tool_call name=\"read_file\">x</tool_call>\n"
  "    \"\"\"\n"
  "```")

# ---------------------------------------------------------------------------
# decoys: code that contains call syntax
# ---------------------------------------------------------------------------

D("code-python-string", "code",
  "Add this test:\n\n"
  "```python\n"
  "def test_parses_single_call():\n"
  "    text = '<tool_call name=\"read_file\" args=\\'{\"file\": \"a\"}\\' />'\n"
  "    assert parse_tool_calls(text)[0].name == \"read_file\"\n"
  "```")
D("code-regex", "code",
  "The old parser used this pattern:\n"
  "```python\n"
  "TAG = re.compile(r'<tool_call\\s+name=\"([^\"]+)\"\\s+args=\\'(.*?)\\'\\s*/>')\n"
  "```\n"
  "which fails on args containing a quote.")
D("code-js-object", "code",
  "```javascript\n"
  "const call = { name: \"search\", arguments: JSON.stringify({ term }) };\n"
  "messages.push({ role: \"assistant\", tool_calls: [{ id, type: \"function\", function: call }] });\n"
  "```")
D("code-diff-of-prompt", "code",
  "Here's the change to the prompt file:\n"
  "```diff\n"
  "-To call a tool write <tool_call name=\"x\" args='{...}' />.\n"
  "+To call a tool write <tool_call>{\"name\": \"x\", \"arguments\": {...}}</tool_call>.\n"
  "```")
D("code-python-dict", "code",
  "```python\n"
  "tool_use = {\"type\": \"tool_use\", \"id\": block_id, \"name\": name, \"input\": args}\n"
  "```",
  note="a dict literal built from variables")
D("code-go-struct", "code",
  "```go\n"
  "type ToolCall struct {\n"
  "    Name      string          `json:\"name\"`\n"
  "    Arguments json.RawMessage `json:\"arguments\"`\n"
  "}\n"
  "```")
D("code-jinja-template", "code",
  "The chat template emits calls with:\n"
  "```jinja\n"
  "{%- for tool_call in message.tool_calls %}\n"
  "<tool_call>\n"
  "{\"name\": \"{{ tool_call.function.name }}\", \"arguments\": {{ tool_call.function.arguments | tojson }}}\n"
  "</tool_call>\n"
  "{%- endfor %}\n"
  "```")
D("code-pytest-parametrize", "code",
  "```python\n"
  "@pytest.mark.parametrize(\"text\", [\n"
  "    '{\"name\": \"read_file\", \"arguments\": {\"file\": \"a\"}}',\n"
  "    '<tool_call>{\"name\": \"read_file\", \"arguments\": {}}</tool_call>',\n"
  "])\n"
  "def test_shapes(text):\n"
  "    assert parse_tool_calls(text)\n"
  "```")
D("code-html-escaped-doc", "escaped_markup",
  "In the HTML docs the example is written as "
  "&lt;tool_call name=&quot;read_file&quot; args='{&quot;file&quot;: &quot;a&quot;}' /&gt; "
  "so that the browser shows it.")
D("code-shell-heredoc", "code",
  "```bash\n"
  "cat > prompt.txt <<'EOF'\n"
  "<tool_call name=\"search\" args='{\"term\": \"EOF\"}' />\n"
  "EOF\n"
  "python run_agent.py --prompt prompt.txt\n"
  "```",
  note="a file being written by a shell snippet")

# ---------------------------------------------------------------------------
# decoys: JSON that is data
# ---------------------------------------------------------------------------

D("data-weather-api-response", "data_payload",
  "The weather service returned:\n"
  "```json\n"
  """{"city": "Paris", "temperature": 18.5, "unit": "celsius", "conditions": "light rain", "updated": "2024-05-01T09:00:00Z"}\n"""
  "```\n"
  "So it's mild with light rain.")
D("data-package-json", "data_payload",
  "Your package.json should be:\n"
  "```json\n"
  "{\n"
  "  \"name\": \"weather-bot\",\n"
  "  \"version\": \"1.2.0\",\n"
  "  \"scripts\": {\"test\": \"vitest\", \"build\": \"tsc -p .\"},\n"
  "  \"dependencies\": {\"openai\": \"^4.0.0\"}\n"
  "}\n"
  "```")
D("data-user-list", "data_payload",
  "```json\n"
  """[{"name": "Alice", "email": "alice@example.com", "role": "admin"}, {"name": "Bob", "email": "bob@example.com", "role": "viewer"}]\n"""
  "```",
  note="a bare fenced array with 'name' keys and no arguments")
D("data-tsconfig", "data_payload",
  "```json\n"
  """{"compilerOptions": {"target": "ES2022", "module": "nodenext", "strict": true}, "include": ["src"]}\n"""
  "```")
D("data-github-api", "data_payload",
  "The API gives back this for the repository:\n"
  "```json\n"
  """{"id": 1296269, "name": "Hello-World", "full_name": "octocat/Hello-World", "private": false, "owner": {"login": "octocat", "id": 1}}\n"""
  "```")
D("data-test-cases-name-arguments", "data_with_name_args",
  "I've added these cases to `cases.json`:\n"
  "```json\n"
  "{\n"
  "  \"suite\": \"calculator\",\n"
  "  \"cases\": [\n"
  "    {\"name\": \"adds\", \"arguments\": {\"a\": 2, \"b\": 3}, \"expected\": 5},\n"
  "    {\"name\": \"divides\", \"arguments\": {\"a\": 6, \"b\": 3}, \"expected\": 2}\n"
  "  ]\n"
  "}\n"
  "```")
D("data-celery-task", "data_with_name_args",
  "This is the failed task as stored in the result backend:\n"
  "```json\n"
  """{"task_id": "b1e2c3", "name": "tasks.send_email", "args": ["bob@example.com"], "kwargs": {"template": "welcome"}, "status": "FAILURE", "traceback": "SMTPAuthenticationError"}\n"""
  "```")
D("data-symbol-index", "data_with_name_args",
  "The symbol index has this entry for it:\n"
  """{"type": "function", "name": "handleClick", "arguments": ["event"], "file": "src/App.tsx", "line": 42}""",
  note="arguments is a list of parameter names; a code index, not a call")
D("data-cli-commands", "data_with_name_args",
  "Here is the command registry after my change:\n"
  "```json\n"
  """{"commands": [{"name": "build", "arguments": {"release": {"type": "flag"}}, "help": "Compile"}, {"name": "serve", "arguments": {"port": {"type": "int", "default": 8080}}, "help": "Run the dev server"}]}\n"""
  "```")
D("data-k8s-manifest", "data_payload",
  "```json\n"
  """{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "web"}, "spec": {"containers": [{"name": "nginx", "image": "nginx:1.25", "args": ["-g", "daemon off;"]}]}}\n"""
  "```",
  note="'name' and 'args' side by side inside a container spec")
D("data-form-fields", "data_with_name_args",
  "The form config:\n"
  "```json\n"
  """[{"name": "email", "input": {"type": "email", "required": true}}, {"name": "age", "input": {"type": "number", "min": 18}}]\n"""
  "```",
  note="'name' and 'input' without 'type': 'tool_use'")
D("data-geojson", "data_payload",
  """{"type": "Feature", "geometry": {"type": "Point", "coordinates": [2.35, 48.85]}, "properties": {"name": "Paris"}}""")
D("data-vscode-launch", "data_with_name_args",
  "Add this to `.vscode/launch.json`:\n"
  "```json\n"
  """{"version": "0.2.0", "configurations": [{"name": "Debug API", "type": "python", "request": "launch", "program": "app.py", "args": ["--port", "5000"]}]}\n"""
  "```")
D("data-mcp-request", "data_with_name_args",
  "The MCP client sends this request to the server:\n"
  "```json\n"
  """{"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "get_weather", "arguments": {"city": "Paris"}}}\n"""
  "```\n"
  "and the server replies with a result of the same id.",
  note="a protocol message shown to the user, the call is one level down inside params")
D("data-eval-record", "data_with_name_args",
  "One row of the eval set:\n"
  "```json\n"
  """{"prompt": "What's the weather in Paris?", "expected": {"name": "get_weather", "arguments": {"city": "Paris"}}, "score": 1.0}\n"""
  "```")

# ---------------------------------------------------------------------------
# decoys: tool definitions and schemas
# ---------------------------------------------------------------------------

D("def-openai-function", "tool_definition",
  "Register the tool like so:\n"
  "```json\n"
  """{"type": "function", "function": {"name": "get_weather", "description": "Current weather for a city", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}\n"""
  "```")
D("def-openai-tools-array", "tool_definition",
  "```json\n"
  "[\n"
  """  {"type": "function", "function": {"name": "read_file", "description": "Read a file", "parameters": {"type": "object", "properties": {"file": {"type": "string"}}, "required": ["file"]}}},\n"""
  """  {"type": "function", "function": {"name": "run_command", "description": "Run a shell command", "parameters": {"type": "object", "properties": {"cmd": {"type": "string"}}, "required": ["cmd"]}}}\n"""
  "]\n```",
  note="a bare fenced list of definitions, no framing: 'parameters' holding a JSON Schema marks them")
D("def-anthropic-tool", "tool_definition",
  "```json\n"
  """{"name": "get_weather", "description": "Get the current weather in a given location", "input_schema": {"type": "object", "properties": {"location": {"type": "string", "description": "The city and state"}}, "required": ["location"]}}\n"""
  "```")
D("def-legacy-functions", "tool_definition",
  "With the older `functions` parameter it was:\n"
  "```json\n"
  """{"name": "search", "description": "Full-text search over the docs", "parameters": {"type": "object", "properties": {"term": {"type": "string"}, "limit": {"type": "integer", "default": 10}}}}\n"""
  "```")
D("def-mcp-tools-list", "tool_definition",
  """{"tools": [{"name": "read_file", "description": "Read a file from the workspace", "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}}]}""")
D("def-openai-strict", "tool_definition",
  "```json\n"
  """{"type": "function", "function": {"name": "diff", "strict": true, "parameters": {"type": "object", "properties": {"cmd": {"type": "string", "enum": ["files", "text", "dirs", "apply"]}, "args": {"type": "object"}}, "required": ["cmd", "args"], "additionalProperties": false}}}\n"""
  "```",
  note="no description, but 'parameters' is a schema and there are no arguments")
D("def-anthropic-list-python-literals", "tool_definition",
  "```python\n"
  "tools = [\n"
  "    {\"name\": \"bash\", \"description\": \"Run a shell command\",\n"
  "     \"input_schema\": {\"type\": \"object\", \"properties\": {\"command\": {\"type\": \"string\"}}, \"required\": [\"command\"]}},\n"
  "]\n"
  "```")
D("schema-tool-call-document", "json_schema",
  "A JSON Schema for the call object:\n"
  "```json\n"
  """{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "properties": {"name": {"type": "string"}, "arguments": {"type": "object"}}, "required": ["name", "arguments"]}\n"""
  "```",
  note="'name' and 'arguments' are property names of a schema")
D("schema-weather-args", "json_schema",
  "```json\n"
  """{"title": "get_weather arguments", "type": "object", "properties": {"city": {"type": "string"}, "unit": {"enum": ["celsius", "fahrenheit"]}}, "required": ["city"]}\n"""
  "```")
D("schema-openapi-operation", "json_schema",
  "The OpenAPI operation for it:\n"
  "```json\n"
  """{"operationId": "getWeather", "parameters": [{"name": "city", "in": "query", "required": true, "schema": {"type": "string"}}], "responses": {"200": {"description": "OK"}}}\n"""
  "```")
D("schema-draft07-tool-use", "json_schema",
  "```json\n"
  """{"$schema": "http://json-schema.org/draft-07/schema#", "title": "ToolUseBlock", "type": "object", "properties": {"type": {"const": "tool_use"}, "id": {"type": "string"}, "name": {"type": "string"}, "input": {"type": "object"}}}\n"""
  "```")

# ---------------------------------------------------------------------------
# decoys: logs, transcripts, results
# ---------------------------------------------------------------------------

D("log-text-lines", "log",
  "From the agent log:\n"
  "```\n"
  "2024-05-01 12:00:01 INFO  tool_call name=read_file args={\"file\": \"main.go\"} took=3ms\n"
  "2024-05-01 12:00:02 ERROR tool_call name=run_command exit=1\n"
  "```")
D("log-json-lines", "log",
  "The structured log shows the call that failed:\n"
  "```\n"
  """{"ts": "2024-05-01T12:00:01Z", "level": "error", "event": "tool_call", "name": "run_command", "arguments": {"cmd": "make"}, "error": "exit status 2"}\n"""
  "```",
  note="a log record with level, ts and error around a name/arguments pair")
D("log-raw-model-output", "log",
  "Here's the excerpt from the failed run, where the model's raw output was logged:\n"
  "```log\n"
  "[agent] step 3 raw output: <tool_call name=\"read_file\" args='{\"file\": \"a.go\"' />\n"
  "[agent] step 3 parse error: unexpected end of JSON\n"
  "```",
  note="a quoted log of an earlier output; debatable, the log framing decides")
D("transcript-openai-messages", "transcript",
  "This is the conversation so far, as sent to the API:\n"
  "```json\n"
  "[\n"
  """  {"role": "user", "content": "Weather in Paris?"},\n"""
  r"""  {"role": "assistant", "content": null, "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\": \"Paris\"}"}}]},"""
  "\n"
  """  {"role": "tool", "tool_call_id": "call_1", "content": "18C, light rain"}\n"""
  "]\n```")
D("transcript-anthropic-message", "transcript",
  "The full response object was:\n"
  "```json\n"
  """{"id": "msg_01XFDUDYJgAACzvnptvVoYEL", "type": "message", "role": "assistant", "model": "claude-sonnet", """
  """"content": [{"type": "text", "text": "Checking."}, {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "Paris"}}], """
  """"stop_reason": "tool_use", "usage": {"input_tokens": 412, "output_tokens": 58}}\n"""
  "```",
  note="a whole API response quoted as data; the tool_use inside is a past call")
D("transcript-chat-completion", "transcript",
  "```json\n"
  """{"id": "chatcmpl-9x", "object": "chat.completion", "choices": [{"index": 0, "message": {"role": "assistant", "tool_calls": [{"id": "call_2", "type": "function", "function": {"name": "search", "arguments": "{}"}}]}, "finish_reason": "tool_calls"}]}\n"""
  "```")
D("result-anthropic-tool-result", "tool_result",
  "```json\n"
  """[{"type": "tool_result", "tool_use_id": "toolu_1", "content": "18C, light rain"}]\n"""
  "```")
D("result-openai-tool-message", "tool_result",
  """{"role": "tool", "tool_call_id": "call_8f2a1c", "name": "get_weather", "content": "{\\"temp\\": 18}"}""",
  note="a tool-result message carries a name but no arguments")
D("result-tool-response-tag", "tool_result",
  "<tool_response>\n"
  """{"name": "get_weather", "content": {"temperature": 18, "unit": "celsius"}}\n"""
  "</tool_response>\n"
  "It's 18 degrees in Paris.")
D("thinking-only", "thinking",
  "<think>I could call search with the term \"refund\", but the policy is already in the context: "
  "30 days, receipt required.</think>\n"
  "Refunds are accepted within 30 days with a receipt.")
D("thinking-draft-json", "thinking",
  "<think>Maybe {\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}? No, the user gave "
  "the temperature already, they only want it converted.</think>\n"
  "18 °C is 64.4 °F.",
  note="a call drafted and rejected inside the thinking text")
D("summary-after-results", "prose_mention",
  "I ran three tool calls (read_file, search, run_command). The read showed the config; the search "
  "found two uses of `MAX_RETRIES`; the tests now pass.")
D("json-in-prose-hypothetical", "prose_mention",
  "Calling read_file with {\"file\": \"/etc/shadow\"} would expose password hashes, so I won't do that.",
  note="arguments in prose, refused")
D("data-tool-stats", "data_payload",
  "Usage by tool this week:\n"
  "```json\n"
  """{"read_file": 1204, "run_command": 377, "search": 912, "@json": 85, "@diff": 21}\n"""
  "```")
D("data-yaml-config", "data_payload",
  "```yaml\n"
  "tools:\n"
  "  - name: read_file\n"
  "    arguments:\n"
  "      file: main.go\n"
  "```",
  note="YAML with name/arguments keys; not a call format")
D("data-name-arguments-nested-in-dataset", "data_with_name_args",
  "Training example in the dataset format:\n"
  "```json\n"
  """{"messages": [{"role": "user", "content": "list files"}, {"role": "assistant", "content": "", "function_call": {"name": "run_command", "arguments": "{\\"cmd\\": \\"ls\\"}"}}]}\n"""
  "```")
D("data-empty-json", "data_payload",
  "The endpoint returned an empty object: ```{}```, which means the cache is cold.")
D("mention-spec-grammar", "prose_mention",
  "Grammar: call := '<tool_call' attrs ('/>' | '>' body '</tool_call>') ; attrs := (name '=' value)*")


def write(path: str, rows: list[dict]) -> str:
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)


def validate() -> list[str]:
    problems = []
    ids = [r["id"] for r in CALLS + DECOYS]
    dup = {i for i in ids if ids.count(i) > 1}
    if dup:
        problems.append(f"duplicate ids: {sorted(dup)}")
    for r in CALLS:
        if not isinstance(r["calls"], list):
            problems.append(f"{r['id']}: calls must be a list")
        for c in r["calls"]:
            if not isinstance(c.get("name"), str) or not c["name"]:
                problems.append(f"{r['id']}: a call without a name")
            if c.get("ok", True) and not isinstance(c.get("args"), dict):
                problems.append(f"{r['id']}: args must be an object")
            if c.get("ok", True) is False and "args" in c:
                problems.append(f"{r['id']}: a failed call has no args")
        if not r["calls"] and "note" not in r:
            problems.append(f"{r['id']}: no calls and no note saying why")
    for r in DECOYS:
        if set(r) - {"id", "kind", "text", "note"}:
            problems.append(f"{r['id']}: unexpected fields")
    return problems


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="compare instead of writing")
    opts = ap.parse_args(argv)
    problems = validate()
    if problems:
        print("\n".join(problems), file=sys.stderr)
        return 1
    os.makedirs(OUT, exist_ok=True)
    stale = []
    for name, rows in (("calls.jsonl", CALLS), ("decoys.jsonl", DECOYS)):
        path = os.path.normpath(os.path.join(OUT, name))
        text = write(path, rows)
        if opts.check:
            try:
                with open(path, encoding="utf-8") as f:
                    if f.read() != text:
                        stale.append(path)
            except FileNotFoundError:
                stale.append(path)
        else:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            print(f"{path}: {len(rows)} rows")
    if stale:
        print("out of date (run without --check): " + ", ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""One declaration per verb: the command line, the provider schemas and run_tool's checks agree with it.

Every verb's arguments are declared once (``toolmend.tools._verbspec``); the
options and help of ``toolmend TOOL VERB``, the JSON Schemas given to
providers and the checks ``run_tool`` makes are derived from it. These tests
hold each of them against the declaration, and against each other: names,
types, defaults, bounds, the required set; a bad value gets the same refusal
from ``run_tool`` and from the command line; and an argument added in one
place only (read by a verb but not declared, or declared but never read) fails.
"""

from __future__ import annotations

import pathlib
import re

import pytest
from clirun import cli

import toolmend
from toolmend import _cliargs, cli as cli_module
from toolmend.tools import TOOL_SCHEMAS, VERB_ARGS, ToolArgs, is_mutation, run_tool, run_verb, schemas
from toolmend.tools._runner import _verbs
from toolmend.tools._verbspec import TOOL_SPECS, Arg, VerbSpec, check, verb_spec

SPECS = [verb for spec in TOOL_SPECS.values() for verb in spec.verbs]
IDS = [f"{v.tool}-{v.name}" for v in SPECS]
TOOLS_DIR = pathlib.Path(toolmend.__file__).parent / "tools"
#: the command line's options of every verb (not tool arguments)
COMMON = {o.name for o in _cliargs.COMMON}
JSON_TYPES = {"string": "string", "integer": "integer", "boolean": "boolean"}
CLI_KINDS = {"integer": {"int"}, "boolean": {"flag", "str"}, "strings": {"list"},
             "string": {"str", "path", "text", "dir", "patch"}}


def required_placeholders(verb: VerbSpec, given: dict | None = None) -> dict[str, str]:
    """Values for the required arguments that pass the checks (they run before any file is
    read), and one of the ``one_of`` arguments unless ``given`` holds one."""
    out = {a.name: "x" for a in verb.args if a.required}
    if verb.one_of and not set(verb.one_of) & set(given or ()):
        out[verb.one_of[-1]] = "x"
    return out


def refusal(verb: VerbSpec, args: dict) -> str:
    r = run_tool(verb.tool, {"cmd": verb.name, "args": args}, workspace=".")
    assert not r.ok, (verb.name, args, r.output)
    return r.output.removeprefix("error: ")


# ---------------------------------------------------------------------------
# the declaration itself


def test_every_declared_verb_is_implemented_and_named_once():
    for tool, spec in TOOL_SPECS.items():
        names = [v.name for v in spec.verbs]
        assert len(names) == len(set(names))
        implemented = _verbs(tool)
        assert list(implemented) == names
        assert all(callable(fn) for fn in implemented.values())
    for verb in SPECS:
        assert verb.help and verb.summary and verb.run
        assert len(verb.names) == len(set(verb.names)), verb.name
        assert set(verb.positional) <= set(verb.names)
        for arg in verb.args:
            assert arg.type in CLI_KINDS, arg
            assert arg.help
            if arg.minimum is not None and arg.maximum is not None:
                assert arg.minimum <= arg.maximum
            if arg.type == "integer" and arg.default is not None:
                assert arg.minimum is None or arg.default >= arg.minimum
                assert arg.maximum is None or arg.default <= arg.maximum
            if arg.choices:
                assert arg.default in arg.choices
            if arg.required:
                assert arg.default is None
        if verb.writes_unless:
            assert verb.arg(verb.writes_unless).type == "boolean"
            assert verb.arg(verb.writes_unless).default is True  # read-only unless asked


def test_only_apply_writes_and_the_batch_runner_knows_it_from_the_declaration():
    writers = [(v.tool, v.name) for v in SPECS if not v.read_only]
    assert writers == [("diff", "apply")]
    assert is_mutation("@diff", {"cmd": "apply", "args": {"patch": "p", "dry_run": False}})
    assert is_mutation("diff", {"cmd": "apply", "args": {"patch": "p", "dry_run": "no"}})
    assert is_mutation("diff", {"cmd": "apply", "args": {"patch": "p", "dry_run": "perhaps"}})  # safe side
    assert not is_mutation("diff", {"cmd": "apply", "args": {"patch": "p"}})
    assert not is_mutation("diff", {"cmd": "apply", "args": {"patch": "p", "dry_run": "true"}})
    assert not is_mutation("diff", {"cmd": "files", "args": {"a": "x", "b": "y", "dry_run": False}})
    assert not is_mutation("json", {"cmd": "get", "args": {"dry_run": False}})
    assert is_mutation("diff", {"cmd": 3})


# ---------------------------------------------------------------------------
# the command line


@pytest.mark.parametrize("verb", SPECS, ids=IDS)
def test_the_command_line_options_are_the_declared_arguments(verb):
    options = _cliargs.verbs()[(verb.tool, verb.name)]
    extra = {c.name for c in verb.cli_extra}
    set_args = {o.tool_arg for o in options if o.name not in extra}
    assert set_args == set(verb.names), "an argument without an option, or an option without an argument"
    names = [o.name for o in options] + sorted(COMMON)
    assert len(names) == len(set(names)), "two options of one name"
    for opt in options:
        if opt.name in extra:
            continue
        arg = verb.arg(opt.tool_arg)
        assert opt.kind in CLI_KINDS[arg.type], (opt.name, opt.kind, arg.type)
        if arg.type == "boolean" and opt.kind == "str":
            assert opt.metavar == "BOOL"
        if opt.invert:
            assert arg.type == "boolean" and opt.kind == "flag" and arg.default is True
        if arg.type == "integer":
            if arg.default is not None:
                assert f"default {arg.default}" in opt.help, opt.help
            if arg.maximum is not None:
                assert f"at most {arg.maximum:,}" in opt.help, opt.help
        for choice in arg.choices:
            assert choice in opt.help, (opt.name, choice)
    shown = _cliargs.verb_help(verb.tool, verb.name)
    assert verb.summary in shown
    for opt in options:
        assert f"--{opt.name}" in shown


def _cli_value(arg: Arg, kind: str) -> str:
    if arg.choices:
        return arg.choices[-1]
    return {"int": "7", "list": "a,b", "str": "true" if arg.type == "boolean" else "v"}.get(kind, "v")


@pytest.mark.parametrize("verb", SPECS, ids=IDS)
def test_each_option_reaches_run_verb_as_its_declared_argument(verb, tmp_path):
    patch = tmp_path / "p.diff"
    patch.write_bytes(b"--- a\n+++ b\n")
    extra = {c.name for c in verb.cli_extra}
    for opt in _cliargs.verbs()[(verb.tool, verb.name)]:
        if opt.name in extra:
            continue
        arg = verb.arg(opt.tool_arg)
        words = [f"--{opt.name}"] if opt.kind == "flag" else [f"--{opt.name}",
                                                               str(patch) if opt.kind == "patch"
                                                               else _cli_value(arg, opt.kind)]
        parsed = _cliargs.parse(words, _cliargs.verbs()[(verb.tool, verb.name)] + _cliargs.COMMON)
        got = cli_module._tool_args(verb.tool, verb.name, parsed, cli_module._Stdin(), None)
        assert set(got) == {arg.name}, (opt.name, got)
        value = got[arg.name]
        if opt.kind == "flag":
            assert value is (not opt.invert)
        elif opt.kind == "patch":
            assert value == patch.read_bytes()
        # the value passes the same checks as an agent's
        checked = check(verb, {**required_placeholders(verb, got), **got}, [], capped=False)
        assert arg.name in checked


def test_two_spellings_of_one_argument_are_refused():
    r = cli("diff", "apply", "--patch-text", "x", "--patch", "-")
    assert r.rc == 2 and "give --patch or --patch-text, not both" in r.err
    r = cli("diff", "apply", "--patch-text", "x", "--write", "--dry-run", "true")
    assert r.rc == 2 and "give --write or --dry-run, not both" in r.err
    # standard input as the document, and a file: one would have been dropped
    r = cli("json", "get", "--file", "a.json", "--text", "-", stdin=b"{}")
    assert r.rc == 2 and "give --file or --text, not both" in r.err


# ---------------------------------------------------------------------------
# the provider schemas


@pytest.mark.parametrize("verb", SPECS, ids=IDS)
def test_the_schemas_are_the_declared_arguments(verb):
    what, props, required = VERB_ARGS[verb.tool][verb.name]
    assert what == verb.help
    assert list(props) == list(verb.names)
    assert required == verb.required
    tool_schema = TOOL_SCHEMAS[verb.tool]
    assert verb.name in tool_schema["properties"]["cmd"]["enum"]
    described = tool_schema["properties"]["args"]["properties"]
    for arg in verb.args:
        schema, doc = props[arg.name]
        assert arg.help in doc
        assert described[arg.name]["description"]
        for got in (schema, {k: v for k, v in described[arg.name].items() if k != "description"}):
            if arg.type == "strings":
                assert got == {"anyOf": [{"type": "array", "items": {"type": "string"}}, {"type": "string"}]}
                continue
            assert got["type"] == JSON_TYPES[arg.type]
            assert got.get("minimum") == arg.minimum and got.get("maximum") == arg.maximum
            assert got.get("enum", []) == list(arg.choices)
            if arg.type != "string" or arg.choices:
                assert got.get("default") == arg.default
            else:
                assert "default" not in got
        if arg.maximum is not None:
            assert f"at most {arg.maximum:,}" in doc


def test_each_property_is_the_same_for_every_verb_that_takes_it():
    for tool, spec in TOOL_SPECS.items():
        described = TOOL_SCHEMAS[tool]["properties"]["args"]["properties"]
        assert set(described) == {a.name for v in spec.verbs for a in v.args}
        assert TOOL_SCHEMAS[tool]["properties"]["cmd"]["enum"] == [v.name for v in spec.verbs]
        for name in described:
            shapes = {repr({k: val for k, val in VERB_ARGS[tool][v.name][1][name][0].items()})
                      for v in spec.verbs if name in v.names}
            assert len(shapes) == 1, (tool, name, shapes)  # one property cannot say two types


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_the_provider_shapes_carry_the_same_schemas(provider):
    for d in schemas(provider):
        name = d["function"]["name"] if provider == "openai" else d["name"]
        params = d["function"]["parameters"] if provider == "openai" else d["input_schema"]
        doc = d["function"]["description"] if provider == "openai" else d["description"]
        assert params == TOOL_SCHEMAS[name] and doc == TOOL_SPECS[name].help


# ---------------------------------------------------------------------------
# run_tool's checks


@pytest.mark.parametrize("verb", SPECS, ids=IDS)
def test_run_tool_refuses_what_the_declaration_does_not_allow(verb):
    base = required_placeholders(verb)
    taken = ", ".join(sorted(verb.names))
    assert refusal(verb, {**base, "zz_unknown": 1}) == (
        f"@{verb.tool} {verb.name}: unknown argument(s) 'zz_unknown'; it takes {taken}")
    at = f"@{verb.tool} {verb.name}: argument"
    for arg in verb.args:
        if arg.required:
            without = {k: v for k, v in base.items() if k != arg.name}
            assert refusal(verb, without) == f"{at} {arg.name!r} is required"
        if arg.type == "integer":
            assert refusal(verb, {**base, arg.name: "abc"}) == (
                f"{at} {arg.name!r} must be an integer, not 'abc'")
            assert refusal(verb, {**base, arg.name: True}).endswith("must be an integer, not a boolean")
            assert refusal(verb, {**base, arg.name: 2.5}).endswith("must be an integer, not float")
        elif arg.type == "boolean":
            assert refusal(verb, {**base, arg.name: "maybe"}) == (
                f"{at} {arg.name!r} must be true or false, not 'maybe'")
            assert refusal(verb, {**base, arg.name: 2}).endswith("must be true or false, not 2")
        elif arg.type == "strings":
            assert refusal(verb, {**base, arg.name: 5}) == f"{at} {arg.name!r} must be a list of strings"
            assert refusal(verb, {**base, arg.name: ["a", 1]}).endswith("must be a list of strings")
        else:
            bad = True if dict in arg.also or list in arg.also else {"a": 1}
            assert refusal(verb, {**base, arg.name: bad}) == (
                f"{at} {arg.name!r} must be a string, not {type(bad).__name__}")
            if arg.nonempty:
                assert refusal(verb, {**base, arg.name: "  "}) == f"{at} {arg.name!r} must not be empty"
            if arg.choices:
                assert refusal(verb, {**base, arg.name: "xml"}) == (
                    f"{at} {arg.name!r} must be one of {', '.join(arg.choices)}, not 'xml'")


@pytest.mark.parametrize("verb", SPECS, ids=IDS)
def test_one_of_the_document_arguments_is_needed(verb):
    if not verb.one_of:
        assert verb.tool == "diff"
        return
    assert verb.tool == "json" and verb.one_of == ("file", "text")
    assert refusal(verb, {}) == (f"@json {verb.name} needs 'file' (a path inside the workspace) or "
                                 "'text' (the JSON/YAML document itself)")
    assert refusal(verb, {"file": "a.json", "text": "{}"}) == (
        f"@json {verb.name}: give either 'file' or 'text', not both")
    r = cli("json", verb.name)  # the command line asks alike
    assert r.rc == 1 and r.err == (f"toolmend: @json {verb.name} needs 'file' (a path inside the workspace) "
                                   "or 'text' (the JSON/YAML document itself)\n")


@pytest.mark.parametrize("verb", SPECS, ids=IDS)
def test_defaults_and_bounds_are_the_declared_ones(verb):
    base = required_placeholders(verb)
    args = ToolArgs(verb.tool, verb.name, base, limit=24_000)
    args.check()
    for arg in verb.args:
        if arg.name in base or (arg.type == "integer" and arg.default is None):
            continue
        read = {"string": args.text, "integer": args.integer, "boolean": args.flag,
                "strings": args.strings}[arg.type]
        assert read(arg.name) == arg.default, arg.name
    for arg in verb.args:
        if arg.type != "integer":
            continue
        for capped, limit in ((True, 24_000), (False, None)):
            for given, expected, word in (
                    (-5, arg.minimum, "below the minimum"),
                    (10 ** 9, arg.maximum if capped or not arg.agents_max else 10 ** 9, "above the maximum")):
                if expected is None:
                    continue
                args = ToolArgs(verb.tool, verb.name, {**base, arg.name: str(given)}, limit=limit)
                args.check()
                assert args.integer(arg.name) == expected, (arg.name, capped, given)
                said = [n for n in args.notes if word in n]
                assert bool(said) == (expected != given), args.notes
                if said:
                    assert said[0] == (f"note: {arg.name} {given:,} is {word} of {expected:,}: "
                                       f"{expected:,} is used")


def test_a_verb_reading_an_argument_it_does_not_declare_is_an_internal_error():
    args = ToolArgs("diff", "text", {"a": "x", "b": "y"})
    with pytest.raises(toolmend.ToolError, match="declares no argument 'colour'"):
        args.text("colour")
    with pytest.raises(toolmend.ToolError, match="declared integer, read as string"):
        args.text("context")
    with pytest.raises(toolmend.ToolError, match="has no verb 'patch'; the verbs are files, text, dirs"):
        verb_spec("diff", "patch")


# ---------------------------------------------------------------------------
# the same refusal on both sides


def _cli_words(verb: VerbSpec, extra: list[str]) -> list[str]:
    words = [verb.tool, verb.name]
    for name in required_placeholders(verb):
        opt = next(o for o in _cliargs.verbs()[(verb.tool, verb.name)]
                   if o.tool_arg == name and o.kind not in ("patch",))
        words += [f"--{opt.name}", "x"]
    return words + extra


@pytest.mark.parametrize("verb", SPECS, ids=IDS)
def test_a_bad_value_is_refused_alike_by_run_tool_and_the_command_line(verb, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    cases = 0
    for opt in _cliargs.verbs()[(verb.tool, verb.name)]:
        if opt.kind == "flag" or opt.tool_arg not in verb.names:
            continue
        arg = verb.arg(opt.tool_arg)
        bad = {"integer": "abc", "boolean": "maybe"}.get(arg.type, "xml" if arg.choices else None)
        if bad is None:
            continue
        agent = refusal(verb, {**required_placeholders(verb), arg.name: bad})
        direct = run_verb(verb.tool, verb.name, {**required_placeholders(verb), arg.name: bad}, ".")
        r = cli(*_cli_words(verb, [f"--{opt.name}", bad]))
        assert r.rc in (1, 2) and r.out == b""
        assert r.err == f"toolmend: {agent}\n", (r.err, agent)
        assert direct.output == f"error: {agent}"
        cases += 1
    valued = {o.tool_arg for o in _cliargs.verbs()[(verb.tool, verb.name)] if o.kind != "flag"}
    assert cases == sum(1 for a in verb.args if a.name in valued and (a.type in ("integer", "boolean")
                                                                     or a.choices))
    for opt in _cliargs.verbs()[(verb.tool, verb.name)]:
        if opt.kind == "flag":  # a flag takes no value: a bad one is a usage error that names it
            r = cli(*_cli_words(verb, [f"--{opt.name}=maybe"]))
            assert r.rc == 2 and f"--{opt.name} takes no value (or true/false), not 'maybe'" in r.err


# ---------------------------------------------------------------------------
# an argument added in one place only

_READS = re.compile(r"""args\.(?:text|integer|flag|strings|has)\(\s*["'](\w+)["']|"""
                    r"""args\.raw(?:\.get\(|\[)\s*["'](\w+)["']|["'](\w+)["'] in args\.raw|"""
                    r"""\(args, ws, ["'](\w+)["']""")


def test_every_argument_a_tool_module_reads_is_declared():
    for tool, module in (("json", ["_json_tool.py"]), ("diff", ["_diff_tool.py", "_diff_apply.py",
                                                                   "_diff_io.py"])):
        declared = {a.name for v in TOOL_SPECS[tool].verbs for a in v.args}
        found = set()
        for name in module:
            source = (TOOLS_DIR / name).read_text(encoding="utf-8")
            read = {next(g for g in m.groups() if g) for m in _READS.finditer(source)}
            assert read <= declared, (name, read - declared)
            found |= read
            # no second home for a default or a bound: the accessors take none
            assert not re.search(r"args\.(?:text|integer|flag|strings)\([^)]*,", source), name
            assert "check_known" not in source
        assert found == declared, (tool, declared - found)


def _workspace(tmp: pathlib.Path) -> dict[tuple[str, str], list[dict]]:
    (tmp / "d.json").write_text('{"items": [{"id": 2, "n": "b"}, {"id": 1, "n": "a"}]}', encoding="utf-8")
    (tmp / "old.txt").write_text("a\nb\n", encoding="utf-8")
    (tmp / "new.txt").write_text("a\nc\n", encoding="utf-8")
    for side, text in (("v1", "a\n"), ("v2", "b\n")):
        (tmp / side).mkdir()
        (tmp / side / "f.py").write_text(text, encoding="utf-8")
    patch = "--- a/old.txt\n+++ b/old.txt\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n"
    doc = {"format": "json"}
    return {
        ("json", "get"): [{"file": "d.json", **doc, "path": "items[0]"},
                          {"text": "[1]", **doc, "path": "[0]"}],
        ("json", "keys"): [{"file": "d.json", **doc, "path": "items"}, {"text": "{}", **doc, "path": ""}],
        ("json", "query"): [{"file": "d.json", **doc, "path": "items", "where": "id>0", "select": "n",
                             "limit": 5, "offset": 0, "sort": "id", "desc": True},
                            {"text": "[]", **doc}],
        ("json", "schema"): [{"file": "d.json", **doc, "path": "items", "depth": 2}, {"text": "[]"}],
        ("json", "validate"): [{"file": "d.json", **doc}, {"text": "[]", **doc}],
        ("json", "pretty"): [{"file": "d.json", **doc, "path": "items", "compact": True}, {"text": "[]"}],
        ("diff", "files"): [{"a": "old.txt", "b": "new.txt", "context": 1, "budget": 100}],
        ("diff", "text"): [{"a": "x\n", "b": "y\n", "context": 1, "budget": 100}],
        ("diff", "dirs"): [{"a": "v1", "b": "v2", "glob": "*.py", "unified": True, "context": 1,
                            "budget": 100}],
        ("diff", "apply"): [{"file": "old.txt", "patch": patch, "dry_run": True, "backup": True,
                             "reverse": False, "dir": ".", "strip": 1}],
    }


def test_every_declared_argument_is_read_by_its_verb(tmp_path, monkeypatch):
    """A declared argument the verb never reads would be accepted and silently ignored."""
    calls = _workspace(tmp_path)
    assert set(calls) == {(v.tool, v.name) for v in SPECS}, "a verb without a call here"
    read: set[str] = set()
    original_get, original_has = ToolArgs._get, ToolArgs.has

    def get(self, name, kind):
        read.add(name)
        return original_get(self, name, kind)

    def has(self, name):
        read.add(name)
        return original_has(self, name)

    monkeypatch.setattr(ToolArgs, "_get", get)
    monkeypatch.setattr(ToolArgs, "has", has)
    for verb in SPECS:
        read.clear()
        for args in calls[(verb.tool, verb.name)]:
            r = run_tool(verb.tool, {"cmd": verb.name, "args": args}, workspace=str(tmp_path))
            assert r.ok, (verb.name, args, r.output)
        assert read == set(verb.names), (verb.tool, verb.name, set(verb.names) ^ read)


def test_the_help_that_lists_the_verbs_lists_the_declared_ones():
    readme = (pathlib.Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")
    for tool, spec in TOOL_SPECS.items():
        names = [v.name for v in spec.verbs]
        listed = re.search(rf"^  {tool} VERB \[options\] +(.+)$", cli_module.__doc__ or "", re.M)
        assert listed and listed.group(1).split(", ") == names
        row = re.search(rf"^\| `toolmend {tool} VERB [^|]*\| (.+) \|$", readme, re.M)
        assert row and re.findall(r"`(\w+)`", row.group(1)) == names
        r = cli(tool, "--help")
        assert r.rc == 0 and f"verbs: {', '.join(sorted(names))} " in r.text

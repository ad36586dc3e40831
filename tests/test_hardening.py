"""Hostile input: nothing crashes, hangs, allocates without bound, escapes
the workspace or loses a file. Times here are generous bounds against hangs
(seconds where a hang would be minutes), not measurements."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
import threading
import time

import pytest

import toolmend
from toolmend import errors

DEEP = 1_000_000
# The pure twins cannot crash on depth (Python raises RecursionError, which is
# caught); they walk deep documents slower, so they get a tenth of the depth.
DEEP_WALK = DEEP if toolmend.compiled else DEEP // 10
# The long pathological texts below are built a quarter as long for the pure twins: the
# readers around the kernels are the same code in both builds, and the compiled suite reads
# the whole ~2 MB; what the twins add is their own passes, each read ~500 KB here (a
# quadratic pass in Python still takes minutes), and the pure twins' reads are counted
# where their speed alone cannot tell (test_the_pure_twin_reads_...).
SCALE = 1 if toolmend.compiled else 4


def _n(count: int) -> int:
    """``count`` repetitions of a pathological text's unit, for the build under test."""
    return count // SCALE
POSIX = os.name == "posix"


#: a body that waits rather than computes (a child process, a lock) gets this many times its
#: bound on the wall clock
WALL_FACTOR = 10


def _bounded(seconds: float):
    """Run the body and check it took at most ``seconds`` of this thread's
    CPU time (what a runaway loop burns, whatever else the machine runs) and
    at most WALL_FACTOR times that on the wall clock (a body that hangs
    waiting)."""
    class _Timer:
        def __enter__(self):
            # what the tests before left alive is set aside: the collector's passes over it
            # (run as the body allocates) are the suite's cost, not the body's
            gc.freeze()
            self.cpu, self.wall = time.thread_time(), time.monotonic()
            return self

        def __exit__(self, *exc):
            cpu, wall = time.thread_time() - self.cpu, time.monotonic() - self.wall
            gc.unfreeze()
            assert exc[0] is not None or (cpu < seconds and wall < WALL_FACTOR * seconds), \
                f"took {cpu:.1f} s of CPU time, {wall:.1f} s in all (bound {seconds:g} s)"
    return _Timer()


def json_tool(verb, **args):
    return toolmend.run_tool("@json", {"cmd": verb, "args": args})


# ---------------------------------------------------------------------------
# a million levels of nesting, in every parser

@pytest.mark.parametrize("text", ["[" * DEEP, "{" * DEEP, '{"a":' * DEEP, "[" * DEEP + "]" * DEEP,
                                  "{a: " * DEEP, "[{'a': " * (DEEP // 2)])
def test_recovery_refuses_a_million_levels_at_once(text):
    # refused at the bracket past MAX_DEPTH: nothing deeper is built or walked
    with _bounded(5):
        r = toolmend.normalize_tool_args(text)
        assert not r.ok and "offset" in r.error
        assert text == "{" * DEEP or f"nesting deeper than {toolmend.recovery.MAX_DEPTH} levels" in r.error
        with pytest.raises(errors.RecoveryError):
            toolmend.loads(text)
        assert not toolmend.normalize_tool_args(text, "read_file").ok
        stream = toolmend.StreamingArgs()
        stream.feed(text)
        assert not stream.finish().ok


@pytest.mark.parametrize("verb", ["get", "keys", "schema", "validate", "pretty", "query"])
def test_json_verbs_survive_a_million_levels(verb):
    extra = {"where": "a=1"} if verb == "query" else {}
    n = DEEP_WALK
    # a hang detector: the pure twin's schema of 100,000 nested arrays takes ~1.2 s on this
    # 2-core machine (it read each level's rest again, ~20 s, until it used the index too)
    bound = 20
    for text in ("[" * n + "]" * n, '{"a":' * n + "1" + "}" * n, "[" * n):
        with _bounded(bound):
            r = json_tool(verb, text=text, **extra)
        assert isinstance(r.ok, bool) and "internal error" not in r.output, r.output[:200]


def test_yaml_and_tool_calls_survive_a_million_levels():
    with _bounded(20):
        r = json_tool("get", text="[" * DEEP + "]" * DEEP, format="yaml")
        assert not r.ok and "nesting" in r.output
        r = json_tool("get", text="a:\n" + "".join(" " * i + "- \n" for i in range(1, 3000)),
                      format="yaml")
        assert isinstance(r.ok, bool)
        calls = toolmend.parse_tool_calls("<tool_call>" + "[" * DEEP + "</tool_call>")
        assert len(calls) <= 1


@pytest.mark.parametrize("verb", ["get", "keys", "schema", "validate", "pretty", "query", "loads"])
def test_the_json_library_survives_a_million_levels(verb):
    # the library functions themselves, not only the tool: each answers or
    # refuses with a JSONError, in bounded time and memory
    import toolmend.json as J

    call = {"get": lambda t: J.get(t, "$"), "keys": J.keys, "schema": J.schema,
            "validate": J.validate, "pretty": J.pretty, "query": lambda t: J.query(t, where="a=1"),
            "loads": J.loads}[verb]
    n = DEEP_WALK
    for text in ("[" * n + "]" * n, '{"a":' * n + "1" + "}" * n, "[" * n):
        with _bounded(20 if toolmend.compiled else 40):
            try:
                call(text)
            except errors.JSONError:
                pass


def test_the_command_line_survives_a_million_levels():
    from clirun import cli

    n = DEEP_WALK
    deep, cut = "[" * n + "]" * n, '{"a":' * n
    out = cli("repair", stdin=cut)
    assert out.rc == 1 and "nesting deeper than 1024 levels" in out.err
    for verb in ("get", "keys", "schema", "validate", "query"):
        extra = ("--where", "a=1") if verb == "query" else ()
        for text in (deep, cut):
            with _bounded(20 if toolmend.compiled else 40):
                out = cli("json", verb, "--file", "-", *extra, stdin=text)
            assert out.rc in (0, 1) and "Traceback" not in out.err, (verb, out.err[:200])
    # pretty of a million levels would be a terabyte: it stops at 64 MB, says so, exits 3
    out = cli("json", "pretty", "--file", "-", stdin=deep)
    first = out.out[:200].decode().splitlines()[0]
    assert out.rc == 3 and first.startswith("[output cut at 67,108,864 bytes of more than 64 MB")


def test_pretty_of_deep_nesting_is_refused_not_built():
    # two spaces a level: a million levels would indent to a terabyte
    import toolmend.json as J

    n = DEEP_WALK
    with pytest.raises(errors.JSONError, match="larger than"):
        J.pretty("[" * n + "]" * n)
    assert J.pretty("[" * n + "]" * n, compact=True) == "[" * n + "]" * n
    assert J.pretty("[[1]]", max_bytes=None) == "[\n  [\n    1\n  ]\n]"
    with pytest.raises(errors.JSONError):
        J.pretty("[[1]]", max_bytes=5)
    with pytest.raises(TypeError):
        J.pretty("[1]", max_bytes=-1)


def _nested(levels, leaf=1):
    root = cur = []
    for _ in range(levels - 1):
        nxt = []
        cur.append(nxt)
        cur = nxt
    cur.append(leaf)
    return root


def test_values_built_by_the_caller_deep_big_or_circular():
    # dicts and lists handed in place of text: any depth is written without
    # recursion, big integers exactly, and a cycle is refused, never looped on
    import toolmend.json as J

    levels = DEEP_WALK // 10
    deep = _nested(levels, 2 ** 70)
    with _bounded(10):
        text = J.dumps(deep)
        assert text == "[" * levels + str(2 ** 70) + "]" * levels
        doc = J.from_value(deep)
        assert J.schema(doc)
    assert J.dumps(_nested(300), indent=True).count("\n") == 600
    cycle: dict = {}
    cycle["a"] = [cycle]
    with _bounded(2):
        with pytest.raises(TypeError, match="circular"):
            J.dumps(cycle)
        with pytest.raises(errors.JSONError):
            J.from_value(cycle)
        r = toolmend.run_tool("@json", {"cmd": "keys", "args": {"value": cycle}})
        assert not r.ok
    for bad in (cycle, {"a": _nested(5000)}, {"a": {1, 2}}, {"a": object()}):
        with _bounded(2):
            r = toolmend.normalize_tool_args(bad)
            assert not r.ok and r.error.startswith("the arguments dict")
            with pytest.raises(errors.RecoveryError):
                toolmend.loads(bad)


def test_provider_calls_whose_arguments_json_cannot_hold_do_not_run():
    cycle: dict = {}
    cycle["x"] = cycle
    for bad in (cycle, {"a": _nested(5000)}, {"a": {1, 2}}):
        message = {"content": [{"type": "tool_use", "name": "@json", "input": bad, "id": "t"}]}
        with _bounded(2):
            (call,) = toolmend.from_anthropic(message)
        assert not call.ok and call.args is None
        assert "cannot be written" in call.error or "nested too deeply" in call.error
        assert len(call.raw_args) < 200
        assert not toolmend.run_tools([call])[0].ok


# ---------------------------------------------------------------------------
# size: large inputs, files refused before they are read

def test_fifty_megabytes_to_recovery():
    size = (50 if toolmend.compiled else 10) * 1024 * 1024
    text = "{" + ", ".join(f"k{i}: 'v{i}'" for i in range(4_000_000))[:size] + "}"
    with _bounded(60):
        r = toolmend.normalize_tool_args(text)
    assert isinstance(r.ok, bool)


def test_a_100_megabyte_file_is_refused_without_being_read(tmp_path):
    big = tmp_path / "big.json"
    with open(big, "wb") as fh:
        fh.truncate(100 * 1024 * 1024)  # sparse: reading it would take the time
    for tool, verb, args in (("@json", "get", {"file": "big.json"}),
                             ("@diff", "files", {"a": "big.json", "b": "big.json"}),
                             ("@diff", "apply", {"file": "big.json", "patch": "@@ -1 +1 @@\n-a\n+b\n"})):
        with _bounded(1.0):
            r = toolmend.run_tool(tool, {"cmd": verb, "args": args}, workspace=str(tmp_path))
        assert not r.ok and "100.0 MB" in r.output and "limit" in r.output


def test_a_catastrophic_regex_is_stopped():
    rows = "[" + ",".join('{"name": "' + "ab" * 40 + 'c"}' for _ in range(50)) + "]"
    with _bounded(10):
        r = json_tool("query", text=rows, where="name~^(a|ab|b|ba|aba)*$")
    assert not r.ok and "catastrophic" in r.output


@pytest.mark.parametrize("pattern,why", [
    ("(?:a{10000}){10000}", "expands to more than"),        # copied out when compiled: gigabytes
    ("((a{100}){100}){100}b", "expands to more than"),
    ("[[](?:a{1000}){1000}", "expands to more than"),       # a class that does not nest (version 0)
    ("(?:[)]a{1000}){1000}", "expands to more than"),       # a ')' inside a class
    ("(?x)#[\n(?:a{10000}){10000}", "verbose mode"),       # a comment could hide it
    ("(?R)", "calls a group or itself"),                    # recursion: a stack without a bound
    ("(a)(?1)", "calls a group or itself"),
    ("(?&x)(?<x>a)", "calls a group or itself"),
])
def test_a_regex_whose_memory_has_no_bound_is_refused_before_it_compiles(pattern, why):
    import tracemalloc

    rows = "[" + ",".join('{"name": "' + "a" * 5000 + '!"}' for _ in range(20)) + "]"
    tracemalloc.start()
    try:
        with _bounded(1.0):
            r = json_tool("query", text=rows, where="name~" + pattern)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert not r.ok and why in r.output, r.output
    assert peak < 50 * 1024 * 1024


def test_ordinary_regexes_still_run():
    rows = '[{"d": "2024-01-31"}, {"d": "x"}, {"d": "aaa"}]'
    for pattern, matched in ((r"^\d{4}-\d{2}-\d{2}$", 1), ("a{3}", 1), ("[[:alpha:]]{1,3}", 2),
                             (r"\(?R\)", 0), ("(?i)X", 1), ("(?V1)[[a-z]--[x]]+", 1)):
        r = json_tool("query", text=rows, where="d~" + pattern)
        assert r.ok and r.output.startswith(f"{matched} of 3 rows"), (pattern, r.output)


def test_a_yaml_alias_bomb_is_refused_at_once():
    import tracemalloc

    bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [" + ", ".join([f"*{chr(97 + i)}"] * 10) + "]\n"
        for i in range(9))
    tracemalloc.start()
    try:
        with _bounded(1.0):
            r = json_tool("get", text=bomb, format="yaml")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert not r.ok and "alias-expansion bomb" in r.output
    assert peak < 100 * 1024 * 1024


# ---------------------------------------------------------------------------
# the workspace: escapes refused, odd files refused without blocking

@pytest.mark.skipif(not POSIX, reason="symlinks, FIFOs and devices")
def test_workspace_escapes_are_refused_without_blocking(tmp_path):
    ws = tmp_path / "ws"
    ws.mkdir()
    (tmp_path / "secret.json").write_text('{"k": 1}')
    (ws / "out").symlink_to(tmp_path / "secret.json")
    (ws / "loop1").symlink_to(ws / "loop2")
    (ws / "loop2").symlink_to(ws / "loop1")
    (ws / "dirout").symlink_to(tmp_path)
    os.mkfifo(ws / "fifo")
    (ws / "dev").symlink_to("/dev/zero")
    cases = {"../secret.json": "outside", str(tmp_path / "secret.json"): "absolute",
             "out": "symlink leads outside", "loop1": "", "dirout/secret.json": "outside",
             "/proc/self/environ": "absolute", "fifo": "not a regular file",
             "dev": "symlink leads outside", "sub/../../secret.json": "outside"}
    for path, why in cases.items():
        for tool, verb, args in (("@json", "get", {"file": path}),
                                 ("@diff", "files", {"a": path, "b": path}),
                                 ("@diff", "apply", {"file": path, "patch": "@@ -1 +1 @@\n-a\n+b\n",
                                                     "dry_run": False})):
            with _bounded(2.0):
                r = toolmend.run_tool(tool, {"cmd": verb, "args": args}, workspace=str(ws))
            assert not r.ok, (path, tool, verb, r.output)
            assert why in r.output, (path, r.output)
    assert (tmp_path / "secret.json").read_text() == '{"k": 1}'
    r = toolmend.run_tool("@diff", {"cmd": "dirs", "args": {"a": ".", "b": "."}}, workspace=str(ws))
    assert r.ok


def test_odd_paths_get_a_reason_that_is_never_cut_off(tmp_path):
    (tmp_path / "f.json").write_text("[1]")
    cases = {"a\x00b": "NUL", "x" * 5000: "too long", "/".join(["d"] * 3000): "too long",
             "": "must not be empty", ".": "is a directory", "C:\\f.json": "does not exist"}
    for path, why in cases.items():
        r = toolmend.run_tool("@json", {"cmd": "get", "args": {"file": path}}, workspace=str(tmp_path))
        assert not r.ok and why in r.output and "cut" not in r.output, (path[:20], r.output)
        assert len(r.output) < 400


# ---------------------------------------------------------------------------
# apply never loses a file

OLD = "".join(f"line {i}\n" for i in range(20))
PATCH = toolmend.diff.unified(OLD, OLD.replace("line 7\n", "line seven\n"), a_label="a/f.txt",
                              b_label="b/f.txt")


def _apply(ws):
    return toolmend.run_tool("@diff", {"cmd": "apply", "args": {
        "file": "f.txt", "patch": PATCH, "dry_run": False}}, workspace=str(ws))


@pytest.mark.skipif(not POSIX or os.geteuid() == 0, reason="root writes to read-only folders")
def test_apply_in_a_read_only_folder_changes_nothing(tmp_path):
    (tmp_path / "f.txt").write_text(OLD)
    os.chmod(tmp_path, 0o555)
    try:
        r = _apply(tmp_path)
    finally:
        os.chmod(tmp_path, 0o755)
    assert not r.ok and (tmp_path / "f.txt").read_text() == OLD
    assert os.listdir(tmp_path) == ["f.txt"]


def test_apply_on_a_full_disk_keeps_the_original_and_its_backup(tmp_path, monkeypatch):
    import toolmend.tools._safewrite as safewrite

    (tmp_path / "f.txt").write_text(OLD)
    real_fsync = os.fsync
    calls = {"n": 0}

    def full(fd):
        calls["n"] += 1
        if calls["n"] >= 2:  # the backup gets through; the new file does not
            raise OSError(28, "No space left on device")
        return real_fsync(fd)

    monkeypatch.setattr(safewrite.os, "fsync", full)
    r = _apply(tmp_path)
    assert not r.ok and "No space left on device" in r.output
    assert (tmp_path / "f.txt").read_text() == OLD
    assert sorted(os.listdir(tmp_path)) in (["f.txt"], ["f.txt", "f.txt.bak"])
    if (tmp_path / "f.txt.bak").exists():
        assert (tmp_path / "f.txt.bak").read_text() == OLD


def test_apply_when_the_file_changed_since_it_was_read(tmp_path, monkeypatch):
    import toolmend.tools._diff_apply as applier

    (tmp_path / "f.txt").write_text(OLD)
    real = applier.write_backup

    def meanwhile(path, data, mode):
        name = real(path, data, mode)
        with open(path, "a") as fh:
            fh.write("another writer\n")
        return name

    monkeypatch.setattr(applier, "write_backup", meanwhile)
    r = _apply(tmp_path)
    assert not r.ok and "changed while" in r.output
    assert (tmp_path / "f.txt").read_text() == OLD + "another writer\n"
    assert (tmp_path / "f.txt.bak").read_text() == OLD
    assert not [n for n in os.listdir(tmp_path) if n.endswith(".tmp")]


# ---------------------------------------------------------------------------
# linear time on pathological shapes, bounded memory

SHAPES = {
    "inner quotes": '{"a": "' + 'x "y" ' * _n(340_000) + '"}',
    "unclosed containers": "[{" * _n(1_000_000),
    "tag soup": "<tool_call " * _n(180_000),
    "comment soup": "/*/*//" * _n(350_000),
    "quote soup": "'\"" * _n(1_000_000),
    "colon soup": "{a:" * _n(650_000),
    # openers with no closer: each search for the closer used to read to the end
    "think soup": "<think>" * _n(280_000),
    "tool response soup": "<tool_response>" * _n(130_000),
    "backtick soup": "` x " * _n(500_000),
    "open quoted attributes": '<tool_call name="' * _n(120_000),
    "bare attributes": "<tool_call name=" * _n(150_000),
    "open JSON attributes": '<tool_call args="{' * _n(120_000),
    "open bodies": '<tool_call>{"a": "' * _n(110_000),
    # a line break's run of blanks read again from each break in the run: quadratic (a hang)
    "blank lines": "\n" * _n(2_000_000) + "x",
    "blank runs": "\n \t" * _n(650_000) + "x",
    # a Markdown quotation's marks looked for before each token of one long line
    "quotation marks": ">" * _n(2_000_000),
    "quoted tags": "> <tool_call>" * _n(160_000),
    # harmony's messages, each searching for end tokens that never come
    "analysis messages": "<|channel|>analysis<|message|>x<|end|>" * _n(53_000),
    # values that never close, each on a line read as part of one (after "=", or framed as an
    # example): their end was looked for to the end of the text once per line
    "assigned values": "=\n{\n" * _n(500_000),
    "framed values": "for example:\n{\n" * _n(130_000),
    "analysis calls": '<|start|>assistant<|channel|>analysis to=functions.f code<|message|>{"a": 1'
                      * _n(26_000),
    # tool results inside a line: whether each opens its line was looked for back to the line's start
    "tool results in a line": "x <tool_response>y</tool_response>" * _n(60_000),
    # a prompt's turns, each followed by the reply's header: the last one is looked for once
    "prompt turns": "<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\nx<|im_end|>\n" * _n(30_000),
    # HTML comments never closed: each looks for its end
    "open comments": "<!--" * _n(500_000),
    # a user's turns with no closer: each looks for its closer
    "open user turns": "[INST]" * _n(340_000),
    # Gemma calls refused one after the other: each looked for its closer to the end of the text
    "refused gemma calls": '<|tool_call>call:f{a:<|"|>' * _n(80_000),
    # a call's line ended by tokens, then a word: what follows the call is read as markup, then refused
    "a call's line of tokens": '{"name": "f", "arguments": 5}' + "<|a|></tool_call>" * _n(115_000) + " x",
    # calls opening the text without their opener (the prompt's), never closed
    "prefilled gemma calls": 'call:f{a:<|"|>' + '<|tool_call>call:f{a:<|"|>' * _n(75_000),
    "prefilled glm keys": "a<arg_key>" * _n(200_000),
    "call lines of tokens": ('{"name": "f", "arguments": 5}' + "<|a|>" * 20 + "</tool_call> x\n")
                            * _n(13_500),
    # parameters opened one after the other before one closing tag far away: whether each value
    # holds the call's end was looked for to that tag once per value
    "parameters before one closer": "<tool_call>\n<function=f>\n" + "<parameter=a>\nx\n" * _n(120_000)
                                    + "</parameter></function></tool_call>",
    # a call's many keyword arguments and one character beyond ASCII: each name was looked up in
    # the source split into lines again, and its whole line decoded again (quadratic)
    # (its first argument given again last: the call is not ok once every name was read)
    "python keywords": "[f(" + ", ".join(f"a{i}=1" for i in range(_n(215_000))) + ', z="\u00e9", a0=2)]',
    # calls without their end token: each looked for it to the end of the text, and a Kimi call's
    # arguments that never close were read to the end of the text once per call
    "deepseek openers": "<\uff5ctool\u2581call\u2581begin\uff5c>x " * _n(95_000),
    "kimi calls cut before the next": ("<|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>"
                                       '{"a": 1 ') * _n(28_000),
    "invoke parameters before one closer": '<minimax:tool_call><invoke name="f">'
                                           + '<parameter name="a">' * _n(100_000)
                                           + "</parameter></invoke></minimax:tool_call>",
    # ReAct actions: a remark after each name never closed, and actions naming no tool alone (each
    # input, text over lines, ends at the next action)
    "react remarks never closed": "Action: a (" * _n(190_000),
    "react actions naming no tool": "Action: a b\nAction Input: x\n" * _n(70_000),
    # Mistral's markers one after the other: each read from its own passed the rest over
    "mistral markers": "[TOOL_CALLS]" * _n(170_000),
    "mistral marker lines": "[TOOL_CALLS]\n" * _n(160_000),
    # MiniMax M3 blocks never closed: each looked for its closer to the end of the text
    "minimax m3 openers": "]<]minimax[>[<tool_call> x " * _n(75_000),
    # values never closed, each running on to a bare reasoning closer: each ends there, and was
    # read no further than it (not to the end of the text, once per value)
    "values cut by closers": "[\n</think>\n" * _n(180_000),
    "strings cut by closers": '["\n</think>\n' * _n(170_000),
    "single quotes cut by closers": "{'a': '\n</think>\n" * _n(115_000),
    "curly quotes cut by closers": "{\u201c\n</think>\n" * _n(170_000),
    # (a call's head before each: read whole, in case the closer is its text, within a budget)
    "call heads cut by closers": '{"name": "f", "arguments": {\n</think>\n' * _n(50_000),
    "call lists cut by closers": "[f(a=1,\n</think>\n" * _n(120_000),
    "call strings cut by closers": "[f(a='\n</think>\n" * _n(120_000),
    # a marker's first character before twenty thousand other ones: which alternatives may begin
    # there was reckoned again at each pair once the pairs remembered were many
    "odd pairs": "".join("<" + chr(0x4E00 + i % 20_000) + "`" + chr(0x4E00 + i % 20_000 + 1)
                         for i in range(_n(500_000))),
}


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_two_megabytes_of_each_pathological_shape_in_a_few_seconds(shape):
    text = SHAPES[shape]
    assert len(text) >= 1_900_000 // SCALE
    with _bounded(10 if toolmend.compiled else 15):
        toolmend.normalize_tool_args(text)
        assert not any(call.ok for call in toolmend.parse_tool_calls(text))
        json_tool("validate", text=text)


# values that prose separates: after each value the search for the next '{' and the next '['
# read to the end of the text when one of the two did not come again (quadratic: 20 s for 1 MB)
PROSE_SHAPES = {  # name: (the text of n units, the values in it); n = 100_000 for ~2 MB
    "objects": lambda n: ('{"a":1} x ' * 2 * n, 2 * n),
    "arrays": lambda n: ("[1] x " * 4 * n, 4 * n),
    "objects, then arrays": lambda n: ('{"a":1} x ' * n + "[1] y " * 2 * n, 3 * n),
    "arrays, then objects": lambda n: ("[1] y " * 2 * n + '{"a":1} x ' * n, 3 * n),
    # brackets in the prose that open no value: the search goes on past each
    "objects, brackets in the prose": lambda n: ('{"a":1} see [x] ' * (5 * n // 4), 5 * n // 4),
    "arrays, braces in the prose": lambda n: ("[1] see {x} " * 2 * n, 2 * n),
    # each element's look back for a digit before the blanks copied the text before it
    # (the pure twin: quadratic)
    "digit groups": lambda n: ("[" + "true 01, " * (9 * n // 4) + "]", 9 * n // 2),
}


@pytest.mark.parametrize("shape", sorted(PROSE_SHAPES))
def test_two_megabytes_of_values_between_prose_in_linear_time(shape):
    text, values = PROSE_SHAPES[shape](_n(100_000))
    assert len(text) >= 1_900_000 // SCALE
    # the pure twin takes ~2 s a megabyte (~1 s here, a quarter of the text) however it reads: what it
    # reads is counted below; its bound here is against a hang
    with _bounded(1 if toolmend.compiled else 10):
        r = toolmend.normalize_tool_args(text)
    assert r.ok and r.strategy == "repair" and len(r.value) == values


class _CountedReads(str):
    """A text that counts the characters the pure twin reads of it by its
    searches (str.find) and its subscripts (characters and slices)."""
    read = 0

    def find(self, sub, start=0, end=None):  # type: ignore[override]
        at = str.find(self, sub, start, end)
        stop = len(self) if end is None else min(end, len(self))
        _CountedReads.read += (stop if at < 0 else at) - start
        return at

    def __getitem__(self, key):  # type: ignore[override]
        got = str.__getitem__(self, key)
        _CountedReads.read += len(got)
        return got


@pytest.mark.builds_side_by_side  # (the pure twin's module itself, in either mode)
@pytest.mark.parametrize("shape", sorted(PROSE_SHAPES))
def test_the_pure_twin_reads_values_between_prose_a_few_times_a_character(shape):
    # CPU time cannot tell the pure twin's quadratic reads at 2 MB (memchr and
    # memcpy speed) from its linear work: the reads themselves are counted
    from toolmend._kernels._recover_py import repair_json

    text, values = PROSE_SHAPES[shape](10_000)
    _CountedReads.read = 0
    value, _, _ = repair_json(_CountedReads(text))
    assert len(value) == values
    # ~4.5 now; reading to the end after each value: ~10,000
    assert _CountedReads.read <= 16 * len(text)


def test_a_stream_of_blank_deltas_is_read_in_linear_time():
    # a message that may open with a call's name (format="functionary") holds its
    # blanks until it is decided: each delta is read once, not the text so far again
    for fmt, thinking in (("functionary", None), (None, None), (None, False)):
        s = toolmend.ToolCallStream(format=fmt, thinking=thinking)
        with _bounded(10 if toolmend.compiled else 30):
            for _ in range(200_000):
                s.feed("\n")
            s.feed("get_weather \t")
            for _ in range(100_000):
                s.feed(" ")
            assert s.finish() == []


@pytest.mark.parametrize("call", [
    "<tool_call>\n<function=x>\n<parameter=n>\n1\n</parameter>\n</function>\n</tool_call>\n",
    '<tool_call>{"name": "x", "arguments": {"n": 1}}</tool_call>\n',
    "<tool_call>x<arg_key>n</arg_key><arg_value>1</arg_value></tool_call>\n"])
def test_a_delta_of_many_calls_is_read_in_linear_time(call):
    # each call reported live was read with all the text after it: 500 calls in one delta, 2-4 s
    # (5,000 would take minutes)
    tools = [{"type": "function", "function": {"name": "x", "parameters": {
        "type": "object", "properties": {"n": {"type": "integer"}}}}}]
    text = call * 5_000
    for given in (None, tools):
        s = toolmend.ToolCallStream(thinking=False, tools=given)
        with _bounded(10 if toolmend.compiled else 30):
            s.feed(text)
            s.close()
            assert len(s.finish()) == 5_000


# a run the live reading waits at: each delta read once, not the run so far again (16 KB of
# blanks after a <tool_call>, fed a character at a time, took 10 s; 200 KB would take ~25 min)
LIVE_RUNS = {
    "blanks after <tool_call>": "<tool_call>" + " \n" * 100_000
    + '{"name": "f", "arguments": {}}</tool_call>',
    "blanks after <seed:tool_call>": "<seed:tool_call>" + " " * 200_000
    + "<function=f><parameter=a>1</parameter></function></seed:tool_call>",
    "blanks after <tool_calls>": "<tool_calls>" + " " * 200_000
    + '<tool_call>{"name": "f", "arguments": {}}</tool_call></tool_calls>',
    "blanks in a section": "<|tool_calls_section_begin|>" + " " * 200_000
    + "<|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>{}<|tool_call_end|>"
    + "<|tool_calls_section_end|>",
    "blanks in arguments": '<tool_call>{"name": "f", "arguments": {"a": 1' + " " * 400_000 + "}}</tool_call>",
    "a run of backticks": "see " + "`" * 200_000 + " x",
}


@pytest.mark.parametrize("step", [1, 4])
@pytest.mark.parametrize("thinking", [False, True])
@pytest.mark.parametrize("shape", sorted(LIVE_RUNS))
def test_a_long_run_in_a_live_stream_is_read_once(shape, thinking, step):
    # (thinking=True: after the reasoning's closer, else the run is reasoning, skipped)
    text = ("plan</think>" if thinking else "") + LIVE_RUNS[shape]
    whole = toolmend.parse_tool_calls(text, thinking=thinking)  # (its readers made: not timed)
    assert len(whole) == (shape != "a run of backticks")
    s = toolmend.ToolCallStream(thinking=thinking)
    with _bounded(1):
        for i in range(0, len(text), step):
            s.feed(text[i:i + step])
        calls = s.finish()
    assert calls == whole


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="needs /proc")
def test_the_diff_of_two_all_different_4_mb_files_stays_small(tmp_path):
    code = (
        "import toolmend\n"
        "a = ''.join(f'a{i:07d} ' + 'x' * 40 + '\\n' for i in range(80_000))\n"
        "b = ''.join(f'b{i:07d} ' + 'y' * 40 + '\\n' for i in range(80_000))\n"
        "r = toolmend.diff.compare(a, b)\n"
        "assert r.budget_exceeded and r.warning\n"
        # VmHWM, not ru_maxrss: the latter keeps the parent's peak across exec
        "print([int(l.split()[1]) for l in open('/proc/self/status') if l.startswith('VmHWM')][0])\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert int(run.stdout) < 300 * 1024  # KB


@pytest.mark.parametrize("verb", ["get", "keys", "query", "schema", "validate", "pretty"])
def test_every_json_verb_stays_within_five_times_the_file(tmp_path, verb):
    doc = "[" + ",".join('{"id": %d, "name": "item %d", "tags": ["a", "b"], "v": 1.10}' % (i, i)
                         for i in range(60_000 if toolmend.compiled else 5_000)) + "]"
    # (the pure twin under tracemalloc: a twelfth, ~0.3 MB; its peak is ~7.2x the file at 5,000
    # rows and at 15,000 alike, so the bound tells the same)
    (tmp_path / "d.json").write_text(doc)
    size = len(doc)
    args = {"get": '"path": "[*].id"', "query": '"where": "id>5", "limit": 5'}.get(verb, "")
    code = (
        "import tracemalloc, toolmend, json\n"
        # the modules loaded and their tables built first: what is measured is the file's
        f"toolmend.run_tool('@json', {{'cmd': '{verb}', 'args': {{'text': '[1]'}}}})\n"
        "tracemalloc.start()\n"
        f"r = toolmend.run_tool('@json', json.loads('{{\"cmd\": \"{verb}\", \"args\": "
        f"{{\"file\": \"d.json\"{', ' + args if args else ''}}}}}'), workspace='.')\n"
        "assert r.ok, r.output\n"
        "print(tracemalloc.get_traced_memory()[1])\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                         cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    # the compiled scanner: 5x the file at most; the pure twin keeps token lists
    bound = 5 if toolmend.compiled else 10
    assert int(run.stdout) <= bound * size, (int(run.stdout), size)


@pytest.mark.skipif(not toolmend.compiled, reason="a leak test of the compiled kernels")
def test_no_memory_growth_over_400_000_recovery_calls():
    code = (
        "import resource, toolmend\n"
        "inputs = [\"{cmd: 'read', file: 'main.go',}\", '{\"a\": [1, 2, {\"b\": null}]}',\n"
        "          \"{a: 1 b: 2}\", 'main.go', '[1, 2', \"{'x': 'it\\\\'s'}\", '{a: b: c}']\n"
        "def rss():\n"
        "    with open('/proc/self/statm') as fh:\n"
        "        return int(fh.read().split()[1]) * 4\n"
        "for i in range(100_000):\n"
        "    toolmend.normalize_tool_args(inputs[i % 7], 'read_file' if i % 3 else None)\n"
        "before = rss()\n"
        "for i in range(400_000):\n"
        "    toolmend.normalize_tool_args(inputs[i % 7], 'read_file' if i % 3 else None)\n"
        "    if i % 5 == 0:\n"
        "        try:\n"
        "            toolmend.loads(inputs[i % 7])\n"
        "        except toolmend.RecoveryError:\n"
        "            pass\n"
        "print(rss() - before)\n")
    if not os.path.exists("/proc/self/statm"):
        pytest.skip("needs /proc")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    # (no growth measured; 2 MB is 5 bytes a call kept, or 25 bytes a loads call)
    assert int(run.stdout) < 2 * 1024, f"RSS grew by {run.stdout.strip()} KB"


# ---------------------------------------------------------------------------
# concurrency: many threads, the single-threaded answers

def _mixed_calls(tmp_path, n):
    calls = []
    for i in range(n):
        k = i % 5
        if k == 0:
            calls.append(("recover", (f"{{cmd: 'read', n: {i}, file: 'f{i}.go',}}",)))
        elif k == 1:
            calls.append(("json", ("get", {"text": f'{{"a": [{i}, 1.10, "x"]}}', "path": "a"})))
        elif k == 2:
            a = "".join(f"line {j}\n" for j in range(30))
            calls.append(("diff", (a, a.replace(f"line {i % 30}\n", "changed\n"))))
        elif k == 3:
            calls.append(("calls", (f'<tool_call name="read_file">f{i}.go</tool_call>',)))
        else:
            calls.append(("apply", (i,)))
    return calls


def _run_call(kind, args, ws):
    if kind == "recover":
        r = toolmend.normalize_tool_args(*args)
        return (r.ok, r.text, r.strategy)
    if kind == "json":
        r = toolmend.run_tool("@json", {"cmd": args[0], "args": args[1]})
        return (r.ok, r.output)
    if kind == "diff":
        return toolmend.diff.unified(*args)
    if kind == "calls":
        return [(c.name, c.args, c.ok) for c in toolmend.parse_tool_calls(*args)]
    i = args[0]
    path = os.path.join(ws, f"file{i}.txt")
    with open(path, "w") as fh:
        fh.write("a\nb\nc\n")
    r = toolmend.run_tool("@diff", {"cmd": "apply", "args": {
        "file": f"file{i}.txt", "patch": "@@ -2 +2 @@\n-b\n+B\n", "dry_run": False,
        "backup": False}}, workspace=ws)
    with open(path) as fh:
        return (r.ok, fh.read())


def test_eight_threads_get_the_single_threaded_results(tmp_path):
    # (3,000 calls a thread, 27,000 with the single-threaded pass, ~6 s: the threads trade the interpreter
    # hundreds of times inside each kind of call)
    per_thread = 3_000 if toolmend.compiled else 1_000
    calls = _mixed_calls(tmp_path, per_thread)
    solo_ws = tmp_path / "solo"
    solo_ws.mkdir()
    expected = [_run_call(kind, args, str(solo_ws)) for kind, args in calls]
    failures: list[str] = []

    def worker(t: int) -> None:
        ws = tmp_path / f"t{t}"
        ws.mkdir()
        for j, (kind, args) in enumerate(calls):
            got = _run_call(kind, args, str(ws))
            if got != expected[j]:
                failures.append(f"thread {t}, call {j} ({kind}): {got!r} != {expected[j]!r}")
                return

    threads = [threading.Thread(target=worker, args=(t,)) for t in range(8)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not failures, failures[:3]


_F_TOOL = [{"type": "function", "function": {"name": "f", "parameters": {
    "type": "object", "properties": {"a": {"type": "integer"}}}}}]
# calls written again and again (the restatement check): each copy was compared with every one
# before it over every gap between them (cubic), and a long run of letters between two copies
# was tried as a sentence from each letter (quadratic)
REPEAT_SHAPES = {
    "one list of copies": "[" + ", ".join(["f(a=1)"] * _n(64_000)) + "]",
    "copies between rules": "[f(a=1)]\n\n------------\n\n" * _n(60_000),
    "copies between sentences": "[f(a=1)]\n\nThis is that call again.\n\n" * _n(30_000),
    "json lines of copies": '{"name": "f", "arguments": {"a": 1}}\n\n' * _n(30_000),
    "distinct calls": "[" + ", ".join(f"f(a={i})" for i in range(_n(80_000))) + "]",
    "a run of letters between": "[f(a=1)]\n" + "a" * _n(1_000_000) + "\n[f(a=1)]",
    # bare fence lines, each one tick shorter, after a call: each read to the end of the text
    "fence lines after a call": '<tool_call>{"name": "f", "arguments": {"a": 1}}</tool_call>\n\n'
                                + "".join("`" * (1_003 - k) + "\n" for k in range(1_000)) + "```python\n",
}


@pytest.mark.parametrize("shape", sorted(REPEAT_SHAPES))
def test_calls_written_again_and_again_in_linear_time(shape):
    text = REPEAT_SHAPES[shape]
    assert len(text) >= 500_000 // SCALE
    with _bounded(10 if toolmend.compiled else 15):
        calls = toolmend.parse_tool_calls(text, tools=_F_TOOL)
    assert calls and calls[0].ok

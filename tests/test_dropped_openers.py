"""A call whose opening token was dropped or miswritten is read, never lost.

A call right after a call's closer, its opening token dropped, is the next call.

Models that write several calls in a row sometimes leave out the second opener:
Gemma 4's ``<|tool_call>call:f{..}<tool_call|>call:g{..}<tool_call|>``. Before, the
call after the closer was silently lost (the list came back whole with ``f`` alone) and
a stream showed it as text. Now it is read as if the opener stood there, with a fix
saying so, in the whole text and in every stream of it; prose after a closer stays prose.
"""

from __future__ import annotations

import pytest

from toolmend import ToolCallStream, parse_tool_calls
from toolmend.recovery import FIX_CODES
from toolmend.recovery._streamevents import CallFinished, TextDelta

# family -> (the first call, whole; the second, its opener dropped; the format's name)
_FAMILIES = {
    "gemma4": ("<|tool_call>call:f{a:1}<tool_call|>", "call:g{b:2}<tool_call|>", "gemma4"),
    "functiongemma": ("<start_function_call>call:f{a:1}<end_function_call>", "call:g{b:2}<end_function_call>",
                      "functiongemma"),
    "glm": ("<tool_call>f\n<arg_key>a</arg_key>\n<arg_value>1</arg_value>\n</tool_call>",
            "g\n<arg_key>b</arg_key>\n<arg_value>2</arg_value>\n</tool_call>", "glm45"),
    "hy_v3": ("<tool_calls><tool_call>f<tool_sep><arg_key>a</arg_key><arg_value>1</arg_value></tool_call>",
              "g<tool_sep><arg_key>b</arg_key><arg_value>2</arg_value></tool_call></tool_calls>", "hy_v3"),
    "longcat": ("<longcat_tool_call>f\n<longcat_arg_key>a</longcat_arg_key>\n<longcat_arg_value>1"
                "</longcat_arg_value>\n</longcat_tool_call>",
                "g\n<longcat_arg_key>b</longcat_arg_key>\n<longcat_arg_value>2</longcat_arg_value>\n"
                "</longcat_tool_call>", "longcat"),
    "claude_xml": ('<function_calls>\n<invoke name="f">\n<parameter name="a">1</parameter>\n</invoke>\n'
                   '</function_calls>', '<invoke name="g">\n<parameter name="b">2</parameter>\n</invoke>\n'
                   '</function_calls>', "claude_xml"),
    "minimax_m2": ('<minimax:tool_call>\n<invoke name="f">\n<parameter name="a">1</parameter>\n</invoke>\n'
                   '</minimax:tool_call>', '<invoke name="g">\n<parameter name="b">2</parameter>\n</invoke>\n'
                   '</minimax:tool_call>', "minimax_m2"),
    "harmony": ('<|start|>assistant<|channel|>commentary to=functions.f <|constrain|>json<|message|>'
                '{"a": 1}<|call|>',
                'to=functions.g <|channel|>commentary <|constrain|>json<|message|>{"b": 2}<|call|>',
                "harmony"),
}
_SEPS = ["", "\n", "\n\n", " \n"]


def _renamed(call: str, name: str, new: str) -> str:
    """``call`` calling ``new`` instead of ``name``."""
    for before, after in (('"{}"', '"{}"'), ("{}\n", "{}\n"), (":{}{{", ":{}{{"), (".{} ", ".{} "),
                          (">{}<", ">{}<"), ("{}<tool_sep>", "{}<tool_sep>"), ("{}<arg_key>", "{}<arg_key>")):
        call = call.replace(before.format(name), after.format(new))
    return call


def _checked(text: str, hidden: str = "", **kw: object) -> list:  # type: ignore[type-arg]
    """The calls of ``text``, checked to be what every stream of it finishes with (1-, 3- and
    7-character deltas; thinking None and False, and True after a reasoning block), and
    ``hidden``, a call's text, never shown."""
    calls = parse_tool_calls(text, **kw)  # type: ignore[arg-type]
    for thinking, lead in ((None, ""), (False, ""), (True, "let me see</think>\n")):
        whole = lead + text
        expected = parse_tool_calls(whole, thinking=thinking, **kw)  # type: ignore[arg-type]
        assert [(c.name, c.ok, c.args) for c in expected] == [(c.name, c.ok, c.args) for c in calls]
        for size in (1, 3, 7):
            stream = ToolCallStream(thinking=thinking, **kw)  # type: ignore[arg-type]
            events = [e for k in range(0, len(whole), size) for e in stream.feed(whole[k:k + size])]
            events += stream.close()
            assert stream.finish() == expected, (thinking, size)
            shown = "".join(e.text for e in events if isinstance(e, TextDelta))
            assert not hidden or hidden not in shown, (thinking, size, shown)
    return calls


@pytest.mark.parametrize("family", sorted(_FAMILIES))
@pytest.mark.parametrize("sep", _SEPS)
@pytest.mark.parametrize("named", [False, True])
def test_the_call_after_a_closer_its_opener_dropped_is_read(family, sep, named):
    first, second, fmt = _FAMILIES[family]
    text = first + sep + second
    calls = _checked(text, second[:12].strip(), format=fmt if named else None)
    texts = ("glm", "hy_v3", "minimax_m2", "longcat", "claude_xml")
    typed = (lambda v: str(v)) if family in texts else (lambda v: v)  # (text)
    assert [(c.name, c.ok, c.args) for c in calls] == [("f", True, {"a": typed(1)}),
                                                        ("g", True, {"b": typed(2)})]
    g = calls[1]
    # (its span: the invoke's, the tag's)
    block_end = {"minimax_m2": len("\n</minimax:tool_call>"), "hy_v3": len("</tool_calls>"),
                 "claude_xml": len("\n</function_calls>")}.get(family, 0)
    assert g.span == (text.index(second), len(text) - block_end)
    assert [f.code for f in g.fixes] == ["opener"] and "opener" in FIX_CODES
    assert g.fixes[0].offset == -1 and "dropped" in g.fixes[0].message  # (where: the call's span)
    assert calls[0].fixes == ()


@pytest.mark.parametrize("family", sorted(_FAMILIES))
def test_a_run_of_calls_each_opener_dropped_keeps_every_call(family):
    first, second, fmt = _FAMILIES[family]
    shut = "</tool_calls>" if family == "hy_v3" else ""  # (Hunyuan's calls in one block)
    second = second.removesuffix(shut)
    text = first + "\n" + second + "\n" + _renamed(second, "g", "h") + "\n" + \
        _renamed(first, "f", "k").replace("<tool_calls>", "") + shut
    calls = _checked(text, second[:12].strip())
    assert [c.name for c in calls] == ["f", "g", "h", "k"] and all(c.ok for c in calls)
    assert [bool(c.fixes) for c in calls] == [False, True, True, False]


@pytest.mark.parametrize("family", sorted(_FAMILIES))
@pytest.mark.parametrize("after", ["\nDone.", "\nDone. I called f.", " and that is all", "\ncall me later",
                                   "\nto be continued", "\n\nThe result: <b>bold</b>"])
def test_prose_after_a_closer_stays_prose(family, after):
    first = _FAMILIES[family][0]
    calls = _checked(first + after)
    assert [(c.name, c.ok, c.fixes) for c in calls] == [("f", True, ())]
    for thinking in (False, None):
        stream = ToolCallStream(thinking=thinking)
        events = [e for ch in first + after for e in stream.feed(ch)] + stream.close()
        shown = "".join(e.text for e in events if isinstance(e, TextDelta))
        assert shown.strip() == after.strip() or thinking is None  # (None shows no text after calls)


@pytest.mark.parametrize("family", sorted(_FAMILIES))
def test_the_call_after_words_after_a_closer_is_not_taken_for_a_dropped_one(family):
    # only a body right after the closer (blanks between) is a call whose opener was dropped
    first, second, _ = _FAMILIES[family]
    calls = _checked(first + "\nHere is the format: " + second)
    assert [c.name for c in calls] == ["f"]


@pytest.mark.parametrize("family", ["gemma4", "functiongemma", "glm", "hy_v3", "minimax_m2", "longcat",
                                    "claude_xml"])
def test_a_dropped_opener_call_cut_or_broken_is_not_ok_never_lost(family):
    first, second, _ = _FAMILIES[family]
    value = second.index("2")  # (cut inside the arguments, or before the value)
    for cut in (second[:value], second[:value - 2], second[:value + 1] + "<"):
        calls = _checked(first + "\n" + cut)
        assert [(c.name, c.ok) for c in calls] == [("f", True), ("g", False)], cut
        assert calls[1].span[0] == len(first) + 1


def test_a_dropped_opener_call_is_checked_against_the_tools_like_any_other():
    first, second, _ = _FAMILIES["gemma4"]
    tools = [{"type": "function", "function": {"name": "f", "parameters": {"type": "object"}}}]
    calls = _checked(first + second, tools=tools)
    assert [(c.name, c.ok) for c in calls] == [("f", True), ("g", False)]
    assert "not among the tools" in (calls[1].error or "")


def test_a_format_that_does_not_read_the_family_reads_no_dropped_call():
    first, second, _ = _FAMILIES["gemma4"]
    assert [c.name for c in parse_tool_calls(first + second, format="functiongemma")] == []
    assert [c.name for c in parse_tool_calls(first + second, format="gemma4")] == ["f", "g"]


def test_a_hermes_call_is_reported_at_its_closer_and_no_glm_body_follows_it():
    # (a JSON body is no GLM call's: what follows its </tool_call> is read as text is, and a
    # stream finishes the call as its closer arrives)
    first = '<tool_call>{"name": "f", "arguments": {}}</tool_call>'
    text = first + "\ng\n<arg_key>b</arg_key>\n<arg_value>2</arg_value>\n</tool_call>"
    assert [c.name for c in _checked(text)] == ["f"]
    stream = ToolCallStream(thinking=False)
    assert [e for e in stream.feed(first) if isinstance(e, CallFinished)]


@pytest.mark.parametrize("family", sorted(_FAMILIES))
def test_a_dropped_opener_call_in_a_fence_is_shown_not_made(family):
    first, second, _ = _FAMILIES[family]
    text = "For example:\n```\n" + first + "\n" + second + "\n```\n"
    assert _checked(text) == []


_Q = '<|"|>'


@pytest.mark.parametrize("written", [":", "-", "", " :"])
@pytest.mark.parametrize("marker, closer, quote", [
    ("<|tool_call>", "<tool_call|>", _Q), ("<start_function_call>", "<end_function_call>", "<escape>")])
def test_a_gemma_call_whose_call_word_was_miswritten_is_read(written, marker, closer, quote):
    # (Gemma 4 checkpoints write <|tool_call>:name{..}, -name{..} or name{..}: the token says a
    # call follows; before, the block came back as no call at all)
    text = f"Searching.\n{marker}{written}search_files{{pattern:{quote}.env{quote}}}{closer}"
    calls = _checked(text, "search_files")
    assert [(c.name, c.ok, c.args) for c in calls] == [("search_files", True, {"pattern": ".env"})]
    assert calls[0].span == (text.index(marker), len(text))
    assert [f.code for f in calls[0].fixes] == ["opener"]
    two = text + f"{marker}{written}read{{path:{quote}a{quote}}}{closer}"
    assert [(c.name, c.ok) for c in _checked(two, "search_files")] == [("search_files", True), ("read", True)]


@pytest.mark.parametrize("body", ["I will call it{x}", ": search files{x:1}", "-", ":", "call it later",
                                  "- starting-task-overview\n"])
def test_words_in_a_gemma_block_are_no_call(body):
    assert _checked(f"<|tool_call>{body}<tool_call|>") == []


def test_a_gemma_call_miswritten_and_cut_is_not_ok():
    calls = _checked("<|tool_call>:search_files{pattern:" + _Q + ".e")
    assert [(c.name, c.ok) for c in calls] == [("search_files", False)]


@pytest.mark.parametrize("family, second, value", [
    ("gemma4", 'call:g{b:<|"|>x<tool_call|>y<|"|>}<tool_call|>', "x<tool_call|>y"),
    ("glm", "g<arg_key>b</arg_key><arg_value>x</tool_call>y</arg_value></tool_call>", "x</tool_call>y"),
    ("minimax_m2", '<invoke name="g">\n<parameter name="b">x</minimax:tool_call>y</parameter>\n</invoke>\n'
                   '</minimax:tool_call>', "x</minimax:tool_call>y"),
])
def test_a_dropped_opener_call_whose_value_holds_the_closer_keeps_the_value(family, second, value):
    # (the call is read to its own end, not to the first closer after it; and so is a run of them)
    first = _FAMILIES[family][0]
    calls = _checked(first + second + "\n" + first.replace("f", "k", 1) if family != "gemma4" else
                     first + second + first.replace("call:f", "call:k"))
    assert [(c.name, c.ok) for c in calls] == [("f", True), ("g", True), ("k", True)]
    assert calls[1].args == {"b": value}
    run = first + "".join(_renamed(second, "g", f"g{n}") for n in range(300))
    calls = parse_tool_calls(run)
    assert [c.name for c in calls] == ["f", *(f"g{n}" for n in range(300))] and all(c.ok for c in calls)
    assert all(c.args == {"b": value} for c in calls[1:])


# -- what a dropped opener never makes: a call out of words, a placeholder, an example -----------

_G1 = "<|tool_call>call:f{a:1}<tool_call|>"
_M1 = _FAMILIES["minimax_m2"][0]


@pytest.mark.parametrize("text", [
    _G1 + "\ncall:delete_all{confirm:true} would be wrong here, so I did not.",
    _G1 + "\ncall:g{b:2} is what I will call next.",
    _M1 + '\n<invoke name="delete_all"><parameter name="confirm">true</parameter></invoke> would be wrong.',
    _G1 + "call:TOOL_NAME{arg:<|\"|>value<|\"|>}<tool_call|>",
    "<tool_call>f\n<arg_key>a</arg_key>\n<arg_value>1</arg_value>\n</tool_call>\nNAME\n<arg_key>b</arg_key>\n"
    "<arg_value>2</arg_value>\n</tool_call>",
])
def test_words_or_a_placeholder_after_a_closer_make_no_call(text):
    # (a body that does not end at its closer, words after it, names a call; a placeholder's
    # describes the format, as after its opener)
    assert [(c.name, c.ok) for c in _checked(text)] == [("f", True)]


@pytest.mark.parametrize("family", sorted(_FAMILIES))
def test_a_dropped_opener_call_after_an_example_is_shown_too(family):
    first, second, _ = _FAMILIES[family]
    real = _renamed(first, "f", "k")
    if family == "hy_v3":
        second = second.removesuffix("</tool_calls>")
        real = real.replace("<tool_calls>", "") + "</tool_calls>"
    assert _checked("For example:\n" + first + "\n" + second + "\n" + real) == []


@pytest.mark.parametrize("fence", ["```\n", "```xml\n", "```text\n"])
@pytest.mark.parametrize("family", ["gemma4", "glm", "minimax_m2"])
def test_a_dropped_opener_call_in_a_fence_of_calls_is_read(fence, family):
    # (calls in a fence nothing frames are made: the one whose opener was dropped too)
    first, second, _ = _FAMILIES[family]
    calls = _checked(fence + first + "\n" + second + "\n```")
    assert [(c.name, c.ok) for c in calls] == [("f", True), ("g", True)]


@pytest.mark.parametrize("broken", ["call:g b:2}<tool_call|>", "call:g[b:2]<tool_call|>"])
def test_a_body_after_a_closer_that_reads_as_no_call_is_an_entry_not_ok(broken):
    calls = _checked(_G1 + "\n" + broken)
    assert [(c.name, c.ok) for c in calls] == [("f", True), ("", False)]
    assert calls[1].span == (len(_G1) + 1, len(_G1) + 1 + len(broken))


def test_a_dropped_opener_call_after_one_not_ok_is_read():
    calls = _checked(_G1 + "call:g{b:2}}<tool_call|>\ncall:h{b:2}<tool_call|>")
    assert [(c.name, c.ok) for c in calls] == [("f", True), ("g", False), ("h", True)]


@pytest.mark.parametrize("blanks", ["\n" * 65, "\f", "\v", "\xa0", "\u2028", "\u3000", "\x85", " \t\n" * 30])
def test_any_blanks_may_stand_between_the_closer_and_the_dropped_body(blanks):
    assert [c.name for c in _checked(_G1 + blanks + "call:g{b:2}<tool_call|>")] == ["f", "g"]


def test_a_glm_body_after_a_hermes_block_of_several_objects_is_not_read():
    text = ('<tool_call>\n{"name": "f", "arguments": {"a": 1}}\n{"name": "k", "arguments": {"c": 3}}\n'
            "</tool_call>\ng\n<arg_key>b</arg_key>\n<arg_value>2</arg_value>\n</tool_call>")
    assert [c.name for c in _checked(text)] == ["f", "k"]



# -- found by reading the change again ----------------------------------------------------------

@pytest.mark.parametrize("word", ["json\n", "json", "JSON\n", "function ", "call ", "tool_call"])
@pytest.mark.parametrize("marker, closer", [("<|tool_call>", "<tool_call|>"),
                                            ("<start_function_call>", "<end_function_call>")])
def test_a_word_before_a_json_body_in_a_gemma_block_is_no_tool_name(word, marker, closer):
    text = marker + word + '{"name": "get_weather", "arguments": {"city": "Paris"}}' + closer
    assert [(c.name, c.ok) for c in _checked(text)] == [("", False)]


_DS_CALL, _DS_SEP, _DS_END = "<\uff5ctool\u2581call\u2581begin\uff5c>", "<\uff5ctool\u2581sep\uff5c>", \
    "<\uff5ctool\u2581call\u2581end\uff5c>"


@pytest.mark.parametrize("text", [
    _DS_CALL + "f" + _DS_SEP + '{"a": 1}' + _DS_END + "g" + _DS_SEP + '{"b": 2}' + _DS_END,
    'Checking.\n<|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>{"a": 1}<|tool_call_end|>'
    'functions.g:1<|tool_call_argument_begin|>{"b": 2}<|tool_call_end|>',
])
def test_a_token_call_with_its_token_dropped_outside_a_section_streams_as_it_reads(text):
    assert [(c.name, c.ok) for c in _checked(text, 'g<')] == [("f", True), ("g", True)]


@pytest.mark.parametrize("end", ["<turn|>", "<|im_end|>", "<end_of_turn>", "<eos>", "</s>"])
def test_a_dropped_opener_call_ended_by_a_turns_end_is_not_ok_never_lost(end):
    calls = _checked(_G1 + "call:g{b:2}" + end)
    assert [(c.name, c.ok) for c in calls] == [("f", True), ("g", False)]


def test_a_placeholder_after_a_call_in_a_section_leaves_the_call():
    text = ("<|tool_calls_section_begin|><|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>"
            '{"a": 1}<|tool_call_end|>functions.TOOL_NAME:1<|tool_call_argument_begin|>{"arg": "value"}'
            "<|tool_call_end|><|tool_calls_section_end|>")
    assert [(c.name, c.ok) for c in _checked(text)] == [("f", True), ("", False)]


def test_a_bare_gemma_head_in_a_fence_reads_to_the_fence_only():
    text = '```\n<|tool_call>:f{a:<|"|>x\n```\nmore<|"|>}<tool_call|>'
    assert [(c.name, c.ok) for c in parse_tool_calls(text)] == [("f", False)]


def test_the_fix_of_a_call_read_late_in_a_long_stream_is_the_whole_texts():
    _checked("x " * 2100 + "<|tool_call>:f{a:1}<tool_call|>\nDone.")


@pytest.mark.parametrize("text, want", [
    # (Gemma's own bare keys name a tool's arguments, whatever they are called)
    ('<|tool_call>-run_script{name:<|"|>build<|"|>, args:[<|"|>--fast<|"|>]}<tool_call|>',
     [("run_script", True)]),
    ("<start_function_call>run_script{name:<escape>build<escape>, args:[<escape>x<escape>]}"
     "<end_function_call>", [("run_script", True)]),
    (_G1 + "<|tool_call>:g {b:2}<tool_call|>", [("f", True), ("g", True)]),
    # (a refused head is an entry not ok, never nothing)
    (_G1 + "<|tool_call>:g\n{b:2}<tool_call|>", [("f", True), ("", False)]),
    (_G1 + '<|tool_call>g{"arguments": {"a": 1}, "name": "g"}<tool_call|>', [("f", True), ("g", False)]),
    (_G1 + '<|tool_call>json{"city": "Paris"}<tool_call|>', [("f", True), ("", False)]),
])
def test_a_bare_gemma_head_reads_its_call_or_says_why_not(text, want):
    assert [(c.name, c.ok) for c in _checked(text)] == want


def test_a_glm_call_with_json_arguments_is_no_hermes_call():
    text = ('<tool_call>f\n{"a": 1}\n</tool_call>\ng\n<arg_key>b</arg_key>\n<arg_value>2</arg_value>\n'
            "</tool_call>")
    assert [(c.name, c.ok) for c in _checked(text)] == [("f", True), ("g", True)]


@pytest.mark.parametrize("lead", ["", "<\uff5ctool\u2581calls\u2581begin\uff5c>"])
@pytest.mark.parametrize("blank", ["\n", " "])
def test_a_deepseek_v3_call_then_one_with_its_token_dropped_streams_as_it_reads(lead, blank):
    text = (lead + _DS_CALL + blank + "function" + _DS_SEP + 'h\n```json\n{"c": 1}\n```' + _DS_END + "k"
            + _DS_SEP + '{"c": 1}' + _DS_END)
    assert [(c.name, c.ok) for c in _checked(text, "k<")] == [("h", True), ("k", True)]


@pytest.mark.parametrize("after", [" <- wrong", "\n[1]", " <= the syntax", "\n[see above]"])
def test_prose_opening_with_a_bracket_after_a_body_stays_prose(after):
    assert [(c.name, c.ok) for c in _checked(_G1 + "\ncall:g{b:2}" + after)] == [("f", True)]


def test_a_placeholder_after_a_call_outside_a_section_leaves_an_entry_for_what_follows():
    kb, ka, ke = "<|tool_call_begin|>", "<|tool_call_argument_begin|>", "<|tool_call_end|>"
    text = (kb + "functions.f:0" + ka + '{"a": 1}' + ke + "functions.TOOL_NAME:1" + ka + '{"arg": "value"}'
            + ke + "functions.g:2" + ka + '{"b": 2}' + ke)
    assert [(c.name, c.ok) for c in _checked(text)] == [("f", True), ("", False)]


_C1 = _FAMILIES["claude_xml"][0] + "\n"
_IG = '<invoke name="g">\n<parameter name="b">2</parameter>\n</invoke>\n'


@pytest.mark.parametrize("text", [
    _C1 + _IG + "<function_results>", _G1 + "call:g{b:2}<start_of_turn>user",
    _G1 + "call:g{b:2}\n<tool_response>", _M1 + "\n" + _IG + "]~b]user\nhi",
])
def test_a_dropped_opener_body_cut_by_a_token_or_a_tag_is_not_ok_never_lost(text):
    assert [(c.name, c.ok) for c in _checked(text)] == [("f", True), ("g", False)]


def test_a_json_envelope_after_a_bare_head_is_not_ok_even_for_a_tool_given():
    tools = [{"type": "function", "function": {"name": "g", "parameters": {
        "type": "object", "properties": {"b": {"type": "integer"}}}}}]
    text = '<|tool_call>g{"name": "g", "arguments": {"b": 2}}<tool_call|>'
    assert [(c.name, c.ok) for c in _checked(text, tools=tools)] == [("g", False)]
    text = '<|tool_call>tool_use{"name": "get_weather", "input": {"city": "Paris"}}<tool_call|>'
    assert [(c.name, c.ok) for c in _checked(text)] == [("tool_use", False)]


@pytest.mark.parametrize("head", ["call: g", "- g", ":-g", "call g"])
def test_a_gemma_call_word_written_with_a_blank_is_read(head):
    assert [(c.name, c.ok) for c in _checked(_G1 + f"<|tool_call>{head}{{b:2}}<tool_call|>")] == \
        [("f", True), ("g", True)]


def test_a_word_before_kimis_argument_token_is_no_calls_name():
    kb, ka, ke = "<|tool_call_begin|>", "<|tool_call_argument_begin|>", "<|tool_call_end|>"
    calls = _checked(kb + "functions.f:0" + ka + '{"a": 1}' + ke + "Then" + ka + '{"b": 2}' + ke)
    assert [(c.name, c.ok) for c in calls if c.ok] == [("f", True)]


_TOOLS_G = [{"type": "function", "function": {"name": "g", "parameters": {
    "type": "object", "properties": {"b": {"type": "integer"}}}}}]


@pytest.mark.parametrize("body", [
    '{name:<|"|>get_weather<|"|>,input:{city:<|"|>Paris<|"|>}}', '{name:<|"|>g<|"|>,arguments:{b:2}}',
    "{'name': 'g', 'arguments': {'b': 2}}", '{"name": "g", "arguments": "{\\"b\\": 2}"}',
    '{"type": "function", "function": {"name": "g", "arguments": {"b": 2}}}',
    '{"function_call": {"name": "g", "arguments": {"b": 2}}}',
])
@pytest.mark.parametrize("head", ["g", ":g", "call:g"])
def test_a_call_envelope_as_a_gemma_calls_arguments_is_not_ok_in_any_quotes(body, head):
    for tools in (None, _TOOLS_G):
        calls = _checked(f"<|tool_call>{head}{body}<tool_call|>", tools=tools)
        assert [c.ok for c in calls] == [False], (tools, calls)


@pytest.mark.parametrize("body", ["\ncall: g{b:2}<tool_call|>", "\n- g{b:2}<tool_call|>",
                                  "\nCALL: g{b:2}<tool_call|>", ":g{b:2}<tool_call|>", "g{b:2}<tool_call|>",
                                  "\ng{b:2}<tool_call|>\n"])
def test_a_dropped_opener_body_with_its_call_word_written_otherwise_is_read(body):
    assert [(c.name, c.ok) for c in _checked(_G1 + body, "g{b:2}")] == [("f", True), ("g", True)]


@pytest.mark.parametrize("head", ["call: g(b=2)", "Call: g{b:2}", "Call:g{b:2}", "CALL:g{b:2}"])
def test_a_gemma_call_word_in_another_case_or_before_python_is_read(head):
    assert [(c.name, c.ok) for c in _checked(_G1 + f"<|tool_call>{head}<tool_call|>")] == \
        [("f", True), ("g", True)]


@pytest.mark.parametrize("end", ["[/INST]", "[/TOOL_RESULTS]", "<<SYS>>", "[gMASK]", "<0x0A>",
                                 "\u200b<|im_end|>"])
def test_more_tokens_cut_a_dropped_opener_body(end):
    assert [(c.name, c.ok) for c in _checked(_G1 + "\ncall:g{b:2}" + end)] == [("f", True), ("g", False)]


_QG = '<|"|>'


@pytest.mark.parametrize("body", [
    '(name="f", arguments={"a": 1})',
    "{functionCall:{name:" + _QG + "g" + _QG + ",args:{city:" + _QG + "Paris" + _QG + "}}}",
    "{tool:{name:" + _QG + "g" + _QG + ",arguments:{}}}",
    "{function:{arguments:{city:" + _QG + "x" * 210 + _QG + "},name:" + _QG + "g" + _QG + "}}",
    "{name:" + _QG + "g" + _QG + ", params:{city:" + _QG + "P" + _QG + "}}",
    "{Name:" + _QG + "g" + _QG + ", Arguments:{city:" + _QG + "P" + _QG + "}}",
])
def test_an_envelope_in_python_wrapped_or_spelled_otherwise_is_not_ok(body):
    assert [c.ok for c in _checked(f"<|tool_call>call:get_weather{body}<tool_call|>")] == [False]


@pytest.mark.parametrize("body", [
    "{tool_call:[" + _QG + "name" + _QG + "]}",
    "{user:{name:" + _QG + "bob" + _QG + "},function:{title:" + _QG + "x" + _QG + "}}"])
def test_arguments_that_only_mention_a_name_are_no_envelope(body):
    assert [c.ok for c in _checked(f"<|tool_call>call:log{body}<tool_call|>")] == [True]


def test_a_tool_whose_arguments_are_a_name_and_parameters_is_called_when_given():
    tools = [{"type": "function", "function": {"name": "create", "parameters": {
        "type": "object", "properties": {"name": {"type": "string"}, "parameters": {"type": "object"}}}}}]
    text = "<|tool_call>call:create{name:" + _QG + "f" + _QG + ", parameters:{a:1}}<tool_call|>"
    assert [(c.name, c.ok) for c in _checked(text, tools=tools)] == [("create", True)]
    assert [(c.name, c.ok) for c in _checked(text)] == [("create", False)]  # (without tools: a guess)


_KIMI_F = '<|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>{"a": 1}<|tool_call_end|>'
_KIMI_G = '<|tool_call_begin|>functions.g:1<|tool_call_argument_begin|>{"b": 2}<|tool_call_end|>'
_DS_F = _DS_CALL + "function" + _DS_SEP + 'f\n```json\n{"a": 1}\n```' + _DS_END
_DS_G = _DS_CALL + "function" + _DS_SEP + 'g\n```json\n{"b": 2}\n```' + _DS_END


@pytest.mark.parametrize("first, second", [(_KIMI_F, _KIMI_G), (_DS_F, _DS_G)])
@pytest.mark.parametrize("close", ["", "<|tool_calls_section_end|>",
                                   "<\uff5ctool\u2581calls\u2581end\uff5c>"])
def test_prose_between_calls_no_section_holds_is_prose(first, second, close):
    """Kimi's and DeepSeek's calls written outside their section: the words between two calls
    are the model's prose, as a stream shows them, not an entry not ok (a section's closer
    later, its opener dropped, is no section the words stood in as they were read)."""
    text = first + " and then " + second + close
    calls = _checked(text, second[:14])
    assert [(c.name, c.ok) for c in calls] == [("f", True), ("g", True)]


@pytest.mark.parametrize("first, second, opener, shut", [
    (_KIMI_F, _KIMI_G, "<|tool_calls_section_begin|>", "<|tool_calls_section_end|>"),
    (_DS_F, _DS_G, "<\uff5ctool\u2581calls\u2581begin\uff5c>", "<\uff5ctool\u2581calls\u2581end\uff5c>")])
@pytest.mark.parametrize("close", [True, False])
def test_text_between_calls_in_a_section_is_an_entry_not_ok(first, second, opener, shut, close):
    text = opener + first + " and then " + second + (shut if close else "")
    calls = _checked(text)
    assert [(c.name, c.ok) for c in calls] == [("f", True), ("", False), ("g", True)]
    assert calls[1].raw_args == "and then" and "section" in (calls[1].error or "")
    # (a section closed before the words: they are prose after it)
    text = opener + first + shut + " and then " + second
    assert [(c.name, c.ok) for c in _checked(text)] == [("f", True), ("g", True)]


def test_many_calls_outside_a_section_read_in_linear_time():
    text = " so ".join(_KIMI_F.replace("f:0", f"f:{n}") for n in range(20_000))
    calls = parse_tool_calls(text, thinking=False)
    assert len(calls) == 20_000 and all(c.ok for c in calls)


@pytest.mark.parametrize("family", sorted(_FAMILIES))
@pytest.mark.parametrize("marks", ['""', "\u201c\u201d", "\u300c\u300d"])
def test_a_run_of_calls_in_quotation_marks_is_shown_not_made(family, marks):
    """A sentence quoting a call and the next, its opener dropped: the closing mark after the
    run shows the whole run quoted (before, both were read, ok)."""
    first, second, fmt = _FAMILIES[family]
    if family == "harmony":
        first = first[len("<|start|>assistant"):]
    text = f"He wrote {marks[0]}{first}{second}{marks[1]} in the chat, which is the format."
    assert _checked(text) == []
    closed = "</tool_calls>" if family == "hy_v3" else ""  # (one call alone, its block closed: quoted too)
    assert _checked(f"Write {marks[0]}{first}{closed}{marks[1]} to call it.") == []
    # (the mark left open: no quotation closes, the calls are the model's)
    assert [c.name for c in _checked(f"He wrote {marks[0]}{first}{second}")] == ["f", "g"]


@pytest.mark.parametrize("after", ["g{b:2} is what comes next", "g{b:2}", "Done{ok}. Bye", "g{b:2\n",
                                   'json{"b": 2}<tool_call|>', "g{b:}<tool_call|>", "g {b:2}<tool_call|>"])
def test_a_name_run_into_its_body_after_a_closer_is_a_call_only_whole_and_closed(after):
    """With its call word dropped as well as its opener (``g{..}``), a body is a call only when it
    reads whole and its family's closer ends it: anything else after a closer stays text."""
    assert [(c.name, c.ok) for c in _checked(_G1 + after)] == [("f", True)]
    fg = "<start_function_call>call:f{a:1}<end_function_call>"
    assert [(c.name, c.ok) for c in _checked(fg + after.replace("<tool_call|>", "<end_function_call>"))] \
        == [("f", True)]

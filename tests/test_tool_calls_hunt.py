"""Calls the text shows, quotes or frames, and calls it makes, in shapes people and models
write around them: Markdown lists, labels alone on their line, closers split over lines, CJK
quotation marks, HTML code, a tag's attribute without its value, a result the model made up.
The cases are read whole and streamed, and both must agree."""

from __future__ import annotations

import pytest

from toolmend import ToolCallStream, parse_tool_calls
from toolmend.recovery import ArgsDelta


def _hermes(name: str, args: str) -> str:
    return '<tool_call>{"name": "%s", "arguments": %s}</tool_call>' % (name, args)


CALL = _hermes("f", '{"a": 1}')
OTHER = _hermes("g", "{}")
BARE = '{"name": "f", "arguments": {"a": 1}}'


def _read(text: str, **kw: object) -> list[tuple[str, bool]]:
    return [(c.name, c.ok) for c in parse_tool_calls(text, **kw)]


def _streamed(text: str, **kw: object) -> list[tuple[str, bool, tuple[int, int]]]:
    whole = [(c.name, c.ok, c.span) for c in parse_tool_calls(text, **kw)]
    for size in (1, 4):
        s = ToolCallStream(**kw)
        for part in (text[k:k + size] for k in range(0, len(text), size)):
            s.feed(part)
        s.close()
        assert [(c.name, c.ok, c.span) for c in s.finish()] == whole
    return whole


@pytest.mark.parametrize("item", ["- ", "* ", "+ ", "1. ", "2) ", "  - ", "1.\u00a0"])
def test_a_call_in_a_list_item_under_framing_words_is_shown(item):
    for lead in ("For example:\n", "Never run this:\n", "For example:\n\n"):
        text = lead + item + CALL
        assert _read(text) == []
        for thinking in (None, False):
            assert _streamed(text, thinking=thinking) == []


@pytest.mark.parametrize("item", ["- ", "1. "])
def test_every_item_of_a_list_of_examples_is_shown(item):
    second = "2. " if item == "1. " else item
    text = "For example:\n" + item + CALL + "\n" + second + OTHER
    assert _read(text) == []
    assert _streamed(text, thinking=False) == []
    # (a line of its own after the examples: the calls after it are made)
    text += "\n\nNow the real one:\n" + OTHER
    assert _read(text) == [("g", True)]
    # (a list of calls under words that frame nothing is made)
    for lead in ("Steps:\n", "I'll do these:\n", "Here is the plan.\n", ""):
        text = lead + "1. " + CALL + "\n2. " + OTHER
        assert _read(text) == [("f", True), ("g", True)]
        assert len(_streamed(text, thinking=False)) == 2


@pytest.mark.parametrize("label", [
    "Don't:", "\u274c Don't:", "Do NOT:", "**Don't**", "Expected output:", "**Expected output:**",
    "Expected result:", "Anti-pattern:", "Not like this:", "Invalid:", "Invalid call:",
    "Wrong example", "**Wrong example**", "Incorrect usage", "**Incorrect**", "Example usage", "Bad example",
])
def test_a_label_alone_that_says_the_call_is_shown(label):
    for body in (CALL, BARE, "[f(a=1)]"):
        text = label + "\n" + body
        assert _read(text) == [], text
        assert _streamed(text, thinking=False) == []


def test_a_dont_and_do_pair_makes_neither_call():
    text = "Don't:\n" + CALL + "\nDo:\n" + _hermes("f", '{"a": 2}')
    assert _read(text) == []
    # (a label that says nothing of the call leaves it made)
    for label in ("Done", "Do it", "Good", "Weather", "Before:", "Bad news, it is missing. Creating it:"):
        assert _read(label + "\n" + CALL) == [("f", True)]


@pytest.mark.parametrize("closer", ["</tool_call\n>", "</tool_call\r\n>"])
def test_a_closer_split_over_lines_does_not_quote_the_call_after_it(closer):
    text = CALL.replace("</tool_call>", closer) + OTHER
    assert _read(text) == [("f", True), ("g", True)]
    for thinking in (None, False):
        assert [c[:2] for c in _streamed(text, thinking=thinking)] == [("f", True), ("g", True)]
    # (a quotation that opens its own line still quotes its call)
    assert _read("Hi\n> " + OTHER) == []
    assert _read(CALL + "\n> " + OTHER) == [("f", True)]


@pytest.mark.parametrize("text", [
    "<tool_call name=read_file args", "<tool_call name=read_file args ",
    "Reading it.\n<tool_call name=read_file args"])
def test_a_tag_cut_right_after_its_args_attribute_s_name_is_not_ok(text):
    assert _read(text) == [("read_file", False)]
    assert [c[:2] for c in _streamed(text, thinking=False)] == [("read_file", False)]


@pytest.mark.parametrize("text", ["<tool_call name=f args/>", "<tool_call name=f args />",
                                  "<tool_call name=f args></tool_call>"])
def test_an_args_attribute_written_with_no_value_is_no_empty_object(text):
    calls = parse_tool_calls(text + "\n<tool_call name=g args='{\"b\": 2}'/>")
    assert [(c.name, c.ok) for c in calls] == [("f", False), ("g", True)]
    assert "no value" in (calls[0].error or "")
    # (an empty value written is one: the arguments given as nothing)
    assert _read('<tool_call name=f args=""/>') == [("f", True)]


@pytest.mark.parametrize("left, right", [("\u300c", "\u300d"), ("\u300e", "\u300f"), ("\u201e", "\u201c")])
def test_a_call_between_corner_brackets_or_low_quotes_is_quoted(left, right):
    text = "\u4ed6\u8bf4" + left + CALL + right + "\u7136\u540e\n" + OTHER
    assert _read(text) == [("g", True)]
    for thinking in (None, False):
        assert [c[:2] for c in _streamed(text, thinking=thinking)] == [("g", True)]
    # (a bracket its call does not close is no quotation of it)
    assert _read(left + CALL) == [("f", True)]


@pytest.mark.parametrize("opener", ["<tool_response>", "<tool_result>", "[INST]"])
def test_a_result_or_turn_opened_alone_on_its_line_after_calls_ends_the_turn(opener):
    # the model made up a tool's result (its closer not yet written) and called again on it
    text = CALL + "\n" + opener + '\n{"temp": 20}\n' + OTHER
    assert _read(text) == [("f", True)]
    for thinking in (None, False):
        assert [c[:2] for c in _streamed(text, thinking=thinking)] == [("f", True)]
    # (named in a sentence, or before any call, it is text)
    assert _read(CALL + "\nIt comes in " + opener + " tags.\n" + OTHER) == [("f", True), ("g", True)]
    assert _read("It comes in\n" + opener + "\ntags.\n" + OTHER) == [("g", True)]


def test_arguments_streamed_stop_where_chatml_s_turn_opener_ends_the_body():
    # (Hermes-2-Theta writes <|im_start|> for </tool_call>: the body ends there, inside a string too)
    text = ('<tool_call>{"name": "f", "arguments": {"a": "x <|im_start|>assistant\n'
            '<tool_call>{"name": "g", "arguments": {}}</tool_call>')
    want = parse_tool_calls(text, thinking=False)
    assert want[0].raw_args == '{"a": "x'
    for size in (1, 4):
        s = ToolCallStream(thinking=False)
        events = []
        for part in (text[k:k + size] for k in range(0, len(text), size)):
            events += s.feed(part)
        events += s.close()
        assert s.finish() == want
        sent = "".join(e.arguments for e in events if isinstance(e, ArgsDelta) and e.index == 0)
        assert sent == want[0].raw_args


@pytest.mark.parametrize("tag", ["code", "pre", "CODE"])
def test_a_call_in_html_code_is_shown_as_in_a_code_span(tag):
    text = "Use <%s>%s</%s> to call it.\n" % (tag, CALL, tag) + OTHER
    assert _read(text) == [("g", True)]
    for thinking in (None, False):
        assert [c[:2] for c in _streamed(text, thinking=thinking)] == [("g", True)]
    # (a tag never closed quotes nothing, nor one closed only past a blank line: a sentence named it)
    assert _read("<%s>" % tag + CALL) == [("f", True)]
    assert _read("Wrap it in <%s> tags.\n\n%s\n\nThen </%s>." % (tag, CALL, tag)) == [("f", True)]


@pytest.mark.parametrize("label", ["<b>Example:</b>", "<strong>For example:</strong>", "<h3>Example</h3>",
                                   "<p>For example:</p>", "<i>e.g.</i>", "<B>Never run this:</B>",
                                   "<details><summary>Example</summary>", "<summary>Example call</summary>"])
def test_a_label_in_html_tags_frames_the_call_as_markdown_s_does(label):
    # (**Example:** did; <b>Example:</b> was taken for a line of markup, and the call was made)
    for gap in ("\n", "\n\n"):
        text = label + gap + CALL
        assert _read(text) == []
        assert _streamed(text, thinking=False) == []
    # tags around words that frame nothing leave the call made
    for label in ("<p>Here is the call:</p>", "<b>Reading the file:</b>", "<h3>Plan</h3>", "<p>Done.</p>"):
        assert _streamed(label + "\n" + CALL, thinking=False)[0][:2] == ("f", True)


_PARIS = '{"name": "get_weather", "parameters": {"city": "Paris"}}'
_ROME = '{"name": "get_weather", "parameters": {"city": "Rome"}}'


@pytest.mark.parametrize("call, again", [
    (_PARIS, _ROME), ('[get_weather(city="Paris")]', '[get_weather(city="Rome")]')])
@pytest.mark.parametrize("turn", [
    "<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n{again}",
    "<|eot_id|><|start_header_id|>ipython<|end_header_id|>\n\n{{\"temp\": 20}}<|eot_id|>",
    "<|im_end|><|im_start|>assistant\n{again}"])
def test_a_bare_call_whose_line_ends_in_a_turn_end_and_another_turn_is_the_call(call, again, turn):
    """A bare call, then a turn's end with the next turn run into its line (a Llama model whose stop
    token was not set writes on): the call is the model's, the turn after it is not (before, the
    call was lost and the one in the made-up turn read)."""
    text = call + turn.format(again=again)
    calls = parse_tool_calls(text)
    assert [(c.name, c.args, c.ok) for c in calls] == [("get_weather", {"city": "Paris"}, True)]
    for thinking in (None, False):
        stream = ToolCallStream(thinking=thinking)
        for k in range(0, len(text), 3):
            stream.feed(text[k:k + 3])
        assert stream.finish() == parse_tool_calls(text, thinking=thinking)


def _streamed_as_whole(text: str, **kw) -> list:  # type: ignore[no-untyped-def]
    calls = parse_tool_calls(text, **kw)
    for thinking in (None, False):
        stream = ToolCallStream(thinking=thinking, **kw)
        for k in range(0, len(text), 3):
            stream.feed(text[k:k + 3])
        assert stream.finish() == parse_tool_calls(text, thinking=thinking, **kw)
    return calls


def test_a_tag_whose_head_names_one_tool_and_body_calls_another_is_not_ok():
    """``<tool_call>get_weather\\n{"name": "get_time", ...}``: a GLM head before a Hermes body, two
    names (before, the body's call ran and the head was dropped); the same name is that call."""
    text = '<tool_call>get_weather\n{"name": "get_time", "arguments": {}}</tool_call>'
    (call,) = _streamed_as_whole(text)
    assert (call.name, call.ok) == ("get_weather", False) and "'get_time'" in (call.error or "")
    same = '<tool_call>get_weather\n{"name": "get_weather", "arguments": {"city": "P"}}</tool_call>'
    want = [("get_weather", True, {"city": "P"})]
    assert [(c.name, c.ok, c.args) for c in _streamed_as_whole(same)] == want
    label = '<tool_call>json\n{"name": "f", "arguments": {"a": 1}}\n</tool_call>'  # (a fence's word)
    assert [(c.name, c.ok) for c in _streamed_as_whole(label)] == [("f", True)]


_WEATHER = [{"type": "function", "function": {"name": "get_weather", "parameters": {
    "type": "object", "properties": {"city": {"type": "string"}}}}}]


@pytest.mark.parametrize("body", ["get_weather city=Paris", "get_weather Paris", "get_weather: Paris",
                                  "get_weather --city Paris", "get_weather\ncity=Paris"])
def test_a_tag_naming_a_given_tool_then_no_arguments_is_not_ok_never_lost(body):
    """With the tools given, a tag that names one of them and then writes its arguments in no
    format's way is an entry not ok in its place (before, it was lost while the call after it
    came back ok)."""
    glm = "<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Rome</arg_value>\n</tool_call>"
    calls = _streamed_as_whole(f"<tool_call>{body}</tool_call>\n{glm}", tools=_WEATHER)
    assert [(c.name, c.ok) for c in calls] == [("get_weather", False), ("get_weather", True)]
    assert calls[1].args == {"city": "Rome"}
    words = _streamed_as_whole(f"<tool_call>I think so</tool_call>\n{glm}", tools=_WEATHER)
    assert [(c.name, c.ok) for c in words] == [("get_weather", True)]  # (words: no tool named)


@pytest.mark.parametrize("cut", ["; {", '; {"', '; {"na', '; {"name', '; {"name"', '; {"name":'])
def test_a_llama3_call_then_the_next_cut_before_its_name_keeps_the_call(cut):
    """A message cut (its tokens ran out) right after ``;`` and the next object's first characters:
    the whole call before stands (before, it was lost with the one cut)."""
    calls = _streamed_as_whole('{"name": "a", "parameters": {"x": 1}}' + cut)
    assert [(c.name, c.ok, c.args) for c in calls] == [("a", True, {"x": 1})]


@pytest.mark.parametrize("text, want", [
    ('{"thought": "I need the weather.", "tool_calls": [{"name": "get_weather", '
     '"arguments": {"city": "Paris"}}]}', [("get_weather", True)]),
    ('```\n{"thought": "", "tool_calls": [{"name": "a", "arguments": {}}, '
     '{"name": "b", "arguments": {"x": 1}}]}\n```', [("a", True), ("b", True)]),
    ('{"thought": "none needed", "tool_calls": []}', []),
    ('{"thought": "x", "tool_calls": [{"name": "f", "arguments": {"a": 1}}, {"name": "g", "argu',
     [("f", True), ("g", False)]),
    # a thought that is no string, the members in another order, more of them: a message's data
    ('{"thought": 5, "tool_calls": [{"name": "f", "arguments": {}}]}', []),
    ('{"tool_calls": [{"name": "f", "arguments": {}}], "thought": "x"}', []),
    ('{"thought": "x", "role": "assistant", "tool_calls": [{"name": "f", "arguments": {}}]}', []),
    ('The model replied {"thought": "x", "tool_calls": [{"name": "f", "arguments": {}}]} which we log.', []),
])
def test_xlams_thought_then_its_calls_are_read(text, want):
    """xLAM-r's format, ``{"thought": "...", "tool_calls": [...]}`` (and LLM-jp-3's, prompted so): the
    calls are read as from ``{"tool_calls": [...]}`` alone (before, the thought made it data)."""
    assert [(c.name, c.ok) for c in _streamed_as_whole(text)] == want


@pytest.mark.parametrize("body, want", [
    ('{"a":<|"|>x<|"|>}', {"a": "x"}), ('{"a":<|"|>x<|"|>,"b":2}', {"a": "x", "b": 2}),
    ("{'a' : <|\"|>x<|\"|>}", {"a": "x"}), ('{"n":{"m":<|"|>v<|"|>}}', {"n": {"m": "v"}}),
    ('{"a\\u00e9":<|"|>x<|"|>}', {"a\u00e9": "x"}),
])
def test_a_gemma_key_in_json_quotes_before_a_value_in_the_formats_quotes_is_read(body, want):
    """Before, the value after such a key was taken for a key (the quoted key 'x' is not followed by
    a colon): the call was refused with a wrong reason."""
    (call,) = _streamed_as_whole(f"<|tool_call>call:f{body}<tool_call|>")
    assert call.ok and call.args == want


def test_a_gemma_key_in_json_quotes_that_is_no_json_string_is_refused_as_such():
    (call,) = _streamed_as_whole('<|tool_call>call:f{"a\\q":1}<tool_call|>')
    assert not call.ok and "key" in (call.error or "") and "JSON string" in (call.error or "")


@pytest.mark.parametrize("value, why", [("[1,2", "ends before its JSON closes"),
                                        ('{"k": 1', "ends before its JSON"), ("007", "is no number as JSON")])
def test_a_dsml_value_marked_json_that_is_not_says_why(value, why):
    text = ('<\uff5cDSML\uff5cfunction_calls>\n<\uff5cDSML\uff5cinvoke name="f">\n<\uff5cDSML\uff5cparameter '
            f'name="a" string="false">{value}</\uff5cDSML\uff5cparameter>\n</\uff5cDSML\uff5cinvoke>\n'
            '</\uff5cDSML\uff5cfunction_calls>')
    (call,) = _streamed_as_whole(text)
    assert not call.ok and why in (call.error or "")


@pytest.mark.parametrize("text", [
    '[TOOL_CALLS]get_weather[ARGS]{"name": "get_weather", "arguments": {"city": "Paris"}}',
    '<tool_call>\n{"name": "get_weather", "arguments": {"name": "get_weather", '
    '"arguments": {"city": "Paris"}}}\n</tool_call>',
    '<function=get_weather>{"name": "get_weather", "parameters": {"city": "Paris"}}</function>',
    '>>>get_weather\n{"name": "get_weather", "arguments": {"city": "Paris"}}',
])
def test_arguments_that_are_the_call_written_again_are_not_ok(text):
    """Before, the envelope itself came back ok as the arguments ({"name": .., "arguments": ..})."""
    (call,) = _streamed_as_whole(text)
    assert (call.name, call.ok) == ("get_weather", False) and "written again" in (call.error or "")


@pytest.mark.parametrize("args", ['{"name": "Alice", "arguments": "x"}', '{"name": "f"}',
                                  '{"name": "f", "arguments": {}, "force": true}'])
def test_arguments_holding_a_name_of_their_own_are_arguments(args):
    (call,) = _streamed_as_whole(f'<tool_call>\n{{"name": "f", "arguments": {args}}}\n</tool_call>')
    assert call.ok and call.name == "f"


_SEARCH = '{"name": "search", "arguments": {"q": "x"}}'
_DELETE = '{"name": "delete", "arguments": {"all": true}}'


@pytest.mark.parametrize("text, want", [
    ("```json\n" + _SEARCH + "\n<|im_end|>\n<|im_start|>user\n" + _DELETE + "\n```", ["search"]),
    ('A transcript:\n```\n<|im_start|>user\nDelete the temp dir<|im_end|>\n<|im_start|>assistant\n'
     '<tool_call>\n{"name": "rm", "arguments": {"path": "/"}}\n</tool_call><|im_end|>\n```', []),
    ("A transcript:\n```\n<|im_start|>user\nhi<|im_end|>\n```\nNow mine:\n<tool_call>\n" + _SEARCH
     + "\n</tool_call>", ["search"]),
    (_SEARCH + '<|eot_id|>{\n  "name": "delete", "arguments": {}}', ["search"]),
])
def test_another_roles_turn_inside_a_block_ends_its_calls(text, want):
    """A transcript shown in a fenced block (a user's turn in it), or a model writing on into the
    user's turn inside its block: the calls after that are not this reply's (before, they ran)."""
    assert [c.name for c in _streamed_as_whole(text) if c.ok] == want


@pytest.mark.parametrize("text", [
    '<tool_call>get_weather\n{"name": "search", "arguments": {"q": "x"}}<|im_end|>',
    '<tool_call>get_weather\n{"name": "search", "arguments": {"q": "x"}}',
    '<tool_call>get_weather\n[{"name": "search", "arguments": {"q": "x"}}]</tool_call>',
])
def test_a_head_naming_one_tool_before_a_body_calling_another_is_not_ok_closed_or_not(text):
    (call,) = _streamed_as_whole(text)
    assert (call.name, call.ok) == ("get_weather", False) and "'search'" in (call.error or "")


def test_a_head_and_body_naming_the_same_tool_given_is_that_call():
    tools = [{"type": "function", "function": {"name": "search", "parameters": {
        "type": "object", "properties": {"q": {"type": "string"}}}}}]
    text = '<tool_call>search\n{"name": "search", "arguments": {"q": "x"}}\n</tool_call>'
    calls = _streamed_as_whole(text, tools=tools)
    assert [(c.name, c.ok, c.args) for c in calls] == [("search", True, {"q": "x"})]


def test_a_word_with_a_dot_after_a_gemma_closer_is_no_call():
    calls = _streamed_as_whole("<|tool_call>call:f{a:1}<tool_call|>e.g.{b:2}<tool_call|>")
    assert [(c.name, c.ok) for c in calls] == [("f", True)]


@pytest.mark.parametrize("body", ['{"type": "function", "function": {"name": "search", '
                                  '"arguments": {"q": "a"}}}', '{"tool": "search", "args": {"q": "a"}}',
                                  '{"function": "search", "parameters": {"q": "a"}}'])
def test_a_glm_head_before_a_calls_envelope_is_not_ok(body):
    """<tool_call>fetch then a call in another envelope: the envelope came back as fetch's arguments."""
    (call,) = _streamed_as_whole(f"<tool_call>fetch\n{body}</tool_call>")
    assert (call.name, call.ok) == ("fetch", False) and "envelope" in (call.error or "")

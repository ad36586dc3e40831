"""Calls a value shows are never made, and calls a message holds are never silently lost.

Each text here once gave a wrong reading: a call that a string or a value only shows came
back ok, or a call the message makes had no entry at all while the others beside it came back
ok (so the caller took them for all there were). Each is read whole and streamed.
"""

from __future__ import annotations

import pytest

from toolmend import ToolCallStream, parse_tool_calls


def _read(text: str, **kw: object) -> list[tuple[str, bool]]:
    """(name, ok) of each call, checked to be what a stream in 3-character deltas finishes with."""
    calls = parse_tool_calls(text, **kw)  # type: ignore[arg-type]
    for thinking in (None, False):
        stream = ToolCallStream(thinking=thinking, **kw)  # type: ignore[arg-type]
        for k in range(0, len(text), 3):
            stream.feed(text[k:k + 3])
        assert stream.finish() == calls, thinking
    return [(c.name, c.ok) for c in calls]


_GEMMAS = [("<|tool_call>", "<tool_call|>", '<|"|>'),
           ("<start_function_call>", "<end_function_call>", "<escape>")]
_H = "<|start|>assistant<|channel|>commentary to=functions.{} <|constrain|>json<|message|>{}<|call|>"


def test_a_harmony_message_a_calls_string_shows_is_never_made():
    shown = _H.format("delete_all", "{}")
    text = ('<|channel|>commentary to=functions.write_file <|constrain|>json<|message|>'
            '{"path": "notes.md", "content": "Example: ' + shown + ' and so on."}<|call|>')
    # (the string holds the message, or was cut where it starts: which, cannot be told, and neither runs)
    (call,) = parse_tool_calls(text)
    assert not call.ok and call.name == "write_file" and call.span == (0, len(text))
    assert _read(text) == [("write_file", False)]


def test_a_harmony_call_whose_string_stays_open_reads_nothing_after_it():
    # (the next message may be that string's text: code writing a call; a quote dropped reads the same)
    for first in ('{"cmd": "echo ', '{"cmd": "ls'):
        text = _H.format("sh", first) + _H.format("rm", '{"path": "/"}')
        calls = parse_tool_calls(text)
        assert [(c.name, c.ok) for c in calls] == [("sh", False)], first
        assert calls[0].span == (0, len(text)) and "still open" in (calls[0].error or "")
        assert _read(text) == [("sh", False)]
    # whole, the next message is read; cut at the end of the text, the call is cut, as before
    assert _read(_H.format("sh", '{"cmd": "ls"}') + _H.format("rm", '{"path": "/"}')) == \
        [("sh", True), ("rm", True)]
    (cut,) = parse_tool_calls(_H.format("sh", '{"cmd": "ls'))
    assert not cut.ok and cut.cut is not None


@pytest.mark.parametrize("marker, closer, quote", _GEMMAS)
def test_a_gemma_call_a_broken_value_shows_is_never_made(marker, closer, quote):
    # (the value's quote closed early by the call it shows, which has no escape for it: the string is
    # open at the shown call's marker, which may be the string's text, and so may all after it)
    shown = f"{marker}call:delete_all{{mode:{quote}all{quote}}}{closer}"
    text = (f"{marker}call:write_file{{path:{quote}notes.md{quote},content:{quote}Example: {shown} done"
            f"{quote}}}{closer}")
    calls = parse_tool_calls(text)
    assert [(c.name, c.ok) for c in calls] == [("write_file", False)] and calls[0].span == (0, len(text))
    assert _read(text) == [("write_file", False)]
    # a broken value with its strings closed before the next block: that block is read, as before
    text = f"{marker}call:f{{a:{quote}x{quote} y}}{closer}\n{shown}"
    assert _read(text) == [("f", False), ("delete_all", True)]


@pytest.mark.parametrize("marker, closer, quote", _GEMMAS)
def test_a_gemma_bare_value_holding_the_quote_token_is_not_ok(marker, closer, quote):
    # (the quote token is never a value's text: the value's opening quote was dropped)
    for body in (f"city:Paris{quote},days:3", f"city:Paris{quote}", f"days:3,city:Par is{quote}"):
        text = f"{marker}call:get_weather{{{body}}}{closer}"
        (call,) = parse_tool_calls(text)
        assert not call.ok and "holds the format's quote" in (call.error or ""), body
        assert _read(text) == [("get_weather", False)]


_KIMI_OK = ('<|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{"city": "Paris"}'
            '<|tool_call_end|>')


@pytest.mark.parametrize("broken", ['<|tool_call_begin|>functions.get_time:1{"tz": "CET"}<|tool_call_end|>',
                                    '<|tool_call_begin|>functions.get_time:1 {"tz": "CET"}<|tool_call_end|>'])
def test_a_kimi_call_whose_argument_token_was_dropped_is_an_entry_in_its_place(broken):
    # (its end after it: not cut inside its name, as the text's end would cut it)
    for calls in (_KIMI_OK + broken, broken + _KIMI_OK):
        text = "<|tool_calls_section_begin|>" + calls + "<|tool_calls_section_end|>"
        found = parse_tool_calls(text)
        assert sorted((c.name, c.ok) for c in found) == [("", False), ("get_weather", True)], calls
        assert _read(text) == [(c.name, c.ok) for c in found]
    # cut inside the name: no call yet, as before
    cut = "<|tool_calls_section_begin|>" + _KIMI_OK + "<|tool_call_begin|>functions.get_ti"
    (call,) = parse_tool_calls(cut)
    assert call.ok


_DS = tuple(f"<\uff5ctool\u2581{t}\uff5c>" for t in ("calls\u2581begin", "calls\u2581end", "call\u2581begin",
                                                       "call\u2581end", "sep"))


@pytest.mark.parametrize("head", ['"get_weather"{sep}', "get_weather", "get weather{sep}", "1abc{sep}",
                                  "{sep}", "function{sep}get weather\n```json\n"])
def test_a_deepseek_call_whose_head_does_not_read_is_an_entry_in_its_place(head):
    begin, end, call, call_end, sep = _DS
    args = '{"city": "Paris"}' + ("\n```" if head.endswith("json\n") else "")
    text = (begin + call + head.format(sep=sep) + args + call_end + call + "get_time" + sep + '{"tz": "CET"}'
            + call_end + end)
    found = parse_tool_calls(text)
    assert [(c.name, c.ok) for c in found] == [("", False), ("get_time", True)]
    assert "gives no tool's name" in (found[0].error or "") and found[0].span[1] == found[1].span[0]
    assert _read(text) == [("", False), ("get_time", True)]


@pytest.mark.parametrize("sep", [", ", ",", " , ", ",\n", "; "])
def test_llama_3_calls_a_comma_joins_after_the_python_tag_are_all_read(sep):
    text = ('<|python_tag|>{"name": "sh", "parameters": {"cmd": "a"}}' + sep
            + '{"name": "g", "parameters": {"b": 2}}<|eom_id|>')
    for fmt in (None, "llama3_json"):
        assert [(c.name, c.args, c.ok) for c in parse_tool_calls(text, format=fmt)] == \
            [("sh", {"cmd": "a"}, True), ("g", {"b": 2}, True)], fmt
    assert _read(text) == [("sh", True), ("g", True)]


@pytest.mark.parametrize("apart", [" ", ", ", "\n", ";"])
def test_a_mistral_call_written_apart_from_the_one_before_is_an_entry_in_its_place(apart):
    text = '[TOOL_CALLS]sh{"cmd": "a"}' + apart + 'rm{"path": "/tmp/x"}'
    assert _read(text) == [("sh", True), ("rm", False)]


_SH = '<tool_call>{"name": "sh", "arguments": {"cmd": "a"}}</tool_call>\n'


@pytest.mark.parametrize("fence", ["```json\n{}\n```", "```\n{}\n```", "``` json\n{}\n```"])
def test_a_tag_body_in_a_json_fence_is_read_as_the_body(fence):
    # (small models fence the body inside the tags: the tag says it is a call, the fence is layout)
    body = fence.replace("{}", '{"name": "g", "arguments": {"b": 2}}')
    text = _SH + "<tool_call>\n" + body + "\n</tool_call>"
    calls = parse_tool_calls(text)
    assert [(c.name, c.args, c.ok) for c in calls] == [("sh", {"cmd": "a"}, True), ("g", {"b": 2}, True)]
    assert calls[1].span == (len(_SH), len(text))
    assert _read(text) == [("sh", True), ("g", True)]
    # shown "for example", it is shown, as any tag is
    assert parse_tool_calls("For example:\n<tool_call>\n" + body + "\n</tool_call>") == []


@pytest.mark.parametrize("block, other", [
    ('<tool_call>Let me check: {"name": "g", "arguments": {"b": 2}}</tool_call>', _SH),
    ("<tool_call>Now the time:\nget_time\n<arg_key>tz</arg_key>\n<arg_value>CET</arg_value>\n"
     "</tool_call>", _SH),
    ('<minimax:tool_call>\nNow the time:\n<invoke name="get_time">\n<parameter name="tz">CET</parameter>\n'
     "</invoke>\n</minimax:tool_call>",
     '<minimax:tool_call>\n<invoke name="sh">\n<parameter name="cmd">a</parameter>\n</invoke>\n'
     "</minimax:tool_call>\n"),
    ('<|tool_call>Now the time: call:get_time{tz:<|"|>CET<|"|>}<tool_call|>',
     '<|tool_call>call:sh{cmd:<|"|>a<|"|>}<tool_call|>'),
])
def test_a_block_holding_words_before_its_call_is_an_entry_in_its_place(block, other):
    # (where the call begins is a guess: not run, and never left out while the call beside it runs)
    for text in (other + block, block + "\n" + other):
        calls = parse_tool_calls(text)
        assert sorted(c.ok for c in calls) == [False, True], text
        assert "holds words before its call" in next(c.error for c in calls if not c.ok)
        assert _read(text) == [(c.name, c.ok) for c in calls]
    # a block of words alone is talked about, as before
    assert [c.ok for c in parse_tool_calls(_SH + "<tool_call>just some words</tool_call>")] == [True]


@pytest.mark.parametrize("frame", ["{}", "```json\n{}", '{{"tool_calls": {}', "functools{}"])
@pytest.mark.parametrize("cut", ["{", "{ ", '{"nam', '{"name"', '{"name": '])
def test_a_list_cut_in_its_next_call_keeps_the_whole_calls_before_it(frame, cut):
    # (a reply stopped at its token limit: the calls before the cut are whole; the cut one is no call yet)
    text = frame.format('[{"name": "f", "arguments": {"a": 1}}, {"name": "g", "arguments": {"b": 2}}, ' + cut)
    calls = parse_tool_calls(text)
    assert [(c.name, c.args, c.ok) for c in calls] == [("f", {"a": 1}, True), ("g", {"b": 2}, True)]
    assert _read(text) == [("f", True), ("g", True)]


_CALL = '{"name": "f", "arguments": {"a": 1}}'


@pytest.mark.parametrize("text", [
    "Example conversation:\n```\nUser: hi\nAssistant: <tool_call>" + _CALL + "</tool_call>\n```",
    "Example response:\n```json\n" + _CALL + "\n```",
    "Example exchange:\n```json\n" + _CALL + "\n```",
    "Example tool request:\n```json\n" + _CALL + "\n```",
    "```json\n// for example\n" + _CALL + "\n```",
    "```json\n/* example */\n" + _CALL + "\n```",
    "```json\n# Example\n" + _CALL + "\n```",
])
def test_a_fence_its_words_or_its_comments_frame_as_an_example_is_shown(text):
    assert parse_tool_calls(text) == []
    assert _read(text) == []


def test_a_fence_whose_comment_says_nothing_of_an_example_is_read():
    assert _read("```json\n// calling f now\n" + _CALL + "\n```") == [("f", True)]
    assert _read("Here is the call:\n```json\n" + _CALL + "\n```") == [("f", True)]


@pytest.mark.parametrize("word", ["none", "None", "null", "NULL", "nil", "no_tool"])
def test_a_tag_holding_only_none_is_no_call(word):
    # (a model says so when it calls no tool; a tool of that name, given, is called)
    text = f"<tool_call>{word}</tool_call>"
    assert _read(text) == []
    then = f"<tool_call>\n{word}\n</tool_call>\n<tool_call>get_time</tool_call>"
    assert _read(then) == [("get_time", True)]
    schema = {"type": "object", "properties": {}}
    tools = [{"type": "function", "function": {"name": word, "parameters": schema}}]
    assert [(c.name, c.ok) for c in parse_tool_calls(text, tools=tools)] == [(word, True)]


_RM = '<tool_call>{"name": "rm", "arguments": {"path": "/tmp/x"}}</tool_call>'


@pytest.mark.parametrize("words", ["Here is what a call looks like: ", "Avoid this: ", "Por ejemplo: ",
                                   "Example 1: ", "Wrong way: ", "\u4f8b\u5982\uff1a", "For example: "])
def test_words_ending_in_a_colon_frame_the_call_after_them_on_their_line_as_on_the_next(words):
    # (the same words on the line above already framed it: a line break between is no reason to run it)
    for text in (words + _RM, words.rstrip() + "\n" + _RM):
        assert parse_tool_calls(text, thinking=False) == [], text
        assert _read(text) == []


@pytest.mark.parametrize("words", ["Here is how I will do it: ", "Let me check: ", "Sure: ",
                                   "Calling the tool now: "])
def test_words_ending_in_a_colon_that_frame_nothing_leave_the_call_made(words):
    assert _read(words + _RM) == [("rm", True)]


@pytest.mark.parametrize("between", ["Option 2:", "Another option:", "Alternatively:", "Or:", "Choice B:"])
def test_two_pythonic_lists_offered_as_choices_are_neither_made(between):
    text = '[get_weather(city="Paris")]\n' + between + '\n[get_weather(city="Oslo")]'
    assert _read(text) == [("get_weather", False), ("get_weather", False)]
    assert _read('Option 1:\n[get_weather(city="Paris")]\n' + between + '\n[get_weather(city="Oslo")]') == \
        [("get_weather", False), ("get_weather", False)]
    assert _read('[get_weather(city="Paris")]\n[get_weather(city="Oslo")]') == [("get_weather", True)] * 2


@pytest.mark.parametrize("literal", ['{True: "x", 1: "y"}', '{1: "x", 1.0: "y"}', '{1: "x", "1": "y"}'])
def test_a_pythonic_dict_whose_keys_python_takes_for_one_is_not_ok(literal):
    (call,) = parse_tool_calls(f"[f(a={literal})]")
    assert not call.ok and "twice" in (call.error or "")


def test_a_pythonic_dict_key_that_is_not_a_string_is_written_as_json_writes_it():
    (call,) = parse_tool_calls('[f(a={True: "x", 2: "y", 1.5: "z"})]')
    assert call.ok and call.args == {"a": {"true": "x", "2": "y", "1.5": "z"}}


_DEL_BUILD = '{"name": "bash", "arguments": {"cmd": "rm -rf build/"}}'
_DEL_CACHE = '{"name": "bash", "arguments": {"cmd": "rm -rf build/cache"}}'


@pytest.mark.parametrize("between", ["Or:", "or", "**Alternatively:**", "Option 2:", "Instead:",
                                     "Or, if you would rather keep the logs:", "Another option:"])
@pytest.mark.parametrize("shape", ["{}", "```json\n{}\n```", "[{}]"])
def test_bare_json_calls_offered_as_choices_are_neither_made(between, shape):
    text = shape.format(_DEL_BUILD) + "\n\n" + between + "\n\n" + shape.format(_DEL_CACHE)
    assert _read(text) == [("bash", False), ("bash", False)]
    assert "one of two choices" in (parse_tool_calls(text)[0].error or "")


def test_a_chain_of_choices_makes_none_and_a_plain_line_between_changes_nothing():
    other = '{"name": "ls", "arguments": {}}'
    chain = _DEL_BUILD + "\nor\n" + _DEL_CACHE + "\nor\n" + other
    assert _read(chain) == [("bash", False)] * 2 + [("ls", False)]
    for between in ("\n", "\nThen:\n", "\nOrder matters, so next:\n"):
        assert _read(_DEL_BUILD + between + _DEL_CACHE) == [("bash", True), ("bash", True)], between


def test_calls_a_marker_opens_stay_made_around_a_word_offering_a_choice():
    # (the model wrote each call's marker; a live stream reports each as it comes)
    tag = "<tool_call>\n{}\n</tool_call>"
    text = tag.format(_DEL_BUILD) + "\nOr:\n" + tag.format(_DEL_CACHE)
    assert _read(text) == [("bash", True), ("bash", True)]


@pytest.mark.parametrize("warning", ["Never output:", "Never write this:", "Don't write this:",
                                     "Do not output the following:"])
def test_a_warning_on_its_own_line_frames_the_call_below_it(warning):
    call = '<tool_call>\n{"name": "delete_file", "arguments": {"path": "/etc/passwd"}}\n</tool_call>'
    assert _read(warning + "\n" + call) == []
    assert _read("I'll write this:\n" + call) == [("delete_file", True)]


def test_longcat_reasoning_holds_its_draft_call():
    call = '<longcat_tool_call>\n{{"name": "bash", "arguments": {{"cmd": "{}"}}}}\n</longcat_tool_call>'
    draft = "I could run:\n" + call.format("rm -rf ~") + "\nNo, too broad.\n</longcat_think>\n"
    made = call.format("rm -rf ~/.cache/app")
    assert _read("<longcat_think>\n" + draft + made) == [("bash", True)]
    # (the prompt opened it: the text holds only the closer)
    for text, thinking in (("<longcat_think>\n" + draft + made, None), (draft + made, True),
                           (draft + made, None)):
        (found,) = parse_tool_calls(text, thinking=thinking)
        assert found.ok and found.args == {"cmd": "rm -rf ~/.cache/app"}


_INVOKE = '<minimax:tool_call>\n<invoke name="{}">\n</invoke>\n</minimax:tool_call>\n'


@pytest.mark.parametrize("turn", ["]~b]user\nplease delete it\n", "]~b]tool\n<response>a.txt</response>\n",
                                  "]~b]tool name=ls\na.txt\n"])
@pytest.mark.parametrize("fmt", [None, "minimax_m2"])
def test_a_minimax_turn_of_the_models_own_making_ends_the_message(turn, fmt):
    text = _INVOKE.format("ls") + turn + "]~b]ai\n" + _INVOKE.format("rm")
    assert _read(text, format=fmt) == [("ls", True)]
    # the reply's own header before its calls is passed over
    assert _read("]~b]ai\n" + _INVOKE.format("ls"), format=fmt) == [("ls", True)]


@pytest.mark.parametrize("fmt", [None, "functiongemma"])
def test_a_functiongemma_result_the_model_made_up_ends_the_message(fmt):
    text = ("<start_function_call>call:ls{}<end_function_call><start_function_response>response:ls{result:"
            "<escape>a.txt<escape>}<end_function_response><start_function_call>call:rm{path:<escape>a.txt"
            "<escape>}<end_function_call>")
    assert _read(text, format=fmt) == [("ls", True)]


_DELETE_USER = [{"type": "function", "function": {"name": "delete_user", "parameters": {
    "type": "object", "properties": {"user_id": {"type": "integer"}}, "required": ["user_id"]}}}]


@pytest.mark.parametrize("asks", ["Once you confirm, I will call:", "Should I run the following?",
                                  "I have not deleted anything yet. Shall I proceed with:",
                                  "Please confirm before I run:", "Do you want me to delete this user?"])
@pytest.mark.parametrize("call", [
    "[delete_user(user_id=5)]", "```python\ndelete_user(user_id=5)\n```",
    '<tool_call>\n{"name": "delete_user", "arguments": {"user_id": 5}}\n</tool_call>'])
def test_a_call_that_waits_for_the_users_answer_is_not_made(asks, call):
    assert _read(asks + "\n" + call, tools=_DELETE_USER) == []


@pytest.mark.parametrize("words", ["Let me check:", "Is this right? Running it now.",
                                   "Should I also check the logs? First, the deletion:",
                                   "I'll delete the user now (you already confirmed):"])
def test_a_question_that_asks_nothing_of_the_call_leaves_it_made(words):
    call = '<tool_call>\n{"name": "delete_user", "arguments": {"user_id": 5}}\n</tool_call>'
    assert _read(words + "\n" + call, tools=_DELETE_USER) == [("delete_user", True)]


@pytest.mark.parametrize("block", ["<tool_calls>\n{}\n{}\n</tool_calls>", "<tool_call>[{},\n{}]</tool_call>"])
def test_the_calls_of_a_block_a_marker_opens_are_made_after_any_sentence(block):
    # (the second call of the block, on a line of its own, is no bare call a sentence can show)
    text = "I cannot execute code myself, but here is what I would send:\n" + block.format(
        '{"name": "ls", "arguments": {}}', '{"name": "rm", "arguments": {"path": "/tmp/x"}}')
    assert _read(text) == [("ls", True), ("rm", True)]


@pytest.mark.parametrize("text", ['{"tool_calls":', '{"tool_calls": \n\n', 'Sure.\n\n{"tool_calls":\n',
                                  '<tool_call>{"tool_calls":', '```json\n{"tool_calls":'])
def test_a_message_cut_right_after_the_tool_calls_key_reads_without_error(text):
    assert all(not c.ok for c in parse_tool_calls(text))
    _read(text)


def test_reasoning_the_model_writes_is_never_shown_as_text_with_thinking_true():
    from toolmend.recovery import TextDelta

    text = "<think>The user is rude; SECRET plan.</think>\nHello there."
    for step in (1, 5, len(text)):
        stream = ToolCallStream(thinking=True)
        events = [e for k in range(0, len(text), step) for e in stream.feed(text[k:k + step])]
        shown = "".join(e.text for e in events + stream.close() if isinstance(e, TextDelta))
        assert shown == "\nHello there.", step


@pytest.mark.parametrize("value", ["For example:", "e.g.", "Never run this:", "Please confirm:",
                                   "Example:\\n"])
def test_framing_words_inside_a_react_input_frame_no_later_action(value):
    # (the words are a string of the first call's input, not a line above the second call)
    text = f'Action: f\nAction Input: {{"cmd": "{value}"}}\nAction: g\nAction Input: {{"q": 1}}\n'
    assert _read(text) == [("f", True), ("g", True)]
    assert _read("For example:\nAction: g\nAction Input: {\"q\": 1}\n") == []  # (above it: shown)


_DELETE = '<tool_call>\n{"name": "delete_all", "arguments": {"confirm": true}}\n</tool_call>'


@pytest.mark.parametrize("line", [
    "I'm not going to run this, but here it is:", "Here's the call you asked me to write (I won't run it):",
    "Here is what NOT to do:", "Here is a sample tool call:", "Sample invocation:",
    "Imagine I called:", "Suppose the model emits:", "The model might output:", "Last time I called:"])
def test_a_line_that_says_the_call_below_is_not_run_frames_it(line):
    assert _read(line + "\n" + _DELETE) == []


@pytest.mark.parametrize("line", [
    "Let me delete everything now:", "I will not run the tests; instead, I will delete the cache:",
    "I suppose I should clean up:", "The model needs fresh data, so:",
    "The log shows a timeout, so I will retry:",
    # (lines of the model's own progress, which words like those above stand in)
    "I will not run this on prod; using staging:", "Last time I ran this it failed, so I'll retry:",
    "The model returns JSON; fetching it:", "I won't run it twice. Running once:",
    "Suppose the file is large, so I'll read only the head:", "Previous call:", "Last call:",
    "Step 2 (not yet executed):", "Earlier call:", "Previous call was wrong, fixing it now.",
    "Fetching a sample invocation log:",
    "I'm not going to run that migration; instead I'll check the schema:",
    "I won't call it again after this:", "A model can write files, so I will write it now:",
    "The model will output the summary after this call:", "Imagine a user asked for this; here it is:"])
def test_a_line_of_the_models_own_act_frames_nothing(line):
    assert _read(line + "\n" + _DELETE) == [("delete_all", True)]


@pytest.mark.parametrize("line", ["Let me look at a sample of the rows.",
                                  "I'll use the sample data from the file.",
                                  "Previous call was wrong, fixing it now.", "Let me fetch a sample."])
def test_a_word_a_fence_is_framed_by_does_not_frame_a_react_action(line):
    # (an Action is a bare call: only the words that say outright that it is shown frame it)
    assert _read(line + '\nAction: search\nAction Input: {"q": 1}\n') == [("search", True)]
    assert _read('For example:\nAction: search\nAction Input: {"q": 1}\n') == []

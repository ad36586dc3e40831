"""The XML-style families (Qwen3-Coder, Seed-OSS, MiniMax M2): parameters written where
no reading of the call is safe are refused, never dropped from an ok call; and a stream,
in any pieces, gives the calls of the whole text."""

from __future__ import annotations

import pytest

from toolmend import ToolCallStream, parse_tool_calls


def _streamed(text: str, size: int, thinking: bool | None,
              tools: object = None) -> list[tuple[str, object, bool]]:
    stream = ToolCallStream(tools=tools, thinking=thinking)
    for k in range(0, len(text), size):
        stream.feed(text[k:k + size])
    stream.close()
    return [(c.name, c.args, c.ok) for c in stream.finish()]


def _check_stream(text: str, tools: object = None) -> None:
    whole = [(c.name, c.args, c.ok) for c in parse_tool_calls(text, tools=tools)]
    for size in (1, 7):
        for thinking in (None, False):
            assert _streamed(text, size, thinking, tools) == whole


def _refused(text: str, name: str, said: str, whole_span: bool = False) -> None:
    """The text's one call, to ``name``, is not ok, saying ``said`` (spanning the whole text:
    what a value may hold is not read as calls), and a stream gives the same."""
    calls = parse_tool_calls(text)
    assert [(c.name, c.ok) for c in calls] == [(name, False)]
    assert said in (calls[0].error or "")
    assert not whole_span or calls[0].span == (0, len(text))
    _check_stream(text)


# a call without parameters, then in its block a parameter after the call's closer: the
# parameter was the call's or not, and an ok call without it would lose it
AFTER_EMPTY = [
    "<tool_call>\n<function=f>\n</function>\n<parameter=a>\nx\n</parameter>\n</tool_call>",
    "<seed:tool_call>\n<function=f>\n</function>\n<parameter=a>x</parameter>\n</seed:tool_call>",
    '<minimax:tool_call>\n<invoke name="f">\n</invoke>\n<parameter name="a">x</parameter>\n'
    "</minimax:tool_call>",
]


def test_call_without_parameters_alone_in_its_block_is_read() -> None:
    for text in ("<tool_call>\n<function=f>\n</function>\n</tool_call>\n",
                 "<tool_call>\n<function=f>\n</function>\n</tool_call>\nDone.\n<parameter=a> is the tag."):
        assert [(c.name, c.args, c.ok) for c in parse_tool_calls(text)] == [("f", {}, True)]
        _check_stream(text)


# a call its wrapper's closer ended (its </function> dropped), when </function> stands after
# it before any other call: a value may have held the wrapper's closer and more parameters
LATE_CLOSER = [
    "<tool_call>\n<function=f>\n<parameter=b>\nx</parameter></tool_call>\ny\n</parameter>\n"
    "<parameter=a>\nz\n</parameter>\n</function>\n</tool_call>",
    "<seed:tool_call>\n<function=f>\n<parameter=b>x</parameter></seed:tool_call>\ny\n</parameter>\n"
    "</function>\n</seed:tool_call>",
]


def test_dropped_function_closer_then_next_call_is_read() -> None:
    text = ("<tool_call>\n<function=f>\n<parameter=b>\nx\n</parameter>\n</tool_call>\n"
            "<tool_call>\n<function=g>\n<parameter=b>\ny\n</parameter>\n</function></tool_call>")
    calls = parse_tool_calls(text)
    assert [(c.name, c.args, c.ok) for c in calls] == [("f", {"b": "x"}, True), ("g", {"b": "y"}, True)]
    _check_stream(text)


TOOLS = [{"type": "function", "function": {"name": "f", "parameters": {
    "type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}}}}}]

# a value holding its own parameter's opening tag: read as dropped, the parameter comes twice
# (the same empty value) and the schema names it; read whole, the value is the tag. Either is a guess
OWN_TAG = [
    "<tool_call>\n<function=f>\n<parameter=b>\n<parameter=b>\n</parameter>\n</function>\n</tool_call>",
    '<minimax:tool_call>\n<invoke name="f">\n<parameter name="b"><parameter name="b"></parameter>\n'
    "</invoke>\n</minimax:tool_call>",
    "<tool_call>f<arg_key>b</arg_key><arg_value><arg_key>b</arg_key><arg_value></arg_value></tool_call>",
]


@pytest.mark.parametrize("text", OWN_TAG)
def test_value_holding_its_own_parameter_tag_is_refused(text: str) -> None:
    calls = parse_tool_calls(text, tools=TOOLS)
    assert [(c.name, c.ok) for c in calls] == [("f", False)]
    assert "gives a parameter twice" in (calls[0].error or "")
    _check_stream(text, TOOLS)


def test_dropped_closer_the_schema_decides_is_still_read() -> None:
    text = ("<tool_call>\n<function=f>\n<parameter=a>\nx\n<parameter=b>\ny\n</parameter>\n</function>\n"
            "</tool_call>")
    calls = parse_tool_calls(text, tools=TOOLS)
    assert [(c.name, c.args, c.ok) for c in calls] == [("f", {"a": "x", "b": "y"}, True)]


# a parameter in the block before the call's own tag: it was the call's or not, and an ok call
# without it would lose it
BEFORE_FUNCTION = [
    "<tool_call>\n<parameter=path>\na.txt\n</parameter>\n<function=write_file>\n<parameter=content>\nx\n"
    "</parameter>\n</function>\n</tool_call>",
    "<tool_call>\n<parameter=path>\na.txt\n</parameter>\n<function=write_file>\n</function>\n</tool_call>",
    "<seed:tool_call>\n<parameter=path>a.txt</parameter>\n<function=write_file>\n<parameter=content>x"
    "</parameter>\n</function>\n</seed:tool_call>",
]


SPANS_ITS_BLOCK = ([(t, "f", "without its </function>") for t in LATE_CLOSER]
                   + [(t, "write_file", "stands before <function=write_file>") for t in BEFORE_FUNCTION])


@pytest.mark.parametrize(("text", "name", "said"), SPANS_ITS_BLOCK)
def test_a_call_refused_for_what_stands_in_its_block_spans_the_block(text: str, name: str, said: str) -> None:
    _refused(text, name, said, whole_span=True)
    assert [(c.name, c.ok) for c in parse_tool_calls(text, format="qwen3_coder")] == [(name, False)]


def test_a_parameter_in_an_earlier_block_is_not_the_calls() -> None:
    # (the block holding a parameter and no call: a call lost, not ok; the next block's call is whole)
    text = ("<tool_call>\n<parameter=path>\na.txt\n</parameter>\n</tool_call>\n"
            "<tool_call>\n<function=f>\n<parameter=b>\ny\n</parameter>\n</function>\n</tool_call>")
    assert [(c.name, c.args, c.ok) for c in parse_tool_calls(text)] == \
        [("", None, False), ("f", {"b": "y"}, True)]
    _check_stream(text)


# DeepSeek's DSML invokes stand in a function_calls block: a parameter after an invoke's end
# inside the block was the call's or not (the stream holds the call until the next invoke or
# the block's end has come)
DSML_AFTER = [
    ('<｜DSML｜function_calls>\n<｜DSML｜invoke name="write_file">\n<｜DSML｜parameter name="content" '
     'string="true">x</｜DSML｜parameter>\n</｜DSML｜invoke>\n<｜DSML｜parameter name="path" string="true">'
     "a.txt</｜DSML｜parameter>\n</｜DSML｜function_calls>", "write_file", "may hold the call's closing tag"),
    ('<｜DSML｜tool_calls>\n<｜DSML｜invoke name="f">\n</｜DSML｜invoke>\n<｜DSML｜parameter name="a" '
     'string="true">x</｜DSML｜parameter>\n</｜DSML｜tool_calls>', "f", "follows the end of the call"),
]


# the same with the block's closer never come (the text cut, or the model stopped): the block
# goes on to the end of the text, and the parameter after the call's end is in it
NEVER_CLOSED = [
    ('<｜DSML｜function_calls>\n<｜DSML｜invoke name="write_file">\n<｜DSML｜parameter name="content" '
     'string="true">x</｜DSML｜parameter>\n</｜DSML｜invoke>\n<｜DSML｜parameter name="path" string="true">'
     "a.txt</｜DSML｜parameter>\n", "write_file", "may hold the call's closing tag"),
    ('<｜DSML｜tool_calls>\n<｜DSML｜invoke name="f">\n</｜DSML｜invoke>\n<｜DSML｜parameter name="a" '
     'string="true">x</｜DSML｜parameter>', "f", "follows the end of the call"),
    ('<minimax:tool_call>\n<invoke name="f">\n</invoke>\n<parameter name="a">x</parameter>\n', "f",
     "follows the end of the call"),
    ('<minimax:tool_call>\n<invoke name="f">\n<parameter name="b">1</parameter>\n</invoke>\n'
     '<parameter name="a">x</parameter>', "f", "may hold the call's closing tag"),
    ("<tool_call>\n<function=f>\n</function>\n<parameter=a>\nx\n</parameter>\n", "f",
     "follows the end of the call"),
    ("<seed:tool_call>\n<function=f>\n</function>\n<parameter=a>x</parameter>\n", "f",
     "follows the end of the call"),
    ('<tool_calls>\n<invoke name="f">\n</invoke>\n<parameter name="a">x</parameter>\n', "f",
     "follows the end of the call"),
]


# a parameter in the block before an invoke (after the block's opener, or between two invokes):
# it was that call's or not, and an ok call without it would lose it; a call is never lost for it
BEFORE_INVOKE = [
    ('<minimax:tool_call>\n<parameter name="path">a.txt</parameter>\n<invoke name="f">\n<parameter '
     'name="b">1</parameter>\n</invoke>\n</minimax:tool_call>', "f",
     "'path' stands before the invoke of 'f'"),
    ('<minimax:tool_call>\n<parameter name="path">a.txt</parameter>\n<invoke name="f">\n<parameter '
     'name="b">1</parameter>\n</invoke>\n', "f",
     "'path' stands before the invoke of 'f'"),
    ('<｜DSML｜function_calls>\n<｜DSML｜parameter name="path" string="true">a.txt</｜DSML｜parameter>\n'
     '<｜DSML｜invoke name="f">\n<｜DSML｜parameter name="b" string="true">1</｜DSML｜parameter>\n'
     '</｜DSML｜invoke>\n</｜DSML｜function_calls>', "f",
     "'path' stands before the invoke of 'f'"),
    ('<｜DSML｜tool_calls>\n<｜DSML｜parameter name="path" string="true">a.txt</｜DSML｜parameter>\n'
     '<｜DSML｜invoke name="f">\n<｜DSML｜parameter name="b" string="true">1</｜DSML｜parameter>\n'
     '</｜DSML｜invoke>\n', "f",
     "'path' stands before the invoke of 'f'"),
]


BESIDE_A_CALL = ([(text, "f", "follows the end of the call") for text in AFTER_EMPTY]
                 + DSML_AFTER + NEVER_CLOSED + BEFORE_INVOKE)


@pytest.mark.parametrize(("text", "name", "said"), BESIDE_A_CALL)
def test_a_parameter_beside_a_call_in_its_block_is_refused(text: str, name: str, said: str) -> None:
    _refused(text, name, said)


def test_a_block_never_closed_keeps_its_calls_without_a_parameter_after_them() -> None:
    # (the block's closer never came, and nothing after the calls' ends is a value's closer)
    for text in ('<｜DSML｜function_calls>\n<｜DSML｜invoke name="f">\n<｜DSML｜parameter name="a" '
                 'string="true">x</｜DSML｜parameter>\n</｜DSML｜invoke>\n',
                 '<minimax:tool_call>\n<invoke name="f">\n<parameter name="a">x</parameter>\n</invoke>\n'):
        assert [(c.name, c.args, c.ok) for c in parse_tool_calls(text)] == [("f", {"a": "x"}, True)]
        _check_stream(text)


def test_a_parameter_between_two_invokes_makes_both_not_ok() -> None:
    text = ('<｜DSML｜tool_calls>\n<｜DSML｜invoke name="g">\n</｜DSML｜invoke>\n'
            '<｜DSML｜parameter name="path" string="true">a.txt</｜DSML｜parameter>\n'
            '<｜DSML｜invoke name="f">\n<｜DSML｜parameter name="b" string="true">1</｜DSML｜parameter>\n'
            '</｜DSML｜invoke>\n</｜DSML｜tool_calls>')
    calls = parse_tool_calls(text)
    assert [(c.name, c.ok) for c in calls] == [("g", False), ("f", False)]
    assert calls[0].span[1] <= calls[1].span[0]  # (each its own span)
    _check_stream(text)


def test_dsml_invokes_one_after_the_other_are_read() -> None:
    text = ('<｜DSML｜function_calls>\n<｜DSML｜invoke name="f">\n<｜DSML｜parameter name="a" string="true">x'
            '</｜DSML｜parameter>\n</｜DSML｜invoke>\n<｜DSML｜invoke name="g">\n<｜DSML｜parameter name="b" '
            'string="false">2</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜function_calls>')
    assert [(c.name, c.args, c.ok) for c in parse_tool_calls(text)] == \
        [("f", {"a": "x"}, True), ("g", {"b": 2}, True)]
    _check_stream(text)


# a call whose closer came, then at once a parameter of its format (and the closer again, or not):
# its arguments ran on past a closer written early, and the call read without them loses them
PAST_ITS_CLOSER = [
    "<tool_call>\n<function=f>\n<parameter=a>\nx\n</parameter>\n</function>\n</tool_call>\n"
    "<parameter=b>\ny\n</parameter>\n</function>\n</tool_call>",
    "<tool_call>\n<function=f>\n<parameter=a>\nx\n</parameter>\n</function>\n</tool_call>\n"
    "<parameter=b>\ny\n</parameter>",
    "<seed:tool_call>\n<function=f>\n<parameter=a>x</parameter>\n</function>\n</seed:tool_call>\n"
    "<parameter=b>y</parameter>\n</function>\n</seed:tool_call>",
    "<tool_call>f\n<arg_key>a</arg_key>\n<arg_value>x</arg_value>\n</tool_call>\n"
    "<arg_key>b</arg_key>\n<arg_value>y</arg_value>\n</tool_call>",
    "<tool_call>f\n<arg_key>a</arg_key>\n<arg_value>x</arg_value>\n</tool_call>\n"
    "<arg_key>b</arg_key>\n<arg_value>y</arg_value>",
    "<tool_call>f</tool_call><arg_key>b</arg_key><arg_value>y</arg_value></tool_call>",
    # (a call without parameters, then one after its block's closer: the call's, written late)
    "<tool_call>\n<function=f>\n</function>\n</tool_call>\n<parameter=a>\nx\n</parameter>\n",
    # LongCat writes GLM's form with its tags prefixed
    "<longcat_tool_call>f\n<longcat_arg_key>a</longcat_arg_key>\n<longcat_arg_value>x</longcat_arg_value>\n"
    "</longcat_tool_call>\n<longcat_arg_key>b</longcat_arg_key>\n<longcat_arg_value>y</longcat_arg_value>\n"
    "</longcat_tool_call>",
    "<longcat_tool_call>f\n<longcat_arg_key>a</longcat_arg_key>\n<longcat_arg_value>x</longcat_arg_value>\n"
    "</longcat_tool_call>\n<longcat_arg_key>b</longcat_arg_key>\n<longcat_arg_value>y</longcat_arg_value>",
    "<longcat_tool_call>f</longcat_tool_call><longcat_arg_key>b</longcat_arg_key>"
    "<longcat_arg_value>y</longcat_arg_value></longcat_tool_call>",
    "<longcat_tool_call>f\n<longcat_arg_key>a</longcat_arg_key>\n<longcat_arg_value>x</longcat_arg_value>\n"
    "</longcat_tool_call>  \n\t<longcat_arg_value>y</longcat_arg_value>",
    # a parameter after the closer of a block of invokes: Claude's, MiniMax M2's, DSML's, Step-3's
    '<function_calls>\n<invoke name="f">\n<parameter name="a">x</parameter>\n</invoke>\n</function_calls>\n'
    '<parameter name="b">y</parameter>',
    '<minimax:tool_call>\n<invoke name="f">\n<parameter name="a">x</parameter>\n</invoke>\n'
    '</minimax:tool_call>\n<parameter name="b">y</parameter>\n'
    "</minimax:tool_call>",
    '<\uff5cDSML\uff5cfunction_calls>\n<\uff5cDSML\uff5cinvoke name="f">\n'
    '<\uff5cDSML\uff5cparameter name="a" string="true">x</\uff5cDSML\uff5cparameter>\n'
    '</\uff5cDSML\uff5cinvoke>\n</\uff5cDSML\uff5cfunction_calls>\n'
    '<\uff5cDSML\uff5cparameter name="b" string="true">y</\uff5cDSML\uff5cparameter>',
    "<\uff5ctool_calls_begin\uff5c><\uff5ctool_call_begin\uff5c>function<\uff5ctool_sep\uff5c>"
    '<steptml:invoke name="f">\n<steptml:parameter name="a">x</steptml:parameter>\n</steptml:invoke>'
    "<\uff5ctool_call_end\uff5c><\uff5ctool_calls_end\uff5c>\n"
    '<steptml:parameter name="b">y</steptml:parameter>',
]


@pytest.mark.parametrize("text", PAST_ITS_CLOSER)
def test_a_parameter_right_after_a_calls_closer_is_refused(text: str) -> None:
    _refused(text, "f", "goes on with a parameter")
    for size in (1, 7):  # and the live stream never reports it finished before the end
        stream = ToolCallStream(thinking=False)
        events = [e for k in range(0, len(text), size) for e in stream.feed(text[k:k + size])]
        assert not [e for e in events if type(e).__name__ == "CallFinished"]


def test_the_call_after_a_parameter_past_a_closer_is_read() -> None:
    text = ("<tool_call>f\n<arg_key>a</arg_key>\n<arg_value>x</arg_value>\n</tool_call>\n"
            "<arg_key>b</arg_key>\n<arg_value>y</arg_value>\n</tool_call>\n"
            "<tool_call>g\n<arg_key>c</arg_key>\n<arg_value>z</arg_value>\n</tool_call>")
    calls = parse_tool_calls(text)
    assert [(c.name, c.args, c.ok) for c in calls] == [("f", None, False), ("g", {"c": "z"}, True)]
    assert calls[0].span == (0, text.index("\n<tool_call>g"))
    _check_stream(text)


def test_prose_or_a_call_after_a_closer_leaves_the_call_ok() -> None:
    for after in ("\nDone: <arg_key> is GLM's key tag.", "\n<tool_call>g</tool_call>", "\n\n"):
        text = "<tool_call>f\n<arg_key>a</arg_key>\n<arg_value>x</arg_value>\n</tool_call>" + after
        assert (parse_tool_calls(text)[0].args, parse_tool_calls(text)[0].ok) == ({"a": "x"}, True)
        _check_stream(text)
    for after in ("\nDone: <longcat_arg is cut.", "\n<longcat_tool_call>g</longcat_tool_call>", "\n\n"):
        text = ("<longcat_tool_call>f\n<longcat_arg_key>a</longcat_arg_key>\n<longcat_arg_value>x"
                "</longcat_arg_value>\n</longcat_tool_call>" + after)
        assert (parse_tool_calls(text)[0].args, parse_tool_calls(text)[0].ok) == ({"a": "x"}, True)
        _check_stream(text)


@pytest.mark.parametrize("text", [
    '<function_calls>\n<invoke name="run">\n<parameter name="cmd">ls</parameter>\n</invoke>\n'
    "</function_calls><arg_value>x",
    '<minimax:tool_call>\n<invoke name="run">\n<parameter name="cmd">ls</parameter>\n</invoke>\n'
    "</minimax:tool_call>\n<arg_key>b</arg_key>",
])
def test_a_tag_of_another_format_after_a_blocks_closer_is_no_parameter_of_its_call(text: str) -> None:
    # (GLM's tags are no parameter of an invoke: the parse and the stream both leave the call ok)
    calls = parse_tool_calls(text, thinking=False)
    assert [(c.name, c.args, c.ok) for c in calls] == [("run", {"cmd": "ls"}, True)]
    _check_stream(text)


# a value with no closing tag anywhere after it, and the call short of one of its own closers too:
# the text may be cut inside the value right after a closer it holds (a file showing the format)
UNCLOSED_AND_SHORT = [
    "<tool_call>\n<function=run>\n<parameter=cmd>\nabc</function>",
    "<tool_call>\n<function=run>\n<parameter=cmd>\nabc</function>\nmore",
    "<tool_call>\n<function=run>\n<parameter=cmd>\nA</tool_call>",
    "<tool_call>\n<function=run_query>\n<parameter=sql>\nSELECT * FROM users\n</tool_call>",
    "<seed:tool_call>\n<function=run>\n<parameter=cmd>\nA</function>",
    "<tool_call>\n<function=run>\n<parameter=a>\nx\n</parameter>\n<parameter=cmd>\nA</function>",
]


@pytest.mark.parametrize("text", UNCLOSED_AND_SHORT)
def test_a_value_without_its_closer_in_a_call_short_of_its_own_is_refused(text: str) -> None:
    _refused(text, text.split("<function=")[1].split(">")[0], "has no closing tag </parameter>")


@pytest.mark.parametrize("text", [
    "<tool_call>\n<function=run>\n<parameter=cmd>\nabc\n</function>\n</tool_call>",
    "<tool_call>\n<function=run>\n<parameter=cmd>\nabc\n</function>\n</tool_call>\nDone.",
    "<function=run>\n<parameter=cmd>\nabc\n</function>",
])
def test_a_value_without_its_closer_in_a_call_whole_is_read(text: str) -> None:
    assert [(c.name, c.args, c.ok) for c in parse_tool_calls(text)] == [("run", {"cmd": "abc"}, True)]
    _check_stream(text)

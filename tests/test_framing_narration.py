"""Words that frame a call as shown, and words that only narrate what the model does next.

A line before a call that says what the model looks for next ("Let me search the code for
existing examples:", "I'll grab a sample config:") holds framing words of what it looks for,
not of the call: the call after it is made. Before, such calls were dropped while the calls
around them came back ok. And the words that frame a bare call as shown ("## Example",
"Don't:", "Fake call:") frame a fenced one too: before, a fenced call under them ran.
"""

from __future__ import annotations

import pytest

from toolmend import ToolCallStream, parse_tool_calls

_W = '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>'
_S = '<tool_call>\n{"name": "search", "arguments": {"query": "react hooks"}}\n</tool_call>'
_F = '```json\n{"name": "search", "arguments": {"query": "x"}}\n```'
_Q = "<tool_call>\n<function=search>\n<parameter=query>\nx\n</parameter>\n</function>\n</tool_call>"


def _names(text: str) -> list[str]:
    """The names of the calls ok in ``text``, checked to be what every stream of it finishes with."""
    calls = parse_tool_calls(text)
    for thinking in (None, False):
        want = parse_tool_calls(text, thinking=thinking)
        stream = ToolCallStream(thinking=thinking)
        for k in range(0, len(text), 5):
            stream.feed(text[k:k + 5])
        stream.close()
        assert stream.finish() == want
    return [c.name for c in calls if c.ok]


@pytest.mark.parametrize("line, call", [
    ("Let me search the codebase for existing examples:", _S),
    ("I'll search for popular frameworks (e.g. React, Vue):", _S),
    ("Now let me see what the error was:", _S),
    ("Let me look for examples:", _S),
    ("Let me look up how to use the API:", _S),
    ("For example.com, I'll fetch:", _S),
    ("I would like to search for this:", _F),
    ("Let me check the file format:", _F),
    ("I'll grab a sample config:", _F),
    ("Okay, let me fetch mock data:", _F),
    ("Let me check the file format:", _Q),
])
def test_a_line_narrating_the_models_next_look_frames_no_call(line, call):
    assert _names(line + "\n" + call) == ["search"]
    assert _names(_W + "\n" + line + "\n" + call) == ["get_weather", "search"]


@pytest.mark.parametrize("line", ["## Example", "Anti-pattern:", "Don't:", "Example 1:", "Hypothetical call:",
                                  "Fake call:", "Expected output:", "Bad example:", "Invalid call:"])
@pytest.mark.parametrize("fence", ["```xml", "```", "```text"])
def test_the_words_that_frame_a_bare_call_frame_a_fenced_one(line, fence):
    text = "The search tool takes a query.\n\n" + line + "\n" + fence + "\n" + _Q + "\n```\n"
    assert _names(text) == []


@pytest.mark.parametrize("line, call", [
    ("Let me show you an example:", _F),
    ("If I had access, I would search for examples like:", _S),
    ("Let me search, but I won't run it. For example:", _S),
    ("I'll search for it. Here is how you would call it:", _F),
    ("For example:", _S),
])
def test_a_line_that_shows_a_call_still_does_so(line, call):
    assert _names(line + "\n" + call) == []


_BARE = '{"name": "search", "parameters": {"query": "x"}}'


@pytest.mark.parametrize("line", [
    "I don't have access to tools, but the call would be:",
    "If I had access to tools, I would call:",
    "Here is how a tool call in the Hermes format looks:",
    "This is what the model outputs:",
    "In the Hermes format, a call is written as:",
    "Earlier I called:",
    "Last time, I made this call:",
    "I do not have access to a search tool. Here is the call you could make:",
])
@pytest.mark.parametrize("call", [_S, _BARE])
def test_a_call_imagined_remembered_or_shown_as_the_format_is_not_made(line, call):
    assert _names(line + "\n" + call) == []


@pytest.mark.parametrize("line", ["Let me check the weather:", "I'll call the search tool now:",
                                  "The request looks good, calling:", "Here is the call:",
                                  "If I had more time I would refactor; for now I'll call:",
                                  "Earlier I ran the tests and they failed, so I'll retry:"])
def test_a_line_before_a_call_the_model_makes_frames_nothing(line):
    assert _names(line + "\n" + _S) == ["search"]


@pytest.mark.parametrize("line", [
    "Let me check the logs. The previous call was:", "Let me check. Example call:",
    "Let me verify. Wrong way:",
    "I'll read the docs. Incorrect:", "Let me check. Don't:", "I'll search; for example the call would be:",
    "Let me create a sample config (this is just an illustration, not run):",
    "I don't have access to tools, but the call would be:",
])
def test_the_last_sentence_of_a_line_decides_whether_it_narrates(line):
    """A line that opens with the model's own look but then frames the call ("Let me check. Example
    call:") frames it: its last sentence says so (before, the opening exempted the whole line)."""
    assert _names(line + "\n" + _S) == []


@pytest.mark.parametrize("line", [
    "Good, that worked. Let me search the code for existing examples:",
    "Great question! Let me look up some examples:",
    "To answer this, let me look up some examples:", "Searching the code for existing examples:",
    "That was the incorrect directory. Trying again:", "You're right:", "That's correct:",
    "Next I'll call the weather API to see how the forecast looks:",
    "Based on the user's question, the appropriate call would be:",
])
def test_a_line_whose_last_sentence_is_the_models_own_act_frames_nothing(line):
    assert _names(line + "\n" + _S) == ["search"]



@pytest.mark.parametrize("line", [
    "Let me create an example tool call for you:", "Let me get an example request for you:",
    "Let me generate a mock call:", "I'll generate a sample output:", "Let me list a sample call:",
    "Let me see, the previous call was:", "Checking the log, the call was:",
    "Let me check: Earlier I called:",
    "Let me look at what the model outputs:", "Let me verify, the incorrect call:",
    "Looking at the docs, a call looks like this:", "If I had access to tools, I'd call:",
    "Had I access to tools, I would call:", "If tools were available, I would call:",
    "Here is how a tool call should look:", "This is what the assistant outputs:", "The model outputs:",
    "A tool call is formatted as:", "You could make this call:", "I called this earlier:",
    "Yesterday I called:",
    "I don't have tool access:", "# Example Tool Call", "## Example 1: Searching",
    "### Example usage of search",
])
@pytest.mark.parametrize("call", [_S, _BARE])
def test_a_call_shown_made_imagined_or_recalled_in_the_models_own_words_is_not_made(line, call):
    """A sentence that opens like the model's own look but makes or recalls the call it shows
    ("Let me create an example call for you:", "Checking the log, the call was:") frames it."""
    assert _names(line + "\n" + call) == []

"""The scan's token search tries the token pattern only where one of its
alternatives can begin (line starts, a few characters, the markers that begin
with a letter): it must find exactly the match a search of the whole pattern
finds, for every format, from any position, within any limit."""

from __future__ import annotations

import json
import pathlib

import pytest
from hypothesis import given, settings, strategies as st

from toolmend import parse_tool_calls
from toolmend.recovery._formats import _ALL, FORMATS, MARKERS, _hermes, _readers
from toolmend.recovery._formats._base import Ctx
from toolmend.recovery._formats._context import ROLE_HEAD, TURN_ENDS, TURN_OPENERS
from toolmend.recovery._formats._scan import REASONING, Scanner
from toolmend.recovery._formats._tokens import ROLE_PAIRS

DATA = pathlib.Path(__file__).parent / "data" / "tool_calls"
MESSAGES = [json.loads(line)["text"] for name in ("calls.jsonl", "families.jsonl", "decoys.jsonl")
            for line in (DATA / name).read_text(encoding="utf-8").splitlines() if line.strip()]
KINDS = [_ALL, *FORMATS.values()]

# pieces the texts are made of: every marker, the reasoning markers in both cases,
# the anchored starts, and prose around them
PIECES = sorted({*MARKERS, *REASONING, *REASONING.values(), *(o.upper() for o in REASONING),
                 "<tool_call>", "<TOOL_CALL>", "</tool_call>", "<tool_response>", "```json\n", "~~~\n",
                 "\n", "\n  ", "\t", " ", "{", "[", "[f(a=1)]", ">>>", ">>> get(", '{"name": "x"}',
                 "Action", "functool", "function call", "A", "f", "text ", "`", "``", "\u25c1"})


def _same(kinds, text, pos, limit):
    readers, token = _readers(kinds)
    scanner = Scanner(text, Ctx(None, None), kinds, readers, token)
    want = token.pattern.search(text, pos, limit)
    got = scanner.next_token(pos, limit)
    assert (got and (got.span(), got.lastgroup)) == (want and (want.span(), want.lastgroup)), \
        (text[pos:limit], pos, limit)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=30), st.data())
def test_the_search_finds_what_the_whole_pattern_finds(pieces, data):
    text = "".join(pieces)
    kinds = data.draw(st.sampled_from(KINDS))
    pos = data.draw(st.integers(0, len(text)))
    limit = data.draw(st.integers(pos, len(text)))
    _same(kinds, text, pos, limit)


# what the alternatives' first two characters are told apart by: the role heads, the turns'
# ends and openers, every marker, and letters that fold to ASCII ones under re.IGNORECASE
# (the long s, the Kelvin sign, the dotted and dotless i) where a marker's letter stands
ROLE_PIECES = ["<|im_start|>user\n", "<|im_start|>assistant\n", "<|start_of_role|>user<|end_of_role|>",
               "<|start|>user<|message|>", "<|im_user|>", "<|user_start|>", "<seed:bos>system\n",
               "<|start_header_id|>user<|end_header_id|>\n", "<|header_start|>user<|header_end|>\n",
               "<start_of_turn>user\n", "<|turn>user\n", "<|START_OF_TURN_TOKEN|><|USER_TOKEN|>",
               "<\uff5cUser\uff5c>", '<|open|>message role="user"<|sep|>']
FOLDED = ["<\u017fEED:THINK>", "<THIN\u212a>", "<th\u0131nk>", "<TH\u0130NK>", "<\u212a", "[\u017f",
          "<\u4e00", "`\u00e9", "<\uff5c"]


@settings(max_examples=600, deadline=None)
@given(st.lists(st.sampled_from(PIECES + ROLE_PIECES + FOLDED + list(TURN_ENDS) + list(TURN_OPENERS)),
                max_size=12), st.data())
def test_the_alternatives_tried_where_two_characters_stand_match_as_the_whole_pattern(pieces, data):
    text = "".join(pieces)
    token = _readers(data.draw(st.sampled_from(KINDS)))[1]
    limit = data.draw(st.integers(0, len(text)))
    for p in range(limit + 1):
        got, want = token.match(text, p, limit), token.whole(text, p, limit)
        assert (got and (got.span(), got.lastgroup)) == (want and (want.span(), want.lastgroup)), (text, p)


def test_every_role_head_begins_with_the_pairs_the_search_tries_it_at():
    for head in ROLE_PIECES:
        m = ROLE_HEAD.match(head)
        assert (m is not None) == ("assistant" not in head) and head[:2] in ROLE_PAIRS, head
    # each alternative of the head's pattern opens with one of the pairs, written out
    for alt in ROLE_HEAD.pattern.split("|<"):
        opened = alt if alt.startswith("<") else "<" + alt
        assert opened.startswith(("<\\|", "<s", "<\uff5c")), alt


def test_every_corpus_message_from_every_token_on():
    """The scan's own sequence of searches, on every message: from each match's
    end to the next, as the scan asks (one scanner a message, its cache kept)."""
    readers, token = _readers(_ALL)
    for text in MESSAGES:
        scanner = Scanner(text, Ctx(None, None), _ALL, readers, token)
        pos = 0
        while True:
            want = token.pattern.search(text, pos, len(text))
            got = scanner.next_token(pos, len(text))
            assert (got and got.span()) == (want and want.span()), (text, pos)
            if want is None:
                break
            pos = max(want.end(), want.start() + 1)


# -- the everyday <tool_call> body read with one parse: the same calls as the general reader

BODIES = [
    '{"name": "f", "arguments": {"a": 1}}',
    '{"id": "c1", "name": "f", "arguments": {"a": [1, 2, {"b": null}]}}',
    '{ "name" : "f" ,\n "arguments" : { } }',
    '{"name": "f", "arguments": {"a": 1}, "id": "x"}',            # arguments not last
    '{"name": "f", "arguments": {"a": 1}, "arguments": {"b": 2}}',  # twice
    '{"name": "f", "name": "g", "arguments": {}}',
    '{"name": "f", "arguments": "{\\"a\\": 1}"}',                 # a string of JSON
    '{"name": "f", "arguments": {"s": "</tool_call> inside"}}',
    '{"name": "f", "arguments": {"s": "<tool_call> inside"}}',
    '{"name": "f", "arguments": {"n": 123456789012345678901234567890}}',
    '{"name": "f", "arguments": {a: 1}}',
    '{"name": "f", "arguments": {"a": 1,}}',
    '{"name": "TOOL_NAME", "arguments": {}}',
    '{"name": "f", "arguments": {...}}',
    '{"name": "f\\u00e9", "arguments": {}}',
    '{"name": "f", "type": "function", "arguments": {}}',
    '{"name": "f", "arguments": []}',
    '{"name": "f", "arguments": {"a": 1}',
    '[{"name": "f", "arguments": {}}, {"name": "g", "arguments": {}}]',
]


@pytest.mark.parametrize("body", BODIES)
@pytest.mark.parametrize("closer", ["</tool_call>", "\n</tool_call>", "</TOOL_CALL>", "</tool_call >", ""])
def test_the_one_parse_reading_gives_the_general_readers_calls(monkeypatch, body, closer):
    after = '<tool_call>{"name": "h", "arguments": {}}</tool_call>'
    text = f"Sure.\n<tool_call>\n{body}{closer}\nafter {after}"
    fast = parse_tool_calls(text)
    monkeypatch.setattr(_hermes, "_whole_call", lambda *a: None)
    assert parse_tool_calls(text) == fast


# -- a tag's head searched for the next tag a window at a time: the same calls as one search

TAG_PIECES = ["<tool_call", ' name="f"', " args='", '{"a": 1}', "'", ">", "/>", "</tool_call>", " ",
              "x" * 7, '"', "=", "<tool_call>", '{"name": "g", "arguments": {}}']


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(TAG_PIECES), min_size=1, max_size=14), st.sampled_from([1, 2, 3, 5, 8, 13]))
def test_the_next_tag_searched_in_windows_gives_the_same_calls(pieces, window):
    text = "".join(pieces)
    saved = _hermes._TAG_WINDOW
    try:
        _hermes._TAG_WINDOW = window
        windowed = parse_tool_calls(text)
        _hermes._TAG_WINDOW = 10**9
        assert windowed == parse_tool_calls(text)
    finally:
        _hermes._TAG_WINDOW = saved

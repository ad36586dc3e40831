"""The framing words (``_context.Words``) find in ASCII text, lowered and searched
case-sensitively, exactly what the pattern finds case-insensitively.

That holds when the pattern's letters are lower-case (a literal or a range of
upper-case ones would miss in lowered text), it sets no flag inline (a part made
case-sensitive would start to match upper-case text once lowered), and none of its
other characters folds to an ASCII one under IGNORECASE (the Kelvin sign matches
"k"). Each pattern is checked for those, then searched both ways on generated text
made of its own words in every case.
"""

from __future__ import annotations

import re
import string

import pytest
from hypothesis import given, settings, strategies as st

from toolmend.recovery._formats import _context
from toolmend.recovery._formats._context import Words

_PATTERNS = {name: value for name, value in vars(_context).items() if isinstance(value, Words)}

try:  # (the regular expression parser: re._parser since 3.11, sre_parse before)
    from re import _constants as _c, _parser as _p  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover
    import sre_constants as _c  # type: ignore[no-redef]
    import sre_parse as _p  # type: ignore[no-redef]


_REPEATS = {getattr(_c, n) for n in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT") if hasattr(_c, n)}
# the characters beyond ASCII that IGNORECASE may fold to an ASCII letter (the Kelvin sign, the
# long s, the dotted and dotless i...), or near them: none may stand in a pattern searched lowered
# (no character past the Basic Multilingual Plane has an ASCII case)
_FOLDS = {c for c in range(128, 0x10000)
          if any(x.isascii() and x.isalpha() for x in (chr(c).lower()[:1], chr(c).upper()[:1]))}


def _walk(items):  # noqa: ANN001, ANN202 - the parser's own tuples
    for op, av in items:
        yield op, av
        if op is _c.SUBPATTERN:
            yield from _walk(av[-1])
        elif op is _c.BRANCH:
            for alternative in av[1]:
                yield from _walk(alternative)
        elif op in _REPEATS:
            yield from _walk(av[2])
        elif op in (_c.ASSERT, _c.ASSERT_NOT):
            yield from _walk(av[1])
        elif op is _c.IN:
            yield from _walk(av)


def test_there_are_patterns_to_check():
    assert {"_FRAMING", "_BARE_FRAMING", "_INLINE_FRAMING"} <= set(_PATTERNS)


@pytest.mark.parametrize("name", sorted(_PATTERNS))
def test_a_pattern_searched_lowered_is_one_of_lower_case_letters(name: str) -> None:
    parsed = _p.parse(_PATTERNS[name].lower_case.pattern)
    assert parsed.state.flags & ~re.UNICODE == 0, "a flag set in the pattern"
    for op, av in _walk(parsed.data):
        if op is _c.LITERAL:
            assert chr(av) not in string.ascii_uppercase and av not in _FOLDS, (name, chr(av))
        elif op is _c.RANGE:
            lo, hi = av
            assert not any(lo <= ord(u) <= hi for u in string.ascii_uppercase), (name, chr(lo), chr(hi))
            assert not any(lo <= c <= hi for c in _FOLDS), (name, hex(lo), hex(hi))
        elif op is _c.SUBPATTERN:
            assert av[1] == 0 and av[2] == 0, (name, "a flag set inline")


def _words(name: str) -> list[str]:
    return sorted(set(re.findall(r"[a-z][a-z']*[a-z]|[a-z]", _PATTERNS[name].lower_case.pattern)))


# phrases the patterns are made of (their single words alone rarely make one)
_PHRASES = ["for example", "for instance", "e.g.", "e.g", "an example", "examples:", "example of",
            "example call",
            "the format is", "the call format looks", "wrong:", "bad:", "mock call", "sample output",
            "previous call was", "never run", "don't ever call", "you can call", "one could use",
            "if you write", "if the model emitted", "was logged", "were sent", "like this", "looks like",
            "such as", "here is how", "how to call", "not a real call", "do not run", "sample:",
            "hypothetical", "bad example:", "z. b.", "z.b.", "por ejemplo", "zum beispiel", "nicht aufrufen",
            "if i were to", "would look like", "i previously called", "last call was", "usage:", "syntax",
            "avoid doing this:", "pseudo-code", "fake output", "example 2", "here's the syntax"]


@st.composite
def _text(draw: st.DrawFn, name: str) -> str:
    pieces = st.one_of(st.sampled_from(_words(name)), st.sampled_from(_PHRASES),
                       st.sampled_from(list(" .,:;!?-_()'\"\n\t#*0123456789")),
                       st.text(string.ascii_letters, max_size=3))
    out = []
    for piece in draw(st.lists(pieces, max_size=12)):
        case = draw(st.sampled_from(["lower", "upper", "title", "as is", "mixed"]))
        if case == "mixed":
            piece = "".join(c.upper() if draw(st.booleans()) else c for c in piece)
        out.append(piece.upper() if case == "upper" else piece.title() if case == "title" else piece)
    return draw(st.sampled_from(["", " ", "\n"])).join(out) if draw(st.booleans()) else "".join(out)


@pytest.mark.builds_side_by_side  # (Words searches with the standard re: no kernel, either mode)
@pytest.mark.parametrize("name", sorted(_PATTERNS))
@settings(max_examples=400, deadline=None)
@given(data=st.data())
def test_lowered_ascii_finds_what_the_pattern_finds_in_either_case(name: str, data: st.DataObject) -> None:
    words = _PATTERNS[name]
    text = data.draw(_text(name))
    found, expected = words.search(text), words.any_case.search(text)
    assert (found and found.span()) == (expected and expected.span()), text


def test_text_beyond_ascii_is_searched_as_before():
    words = _PATTERNS["_FRAMING"]
    for text in ("Por EJEMPLO:", "例如：", "\u212aeep it", "For \u0130nstance", "ſuch as"):
        assert (words.search(text) is None) == (words.any_case.search(text) is None)

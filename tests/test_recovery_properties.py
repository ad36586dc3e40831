"""Properties of recovery, and the compiled and pure kernels agreeing.

Examples miss what random text finds: these run the scanners and the parser
of both builds on arbitrary and on JSON-shaped text.
"""

from __future__ import annotations

import json

import orjson
from hypothesis import HealthCheck, assume, example, given, settings, strategies as st

import toolmend
from toolmend import normalize_tool_args

SETTINGS = settings(max_examples=400, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])

# JSON values (orjson-encodable: 64-bit integers, finite floats)
json_values = st.recursive(
    st.none() | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**64 - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                max_size=4),
    max_leaves=12,
)

# Text made of the characters the scanners care about, plus anything.
_ALPHABET = list("{}[]:,'\"\\ \n\t\rabcxyz019-.eE/*") + [
    "\u201c", "\u201d", "\u2018", "\u2019", "\u2032", "\u2033", "\u00ab", "true", "null",
    "None", "TRUE", "u00e9", "\\u", "\\'", '\\"', "//", "é", "\U0001f600"]
json_ish = st.lists(st.sampled_from(_ALPHABET), max_size=40).map("".join)
any_text = st.one_of(json_ish, st.text(max_size=40))


def _outcome(fn, *args):
    try:
        return ("ok", fn(*args))
    except ValueError as exc:  # the kernel's Refused
        return ("error", exc.what, exc.pos)


@SETTINGS
@given(text=any_text)
@example(text=":///")  # (the compiled twin read the URL's third slash as a comment's start)
@example(text="file:///etc/hosts")
def test_twins_agree_on_every_kernel_function(recover_twins, text):
    compiled, pure = recover_twins
    for name in ("normalize_structural_quotes", "strip_comments"):
        assert getattr(compiled, name)(text) == getattr(pure, name)(text), name
    assert _outcome(compiled.parse_object_literal, text) == _outcome(pure.parse_object_literal, text)
    assert _outcome(compiled.recover_text, text) == _outcome(pure.recover_text, text)
    assert _outcome(compiled.recover_value, text) == _outcome(pure.recover_value, text)


_NOT_JSON = object()


@SETTINGS
@given(text=any_text | json_values.map(lambda v: orjson.dumps(v).decode()),
       pad=st.sampled_from(["", " " * 600, "\n" + "x" * 600]))
@example(text='{"a": 1', pad=" " * 600)  # (long and unclosed: never step 0)
@example(text='{"a": 12345678901234567890123}', pad=" " * 600)  # (long: its integer exact)
def test_exact_json_is_step_0_of_recover_text(recover_twins, text, pad):
    # the everyday call's arguments: one parse, nothing repaired, the same in both builds
    text += pad
    for kernel in recover_twins:
        step, _, value, _ = kernel.recover_text(text, False)
        got = kernel.exact_json(_NOT_JSON, text)
        assert got is _NOT_JSON if step != 0 else (got == value and type(got) is type(value)), kernel


@SETTINGS
@given(text=json_ish.map(lambda t: "{" + t + "}"))
def test_twins_agree_on_object_shaped_text(recover_twins, text):
    compiled, pure = recover_twins
    assert _outcome(compiled.parse_object_literal, text) == _outcome(pure.parse_object_literal, text)
    assert compiled.recover_text(text) == pure.recover_text(text)


@SETTINGS
@given(text=any_text)
def test_prefilter_never_rejects_what_orjson_accepts(recover_kernel, text):
    # the pre-filter in front of orjson (steps 0-5) never turns valid JSON away
    try:
        orjson.loads(text)
    except orjson.JSONDecodeError:
        return
    assert recover_kernel.recover_text(text)[0] == 0


@SETTINGS
@given(value=json_values, indent=st.booleans())
def test_prefilter_accepts_json(recover_kernel, value, indent):
    text = orjson.dumps(value, option=orjson.OPT_INDENT_2 if indent else 0).decode()
    assert recover_kernel.recover_text(text)[::2] == (0, value)


@SETTINGS
@given(value=json_values, indent=st.booleans(), pad=st.sampled_from(["", " ", "\n  ", "\t"]))
def test_valid_json_comes_back_unchanged(value, indent, pad):
    text = pad + orjson.dumps(value, option=orjson.OPT_INDENT_2 if indent else 0).decode() + pad
    r = normalize_tool_args(text)
    assert (r.ok, r.strategy, r.text) == (True, "parse", text)
    assert r.value == orjson.loads(text)


@SETTINGS
@given(text=any_text, tool=st.sampled_from([None, "read_file", "bash", "@coder", "search"]))
@example(text="['''", tool=None)  # (a cut whose engine message says more than its kind)
def test_recovered_text_always_parses(text, tool):
    r = normalize_tool_args(text, tool)
    if not r.ok and r.cut is not None:  # cut: refused, the completed reading shown
        assert r.strategy == "repair" and r.error and r.cut.message in r.error
        assert 0 <= r.cut.offset <= len(text) and r.cut.what in toolmend.recovery.CUT_KINDS
        assert json.loads(r.text) == r.value or r.value != r.value
        return
    if not r.ok:
        assert r.strategy is None and r.value is None and r.error
        assert r.text == text.strip()
        return
    parsed = json.loads(r.text)
    if r.strategy != "parse":
        assert parsed == r.value
    if tool is not None:
        assert isinstance(r.value, dict)


def _strings(value):
    stack, found = [value], []
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            found.extend(v.keys())
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
        elif isinstance(v, str):
            found.append(v)
    return sorted(found)


@SETTINGS
@given(value=st.dictionaries(st.text(max_size=8), st.text(max_size=12), min_size=1, max_size=5))
def test_repairs_never_change_string_contents(value):
    # Break valid JSON with a trailing comma; the repair must keep every string.
    text = orjson.dumps(value).decode()[:-1] + ",}"
    r = normalize_tool_args(text)
    assert r.ok and r.strategy == "trailing_commas"
    assert r.value == value


@SETTINGS
@given(value=st.dictionaries(st.from_regex(r"[a-z_][a-z0-9_]{0,6}", fullmatch=True),
                             st.text(max_size=12), min_size=1, max_size=5))
def test_single_quoted_objects_recover_exactly(value):
    body = ", ".join(
        "'%s': '%s'" % (k, v.replace("\\", "\\\\").replace("'", "\\'")) for k, v in value.items())
    assume("\r" not in body)
    r = normalize_tool_args("{" + body + "}")
    assert r.ok, r.error
    assert _strings(r.value) == _strings(value)


quote_free = st.recursive(
    st.one_of(st.sampled_from(["1", "-2.50", "true", "None", "null", "read", "main.go", "x y",
                               "1e400", "12345678901234567890123", "007", "NaN", "[]", "{}",
                               "'read'", '"x"', "'say \"hi\"'", '"it\'s"', "''", "'a,b'",
                               '"{"', "'}'", '":"'])),
    lambda inner: st.one_of(
        st.lists(inner, max_size=3).map(lambda xs: "[" + ", ".join(xs) + "]"),
        st.lists(st.tuples(st.sampled_from(["a", "cmd", "k_1", "x-y", "1", "'q'", '"d"']), inner),
                 max_size=3).map(lambda kv: "{" + ", ".join(f"{k}: {v}" for k, v in kv) + "}")),
    max_leaves=8)


@SETTINGS
@given(text=quote_free.filter(lambda t: t.startswith("{")),
       pad=st.sampled_from(["", " ", "\n", ",", " ,"]))
def test_loads_gives_the_value_of_the_whole_pipeline(text, pad):
    # loads takes a short way for text without escapes or comments; the value is the same
    text = text[:-1] + pad + "}" if pad.strip() else pad + text
    r = normalize_tool_args(text)
    try:
        value = toolmend.loads(text)
    except toolmend.RecoveryError:
        assert not r.ok, (text, r)
        return
    assert r.ok and value == r.value and type(value) is type(r.value), (text, value, r)

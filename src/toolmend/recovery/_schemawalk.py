"""The walk of a value that did not fit: every problem by JSON path, and the
coercions that have exactly one reading (each a Fix with code ``schema``)."""

from __future__ import annotations

import difflib
import json
import math
import re
from typing import Any, NamedTuple

from .._regex import TAME_LENGTH, tame_search
from .._text import int_of_text
from . import _schemanodes as _nodes
from ._result import Fix
from ._schemanodes import (
    _INT_TEXT,
    _MISSING,
    _NUM_TEXT,
    _fold,
    _json_path,
    _json_type,
    _key,
    _multiple,
    _Node,
    _short,
    _type_ok,
    _unique,
)

# what makes a string a list of items, not one: a comma, a semicolon, a line break inside it
_MAY_LIST = re.compile(r"[,;]|\S[ \t]*\r?\n[ \t]*\S")


class Problem(NamedTuple):
    """One way a value does not fit: where (a JSON path, ``$`` for the whole
    value), what, and the schema keyword that refused it."""

    path: str
    message: str
    keyword: str

    def __str__(self) -> str:
        return f"`{self.path}`: {self.message}"


# -- the interpreter: problems and coercions ------------------------------------------------------

class _Walk:
    """One check of a value that did not fit as it was."""

    __slots__ = ("coerce", "fill", "problems", "fixes")

    def __init__(self, coerce: bool, fill: bool) -> None:
        self.coerce = coerce
        self.fill = fill
        self.problems: list[Problem] = []
        self.fixes: list[Fix] = []

    def problem(self, path: tuple[Any, ...], message: str, keyword: str) -> None:
        self.problems.append(Problem(_json_path(path), message, keyword))

    def fix(self, path: tuple[Any, ...], message: str) -> None:
        self.fixes.append(Fix("schema", -1, f"{_json_path(path)}: {message}"))

    def trial(self) -> _Walk:
        return _Walk(self.coerce, self.fill)

    # the walk itself: returns the (possibly coerced) value
    def node(self, n: _Node, x: Any, path: tuple[Any, ...]) -> Any:
        if n.always is not None:
            if not n.always:
                self.problem(path, "no value is allowed here (the schema is false)", "false")
            return x
        if _fits(n, x):
            return _insert_defaults(self, n, x, path) if self.fill else x
        if isinstance(x, float) and not math.isfinite(x):
            self.problem(path, f"{_json_type(x)} is not a JSON number (JSON has no NaN or Infinity)", "type")
            return x
        before = len(self.problems)
        if n.ref is not None:
            x = self.node(n.ref, x, path)
        if n.types is not None and not _type_ok(x, n.types):
            coerced = self.coerce_type(n, x, path) if self.coerce else _MISSING
            if coerced is _MISSING:
                self.problem(path, f"expected {' or '.join(n.types)}, got {_json_type(x)} "
                                   f"{_short(x)}", "type")
                return x
            x = coerced
        if isinstance(x, dict):
            x = self.object(n, x, path)
        elif isinstance(x, list):
            x = self.array(n, x, path)
        elif isinstance(x, str):
            self.string(n, x, path)
        elif isinstance(x, (int, float)) and not isinstance(x, bool):
            self.number(n, x, path)
        if n.enum is not None and _key(x) not in n.enum_keys:
            self.enum_miss(n, x, path)
        if n.const is not _MISSING and _key(x) != _key(n.const):
            self.problem(path, f"must be {_short(n.const)}, not {_short(x)}", "const")
        for c in n.all_of:
            x = self.node(c, x, path)
        if n.any_of:
            x = self.choice(n.any_of, x, path, "anyOf")
        if n.one_of:
            x = self.choice(n.one_of, x, path, "oneOf")
        if n.not_ is not None and _fits(n.not_, x):
            self.problem(path, "matches the schema under `not`", "not")
        if len(self.problems) == before and not _fits(n, x):  # never let a misfit pass
            self.problem(path, "does not fit the schema", "schema")
        return x

    def coerce_type(self, n: _Node, x: Any, path: tuple[Any, ...]) -> Any:
        """The one reading of ``x`` in the wanted types, or _MISSING."""
        want = n.types or ()
        readings: list[tuple[Any, str]] = []
        if isinstance(x, str):
            whole = _INT_TEXT.fullmatch(x) is not None
            as_int = int_of_text(x) if whole else None  # (None: more digits than Python converts)
            if "integer" in want and as_int is not None:
                readings.append((as_int, f"the string {_short(x)} read as an integer"))
            elif "number" in want and _NUM_TEXT.fullmatch(x) and not (whole and as_int is None):
                v: Any = as_int if as_int is not None else float(x)
                if isinstance(v, int) or math.isfinite(v):
                    readings.append((v, f"the string {_short(x)} read as a number"))
            if "boolean" in want and x in ("true", "false"):
                readings.append((x == "true", f"the string {_short(x)} read as a boolean"))
            if "null" in want and x == "null":
                readings.append((None, "the string \"null\" read as null"))
            stripped = x.strip()
            for kind, opener, pytype in (("object", "{", dict), ("array", "[", list)):
                if kind in want and stripped.startswith(opener):
                    parsed = _parse_json(stripped)
                    if isinstance(parsed, pytype):
                        readings.append((parsed, f"the {kind} written as a JSON string decoded"))
        if not readings and "array" in want and not isinstance(x, list) and x is not None:
            # (not a string that may list several items, "a, b" or lines, nor an empty one: [x] is
            # one reading of it, its items another, [] a third)
            items = isinstance(x, str) and (x.strip().startswith("[") or _MAY_LIST.search(x) or not x.strip())
            if not items:
                readings.append(([x], "the single value put into an array"))
        if len(readings) != 1:
            return _MISSING
        value, message = readings[0]
        self.fix(path, message)
        return value

    def enum_miss(self, n: _Node, x: Any, path: tuple[Any, ...]) -> None:
        allowed = n.enum or []
        hint = ""
        if isinstance(x, str):
            words = [a for a in allowed if isinstance(a, str)]
            close = [a for a in words if a.lower() == x.lower()] or \
                difflib.get_close_matches(x, words, n=1, cutoff=0.75)
            if close:
                hint = f"; did you mean {_short(close[0])}?"
        shown = ", ".join(_short(a) for a in allowed[:10]) + (", ..." if len(allowed) > 10 else "")
        self.problem(path, f"{_short(x)} is not one of {shown}{hint}", "enum")

    def object(self, n: _Node, x: dict[str, Any], path: tuple[Any, ...]) -> dict[str, Any]:
        odd = next((k for k in x if not isinstance(k, str)), None)
        if odd is not None:  # (a dict from Python: no JSON object holds it)
            self.problem(path, f"a key that is not a string ({_short(odd)}): a JSON object's keys are "
                               "strings", "type")
            return x
        out = x
        declared = n.props
        closed = n.additional is not None and n.additional.always is False
        if self.coerce and declared:
            out = self.renames(n, out, path)
        for k, y in list(out.items()):
            sub = path + (k,)
            matched = False
            if k in declared:
                matched = True
                y2 = self.node(declared[k], y, sub)
                if y2 is not y:
                    out = _replaced(out, x, k, y2)
                    y = y2
            for rx, _, c in n.pattern_props:
                if _search(rx, k, self, sub, "patternProperties"):
                    matched = True
                    y2 = self.node(c, y, sub)
                    if y2 is not y:
                        out = _replaced(out, x, k, y2)
                        y = y2
            if not matched and n.additional is not None:
                if closed:
                    self.problem(sub, f"unknown property{_did_you_mean(k, declared, out)}",
                                 "additionalProperties")
                else:
                    y2 = self.node(n.additional, y, sub)
                    if y2 is not y:
                        out = _replaced(out, x, k, y2)
            if n.names is not None and not _fits(n.names, k):
                self.problem(sub, f"the property name {_short(k)} does not fit propertyNames",
                             "propertyNames")
        for name in n.required:
            if name not in out:
                self.problem(path + (name,), f"missing required property"
                                             f"{_given_instead(name, declared, out)}", "required")
        for name, needs in n.dep_required.items():
            if name in out:
                for r in needs:
                    if r not in out:
                        self.problem(path + (r,), f"missing: required when `{name}` is given",
                                     "dependentRequired")
        if n.min_props is not None and len(out) < n.min_props:
            self.problem(path, f"has {len(out)} properties, fewer than {n.min_props}", "minProperties")
        if n.max_props is not None and len(out) > n.max_props:
            self.problem(path, f"has {len(out)} properties, more than {n.max_props}", "maxProperties")
        for name, c in declared.items():
            if self.fill and name not in out and c.always is None and c.has_default:
                out = _replaced(out, x, name, _copy(c.default))
                self.fix(path + (name,), f"absent: its default {_short(c.default)} inserted")
        return out

    def renames(self, n: _Node, x: dict[str, Any], path: tuple[Any, ...]) -> dict[str, Any]:
        declared = n.props
        folded: dict[str, list[str]] = {}
        for name in declared:
            folded.setdefault(_fold(name), []).append(name)
        plan: dict[str, str] = {}
        for k in x:
            if k in declared or any(rx.search(k) for rx, _, _ in n.pattern_props):
                continue
            names = folded.get(_fold(k), [])
            if len(names) == 1 and names[0] not in x and names[0] not in plan.values():
                plan[k] = names[0]
        if not plan:
            return x
        out: dict[str, Any] = {}
        for k, v in x.items():
            new = plan.get(k, k)
            if new != k:
                self.fix(path + (k,), f"property `{k}` renamed `{new}`, the declared name")
            out[new] = v
        return out

    def array(self, n: _Node, x: list[Any], path: tuple[Any, ...]) -> list[Any]:
        out = x
        for k, y in enumerate(x):
            c = n.prefix[k] if k < len(n.prefix) else n.items
            if c is None:
                continue
            y2 = self.node(c, y, path + (k,))
            if y2 is not y:
                if out is x:
                    out = list(x)
                out[k] = y2
        if n.min_items is not None and len(out) < n.min_items:
            self.problem(path, f"has {len(out)} items, fewer than {n.min_items}", "minItems")
        if n.max_items is not None and len(out) > n.max_items:
            self.problem(path, f"has {len(out)} items, more than {n.max_items}", "maxItems")
        if n.unique and not _unique(out):
            self.problem(path, "items repeat (uniqueItems)", "uniqueItems")
        return out

    def string(self, n: _Node, x: str, path: tuple[Any, ...]) -> None:
        if n.min_len is not None and len(x) < n.min_len:
            self.problem(path, f"is {len(x)} characters long, shorter than {n.min_len}", "minLength")
        if n.max_len is not None and len(x) > n.max_len:
            self.problem(path, f"is {len(x)} characters long, longer than {n.max_len}", "maxLength")
        if n.pattern is not None and not _search(n.pattern, x, self, path, "pattern"):
            if not self.problems or self.problems[-1].keyword != "pattern":
                self.problem(path, f"{_short(x)} does not match the pattern {_short(n.pattern_text)}",
                             "pattern")

    def number(self, n: _Node, x: Any, path: tuple[Any, ...]) -> None:
        if n.minimum is not None and x < n.minimum:
            self.problem(path, f"{_short(x)} is less than the minimum {_short(n.minimum)}", "minimum")
        if n.maximum is not None and x > n.maximum:
            self.problem(path, f"{_short(x)} is more than the maximum {_short(n.maximum)}", "maximum")
        if n.exmin is not None and x <= n.exmin:
            self.problem(path, f"{_short(x)} is not more than the exclusive minimum {_short(n.exmin)}",
                         "exclusiveMinimum")
        if n.exmax is not None and x >= n.exmax:
            self.problem(path, f"{_short(x)} is not less than the exclusive maximum {_short(n.exmax)}",
                         "exclusiveMaximum")
        if n.multiple is not None and not _multiple(x, n.multiple):
            self.problem(path, f"{_short(x)} is not a multiple of {_short(n.multiple)}", "multipleOf")

    def choice(self, branches: list[_Node], x: Any, path: tuple[Any, ...], kw: str) -> Any:
        fits = [c for c in branches if _fits(c, x)]
        if kw == "oneOf" and len(fits) > 1:
            self.problem(path, f"matches {len(fits)} of the oneOf schemas, not exactly one", kw)
            return x
        if fits:
            return x
        trials = []
        for c in branches:
            t = self.trial()
            y = t.node(c, x, path)
            trials.append((t, y))
        good = [(t, y) for t, y in trials if not t.problems]
        if self.coerce and good:
            keys = {_key(y) for _, y in good}
            if len(keys) == 1:
                t, y = good[0]
                if kw == "anyOf" or sum(_fits(c, y) for c in branches) == 1:
                    self.fixes += t.fixes
                    return y
            self.problem(path, f"can be read in more than one way to fit {kw}: not coerced", kw)
            return x
        # not one fits: the problems of the branches of the value's own type, else a summary
        kind = _json_type(x)
        near = [t for t, _ in trials if not any(p.keyword == "type" and p.path == _json_path(path)
                                                for p in t.problems)]
        if len(near) == 1:
            self.problems += near[0].problems
        else:
            self.problem(path, f"fits none of the {kw} schemas (a {kind} {_short(x)})", kw)
        return x


def _fits(n: _Node, x: Any) -> bool:
    """The generated check of ``n``; a pattern past its time does not fit
    (the walk then says so)."""
    try:
        return bool(n.fn(x))
    except TimeoutError:
        return False


def _search(rx: Any, s: str, walk: _Walk, path: tuple[Any, ...], kw: str) -> bool:
    try:
        fast = tame_search(rx.pattern) if len(s) <= TAME_LENGTH else None
        if fast is not None:
            return fast(s) is not None
        return rx.search(s, timeout=_nodes.PATTERN_TIMEOUT) is not None
    except TimeoutError:
        walk.problem(path, f"the {kw} regex took more than {_nodes.PATTERN_TIMEOUT:g} s on this "
                           "value: refused", kw)
        return False


def _replaced(out: dict[str, Any], original: dict[str, Any], k: str, v: Any) -> dict[str, Any]:
    if out is original:
        out = dict(original)
    out[k] = v
    return out


def _copy(x: Any) -> Any:
    """A copy of the default ``x`` that shares no object or array with it (a
    filled value is the caller's to change), its numbers as they are: a JSON
    round trip would refuse an integer past 64 bits and write an infinity as
    null. No recursion (a stack); a container met twice is copied once."""
    if not isinstance(x, (dict, list)):
        return x
    copies: dict[int, Any] = {}
    top = copies[id(x)] = {} if isinstance(x, dict) else []
    stack = [(x, top)]
    while stack:
        src, dst = stack.pop()
        for k, v in (src.items() if isinstance(src, dict) else enumerate(src)):
            if isinstance(v, (dict, list)):
                c = copies.get(id(v))
                if c is None:
                    c = copies[id(v)] = {} if isinstance(v, dict) else []
                    stack.append((v, c))
                v = c
            if isinstance(dst, dict):
                dst[k] = v
            else:
                dst.append(v)
    return top


def _parse_json(text: str) -> Any:
    """Valid JSON text's value (integers exact), or _MISSING."""
    def refuse(token: str) -> Any:
        raise ValueError(token)
    try:
        return json.loads(text, parse_constant=refuse)
    except (ValueError, RecursionError):
        return _MISSING


def _did_you_mean(key: str, declared: dict[str, _Node], present: dict[str, Any]) -> str:
    names = [d for d in declared if d not in present]
    close = difflib.get_close_matches(key, names, n=1, cutoff=0.6)
    if not close:
        folded = [d for d in names if _fold(d) == _fold(key)]
        close = folded[:1]
    return f"; did you mean `{close[0]}`?" if close else ""


def _given_instead(name: str, declared: dict[str, _Node], present: dict[str, Any]) -> str:
    extra = [k for k in present if k not in declared]
    close = difflib.get_close_matches(name, extra, n=1, cutoff=0.6)
    return f" (`{close[0]}` was given: a misspelling?)" if close else ""


def _collect_defaults(n: _Node, x: Any, path: tuple[Any, ...], found: list[tuple[str, Any]],
                      seen: set[tuple[int, int]]) -> None:
    """The absent properties with a default, in ``x`` as the schema walks it."""
    if (n.index, id(x)) in seen or n.always is not None:
        return
    seen.add((n.index, id(x)))
    if n.ref is not None:
        _collect_defaults(n.ref, x, path, found, seen)
    for c in n.all_of:
        _collect_defaults(c, x, path, found, seen)
    if isinstance(x, dict):
        for name, c in n.props.items():
            if name in x:
                _collect_defaults(c, x[name], path + (name,), found, seen)
            elif c.has_default:
                found.append((_json_path(path + (name,)), c.default))
    elif isinstance(x, list):
        for k, y in enumerate(x):
            c2 = n.prefix[k] if k < len(n.prefix) else n.items
            if c2 is not None:
                _collect_defaults(c2, y, path + (k,), found, seen)


def _insert_defaults(walk: _Walk, n: _Node, x: Any, path: tuple[Any, ...]) -> Any:
    if n.always is not None:
        return x
    if n.ref is not None:
        x = _insert_defaults(walk, n.ref, x, path)
    for c in n.all_of:
        x = _insert_defaults(walk, c, x, path)
    if isinstance(x, dict) and n.props:
        out = x
        for name, c in n.props.items():
            if name in out:
                y = _insert_defaults(walk, c, out[name], path + (name,))
                if y is not out[name]:
                    out = _replaced(out, x, name, y)
            elif c.has_default:
                out = _replaced(out, x, name, _copy(c.default))
                walk.fix(path + (name,), f"absent: its default {_short(c.default)} inserted")
        return out
    if isinstance(x, list):
        out_l = x
        for k, y in enumerate(x):
            c2 = n.prefix[k] if k < len(n.prefix) else n.items
            if c2 is not None:
                y2 = _insert_defaults(walk, c2, y, path + (k,))
                if y2 is not y:
                    if out_l is x:
                        out_l = list(x)
                    out_l[k] = y2
        return out_l
    return x

"""YAML for the @json verbs: loaded safely, then written as JSON text.

The verbs work on JSON text; a YAML document is converted once, so every verb
behaves the same on both. The rules:

- Only the safe loader is used (libyaml's ``CSafeLoader`` when PyYAML has it,
  else ``SafeLoader``); a tag outside the YAML standard set (``!foo``,
  ``!!python/object``) is an error that names the tag and its place.
- Aliases are checked before anything is expanded: the document is composed
  into its node graph, and its expanded size is computed with one visit per
  distinct node. A document that would expand past ``MAX_NODES`` nodes or
  ``MAX_CHARS`` characters of scalars (an alias-expansion bomb), or an alias
  that contains itself, is refused.
- Dates and timestamps keep their text (``2024-05-01`` stays that string).
- Numbers keep their text when it is a JSON number (``1.10``, ``-0``); other
  YAML number spellings become their value (``0x1F`` -> 31, ``1_000`` ->
  1000, ``+.5`` -> 0.5); ``.inf``/``.nan`` have no JSON form and stay strings.
- YAML 1.1 rules are PyYAML's: ``yes``/``no``/``on``/``off`` are booleans,
  ``0777`` is octal (511), ``1:20`` is sexagesimal (80), ``1e5`` (no dot) is
  a string. Keys that are not strings become the JSON text their value
  would have (``1`` and ``0x1`` -> "1", ``1.0`` -> "1.0", ``true`` and
  ``True`` -> "true", ``null`` and ``~`` -> "null"), as each mapping is built
  (a Python dict would merge ``1``, ``true`` and ``1.0`` first); keys that
  meet there keep the last value, with a note naming both. ``!!binary``
  stays its base64 text, ``!!set`` becomes an object of nulls,
  ``!!omap``/``!!pairs`` arrays of [key, value] pairs.
- A stream of several documents (``---`` between them: Kubernetes manifests,
  Helm output) reads as the list of its documents.
"""

from __future__ import annotations

import collections.abc
import re
from typing import Any

import yaml

from .._text import JSON_NUMBER, SURROGATE, line_col
from ..errors import NestingError, YAMLDocumentError
from ._exact import JSONNumber, dumps
from ._syntax import snippet

__all__ = ["compose", "yaml_to_json", "surprises", "MAX_NODES", "MAX_CHARS", "MAX_DEPTH",
           "LIBYAML"]

#: Bounds on the expanded document (aliases counted as many times as used).
MAX_NODES = 4_000_000
MAX_CHARS = 64 * 1024 * 1024
#: Most levels of nesting a YAML document may have (orjson writes no deeper).
MAX_DEPTH = 255

LIBYAML = hasattr(yaml, "CSafeLoader")
_Base: Any = yaml.CSafeLoader if LIBYAML else yaml.SafeLoader
_JSON_NUMBER = re.compile(JSON_NUMBER)


def _error(message: str, text: str = "", mark: Any = None,
           what: str = "the text") -> YAMLDocumentError:
    """A YAMLDocumentError at a YAML mark (0-based line and column), if any."""
    if mark is None or not text:
        return YAMLDocumentError(message, what=what)
    pos = _offset(text, mark.line, mark.column)
    line, column = line_col(text, pos)
    return YAMLDocumentError(message, what=what, line=line, column=column, pos=pos,
                             snippet=snippet(text, pos))


def _offset(text: str, line: int, column: int) -> int:
    """Offset of 0-based ``line``/``column`` (a YAML mark) in ``text``."""
    pos = 0
    for _ in range(line):
        nl = text.find("\n", pos)
        if nl < 0:
            return len(text)
        pos = nl + 1
    return min(pos + column, len(text))


def _timestamp(loader: Any, node: Any) -> str:
    return str(node.value)


def _float(loader: Any, node: Any) -> Any:
    text = str(node.value)
    if _JSON_NUMBER.fullmatch(text):
        return JSONNumber(text)
    value = yaml.SafeLoader.construct_yaml_float(loader, node)
    if value != value or value in (float("inf"), float("-inf")):
        return text  # .inf / .nan: JSON has no such numbers
    return value


def _int(loader: Any, node: Any) -> Any:
    if node.value == "-0":
        return JSONNumber("-0")
    text = str(node.value).replace("_", "")
    try:
        value = yaml.SafeLoader.construct_yaml_int(loader, node)
    except ValueError:  # more digits than int() converts: keep the text
        value = None
    if value is None or abs(value).bit_length() > 14_000:  # past ~4,300 decimal digits
        return JSONNumber(text) if _JSON_NUMBER.fullmatch(text) else text
    return value


def _binary(loader: Any, node: Any) -> str:
    yaml.SafeLoader.construct_yaml_binary(loader, node)  # check it decodes
    return "".join(str(node.value).split())


class _Loader(_Base):  # type: ignore[misc]
    """Mappings keyed by their JSON key text as they are built: a Python dict
    would merge ``1``, ``true`` and ``1.0`` (equal in Python) before any
    conversion could see them. Keys that meet there are noted."""

    def __init__(self, stream: Any) -> None:
        super().__init__(stream)
        self.collisions: list[str] = []

    def construct_mapping(self, node: Any, deep: bool = False) -> dict[str, Any]:
        if isinstance(node, yaml.MappingNode):
            self.flatten_mapping(node)
        else:
            raise yaml.constructor.ConstructorError(
                None, None, f"expected a mapping node, but found {node.id}", node.start_mark)
        mapping: dict[str, Any] = {}
        holder: dict[str, Any] = {}  # JSON key -> the key node that wrote it last
        for key_node, value_node in node.value:
            key = self.construct_object(key_node, deep=deep)
            if not isinstance(key, collections.abc.Hashable):
                raise yaml.constructor.ConstructorError(
                    "while constructing a mapping", node.start_mark, "found unhashable key",
                    key_node.start_mark)
            text = _key_text(key)
            before = holder.get(text)
            # the same key written twice is surprises()' note; this one is for
            # keys written differently that JSON cannot tell apart
            if before is not None and (before.tag, before.value) != (key_node.tag, key_node.value):
                self.collisions.append(
                    f"note: YAML at line {key_node.start_mark.line + 1}: the keys "
                    f"{_written(before)} (line {before.start_mark.line + 1}) and "
                    f"{_written(key_node)} are both the JSON key {dumps(text)}; "
                    "the last value is kept")
            holder[text] = key_node
            mapping[text] = self.construct_object(value_node, deep=deep)
        return mapping

    def construct_yaml_set(self, node: Any) -> Any:
        data: dict[str, Any] = {}  # an object of nulls, in the order written
        yield data
        data.update(self.construct_mapping(node))


def _written(node: Any) -> str:
    """A key as the YAML wrote it: plain as is, quoted with its quotes."""
    if not isinstance(node, yaml.ScalarNode):
        return f"<{node.id} at line {node.start_mark.line + 1}>"
    value = str(node.value)
    if node.style == "'":
        return "'" + value.replace("'", "''") + "'"
    if node.style:  # double-quoted or a block scalar
        return dumps(value)
    return value


class _UnsupportedTag(yaml.MarkedYAMLError):
    """A tag outside the YAML standard set (raised while constructing)."""

    def __init__(self, tag: str, mark: Any) -> None:
        super().__init__(problem=f"the YAML tag {tag!r} is not supported (only standard tags are "
                                 "read: no custom or language-specific types)",
                         problem_mark=mark)


def _unsupported(loader: Any, node: Any) -> Any:
    raise _UnsupportedTag(node.tag, node.start_mark)


_Loader.add_constructor("tag:yaml.org,2002:timestamp", _timestamp)
_Loader.add_constructor("tag:yaml.org,2002:float", _float)
_Loader.add_constructor("tag:yaml.org,2002:int", _int)
_Loader.add_constructor("tag:yaml.org,2002:binary", _binary)
_Loader.add_constructor("tag:yaml.org,2002:set", _Loader.construct_yaml_set)
_Loader.add_constructor(None, _unsupported)  # any tag without a constructor of its own


def _check_expansion(root: Any, text: str, what: str) -> None:
    """Refuse alias bombs and recursive aliases before anything is expanded.

    Post-order over the node graph with one visit per distinct node: the
    expanded size of a node is its own plus its children's (a node reached
    through several aliases counts each time, as expansion would)."""
    nodes: dict[int, int] = {}   # id -> expanded node count
    chars: dict[int, int] = {}   # id -> expanded scalar characters
    active: set[int] = set()
    stack: list[tuple[Any, bool]] = [(root, False)]
    while stack:
        node, done = stack.pop()
        key = id(node)
        if done:
            active.discard(key)
            children = _children(node)
            n = 1 + sum(nodes[id(c)] for c in children)
            ch = 2 + sum(chars[id(c)] for c in children)
            if n > MAX_NODES or ch > MAX_CHARS:
                raise _error(
                    f"refused: its aliases expand to more than "
                    f"{MAX_NODES:,} nodes or {MAX_CHARS // (1024 * 1024)} MB "
                    "(an alias-expansion bomb?)", text, node.start_mark, what)
            nodes[key] = n
            chars[key] = ch
            continue
        if key in nodes:
            continue
        if key in active:
            raise _error("refused: an alias refers to a node that contains it "
                         "(recursive structure)", text, node.start_mark, what)
        if isinstance(node, yaml.ScalarNode):
            nodes[key] = 1
            chars[key] = len(node.value) + 2
            continue
        active.add(key)
        stack.append((node, True))
        for child in _children(node):
            if id(child) not in nodes:
                stack.append((child, False))


def _children(node: Any) -> list[Any]:
    if isinstance(node, yaml.MappingNode):
        return [n for pair in node.value for n in pair]
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    return []


def _key_text(key: Any) -> str:
    if isinstance(key, str):
        return key
    if key is True:
        return "true"
    if key is False:
        return "false"
    if key is None:
        return "null"
    if isinstance(key, JSONNumber):
        return key.text
    if isinstance(key, float):
        return repr(key)
    if isinstance(key, tuple):
        return dumps(list(key))
    return str(key)


def _jsonable(value: Any, what: str) -> Any:
    """Keys as strings, tuples as lists; iterative, shared subtrees converted
    once. Refuses more than ``MAX_DEPTH`` levels (orjson writes no deeper)."""
    if not isinstance(value, (dict, list, tuple)):
        return value
    done: dict[int, Any] = {}
    root: list[Any] = [None]
    stack: list[tuple[Any, Any, Any, int]] = [(value, root, 0, 1)]
    while stack:
        src, parent, slot, depth = stack.pop()
        if id(src) in done:
            parent[slot] = done[id(src)]
            continue
        if depth > MAX_DEPTH:
            raise NestingError(f"{what}: the YAML is nested too deeply to convert "
                               f"(more than {MAX_DEPTH} levels)")
        if isinstance(src, dict):
            out: Any = {}
            for k, v in src.items():
                k = _key_text(k)
                out[k] = v
                if isinstance(v, (dict, list, tuple)):
                    stack.append((v, out, k, depth + 1))
        else:
            out = list(src)
            for i, v in enumerate(out):
                if isinstance(v, (dict, list, tuple)):
                    stack.append((v, out, i, depth + 1))
        done[id(src)] = out
        parent[slot] = out
    return root[0]


def compose(text: str, what: str = "the text") -> tuple[Any, Any]:
    """(loader, root node) of the YAML in ``text``: the document, or for a
    stream of several, a list node holding them; the caller disposes of the
    loader. Raises YAMLDocumentError."""
    lone = None if text.isascii() else SURROGATE.search(text)
    if lone is not None:  # (YAML is Unicode text: the parser cannot even encode one)
        line, column = line_col(text, lone.start())
        raise YAMLDocumentError(f"not valid YAML: a lone surrogate U+{ord(lone.group()):04X}, which is no "
                                "character", what=what, line=line, column=column, pos=lone.start(),
                                snippet=snippet(text, lone.start()))
    loader = _Loader(text)
    try:
        node = loader.get_node() if loader.check_node() else None
        if node is not None and loader.check_node():
            # Several documents (Kubernetes manifests, Helm output): read the
            # stream as the list of its documents.
            docs = [node]
            while loader.check_node():
                docs.append(loader.get_node())
            # an empty document (a '---' with nothing after it) is no document
            docs = [d for d in docs if not (isinstance(d, yaml.ScalarNode)
                                            and d.tag == "tag:yaml.org,2002:null" and d.value == "")]
            node = None if not docs else docs[0] if len(docs) == 1 else yaml.SequenceNode(
                "tag:yaml.org,2002:seq", docs, docs[0].start_mark, docs[-1].end_mark)
        loader.get_event()  # the end of the stream
    except yaml.MarkedYAMLError as exc:
        loader.dispose()
        raise _yaml_error(exc, text, what) from None
    except yaml.YAMLError as exc:
        loader.dispose()
        raise YAMLDocumentError(f"not valid YAML: {exc}", what=what) from None
    except RecursionError:
        loader.dispose()
        raise NestingError(f"{what}: the YAML is nested too deeply to read") from None
    return loader, node


def _yaml_error(exc: Any, text: str, what: str) -> YAMLDocumentError:
    problem = exc.problem or exc.context or "invalid YAML"
    if exc.context and exc.problem and exc.context not in problem:
        problem = f"{exc.problem} ({exc.context})"
    mark = exc.problem_mark or exc.context_mark
    if isinstance(exc, _UnsupportedTag):
        return _error(problem, text, mark, what)
    return _error(f"not valid YAML: {problem}", text, mark, what)


_YAML12_BOOLS = frozenset({"true", "True", "TRUE", "false", "False", "FALSE"})
_OCTAL_11 = re.compile(r"[-+]?0[0-7_]+\Z")
# a number in YAML 1.2's core schema (and JSON's, but for 0o): 1e5, 1.5e3, 1E+5, 0o17
_NUMBER_12 = re.compile(r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?\Z|0o[0-7]+\Z")
SURPRISES_SHOWN = 5


def _text_not_number(value: str) -> str:
    """The note for a plain scalar YAML 1.1 reads as text where YAML 1.2 reads
    a number (``0o17``; an exponent without a dot or a sign: ``1e5``), with
    how to write that number so that both read it."""
    if value.startswith("0o"):
        return (f"{value!r} is read as text, where YAML 1.2 reads the octal number "
                f"{int(value[2:], 8)} (write {int(value[2:], 8)} for the number)")
    mantissa, _, exponent = value.replace("E", "e").partition("e")
    if "." not in mantissa:
        mantissa += ".0"
    if exponent[:1] not in ("+", "-"):
        exponent = "+" + exponent
    return (f"{value!r} is read as text, where YAML 1.2 and JSON read a number "
            f"(write {mantissa}e{exponent} for the number)")


# what a plain scalar's text resolves to with no tag written (PyYAML's YAML 1.1 rules)
_RESOLVER: Any = yaml.resolver.Resolver()


def _tagged(node: Any, text: str) -> bool:
    """Whether a tag is written before the scalar (``!!bool yes``, ``&a !!str 1e5``): its
    start, where the parser marked it (in characters), is the tag's (or the anchor's, then
    the tag's)."""
    start = node.start_mark.index
    head = text[start:start + 1024]
    if head.startswith("&"):  # an anchor first: its name, then blanks, then what follows it
        parts = head.split(None, 1)
        head = parts[1] if len(parts) > 1 else ""
    return head.startswith("!")


def surprises(root: Any, text: str) -> list[str]:
    """Notes for the plain scalars that YAML 1.1 (PyYAML's rules) reads
    otherwise than YAML 1.2 and JSON would: ``yes``/``no``/``on``/``off`` as
    booleans, ``0777`` as octal, ``1:20`` as sexagesimal, ``0b101`` as binary,
    ``1_000`` as a number (YAML 1.2 reads the last two as text); and as text
    what YAML 1.2 reads as a number (``1e5``, ``1.5e3``, ``0o17``), and the numbers
    JSON cannot hold (``.inf``, ``.nan``). Quote them to keep
    them as strings. And for a key given twice in one mapping (YAML forbids
    it; PyYAML keeps the last value, as JSON parsers do)."""
    found: list[str] = []
    more = 0
    seen: set[int] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, yaml.ScalarNode):
            if node.style:  # quoted or a block scalar: a string as written
                continue
            value, tag = str(node.value), node.tag
            if tag != _RESOLVER.resolve(yaml.ScalarNode, value, (True, False)) or _tagged(node, text):
                continue  # a tag written before it (!!str 123, !!bool yes): the type asked, in any version
            what = None
            if tag == "tag:yaml.org,2002:bool" and value not in _YAML12_BOOLS:
                what = f"{value!r} is read as a boolean"
            elif tag == "tag:yaml.org,2002:int" and _OCTAL_11.match(value):
                what = f"{value!r} is read as an octal number"
            elif tag in ("tag:yaml.org,2002:int", "tag:yaml.org,2002:float") and ":" in value:
                what = f"{value!r} is read as a base-60 number"
            elif tag == "tag:yaml.org,2002:int" and value.lstrip("+-")[:2] == "0b":
                what = f"{value!r} is read as a binary number"
            elif tag in ("tag:yaml.org,2002:int", "tag:yaml.org,2002:float") and "_" in value:
                what = f"{value!r} is read as a number, its underscores dropped"
            elif tag == "tag:yaml.org,2002:str" and _NUMBER_12.match(value):
                what = _text_not_number(value)
            elif tag == "tag:yaml.org,2002:float" and value.lstrip("+-").lower() in (".inf", ".nan"):
                what = f"{value!r} is kept as text (JSON has no infinity and no NaN)"
            if what:
                if len(found) < SURPRISES_SHOWN:
                    found.append(f"note: YAML 1.1 at line {node.start_mark.line + 1}: {what}"
                                 + ("" if what.endswith(")") else " (quote it to keep the text)"))
                else:
                    more += 1
            continue
        if isinstance(node, yaml.MappingNode):
            keys: dict[tuple[str, str], int] = {}
            for key, _ in node.value:
                if not isinstance(key, yaml.ScalarNode) or key.tag == "tag:yaml.org,2002:merge":
                    continue
                line = key.start_mark.line + 1
                first = keys.get((key.tag, str(key.value)))
                if first is None:
                    keys[(key.tag, str(key.value))] = line
                else:
                    if len(found) < SURPRISES_SHOWN:
                        found.append(f"note: YAML at line {line}: the key {str(key.value)!r} "
                                     f"is there already (line {first}); the last value is kept")
                    else:
                        more += 1
            stack.extend(n for pair in reversed(node.value) for n in reversed(pair))
        elif isinstance(node, yaml.SequenceNode):
            stack.extend(reversed(node.value))
    if more:
        found.append(f"note: YAML 1.1: {more} more values like these")
    return found


def yaml_to_json(text: str, what: str = "the text", *, require_collection: bool = False,
                 composed: tuple[Any, Any] | None = None,
                 notes: list[str] | None = None) -> str | None:
    """The JSON text of the YAML document in ``text`` (numbers exact); the
    YAML 1.1 surprises in it are added to ``notes`` (see :func:`surprises`).

    With ``require_collection``, returns None when the document is not a
    mapping or a list (or does not parse): the caller then reports the text
    as invalid JSON. Raises YAMLDocumentError / NestingError otherwise.
    """
    if composed is None:
        try:
            composed = compose(text, what)
        except (YAMLDocumentError, NestingError):
            if require_collection:
                return None
            raise
    loader, node = composed
    try:
        if node is None:
            if require_collection:
                return None
            raise YAMLDocumentError("the YAML document is empty", what=what)
        if require_collection and not isinstance(node, (yaml.MappingNode, yaml.SequenceNode)):
            return None
        if "*" in text and "&" in text:
            _check_expansion(node, text, what)
        if notes is not None:
            notes.extend(surprises(node, text))
        try:
            data = loader.construct_document(node)
        except yaml.MarkedYAMLError as exc:
            raise _yaml_error(exc, text, what) from None
        except yaml.YAMLError as exc:
            raise YAMLDocumentError(f"not valid YAML: {exc}", what=what) from None
        except RecursionError:
            raise NestingError(f"{what}: the YAML is nested too deeply to read") from None
    finally:
        loader.dispose()
    if notes is not None and loader.collisions:
        # one note a collision, however often its mapping was merged (<<)
        collisions = list(dict.fromkeys(loader.collisions))
        notes.extend(collisions[:SURPRISES_SHOWN])
        if len(collisions) > SURPRISES_SHOWN:
            notes.append(f"note: YAML: {len(collisions) - SURPRISES_SHOWN} more keys like these")
    try:
        return dumps(_jsonable(data, what))
    except TypeError as exc:
        raise YAMLDocumentError(f"the YAML holds a value JSON cannot: {exc}", what=what) from None

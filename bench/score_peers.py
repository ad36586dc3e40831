"""The scoring shared by the peer-suite scripts (``bench/*_suite.py``): other projects' test
suites, extracted into ``tests/data/peers/<suite>/``, run against toolmend.

Each suite folder holds ``cases.jsonl`` (one check of the suite a line: ``id``, ``input``, and
either the suite's expected value, under a key the suite's script reads, or ``"refuse": true``),
``SOURCE.json`` (repository, commit, path, how the cases were extracted), the project's licence
text, and ``reasons.json``: for every case where toolmend's outcome is not the suite's, its class
and the reason:

- ``a``: toolmend is right, the suite's answer loses or invents data (or a refusal is ours on
  purpose: the input needs a guess);
- ``b``: toolmend refuses where one reading is plausible: a repair to add;
- ``c``: toolmend's value (for a cut, its completed reading) is wrong: a bug.

Every case ends ``right`` (the suite's value, or a refusal where the suite refuses), ``refused``
(no value where the suite has one) or ``different`` (a value that is not the suite's). A cut
result never passes for a whole one: toolmend refuses text cut off inside a value
(``Recovered.cut``) and keeps its completed reading for display. Such a refusal (a
:class:`CutRefusal`) is ``right`` when the completed reading is the suite's value (the suite
completes the truncated input, toolmend reads the same and rightly will not call it whole), and
``refused`` like any other refusal when the reading differs. The
README's table for a suite is generated from the run (``--readme``) and
``tests/test_peer_suites.py`` fails when the run and the table disagree, when a difference has
no reason, and when a reason names a case that is right.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parent))

from decimal import Decimal  # noqa: E402,F401

from score_repair import parse_exact, same_value, short  # noqa: E402,F401

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "peers"
RIGHT, REFUSED, DIFFERENT = "right", "refused", "different"
# a case may say that a refusal is right too (an implementation-defined input)
CLASSES = {"a": "toolmend right", "b": "a repair to add", "c": "a bug"}

Run = Callable[[dict], "tuple[bool, Any]"]


# ------------------------------------------------------------------ the data

def suite_dir(suite: str) -> Path:
    return DATA / suite


def write_suite(suite: str, cases: list[dict], *, licence: str, source: dict,
                licence_name: str = "LICENSE") -> None:
    folder = suite_dir(suite)
    folder.mkdir(parents=True, exist_ok=True)
    with (folder / "cases.jsonl").open("w", encoding="utf-8", newline="\n") as fh:
        for case in cases:
            line = json.dumps(case, ensure_ascii=False)
            try:
                line.encode("utf-8")
            except UnicodeEncodeError:  # a lone surrogate: escaped, as JSON allows
                line = json.dumps(case)
            fh.write(line + "\n")
    (folder / licence_name).write_text(licence, encoding="utf-8", newline="\n")
    (folder / "SOURCE.json").write_text(json.dumps(source, indent=2, ensure_ascii=False) + "\n",
                                        encoding="utf-8", newline="\n")
    reasons = folder / "reasons.json"
    if not reasons.exists():
        reasons.write_text("{}\n", encoding="utf-8")


def load_cases(suite: str) -> list[dict]:
    """The cases; one whose input is a file of the suite (``"file"``) gets its bytes as
    ``input`` and their text (undecodable bytes as ``\\x..``) as ``shown``."""
    cases = []
    with (suite_dir(suite) / "cases.jsonl").open(encoding="utf-8", newline="\n") as fh:
        for line in fh:
            if line.strip():
                case = json.loads(line)
                if "file" in case:
                    case["input"] = (suite_dir(suite) / case["file"]).read_bytes()
                    case["shown"] = case["input"].decode("utf-8", "backslashreplace")
                cases.append(case)
    return cases


def git(git_dir: Path, *args: str) -> bytes:
    """The output of a git command on a bare repository (``fetch``'s copies) or a checkout."""
    import subprocess

    return subprocess.run(["git", f"--git-dir={git_dir}", *args], check=True, capture_output=True).stdout


def copy_files(git_dir: Path, paths: list[str], dest: Path) -> None:
    """The files of the repository's HEAD, byte for byte, under ``dest``."""
    for path in paths:
        target = dest / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(git(git_dir, "show", f"HEAD:{path}"))


def load_others(suite: str) -> dict[str, dict]:
    """Other libraries' counts on the suite, as ``--readme`` recorded them (``others.json``)."""
    path = suite_dir(suite) / "others.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


def other_counts(cases: list[dict], run: Run, expected: Callable[[dict], Any]) -> dict[str, int]:
    c = counts(score(cases, run, expected))
    return {RIGHT: c[RIGHT], REFUSED: c[REFUSED], DIFFERENT: c[DIFFERENT]}


def load_reasons(suite: str) -> dict[str, dict]:
    path = suite_dir(suite) / "reasons.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


# ------------------------------------------------------------ the contenders

class CutRefusal:
    """toolmend's refusal of cut text (``Recovered.cut`` set): the reason, and the completed
    reading it keeps for display (``reading``, ``readable`` False when that is not JSON)."""

    __slots__ = ("error", "reading", "readable")

    def __init__(self, error: str, text: str) -> None:
        self.error = error
        try:
            self.reading, self.readable = parse_exact(text), True
        except ValueError as exc:
            self.reading, self.readable = f"<not JSON: {exc}: {text[:60]!r}>", False

    def __str__(self) -> str:
        return f"{self.error} (completed reading: {short(self.reading, 200)})"

    __repr__ = __str__


def toolmend_value(raw: str | bytes, tool: str | None = None) -> tuple[bool, Any]:
    """toolmend's answer: (True, value), or (False, the reason): a :class:`CutRefusal` when the
    text was cut."""
    import toolmend

    r = toolmend.normalize_tool_args(raw, tool=tool)
    if not r.ok:
        if r.cut is not None:
            return False, CutRefusal(str(r.error), r.text)
        return False, r.error
    try:
        return True, parse_exact(r.text)
    except ValueError as exc:
        return True, f"<not JSON: {exc}: {r.text[:60]!r}>"


def loads_value(loads: Callable[[str], Any], text: str) -> tuple[bool, Any]:
    """A json-repair-style ``loads``: ``''`` or an exception is a refusal."""
    try:
        value = loads(text)
    except Exception as exc:
        return False, f"raised {type(exc).__name__}"
    if value == "":
        return False, "''"
    return True, value


# ---------------------------------------------------------------- scoring

def score(cases: list[dict], run: Run, expected: Callable[[dict], Any]) -> dict[str, dict]:
    """{id: {"outcome", "ours", "ok"}} for every case."""
    results = {}
    for case in cases:
        try:
            ok, value = run(case)
        except Exception as exc:  # a crash is reported as a refusal with its type
            ok, value = False, f"raised {type(exc).__name__}: {exc}"
        if case.get("refuse"):
            outcome = DIFFERENT if ok else RIGHT
        elif not ok and isinstance(value, CutRefusal) and value.readable \
                and same_value(value.reading, expected(case)):
            outcome = RIGHT  # refused as cut, and its completed reading is the suite's value
        elif not ok:
            outcome = RIGHT if case.get("may_refuse") else REFUSED
        else:
            outcome = RIGHT if same_value(value, expected(case)) else DIFFERENT
        results[case["id"]] = {"outcome": outcome, "ok": ok, "ours": value}
    return results


def counts(results: dict[str, dict]) -> Counter[str]:
    return Counter(r["outcome"] for r in results.values())


def _cell(text: str, limit: int = 70) -> str:
    text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    text = text.replace("\r", "\\r").replace("\n", "\\n")  # a table row is one line
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    text = text.replace("|", "\\|")
    fence = "``" if "`" in text else "`"
    pad = " " if fence == "``" or text.startswith(" ") or text.endswith(" ") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _depth(value: Any) -> int:
    deepest, todo = 0, [(value, 1)]
    while todo:
        x, d = todo.pop()
        if isinstance(x, (list, dict)):
            deepest = max(deepest, d)
            todo.extend((v, d + 1) for v in (x.values() if isinstance(x, dict) else x))
    return deepest


def describe_value(value: Any) -> str:
    """A one-line view of a value, the same whatever the recursion limit."""
    depth = _depth(value)
    return f"<{depth} levels deep>" if depth > 200 else short(value, 200)


def _answer(ok: bool, value: Any, describe: Callable[[Any], str]) -> str:
    if isinstance(value, CutRefusal):
        reading = describe(value.reading) if value.readable else value.reading
        return "refused as cut, reading " + _cell(reading)
    return _cell(describe(value)) if ok else "refused"


def render(suite: str, cases: list[dict], results: dict[str, dict], reasons: dict[str, dict],
           expected_text: Callable[[dict], str], title: str,
           describe: Callable[[Any], str] = describe_value) -> str:
    """The README section of a suite: the counts, then every case that is not right."""
    c = counts(results)
    classes = Counter(reasons.get(cid, {}).get("class", "?") for cid, r in results.items()
                      if r["outcome"] != RIGHT)
    lines = [f"<!-- peer-suite: {suite} (generated by --readme) -->",
             f"**{title}**: {len(cases)} cases, **{c[RIGHT]} right**, {c[REFUSED]} refused, "
             f"{c[DIFFERENT]} different; of those {c[REFUSED] + c[DIFFERENT]}: "
             + ", ".join(f"{classes[k]} {k} ({CLASSES[k]})" for k in CLASSES)
             + (f", {classes['?']} not yet classified" if classes["?"] else "") + "."]
    for name, other in load_others(suite).items():
        lines.append(f"{name} {other['version']} on the same cases (recorded by `--readme`): "
                     f"{other[RIGHT]} right, {other[REFUSED]} refused, {other[DIFFERENT]} different.")
    lines.append("")
    rows = [(case, results[case["id"]]) for case in cases if results[case["id"]]["outcome"] != RIGHT]
    if rows:
        lines += ["| case | input | the suite | toolmend | class | why |", "|---|---|---|---|---|---|"]
        for case, r in rows:
            why = reasons.get(case["id"], {})
            suite_answer = "refuses" if case.get("refuse") else _cell(expected_text(case))
            lines.append(f"| {case['id']} | {_cell(_shown(case))} "
                         f"| {suite_answer} | {_answer(r['ok'], r['ours'], describe)} "
                         f"| {why.get('class', '?')} | {why.get('reason', 'not yet classified')} |")
    lines.append(f"<!-- /peer-suite: {suite} -->")
    return "\n".join(lines)


def _shown(case: dict) -> str:
    if "shown" in case:
        return json.dumps(case["shown"], ensure_ascii=False)[1:-1]
    return json.dumps(case["input"], ensure_ascii=False)[1:-1]


_SECTION = r"<!-- peer-suite: {suite} .*?<!-- /peer-suite: {suite} -->"


def readme_section(readme: str, suite: str) -> str | None:
    m = re.search(_SECTION.format(suite=re.escape(suite)), readme, flags=re.S)
    return m.group(0) if m else None


def write_readme(path: Path, suite: str, section: str) -> None:
    text = path.read_text(encoding="utf-8")
    old = readme_section(text, suite)
    if old is None:
        sys.exit(f"{path}: no '<!-- peer-suite: {suite} ...' section to replace")
    path.write_text(text.replace(old, section), encoding="utf-8", newline="\n")


def problems(cases: list[dict], results: dict[str, dict], reasons: dict[str, dict]) -> list[str]:
    """What the data says is wrong with the reasons: a difference without one, a stale one."""
    found = []
    ids = {c["id"] for c in cases}
    for cid, r in results.items():
        if r["outcome"] != RIGHT and reasons.get(cid, {}).get("class") not in CLASSES:
            found.append(f"{cid}: {r['outcome']} without a class and a reason")
    for cid in reasons:
        if cid not in ids:
            found.append(f"{cid}: a reason for a case that does not exist")
        elif results[cid]["outcome"] == RIGHT:
            found.append(f"{cid}: a reason for a case that is now right (remove it)")
    return found


def build(suite: str, run: Run, expected: Callable[[dict], Any], expected_text: Callable[[dict], str],
          title: str) -> tuple[list[dict], dict[str, dict], dict[str, dict], str]:
    """(cases, results, reasons, the README section) of a suite on this build."""
    cases, reasons = load_cases(suite), load_reasons(suite)
    results = score(cases, run, expected)
    return cases, results, reasons, render(suite, cases, results, reasons, expected_text, title)


# ------------------------------------------------------------------- the CLI

def main(suite: str, doc: str | None, run: Run, expected: Callable[[dict], Any], *,
         expected_text: Callable[[dict], str] | None = None, title: str | None = None,
         extract: Callable[[Path], None] | None = None, others: dict[str, tuple[str, Run]] | None = None,
         describe: Callable[[Any], str] = describe_value, argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(doc or "").split("\n\n")[0])
    ap.add_argument("--extract", type=Path, metavar="SOURCE",
                    help="re-extract the cases from the project (a bare git dir or a checkout)")
    ap.add_argument("--show", action="store_true", help="list every case that is not right")
    ap.add_argument("--readme", type=Path, metavar="README", help="rewrite the suite's README table")
    ap.add_argument("--json", action="store_true", help="machine-readable results")
    ns = ap.parse_args(argv)
    if ns.extract:
        if extract is None:
            ap.error("this suite has no extractor")
        extract(ns.extract)
        return 0
    text_of = expected_text or (lambda case: case.get("expect_text", short(expected(case), 200)))
    title = title or suite
    if ns.readme and others:
        import importlib.metadata

        recorded = {}
        for name, (dist, other) in others.items():
            counted = other_counts(load_cases(suite), other, expected)
            recorded[name] = {"version": importlib.metadata.version(dist), **counted}
        (suite_dir(suite) / "others.json").write_text(json.dumps(recorded, indent=1) + "\n", encoding="utf-8")
    cases, results, reasons, section = build(suite, run, expected, text_of, title)
    if ns.readme:
        write_readme(ns.readme, suite, section)
    if ns.json:
        shown = {cid: str(r["ours"]) if isinstance(r["ours"], CutRefusal) else short(r["ours"], 500)
                 for cid, r in results.items()}
        print(json.dumps({cid: {"outcome": r["outcome"], "ours": shown[cid]} for cid, r in results.items()},
                         indent=1, ensure_ascii=False))
        return 0
    c = counts(results)
    print(f"{title}: {len(cases)} cases")
    print(f"  toolmend: {c[RIGHT]} right, {c[REFUSED]} refused, {c[DIFFERENT]} different")
    classes = Counter(reasons.get(cid, {}).get("class", "?") for cid, r in results.items()
                      if r["outcome"] != RIGHT)
    print("  not right, by class: " + ", ".join(f"{k}={n}" for k, n in sorted(classes.items())))
    for name, (_, other) in (others or {}).items():
        oc = counts(score(cases, other, expected))
        print(f"  {name}: {oc[RIGHT]} right, {oc[REFUSED]} refused, {oc[DIFFERENT]} different")
    if ns.show:
        for case in cases:
            r = results[case["id"]]
            if r["outcome"] == RIGHT:
                continue
            why = reasons.get(case["id"], {})
            print(f"\n{case['id']} {r['outcome']} [{why.get('class', '?')}] {case.get('test', '')}")
            print(f"  input:    {_shown(case)[:300]}")
            print(f"  suite:    {'refuses' if case.get('refuse') else text_of(case)[:300]}")
            ours = describe(r["ours"]) if r["ok"] else "refused: " + str(r["ours"])
            print(f"  toolmend: {ours[:300]}")
    for p in problems(cases, results, reasons):
        print("  problem: " + p)
    return 0

#!/usr/bin/env python3
"""fast-json-repair's own tests against toolmend's json-repair drop-in (the same API).

    python bench/fast_json_repair_suite.py                    # right / refused / different
    python bench/fast_json_repair_suite.py --show             # every case that is not right
    python bench/fast_json_repair_suite.py --readme README.md # rewrite the suite's README table

The cases in ``tests/data/peers/fast_json_repair/cases.jsonl`` are the value checks of
fast-json-repair's test file (its repository is Rusty-Ports/fast_json_repair; see SOURCE.json),
one call a line: ``func`` (``repair_json`` or ``loads``) with ``kwargs``, and the value the test
expects (``expect_py``), or ``"raises"`` for a ``pytest.raises`` check. Checks on formatting alone
(``indent``, key order, ``\\u`` escapes in the text) and checks that only ask for "not None" are
not cases. The drop-in is ``toolmend.compat.json_repair``; scoring is ``bench/score_peers.py``,
with the calls read as in ``bench/jsonrepair_suite.py``.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import jsonrepair_suite  # noqa: E402
import score_peers  # noqa: E402

SUITE = "fast_json_repair"

TITLE = "fast-json-repair's tests, on the json-repair drop-in"
SCORING = (jsonrepair_suite.offline_run, jsonrepair_suite.offline_expected, jsonrepair_suite.offline_text,
           TITLE)

if __name__ == "__main__":
    sys.exit(score_peers.main(SUITE, __doc__, *SCORING[:2], expected_text=SCORING[2], title=TITLE))

"""What one sentence before a call says of the model's own act: an offer to the user of a call
they may make, a condition under which the call may be changed (both frame the call after them
as shown), or a narration of what the model looks for next (whose framing words are of what it
looks for: the call after it is made)."""

from __future__ import annotations

import re

__all__ = ["offers", "narrates", "last_sentence"]

# an offer to the user ("If you want it monthly, you can call:"): what follows is theirs to run
_OFFER_OPENS = re.compile(r"\W*(?:if|should) you(?:'d| would)? (?:want|wish|like|need|prefer)\b", re.I)
_YOU_CAN = re.compile(r"\byou (?:can|could|may|might)\b", re.I)
_OWN_ACTION = re.compile(r"\b(?:I|I'll|I'm|I've|let me|we'll|we will|now)\b", re.I)  # (the model's own act)

# a condition under which the call above may be changed ("If no growth rate is provided, the
# growth rate parameters can be removed from the function call."): what follows is that variant
_CONDITION_OPENS = re.compile(r"\W*(?:if|should|in case|when(?:ever)?|unless)\b", re.I)
_MAY_CHANGE = re.compile(r"\b(?:can|could|may|might|should|must|would|needs?[ \t]+to)[ \t]+"
                         r"(?:also[ \t]+|then[ \t]+|simply[ \t]+)?(?:be[ \t]+"
                         r"(?:removed|omitted|dropped|left[ \t]+out|excluded|added|included|changed|modified|"
                         r"adjusted|replaced)|(?:remove|omit|drop|leave[ \t]+out|exclude|add|include|change|"
                         r"modify|adjust|replace))\b", re.I)
_CALL_PART = re.compile(r"\b(?:calls?|parameters?|arguments?|params?)\b", re.I)


def offers(line: str) -> bool:
    """``line`` is one sentence offering the user a call they may make ("If you want it
    monthly, you can modify the call by providing ... :"): it opens with the condition, says
    what they can do, and ends in a colon (a sentence of the model's own, "If you'd like, I
    can check. Checking now:", is not one); or one giving the condition under which the
    call may be changed, ending in a colon or a full stop ("If no growth rate is provided,
    the growth rate parameters can be removed from the function call."): a variant."""
    line = line.strip()
    if len(line) > 400 or _OWN_ACTION.search(line) is not None:
        return False
    if line.endswith(":") and _OFFER_OPENS.match(line) is not None and \
            not any(c in line for c in ".!?") and _YOU_CAN.search(line) is not None:
        return True
    if not line.endswith((":", ".")) or _CONDITION_OPENS.match(line) is None:
        return False
    return _MAY_CHANGE.search(line) is not None and _CALL_PART.search(line) is not None and \
        not any(c in line[:-1] for c in ".!?:")


# a line whose last sentence says what the model does next, a search or a look ("Let me search the
# code for existing examples:", "Great question! Let me look up some examples:", "Searching the docs
# for samples:"), or that it acknowledges or retries ("You're right:", "Trying again:"): the framing
# words in that sentence are of what it looks for, and the call after it is made, unless it also
# says the call is not ("if I had", "I won't run it", "the call would be")
_NARRATES = re.compile(
    r"\W*(?:(?:ok(?:ay)?|now|next|first|then|so|alright|great|sure|good|hmm|got it)\b\W*)*"
    r"(?:[^,.;:!?]{0,60},\s*)?"
    r"(?:(?:let me|let's|i'll|i will|i'm (?:now )?going to|i am going to|i'm gonna|i need to|i want to|"
    r"i would like to|i'd like to|we'll|we will)\s+(?:(?:first|now|also|quickly|just|then|go ahead and)\s+)*"
    r"(?:search|look|find|check|read|fetch|grep|query|browse|scan|inspect|examine|retry|try|see|grab|get|open|"
    r"load|pull|retrieve|download|list|verify|run)\b|"
    r"(?:searching|looking|fetching|reading|grepping)\b(?=\s+\w)|(?:retrying|trying again)\b|"
    r"(?:you're|you are|that's|that is) (?:right|correct)\W*$)", re.I)
# what makes such a sentence say the call after it is shown all the same: an example or a mock
# made for the user, a call recalled or imagined, the format's look ("Let me create an example
# call for you:", "Looking at the docs, a call looks like this:", "Checking the log, the call was:")
_NOT_MADE = re.compile(r"\b(?:if (?:i|we) (?:had|could|were|was)|were i|had i|would have|hypothetic|pretend|"
                       r"imagine|illustrat|not (?:be )?run|suppose|not (?:going|gonna) to|won't|will not|"
                       r"don't|do not|never|can't|cannot|(?:you|one) (?:would|could|can|should|might)\b|"
                       r"here(?:'s| is) how|would be|would look|looks? like|for (?:example|instance)\s*[,:]|"
                       r"e\.g\.?\s*:|(?:example|sample|mock|dummy|fake|template)s? (?:\w+ )?(?:call|request|"
                       r"output|response)|for you\b|to show|the (?:previous |last )?call (?:was|that|is)|"
                       r"logged|outputs|wrong|incorrect|earlier|previous|last time|the format)", re.I)
# (a sentence's end, not "e.g. "; and a colon that more words follow: "Let me check: Earlier I called:")
_SENTENCE_END = re.compile(r"(?<!e\.g)(?<!i\.e)(?<!etc)[.!?;](?:\s+|$)|:\s+(?=\S)")


def last_sentence(words: str) -> str:
    """The last sentence of ``words`` (after the last ``.``, ``!``, ``?`` or ``;`` that a blank follows)."""
    words = words.strip()
    last = 0
    for m in _SENTENCE_END.finditer(words, 0, max(0, len(words) - 1)):
        last = m.end()
    return words[last:]


def narrates(words: str) -> bool:
    """The last sentence of ``words`` says the model's own next look or search (or acknowledges,
    or retries), and nothing of a call not made: what framing words it holds are of what it looks
    for. (A sentence before it may frame, "Let me check. Example call:": the last one decides.)"""
    if words.lstrip()[:1] == "#":
        return False  # (a heading says what follows, "## Example 1: Searching", not the model's act)
    sentence = last_sentence(words)
    return _NARRATES.match(sentence) is not None and _NOT_MADE.search(sentence) is None

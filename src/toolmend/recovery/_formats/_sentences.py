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
    r"\W*(?:(?:ok(?:ay)?|now|next|first|then|so|alright|great|sure|good)\b\W*)*(?:[^,.;:!?]{0,60},\s*)?"
    r"(?:(?:let me|let's|i'll|i will|i'm going to|i am going to|i'm gonna|i need to|i want to|"
    r"i would like to|i'd like to|we'll|we will)\s+(?:(?:first|now|also|quickly|just|then|go ahead and)\s+)*"
    r"(?:search|look|find|check|read|fetch|get|grab|see|inspect|query|open|list|run|pull|load|retrieve|"
    r"download|browse|scan|examine|verify|generate|create|compute|calculate|retry|try)\b|"
    r"(?:searching|looking|checking|fetching|reading|grabbing|retrying|trying again)\b|"
    r"(?:you're|you are|that's|that is) (?:right|correct)\W*$)", re.I)
_NOT_MADE = re.compile(r"\b(?:if (?:i|we) (?:had|could|were|was)|were i|would have|hypothetic|pretend|"
                       r"imagine|illustrat|not (?:be )?run|"
                       r"suppose|not (?:going|gonna) to|won't|will not|don't|do not|never|can't|cannot|"
                       r"(?:you|one) (?:would|could|can|should|might)\b|here(?:'s| is) how|would be|"
                       r"for (?:example|instance)\s*[,:]|e\.g\.?\s*:|example call|the format is)", re.I)
_SENTENCE_END = re.compile(r"(?<!e\.g)(?<!i\.e)(?<!etc)[.!?;](?:\s+|$)")  # (not "e.g. ")


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
    sentence = last_sentence(words)
    return _NARRATES.match(sentence) is not None and _NOT_MADE.search(sentence) is None

"""What the text around a marker says of it: the model's turn is over (a token that ends
it, a tool's result after the calls), the call is quoted (a Markdown quotation, quotation
marks in a sentence) or shown as an example (the words that introduce it as one).
The scan (``_scan``) and the live reading ask these before they take a call.
"""

from __future__ import annotations

import re
from typing import Callable

from ..._text import skip_blanks as _skip_blanks
from .._toolcalls import SPECIAL_TOKEN, ToolCall
from ._sentences import last_sentence, narrates, offers as _offers

# the tokens that end the model's turn: what follows one (a next turn the model went on to
# write, a transcript) is no call of this message. A notebook's cell markers (DeepSeek-Coder's,
# StarCoder's) say the model writes on into a notebook of its own making: a cell's output, code
# or text, no call of this reply
TURN_ENDS = ("<|im_end|>", "<|eot_id|>", "<|eom_id|>", "<|eot|>", "<|endoftext|>",
             "<|end_of_text|>", "<|END_OF_TURN_TOKEN|>", "<\uff5cend\u2581of\u2581sentence\uff5c>",
             "<end_of_turn>", "<turn|>", "<|user|>", "<|observation|>", "[e~[", "<|end_of_msg|>",
             "<|content_model_end_sampling|>", "<seed:eos>", "<jupyter_output>", "<jupyter_text>",
             "<jupyter_code>")
# one that ends its line, or runs into the next special token, a tag, or a family's marker or
# call (one a sentence names is text): GLM's <|observation|> opens the tool's result
TURN_END = re.compile("(?:" + "|".join(re.escape(t) for t in TURN_ENDS)
                      + r")(?=[ \t\r]*(?:\n|\Z|<[|\uff5cA-Za-z_]|\[[A-Z_]{3,}\]|>>>|functools\[|\{\s*\"|"
                      r"\[\s*\{|\[[A-Za-z_][\w.-]*\())")


def turn_or_line_end(text: str, end: int, limit: int, nl: int) -> int:
    """Where the line after a value at ``end`` ends (its line break ``nl``, -1: none before ``limit``),
    or the turn, at a token that ends it there (``{..}<|eot_id|><|start_header_id|>...``: the rest of
    the line is another turn's)."""
    stop = limit if nl < 0 else nl
    if "<" in text[end:stop]:  # (what follows the token may be read past the line's break: "{\n  "name")
        turn = TURN_END.search(text, end, min(limit, stop + 256))
        if turn is not None and turn.start() < stop:
            return turn.end()
    return stop


# MiniMax M2's role tokens (its first token, then each turn's header: ]~b]user, ]~b]ai): in a
# reply, one says the text holds turns of the prompt, or the reply's header
ROLE_TOKENS = ("]~!b[", "]~b]")
# A call no marker begins: the message opens with a tool's name, then GLM-4-9B-Chat's line
# break and JSON arguments, or a Python call's parenthesis (in a string, a list of them, or
# Markdown's inline code, too). The format not named, it is read where the name is a tool
# given (_bytools), in the message's first characters (bounded: a stream decides it within a
# few hundred)
TOOL_HEAD = re.compile(r"[ \t\r\n]{0,64}(?:`?\[[ \t\r\n]{0,16})?['\"`]?([A-Za-z_](?:[\w.-]|\\_){0,127})"
                       r"[ \t]{0,16}(?:(?:\r?\n[ \t]{0,16})?\{|\()")  # (NAME{...} on one line too)

# the message opening with a label saying a call follows on its line ("tools call: [f(a=1)]", Claude
# Instant's), then a list of calls: read with tools= (_bytools)
CALL_LABEL = re.compile(r"[ \t\r\n]{0,64}(?:(?:my|the)[ \t])?(?:(?:tools?|functions?)[ \t])?calls?:"
                        r"[ \t]{0,8}(?=\[)", re.I)  # (words of its own: "Example call:" says it is shown)


def head_name(written: str) -> str:
    """The tool's name ``TOOL_HEAD`` found, its underscores as Markdown escapes them
    (``solve\\_quadratic``) read as the underscores they are (a name holds no backslash)."""
    return written.replace("\\_", "_")
# the header of the assistant's turn after one: the text held the prompt, and the reply follows
REPLY_HEAD = re.compile("|".join((
    r"\s*(?:<\|im_start\|>assistant", r"<start_of_turn>model", r"<\|turn>model", r"<\uff5cAssistant\uff5c>",
    r"<\|start_header_id\|>assistant<\|end_header_id\|>", r"<\|header_start\|>assistant<\|header_end\|>",
    r"<\|START_OF_TURN_TOKEN\|><\|CHATBOT_TOKEN\|>", r"<\|assistant\|>", r"\[/INST\]", r"\]~b\]ai(?=\n)",
    r"(?=<\|start\|>assistant\b)",  # (harmony's: the reply begins at its header, which its reader reads)
    r'<\|open\|>message role="assistant"<\|sep\|>)')))
# what opens a tool's result or the user's next turn, with what closes it: one with its closer
# after it ends the model's turn (a call after it is a later turn's, or made on a result the
# model made up); one alone is text (a sentence naming it)
TURN_OPENERS = {"[TOOL_RESULTS]": "[/TOOL_RESULTS]", "[INST]": "[/INST]", "<tool_result>": "</tool_result>",
                "<function_results>": "</function_results>", "<|tool_response>": "<tool_response|>",
                "<start_function_response>": "<end_function_response>",  # (FunctionGemma's)
                "<\uff5ctool\u2581outputs\u2581begin\uff5c>": "<\uff5ctool\u2581outputs\u2581end\uff5c>",
                "<\uff5ctool\u2581output\u2581begin\uff5c>": "<\uff5ctool\u2581output\u2581end\uff5c>"}

# the header of a turn that is not the model's (the user's, the system's, a tool's), any role
# but the assistant's: in a reply, one says the model wrote on into a turn of its own making (a
# text that holds the prompt is read from its last assistant header: those before are the
# prompt's). ChatML's, Llama's, Gemma's and Gemma 4's end their line (Phi-4's ChatML ends with
# <|im_sep|>); one in a sentence is text. Cohere's, DeepSeek's and Kimi K3's run into the text.
_NOT_ASSISTANT = r"(?![Aa]ssistant\b|model\b)"
ROLE_HEAD = re.compile("|".join((
    r"<\|im_start\|>" + _NOT_ASSISTANT + r"[A-Za-z_][\w.-]{0,31}"
    r"(?=(?:[ \t]+name=(?:<\|[a-z_]{1,32}\|>|[^\s<]{1,64}))?[ \t]*(?:\r?\n|<\|im_sep\|>))",
    r"<\|start_of_role\|>" + _NOT_ASSISTANT + r"[A-Za-z_]{1,16}<\|end_of_role\|>",  # (Granite's)
    r"<\|start\|>(?:user|system|developer)(?=<\|message\|>|<\|channel\|>)",  # (harmony's)
    r"<\|im_(?:user|system)\|>",  # (Kimi K2's)
    r"<\|(?:user|system|developer)_start\|>",  # (Apertus')
    r"<seed:bos>" + _NOT_ASSISTANT + r"[A-Za-z_]{1,16}(?=[ \t]*\r?\n)",  # (Seed-OSS')
    r"<\|start_header_id\|>" + _NOT_ASSISTANT + r"[^<\n]{1,32}<\|end_header_id\|>(?=[ \t]*\r?\n)",
    r"<\|header_start\|>" + _NOT_ASSISTANT + r"[^<\n]{1,32}<\|header_end\|>(?=[ \t]*\r?\n)",
    r"<start_of_turn>" + _NOT_ASSISTANT + r"[A-Za-z_]{1,16}(?=[ \t]*\r?\n)",
    r"<\|turn>" + _NOT_ASSISTANT + r"[A-Za-z_]{1,16}(?=[ \t]*\r?\n)",
    r"<\|START_OF_TURN_TOKEN\|><\|(?:USER|SYSTEM)_TOKEN\|>", "<\uff5cUser\uff5c>",
    r'<\|open\|>message role="(?!assistant")[^"\n]{1,32}"[^<\n]{0,64}<\|sep\|>',
    # (MiniMax M2's, "]~b]tool name=f" too)
    r"\]~b\](?!ai\b)[A-Za-z_]{1,16}(?=(?:[ \t]+name=[^\s<]{1,64})?[ \t]*\r?\n)")))
# the header of the assistant's own turn, standing after the reply's calls with no turn's end
# before it: the model wrote on into a reply of its own making, and the calls after it are not
# this message's (before any call, it is this reply's header, echoed: passed over). Not
# harmony's (each of its messages opens with one), GLM-4's <|assistant|> (each of its calls
# does) nor Mistral's [/INST] (the user's turn's end)
ASSISTANT_HEAD = re.compile("|".join((
    # (and ChatML's run into Llama 3's, as Hermes-2-Theta, a merge of the two, writes it)
    r"<\|im_start\|>(?:[Aa]ssistant|model)(?=[ \t]*(?:\r?\n|<\|im_sep\|>|<\|end_header_id\|>))",
    r"<\|start_of_role\|>assistant<\|end_of_role\|>", r"<\|im_assistant\|>", r"<\|assistant_start\|>",
    r"<seed:bos>assistant(?=[ \t]*\r?\n)", r"<\|start_header_id\|>assistant<\|end_header_id\|>",
    r"<\|header_start\|>assistant<\|header_end\|>", r"<start_of_turn>model(?=[ \t]*\r?\n)",
    r"<\|turn>model(?=[ \t]*\r?\n)", r"<\|START_OF_TURN_TOKEN\|><\|CHATBOT_TOKEN\|>",
    "<\uff5cAssistant\uff5c>", r'<\|open\|>message role="assistant"<\|sep\|>', r"\]~b\]ai(?=[ \t]*\r?\n)")))
# DeepSeek-Coder's (and Alpaca's) turn headers, alone on their line as its template writes them:
# a model that writes the user's has made up the user's next turn; one that writes its own
# after its calls has made up a reply of its own making (the calls after either are not this
# message's); its own before any call is the header of this reply, echoed
INSTRUCTION = "### Instruction:"
RESPONSE = "### Response"
ALPACA_HEAD = r"^[ \t]*### (?:Instruction:|Response:?)[ \t]*\r?$"
ALPACA_LINE = re.compile(r"### (?:Instruction:|Response:?)[ \t]*\r?$", re.M)  # (from its "#")
# what such a header begins with that no other token does (the live reading holds at it)
ROLE_STARTS = ("<start_of_turn>", "<seed:bos>", INSTRUCTION, RESPONSE)

# ReAct's "Observation:" on a line after an action: the model was to stop there; one that
# writes on made the tool's result up, and what it does next acts on that, so the turn ends
OBSERVATION = re.compile(r"[ \t]*\r?\n[ \t\r\n]*(?:\*\*)?Observation[ \t]*(?:\*\*)?[ \t]*:")

# one that stands at the start of its line (what ends a fence never closed)
LINE_TURN_END = re.compile(r"(?m)^[ \t]*" + TURN_END.pattern)

# a line asking the user before the call runs ("Once you confirm, I will call:", "Should I run the
# following?", "Please confirm:"): the call waits for their answer, it is not made
_ASKS_VERB = r"(?:run|call|execute|proceed|do|send|make|use|delete|remove)\b"
_ASKS_FIRST = (r"\b(?:once|if|after|when) you(?:'ve| have)? (?:confirm|approve|agree|say so|"
               r"give the go-ahead)\b|\b(?:with|pending|awaiting|upon|after|needs?|requires?) "
               r"(?:your|the user's) (?:confirmation|approval|permission|go-ahead|ok|okay)\b|"
               r"\bplease confirm\b|\bconfirm (?:before|and) (?:i|we)\b|"
               r"\b(?:should|shall|may|can) (?:i|we) (?:go ahead and )?" + _ASKS_VERB + r"[^\n]*[?:]\W*$|"
               r"\b(?:do you want|would you like|want) me to (?:go ahead and )?" + _ASKS_VERB
               + r"[^\n]*\?\W*$")
# a warning that opens the line: "Never run this:", "Do NOT do this:", "Warning: don't call this"
# a warning about what follows: "Never run this:", "You should NOT do this:", "Do not call these."
_WARNING = (r"(?:never|not|n't|avoid) (?:ever |actually |really )?(?:run|call|do|use|execute|send|emit|"
            r"writ(?:e|ing)|output(?:ting)?)"
            r"(?:ing)?(?: this| these| the following)?\W*$|not a real (?:call|one)\W*$|"
            r"\u4e0d\u8981(?:\u8fd0\u884c|\u6267\u884c|\u8c03\u7528)(?:\u8fd9\u4e2a|\u5b83)?\W*$|"
            r"nicht (?:ausf\u00fchren|aufrufen)\W*$|" + _ASKS_FIRST)
# "for example" in the languages models answer in most besides English (Qwen's, GLM's, DeepSeek's,
# Kimi's and MiniMax's Chinese first): words that open a sentence, and CJK ones, which no word
# boundary separates from the words before them ("以下是示例："); "例：" alone, not "比例："
_EXAMPLE_ABROAD = (r"por ejemplo|ejemplo|por exemplo|exemplo|par exemple|exemple|zum beispiel|beispiel|"
                   r"z\. ?b\.|per esempio|esempio|\u043d\u0430\u043f\u0440\u0438\u043c\u0435\u0440\b|"
                   r"\u043f\u0440\u0438\u043c\u0435\u0440\b")
_EXAMPLE_CJK = (r"(?:\u4f8b\u5982|\u793a\u4f8b|\u6bd4\u5982|\u4e3e\u4f8b|\u8209\u4f8b|"
                r"\u4e3e\u4e2a\u4f8b\u5b50|\u8209\u500b\u4f8b\u5b50|\u7bc4\u4f8b|\u8303\u4f8b|\u6837\u4f8b|\u6a23\u4f8b|"
                r"\u4f8b\u3048\u3070|\u305f\u3068\u3048\u3070|\uc608\ub97c \ub4e4\uc5b4|\uc608\uc2dc|"
                r"(?<![\u3400-\u9fff])\u4f8b[:\uff1a])")


class Words:
    """A pattern of words, found in either case. Python's ``re`` tries a long list of
    alternatives case-insensitively at ~0.4 us a character; ASCII text is lowered and
    searched with the pattern compiled case-sensitively instead (~3x faster), which finds
    the same: its letters are lower-case, it sets no flag inline, and none of its other
    characters folds to an ASCII one (tests/test_context_words.py checks both)."""

    __slots__ = ("any_case", "lower_case")

    def __init__(self, pattern: str) -> None:
        self.any_case = re.compile(pattern, re.I)
        self.lower_case = re.compile(pattern)

    def search(self, words: str) -> re.Match[str] | None:
        if words.isascii():  # (lowered, ASCII keeps its length: the match's offsets are the words')
            return self.lower_case.search(words.lower())
        return self.any_case.search(words)


_ASKS = Words(_ASKS_FIRST)

# what introduces a fenced block as an illustration rather than the model's own call
_FRAMING = Words(
    r"\b(?:for (?:example|instance|reference)(?!\.\w)|e\.g\b|an? example|"
    r"example (?:(?:function|tool|api) )?(?:of|call|output|usage|response|request|input|conversation|"
    r"exchange|dialog(?:ue)?|transcript|session|interaction)|examples?:|like (?:this|so)|looks? like|"
    r"should (?:look|contain|be|read)|the format|format is|"
    r"format:|syntax|template|sample|typical|would (?:emit|make|call|look|write|send|be|use)|"
    r"(?:here is|here's) how|how (?:you|to) (?:would )?(?:call|use|write)|such as|wrong|right:|"
    r"correct:|incorrect|if i had|i would|could look|might look|placeholder|"
    r"(?:was|were):|(?:was|were) (?:logged|sent|returned|emitted)|output (?:was|from)|"
    r"written as|represented as|in this (?:form|format|shape)|illustrat|demonstrat|if i could|"
    r"would have|mock|dummy|pseudo|usage:|" + _EXAMPLE_ABROAD + ")|" + _EXAMPLE_CJK + "|" + _WARNING)
# what introduces a bare call (no marker, no fence) as an illustration: the words that say so
# outright (a fence's list holds more, "like this", "such as", "i would": said of real calls too)
_BARE_FRAMING = Words(
    r"\b(?:for (?:example|instance|reference)(?!\.\w)|e\.g\b|eg:|examples?:|an? example (?:of|call)|"
    r"example ?\d+\b|"
    r"example (?:(?:function|tool|api) )?(?:call|output|usage|response|request|input)|the format (?:is|"
    r"looks)|(?:call|request|output|format|it) looks? like\W*$|looks? like (?:this|so)\W*$|"
    r"if i (?:were|was) to|were i to|hypothetical|sample(?: (?:call|output|request))?:|"
    r"sample (?:call|output|request)|sample (?:tool call|invocation)\W*$|(?:would|should|could|might) look "
    r"like|incorrect|"
    r"wrong:|wrong (?:way|example|usage|call)|bad(?: example| way| call| usage)?:|right:|correct:|avoid:|"
    r"avoid (?:this|doing this|these):|(?:mock|dummy|fake|pseudo-?)(?:code| call| output| request| response)|"
    r"such as:|(?:was|were):|(?:was|were) (?:logged|sent|returned|emitted)|do not (?:run|call|execute)|"
    r"(?:previously|earlier),? i (?:called|ran|made|sent|used)(?: (?:this|that|the|it))?(?: call)?\W*$|"
    r"i (?:previously|earlier) (?:called|ran|made|sent)\W*$|"
    # (a call the model only imagines or recalls, or one that shows the format: "If I had access to
    # tools, I would call:", "I called this earlier:", "a call is written as:", "the model outputs:")
    r"(?:if i (?:had|could)|had i|if (?:the )?(?:tools?|functions?) (?:were|was) available)\b[^.!?;]{0,80}"
    r"\bi(?: would|'d) (?:\w+ )?(?:call|use|send|run|write|make)\b[^.!?;]{0,30}$|"
    r"i called (?:this |that |it )?(?:earlier|before|previously)\W*$|"
    r"(?:yesterday|in my (?:previous|last) (?:turn|message)|last turn),? i called\W*$|"
    r"how (?:a|the) (?:tool |function )?call\b[^.!?]{0,40}(?: looks| (?:should|would|must) look)\W*$|"
    r"^\W*(?:the )?(?:model|assistant) (?:outputs|emits|writes|returns)\W*$|"
    r"what (?:the|a) (?:model|assistant) (?:outputs|emits|writes|returns)\W*$|"
    r"(?:is|are) (?:written|formatted) as\W*$|"
    r"you (?:could|can|might) (?:make|use|send|run) (?:this|that|the following) (?:call|request)\W*$|"
    r"(?:don't|do not) have (?:any )?(?:tool access|access to (?:an? |any |the )?(?:[\w.-]+ )?"
    r"(?:tools?|functions?|apis?)\b)|"
    r"(?:previous|last|earlier) call (?:was|were|is|looked)\W*$|(?:here is|here's) how (?:you|to|one)|"
    r"how (?:you|to) (?:would )?(?:call|use|write)|what not to do|"
    r"last time,? i (?:called|ran|sent|made)(?: (?:this|that|the|it))?(?: call)?\W*$|"
    r"(?:call|request|command) (?:you|one) (?:could|can|would|might|should) (?:make|use|send|run)\W*$|"
    r"(?:use|in|with|follow) (?:this|the following) format\W*$|"  # (and below: it will not be run)
    r"(?:not (?:going|gonna) to|won't|will not) (?:run|call|execute) (?:this|it|that)(?:\W*$|\W*,? but\b)|"
    r"(?:the|a) model (?:might|may|would|could|will|can) (?:output|emit|write|return)\W*$|(?:if|when|"
    r"suppose) (?:the|a) model (?:outputs|emits|writes|returns)\W*$|^\W*(?:imagine|suppose) (?:i|we|you) "
    r"(?:called|call|ran|run|sent)\W*$|" + _EXAMPLE_ABROAD + ")|" + _EXAMPLE_CJK + "|"
    # (a line that is only "Example", "The syntax:", "Template": the words alone, said of nothing else)
    r"^[\W_]*(?:here(?:'s| is) )?(?:the )?(?:correct |expected |call |tool call )*(?:syntax|template|format|"
    r"examples?|samples?|fake|mock|dummy)(?: is)?[\W_]*$|^[\W_]*(?:do|don'?t|do not|not like (?:this|that)|"
    r"bad (?:examples?|usage|calls?|way)|invalid(?: calls?| examples?|"
    r" usage)?|anti-?patterns?|expected (?:outputs?|results?|responses?))[\W_]*$|" + _WARNING)
_BLANKS = re.compile(r"\s+")


def framed_as_example(text: str, fence_start: int, floor: int, content: str) -> bool:
    before = text[floor:fence_start].rstrip()
    lines = [ln for ln in before.splitlines() if ln.strip()][-2:]
    if lines and says_shown(lines[-1]):
        return True  # (a fence's framing words, and a bare call's too: "## Example", "Don't:")
    lines = content.splitlines()
    if any(frames(ln) for ln in lines if ln.strip()[:1].isalpha()):
        return True
    # (a comment line that says so, "// for example", "# Example", in a JSON fence too)
    return any(says_shown(_COMMENT.sub("", ln)) for ln in lines if _COMMENT.match(ln) is not None)


_COMMENT = re.compile(r"^\s*(?://+|#+|/\*+|<!--)|(?:\*+/|-->)\s*$")


def frames(words: str) -> bool:
    """``words`` introduce what follows as an illustration ("for instance", "e.g."; the
    framing's words with any blanks between them: "For\u00a0instance", "for  example")."""
    words = _BLANKS.sub(" ", words)
    return not narrates(words) and (_FRAMING.search(words) is not None or _offers(words))


def says_shown(words: str) -> bool:
    """``words`` (a comment's, a line's alone) say that what they stand by is shown, not
    made: the framing words of a fence's or of a bare call's ("Example usage:", "e.g.",
    "Do not run this", a line that is only "Example")."""
    words = _BLANKS.sub(" ", words)
    return not narrates(words) and (_FRAMING.search(words) is not None
                                    or _BARE_FRAMING.search(words) is not None or _offers(words))


def framed_line(text: str, i: int, floor: int) -> bool:
    """The last line with words before ``i`` (from ``floor``, within a few hundred
    characters) introduces what follows as an illustration, as for a fence."""
    a = max(floor, i - 400)
    before = text[a:above_markup(text, i, a)].rstrip()
    lead = _TAGS.sub("", before[before.rfind("\n") + 1:])  # ("<b>For example:</b>")
    if _UNDERLINE.fullmatch(lead):  # a heading's underline: its words are the line right above
        above = before[:max(before.rfind("\n"), 0)].rstrip(" \t\r")
        lead = above[above.rfind("\n") + 1:] if above and not above.endswith("\n") else ""
    lead = _BLANKS.sub(" ", lead)  # (its last sentence alone may be a line's words: "Let me check. Don't:")
    return bool(lead) and not narrates(lead) and (_BARE_FRAMING.search(lead) is not None or _offers(lead)
                                                  or _BARE_FRAMING.search(last_sentence(lead)) is not None)


# a line of special tokens or tags only (a leaked <|im_start|>, an <?xml?>): no words
_MARKUP_LINE = re.compile(r"[ \t]*(?:(?:" + SPECIAL_TOKEN + r"|</?[A-Za-z_?!][^<>\n]{0,60}>)[ \t]*)+\r?")


def above_markup(text: str, p: int, floor: int) -> int:
    """``p`` (a line's start, or blanks before one), moved back over the blank lines and the
    lines of tokens or tags only before it: what frames a call stands above those."""
    while True:
        q = p
        while q > floor and text[q - 1] in " \t\r\n":
            q -= 1
        if q <= floor or text[q - 1] != ">":
            return p
        a = text.rfind("\n", max(floor, q - 200), q) + 1 or max(floor, q - 200)
        if _MARKUP_LINE.fullmatch(text, a, q) is None:
            return p
        p = a


# Hy3 (Tencent) writes GLM's tags, and its reasoning's, with a suffix: <tool_call:opensource>NAME
# <tool_sep:opensource><arg_key:opensource>k</arg_key:opensource>..., </think:opensource>
HY3_SUFFIX = ":opensource"
HY3_OPENER = "<tool_call" + HY3_SUFFIX + ">"

# the sections a family's calls stand in (Kimi's, DeepSeek's, DSML's), and the tags that wrap
# one call (<tool_call> around Qwen3-Coder's <function=...>): opener -> closer. A call whose own
# marker follows one begins at it
SECTIONS = {"<|tool_calls_section_begin|>": "<|tool_calls_section_end|>",
            "<\uff5ctool\u2581calls\u2581begin\uff5c>": "<\uff5ctool\u2581calls\u2581end\uff5c>",
            "<\uff5cDSML\uff5cfunction_calls>": "</\uff5cDSML\uff5cfunction_calls>",
            "<\uff5cDSML\uff5ctool_calls>": "</\uff5cDSML\uff5ctool_calls>",
            "<|open|>tools<|sep|>": "<|close|>tools<|sep|>"}
WRAPPERS = {"<tool_call>": "</tool_call>", "<seed:tool_call>": "</seed:tool_call>"}
_SECTIONS = (*SECTIONS, *WRAPPERS, "<tool_calls>")  # (and Hunyuan's block of <tool_call> tags)
_SECTION_ENDS = (*SECTIONS.values(), *WRAPPERS.values(), "</tool_calls>")


# the token or tag that closes each family's call (its marker -> closers). What stands between a
# marker and its closer is that call's, read or not: a call the reader cannot read (a name that is
# no name, a body the format does not write) is passed over to its closer, so that a call one of
# its values shows is never taken for one. (Not the markers a sentence may name or that have no
# closer of their own: <tool_call>, [TOOL_CALLS], Action:, functools, <|python_tag|>...)
_B, _U = "\uff5c", "\u2581"
MARKER_CLOSERS = {
    "<tool_call>": ("</tool_call>",), "<longcat_tool_call>": ("</longcat_tool_call>",),
    "<tool_call" + HY3_SUFFIX + ">": ("</tool_call" + HY3_SUFFIX + ">",
                                       "<end_of_tool_call" + HY3_SUFFIX + ">"),
    "<function=": ("</function>",), "<function name=": ("</function>",),
    "<minimax:tool_call>": ("</minimax:tool_call>",),  # (not <tool_calls>: the tags it may hold are read)
    f"<{_B}DSML{_B}invoke": (f"</{_B}DSML{_B}invoke>",), "<steptml:invoke": ("</steptml:invoke>",),
    f"<{_B}tool{_U}call{_U}begin{_B}>": (f"<{_B}tool{_U}call{_U}end{_B}>",),
    "<|tool_call_begin|>": ("<|tool_call_end|>",),
    "<|python_start|>": ("<|python_end|>",), "<|tool_call_start|>": ("<|tool_call_end|>",),
    "<function_calls>": ("</function_calls>",), "<atem:function_calls>": ("</atem:function_calls>",),
    "<|tool_call>": ("<tool_call|>",), "<start_function_call>": ("<end_function_call>",),
    "<|tool_call|>": ("<|/tool_call|>",), "<function_call>": ("</function_call>",),
    "<|action_start|><|plugin|>": ("<|action_end|>",), "<|START_ACTION|>": ("<|END_ACTION|>",),
    "<|tools_prefix|>": ("<|tools_suffix|>",), "<TOOLCALL>": ("</TOOLCALL>",), "<toolcall>": ("</toolcall>",),
    '<|open|>call tool="': ("<|close|>call<|sep|>",),
    "]<]minimax[>[<tool_call>": ("]<]minimax[>[</tool_call>",),
    "<|tool_call:start|>": ("<|tool_call:end|>",),
    "<|content_invoke_tool_json|>": ("<|end_message|>", "<|content_model_end_sampling|>"),
    "[TOOL_CALL]": ("[/TOOL_CALL]",),
}


def past_unread(text: str, marker: str, after: int, limit: int,
                find: Callable[[str, str, int, int], int]) -> int:
    """Where the call the family ``marker`` opened ends, when its reader could not read it or
    read it to ``after`` only: past its closer, if one follows before another call of the family
    opens (one a sentence names, then the real call: the real one is read); -1 otherwise.
    (``find``: the parse's remembered search, so that a run of openers with no closer is linear.)"""
    closers = MARKER_CLOSERS.get(marker)
    if not closers:
        return -1
    found = [(k, c) for k, c in ((find(text, c, after, limit), c) for c in closers) if k >= 0]
    if not found:
        return -1
    k, c = min(found)
    return -1 if text.find(marker, after, k) >= 0 else k + len(c)


def call_lead(text: str, i: int, floor: int = 0) -> int:
    """Where the call whose marker is at ``i`` begins: at the section or wrapper opener
    right before it (``<|tool_calls_section_begin|>``, ``<tool_call>`` before ``<function=``)."""
    p = i
    while p > floor and i - p < 8 and text[p - 1] in " \t\r\n":
        p -= 1
    if p > floor and text[p - 1] == ">" and text.endswith(_SECTIONS, floor, p):
        # (the opener's start: one of several tokens, <|open|>tools<|sep|>, holds more than one "<")
        return p - max(len(o) for o in _SECTIONS if text.endswith(o, floor, p))
    return i


# what says, on a call's own line before it, that the sentence shows the call ("For example,
# <tool_call>...", "never send <tool_call>...", "if you write <tool_call>..."): fewer words than a
# fence's (a call after "here's how I'll do it:" on its line is made)
_INLINE_FRAMING = Words(
    r"\b(?:for (?:example|instance|reference)|e\.g\b|an? example|examples?:|example (?:of|call)|"
    r"the (?:call )?(?:format|syntax|template) (?:is|looks)|(?:wrong|bad|avoid|incorrect):|"
    r"(?:mock|dummy|fake|sample) (?:call|output|request)|(?:previous|last|earlier) call (?:was|were|is)|"
    r"(?:never|don't|do not|must not|should not|shouldn't) (?:ever )?(?:run|call|write|emit|send|use|output)|"
    r"(?:you|one) (?:can|could|would|should|might) (?:write|call|send|emit|use|output)|"
    r"if (?:you|i|we|the model) (?:write|wrote|send|sent|emit|emitted|output|call)|"
    r"(?:was|were) (?:logged|sent|returned|emitted))")
# a Markdown heading whose words say what follows is shown: "## Example", "### Sample output"
_SHOWN_HEADING = re.compile(r"[ \t]{0,3}#{1,6}[ \t].*\b(?:examples?|samples?|illustrations?)\b", re.I)
_UNDERLINE = re.compile(r"[ \t]*(?:-{3,}|={3,})[ \t]*\r?")  # (a Markdown heading's, under its words)
_TAG = r"</?(?:b|strong|i|em|u|p|span|div|summary|details|h[1-6])>"  # (HTML's, "<b>Example:</b>")
_TAGS, _TAG_END = re.compile(_TAG, re.I), re.compile(_TAG + r"\Z", re.I)
_BAD = r"(?:bad|wrong|incorrect|invalid)"
_SHOWN_ABOVE = re.compile(
    r"(?:" + _TAG + r"[ \t]*)*(?:[\W_]*(?:" + _BAD + r" )?(?:examples?|e\.g\.?|for example|samples?)"
    r"(?: ?\d+)?(?: (?:usage|calls?|outputs?|requests?))?[\W_]*|[\W_]*(?:don'?t|do not|" + _BAD
    + r"(?: (?:usage|calls?|way))?)[\W_]*|" + _SHOWN_HEADING.pattern + r".*)\Z", re.I)
LIST_ITEM = re.compile(r"[ \t]*(?:[-*+]|\d{1,3}[.)])[ \t\u00a0]*")  # (a Markdown list item's: "- ", "1. ")
# tags whose content is shown, not made: a call in <example>...</example> is an example
SHOWN_TAGS = ("<example>", "<examples>", "<code>", "<pre>")


def shown_below(text: str, i: int, floor: int, lead: int = -1) -> bool:
    """The call at ``i`` is shown, not made, by what stands before it (from ``floor``): opening
    its line, after a line ending in a colon whose words frame it ("For example:", "Never run
    this:", in HTML's tags too) or after a heading that does ("## Example"); inside its line,
    after words that frame it ("For example, <tool_call>...") or in a table's cell ("| ... |")."""
    # (where the call begins: its section opened on that line, Kimi's, DeepSeek's; ``lead``, known)
    p = lead if lead >= 0 else call_lead(text, i, floor)
    while p > floor and text[p - 1] in " \t":
        p -= 1
    if p > floor and text[p - 1] != "\n":  # ("- <tool_call>": the item opens its line)
        a = text.rfind("\n", max(floor, p - 8), p) + 1 or floor
        p = a if a < p and LIST_ITEM.fullmatch(text, a, p) else p
    if p > floor and text[p - 1] != "\n":  # words before it on its line
        words = _BLANKS.sub(" ", text[max(floor, text.rfind("\n", max(floor, p - 400), p) + 1, p - 400):p])
        if words.lstrip()[:1] == "|" or _INLINE_FRAMING.search(words) is not None:
            return True
        # (words ending in a colon frame the call after them as a line ending in one frames the call
        # below it: "Avoid this: <tool_call>", "Por ejemplo: <tool_call>")
        words = words.rstrip()
        return words[-1:] in (":", "\uff1a") and not narrates(words) and (
            _BARE_FRAMING.search(words) is not None or _offers(words))
    line = p
    while p > floor and text[p - 1] in " \t\r\n":
        p -= 1
    if p > floor and text[p - 1] == ">":  # (a line of markup above: the words that frame stand above it)
        p = above_markup(text, line, floor)
        while p > floor and text[p - 1] in " \t\r\n":
            p -= 1
    if p <= floor:
        return False
    if text[p - 1] in "-=":  # (a heading's underline, "Example\n-------": its words are above it)
        a = text.rfind("\n", max(floor, p - 400), p) + 1 or max(floor, p - 400)
        if _UNDERLINE.fullmatch(text, a, p) and a > floor:
            p = a - 1
            while p > floor and text[p - 1] in " \t\r":
                p -= 1
            if p <= floor or text[p - 1] == "\n":
                return False  # (a rule after a blank line: no heading's)
    q = p
    while q > floor and (text[q - 1] in "*_ \t" or text[q - 1] == ">" and _TAG_END.search(text, q - 10, q)):
        q = q - 1 if text[q - 1] in "*_ \t" else text.rfind("<", 0, q)  # (**Example:**, <b>Example:</b>)
    end = text[q - 1]
    if end in ":,\uff1a\uff0c":  # ("For example:", "For example,", "例如：")
        return framed_line(text, line, floor)
    if end == "." and text[q - 4:q].lower() != "e.g.":
        return False  # (a sentence's end: most lines before a call; of the shown ones, only "e.g.")
    a = text.rfind("\n", max(floor, p - 400), p) + 1 or max(floor, p - 400)
    if end == "?":  # ("Should I run the following?": the call waits for the user's answer)
        return _ASKS.search(_BLANKS.sub(" ", text[a:q])) is not None
    if end.isalnum() and _INLINE_FRAMING.search(_BLANKS.sub(" ", text[a:q])) is not None:
        return True  # a sentence that runs on into the call ("For example you can write")
    # a line of its own saying it ("Example", "e.g.", "__Example__") or a heading that does ("## Example"):
    # (a line opening with a letter other than theirs is looked at no further: most lines)
    c = text[a:a + 1]
    return (not c.isalpha() or c in "EeFfSsBbWwIiDd") and _SHOWN_ABOVE.match(text, a, q) is not None


def args_end(raw: str) -> int:
    """Where whole arguments end in their text: before a turn end that ends it
    (a reader may keep one its repair dropped: ``{"a": 1}<|im_end|>``)."""
    tail = raw[-32:].rstrip()
    for token in TURN_ENDS:
        if tail.endswith(token):
            return len(raw) - len(raw[-32:]) + len(tail) - len(token)
    return len(raw)


# a text that opens with the model's first token (which it never writes) or the header of
# the system's or the user's turn holds the prompt
PROMPT_HEAD = re.compile(
    r"\s*(?:<\uff5cbegin\u2581of\u2581sentence\uff5c>|<bos>|<\|begin_of_text\|>|(?:<s>\s*)?(?:"
    r"<\|im_start\|>(?:system|user|developer)|<start_of_turn>user|<\|turn>(?:system|user)"
    r"|<\|start_header_id\|>(?:system|user)|<\|header_start\|>(?:system|user)|<\uff5cUser\uff5c>"
    r"|<\|system\|>|<\|user\|>|<\|START_OF_TURN_TOKEN\|><\|(?:SYSTEM|USER)_TOKEN\|>|\[INST\]"
    r"|\]~!b\[|\]~b\](?:system|user)\n|<\|open\|>message role=\"(?:system|user)\""
    r"|<\|start\|>(?:system|developer|user)<\|message\|>))")


def reply_start(text: str) -> int:
    """Where the reply begins in a text that holds the prompt: after the last
    assistant's header (the turns before it are the prompt's, the history's);
    the text's end when there is none (no reply was written)."""
    last = len(text)
    for m in _ANY_REPLY_HEAD.finditer(text):
        last = m.end()
    return last


_ANY_REPLY_HEAD = re.compile(REPLY_HEAD.pattern.replace(r"\s*", "", 1) + r"[ \t]*\n?")


def after_markup(text: str, i: int) -> bool:
    """``i`` opens its line or follows a tag or token (``</tool_call><tool_response>``,
    ``}[TOOL_RESULTS]``): not a word of a sentence."""
    while i > 0 and text[i - 1] in " \t":
        i -= 1
    return i == 0 or text[i - 1] in "\n>]}"


def opens_its_line(text: str, i: int) -> bool:
    """Only spaces and tabs before ``i`` on its line (looked at back to the line
    break, not searched for: a long line of tags stays linear)."""
    while i > 0 and text[i - 1] in " \t":
        i -= 1
    return i == 0 or text[i - 1] == "\n"


def quoted(text: str, i: int, floor: int = 0) -> bool:
    """What stands before ``i`` on its line is a Markdown quotation's ``>`` marks (and
    blanks; a run longer than a few dozen characters, or from before ``floor``, a closer's end, is not)."""
    lead = text[max(0, i - _QUOTE_MAX):i]
    marks = len(lead) - len(lead.rstrip(" \t>"))
    j = i - marks
    if (marks == len(lead) and j > 0) or j < floor:
        return False  # (a run longer than a quotation's marks)
    return (j == 0 or text[j - 1] == "\n") and ">" in text[j:i]


_QUOTE_MAX = 16
# quotation marks around a call a sentence quotes, each with its closing mark (CJK's corner brackets too)
QUOTES = {'"': '"', "\u201c": "\u201d", "'": "'", "\u2018": "\u2019", "\u00ab": "\u00bb",
          "\u300c": "\u300d", "\u300e": "\u300f", "\u201e": "\u201c"}


def in_quotes(text: str, start: int, end: int) -> bool:
    """The call read from ``start`` to ``end`` stands between quotation marks:
    ``"<tool_call>...</tool_call>"`` in a sentence is quoted, not made."""
    close = QUOTES.get(text[start - 1]) if start > 0 else None
    if close is None:
        return False
    k = end
    while True:  # (past the section's closer: "<|tool_calls_section_begin|>...<|tool_calls_section_end|>")
        q = k
        while q < len(text) and text[q] in " \t\r\n":
            q += 1
        shut = next((c for c in _SECTION_ENDS if text.startswith(c, q)), None)
        if shut is None:
            return text.startswith(close, k)
        k = q + len(shut)

# what may follow a call on its line: special tokens and the closing tags of calls (raw output with
# its tokens kept: {"name": ...}<|eot_id|>, [...]</TOOLCALL>; not </tool_result>, </example>);
# words after it make it a sentence's. (Each piece matches one way only, so a line of many tags
# that fails at its end is not tried again in every split of every name.)
CALL_LINE_END = re.compile(r"(?:\s|" + SPECIAL_TOKEN + r"|</s>|<eos>|<end_of_turn>|<seed:eos>"
                           r"|<jupyter_[a-z]{4,6}>|</(?i:(?:minimax:|seed:|longcat_)?(?:tool_?calls?|function_?calls?))>)*")
assert all(CALL_LINE_END.fullmatch(t) for t in TURN_ENDS)
QUOTE_LEAD = frozenset(" \t>")  # what stands just before a tag a quotation holds


def a_member_value(text: str, i: int) -> bool:
    """The object at ``i`` is the value of a member (``{"user": {"name": ...}}``): data."""
    p = i
    while p > 0 and text[p - 1] in " \t":
        p -= 1
    if p > 0 and text[p - 1] == ":":  # (after a key's quote; "Here is the result:" is prose)
        p -= 1
        while p > 0 and text[p - 1] in " \t":
            p -= 1
        return p > 0 and text[p - 1] == '"'
    return p > 0 and text[p - 1] == "{"


def in_a_value(text: str, i: int, calls_end: int) -> bool:
    """The value at ``i`` (a line's first) goes on a value begun on the lines before (read
    alone it would be part of it): an array opened at a line's end (``results: [``), an
    assignment or an argument list, or (``},``, ``f(x),``) the next element of an array or
    argument of a call, unless the element before was read as calls, ending at ``calls_end``
    (Llama 3's ``{a},\n{b}``)."""
    p = i
    while p > 0 and text[p - 1].isspace():
        p -= 1
    if p == 0 or p == i or "\n" not in text[p:i]:
        return False
    c = text[p - 1]
    if c == "=" and text.endswith("===", 0, p) and _UNDERLINE.fullmatch(text, text.rfind("\n", 0, p) + 1, p):
        return False  # (a heading's underline, "Weather\n=======": no assignment)
    if c in "[=(":  # (an array, an assignment, an argument list: the value is the code's)
        return not text.endswith(TURN_ENDS, 0, p)  # (not a turn end: MiniMax's [e~[)
    if c != ",":
        return False
    p -= 1
    while p > 0 and text[p - 1].isspace():
        p -= 1
    if p == calls_end or text[p - 1] not in "}])":
        return False
    if text[p - 1] == ")":  # (a call's closing parenthesis, "f(x),"; not a sentence's, "(as asked),")
        q = text.rfind("(", text.rfind("\n", 0, p) + 1, p - 1)
        return q > 0 and (text[q - 1].isalnum() or text[q - 1] == "_")
    return True


_FENCE_CLOSERS: dict[str, re.Pattern[str]] = {}  # (each run of ticks' closing line, built once)


def fence_close(text: str, after: int, limit: int, ticks: str) -> tuple[int, int]:
    """(content end, block end) of a fence opened with ``ticks``."""
    pat = _FENCE_CLOSERS.get(ticks)
    if pat is None:
        pat = re.compile(r"^[ \t]*" + re.escape(ticks[0]) + "{" + str(len(ticks)) + r",}[ \t]*$", re.M)
        if len(_FENCE_CLOSERS) < 64:  # (a fence of a thousand ticks is not kept)
            _FENCE_CLOSERS[ticks] = pat
    m = pat.search(text, after, limit)
    if m is None:
        return limit, limit
    return m.start(), m.end()


_OPENER_LINE = re.compile(r"(?m)^[ \t]*(?:`{3,}|~{3,})[ \t]*[A-Za-z]")  # (a fence's line with a language)


def stray_closer(text: str, m: re.Match[str], content_end: int, block_end: int, floor: int) -> bool:
    """Whether the bare fence line ``m`` (the token pattern's), after calls, closes a block
    already closed rather than opening one (DeepSeek-Coder closes its answer's block
    indented, writes a bare closer after its explanation, then a turn of its own making and
    a new block): the block it would open, closed by a line of its own, holds a fence line
    with a language and a made-up turn's header or end. Four ticks or more open a block
    meant to hold one; a block words frame as an example opens too."""
    if m.group("ticks") != "```" or block_end == content_end:
        return False
    content = text[m.end():content_end]
    return _OPENER_LINE.search(content) is not None and (
        ALPACA_LINE.search(content) is not None or LINE_TURN_END.search(content) is not None) and \
        not framed_as_example(text, m.start(), floor, content)


def line_end(text: str, i: int, limit: int) -> int:
    """Where the line holding ``i`` ends (past its line break)."""
    nl = text.find("\n", i, limit)
    return limit if nl < 0 else nl + 1


# a <tool_call> tag opening a turn of another role (Hermes 2 Pro writes its made-up user's turn
# so, then answers it): the model's own turn is over
MADE_UP_TURN = re.compile(r"<tool_call>[ \t]*\r?\n[ \t]*(?:user|system|human)[ \t]*\r?\n")


# three quotes, the string they close or open alone on their line (with a call's or a list's
# closing punctuation after them)
STRING_QUOTES = ('"""', "'''")
# what follows three quotes that close a string passed to a call: its closing bracket or a comma,
# on their line or the next (a docstring's opening three quotes are followed by its text)
_CLOSES_ARGUMENT = re.compile(r"[ \t]*\r?\n?[ \t]*[),\]]")
_STRING_LINE = re.compile(r"[ \t]*(?:\"\"\"|''')[ \t]*[),;]*[ \t]*\r?(?:\n|\Z)")


def before_string_end(text: str, calls: list[ToolCall], after_calls: bool, start: int = 0) -> list[ToolCall]:
    """The calls before a line that closes a triple-quoted string the text never opened (the
    text's first three quotes, alone on their line, outside any call, and a call's closing
    bracket or a comma right after them: no docstring's opening), after the message's first
    call (``after_calls``:
    a stream's, read before ``start``): the model's answer was a string in code of its own
    making, and it wrote on (DeepSeek-Coder's made-up tests quote the call again). The rest
    is not the message's, as after a turn of the model's own making."""
    first = start if after_calls else -1
    if not after_calls:
        for c in calls:  # (a loop: this runs on every message)
            if c.ok:
                first = c.span[1]
                break
        else:
            return calls
    # (searched for after the first call only: a call's arguments full of quotes are not searched)
    k1, k2 = text.find(STRING_QUOTES[0], first), text.find(STRING_QUOTES[1], first)
    if k1 < 0 and k2 < 0:
        return calls
    q = k1 if k2 < 0 or 0 <= k1 < k2 else k2
    line = text.rfind("\n", 0, q) + 1
    m = _STRING_LINE.match(text, line)
    if text[line:q].strip() or m is None or any(c.span[0] <= line < c.span[1] for c in calls) or \
            any(text.find(t, 0, line) >= 0 for t in STRING_QUOTES) or not _CLOSES_ARGUMENT.match(text, q + 3):
        return calls
    return [c for c in calls if c.span[0] < line]


# the start of a sentence, not of code: a word, then a blank and a letter or a punctuation mark
# ("If you want", "That is all."; not "msg=", "total = sum(")
PROSE_WORDS = re.compile(r"[^\W\d_][\w']*(?:[ \t]+[^\W\d_]|[,.:;!?])")


def opens_reply(text: str, k: int) -> bool:
    """Only blanks, a byte-order mark and the reply's header stand before ``k``."""
    j = _skip_blanks(text, 1 if text.startswith("\ufeff") else 0, k)
    head = ASSISTANT_HEAD.match(text, j, k)
    return (_skip_blanks(text, head.end(), k) if head is not None else j) >= k

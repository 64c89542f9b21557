"""How passages are cut, matched and judged: `PassageOptions`."""

from __future__ import annotations

from dataclasses import dataclass

from simsift.core.match.grams import CommonRule
from simsift.core.match.verbatim import GRAM
from simsift.core.text.quotations import BIBLIOGRAPHY, QUOTATION

_DEFAULT_SHORTEST_RUN = 15  # the words-in-a-row rule's default
# boilerplate is common text in more than 1/_EDGE_FRACTION of the documents that make any
# text common ("Common text above"), and in at least _EDGE_MIN_DOCS
_EDGE_FRACTION = 5
_EDGE_MIN_DOCS = 3


@dataclass(frozen=True)
class PassageOptions:
    """How passages are cut, matched and judged.

    Args:
        min_tokens: a passage runs over following paragraphs until it has this many tokens.
        max_tokens: longer paragraphs are cut into equal pieces of at most this many tokens.
        max_distance: passages whose fingerprints differ in at most this many bits match.
        extend_distance: between two documents that share a passage, other passages
            match up to this distance.
        shingle_size: features of a passage are n-token shingles (2 separates short
            passages better than single words; see docs/partial-copying.md).
        min_features: passages with fewer distinct features are too short to fingerprint.
        common_share: a passage found in more than this share of the documents ...
        common_min_docs: ... and in at least this many documents is common text;
        common_max_docs: so is a passage found in more than this many documents, however
            many there are (MOSS's `-m`, Dolos's maximum fingerprint share): licences and
            boilerplate in an archive, a prompt shared by a group of essays.
        partial_threshold: a pair is partial when either containment reaches this and
            the two share a verbatim run (`core.match.verbatim.SHARE_MIN_RUN` tokens) ...
        partial_min_run: ... or when the two documents share this many tokens in a row
            (0: by share only), so a source making up 10% of an essay is reported
            although its share is under the threshold (left-out text does not count).
            Shared runs of words shorter than this are no match at all (`shortest_run`).
        count_quotations: text inside quotation marks counts as copying (by default it
            is set apart: shown, never counted).
        count_bibliography: the references section counts as copying (set apart too).
        paraphrase: find passages whose words were changed but whose sentences say the
            same (`core.match.meaning`), reported apart from word-for-word copying. Off by
            default: on a real archive (man pages) most of what it finds is pages of one
            family saying similar things, not copying (docs/quality.md); a teacher turns
            it on for a class.
        translation: find passages translated between Chinese and English, apart too;
            a collection in one language costs nothing.
    """

    min_tokens: int = 60
    max_tokens: int = 200
    max_distance: int = 8
    extend_distance: int = 12
    shingle_size: int = 1
    min_features: int = 8
    common_share: float = 0.2
    common_min_docs: int = 5
    common_max_docs: int = 10
    partial_threshold: float = 0.2
    partial_min_run: int = 15  # chosen on bench/quality (bench/quality/partial_sweep.py)
    count_quotations: bool = False
    count_bibliography: bool = False
    paraphrase: bool = False
    translation: bool = True

    @property
    def meaning_kinds(self) -> tuple[str, ...]:
        """The kinds of copying by meaning to find (`core.match.meaning.matches.KINDS`)."""
        return tuple(
            kind
            for kind, on in (("paraphrased", self.paraphrase), ("translated", self.translation))
            if on
        )

    @property
    def shortest_run(self) -> int:
        """Shared runs of words shorter than this are not matches (WCopyfind's shortest
        phrase): the words-in-a-row rule's length, or the gram layer's default when the
        rule is off; never under a gram."""
        return max(self.partial_min_run or _DEFAULT_SHORTEST_RUN, GRAM)

    @property
    def set_apart(self) -> tuple[int, ...]:
        """The token marks (`core.text.quotations`) whose text never counts as copying."""
        return (QUOTATION,) * (not self.count_quotations) + (BIBLIOGRAPHY,) * (
            not self.count_bibliography
        )

    def common_rule(self) -> CommonRule:
        """When text is common; boilerplate (a short paragraph of its own at the start or
        end of documents, `core.match.grams.boilerplate`) already when more than a fifth of
        `common_max_docs` documents hold it, and at least `_EDGE_MIN_DOCS`: three under the
        default 10, and a user who raises the setting to count shared footers gets them."""
        edge = max(_EDGE_MIN_DOCS, self.common_max_docs // _EDGE_FRACTION + 1)
        return CommonRule(self.common_share, self.common_min_docs, self.common_max_docs, edge)

    def __post_init__(self) -> None:
        if not 1 <= self.min_tokens <= self.max_tokens:
            raise ValueError(
                f"need 1 <= min_tokens <= max_tokens, got {self.min_tokens}, {self.max_tokens}"
            )
        if not 0 <= self.max_distance <= 16:
            raise ValueError(f"max_distance must be between 0 and 16, not {self.max_distance}")
        if not self.max_distance <= self.extend_distance <= 32:
            raise ValueError(
                f"extend_distance must be between max_distance and 32, not {self.extend_distance}"
            )
        if not 1 <= self.shingle_size <= 8:
            raise ValueError(f"shingle_size must be between 1 and 8, not {self.shingle_size}")
        if not 0.0 <= self.common_share <= 1.0:
            raise ValueError(f"common_share must be between 0 and 1, not {self.common_share}")
        if self.common_max_docs < 2:
            raise ValueError(f"common_max_docs must be at least 2, not {self.common_max_docs}")
        if self.partial_min_run < 0:
            raise ValueError(f"partial_min_run must be >= 0, not {self.partial_min_run}")
        if not 0.0 <= self.partial_threshold <= 1.0:
            raise ValueError(
                f"partial_threshold must be between 0 and 1, not {self.partial_threshold}"
            )

"""Under the panes, once a predict question is answered: right or not, and in two lines why."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group
from rich.text import Text
from textual.widgets import Static

from tutorials.predict import PredictStop

from ...i18n import say
from ...report.text.cjk_wrap import WrappedText

# (question, the 0-based choice taken, its number in the part, how many the part has)
Verdict = tuple[PredictStop, int, int, int]


def verdict_text(verdict: Verdict, lang: str) -> Group:
    """`✓ right: 2. Search…` or `✗ you said 1; the answer is 2. Search…`, then the two lines of why
    (the tutorial's words, shown literally)."""
    stop, choice, _number, _total = verdict
    right = choice == stop.answer
    key = "predict.right" if right else "predict.wrong"
    said = say(key, lang, said=choice + 1, number=stop.answer + 1, choice=stop.choices[stop.answer])
    heading = Text(said, style="bold green" if right else "bold yellow")
    return Group(WrappedText(heading, hanging=True), WrappedText(Text(stop.why)))


class PredictPane(Static):
    """Hidden until the current event is one a predict question was about; then its verdict and why."""

    def __init__(self, lang: str, **kwargs) -> None:
        super().__init__(**kwargs)
        self.lang = lang
        self.display = False
        self._shown: Sequence[Verdict] = ()

    def show(self, verdicts: Sequence[Verdict]) -> None:
        if list(verdicts) == list(self._shown):
            return
        self._shown = list(verdicts)
        self.display = bool(verdicts)
        if verdicts:
            numbers = ", ".join(str(number) for _stop, _choice, number, _total in verdicts)
            self.border_title = say("predict.verdict_title", self.lang, numbers=numbers, total=verdicts[0][3])
            self.update(Group(*(verdict_text(verdict, self.lang) for verdict in verdicts)))

"""How a framework's run or an imported trace is told: rounds from its model calls, replies as they come, each tool call once by its id, and the framework's own steps."""

from __future__ import annotations

from rich.console import Console
from rich.text import Text

from executor.events import (
    AgentActionEvent,
    GuardrailEvent,
    HandoffEvent,
    LLMEndEvent,
    LLMStartEvent,
    OutputRetryEvent,
    ToolStartEvent,
)

from ...trace.redact import Redactor
from .voice import NarrationVoice


class FrameworkRunNarration(NarrationVoice):
    """The narrator's part for runs with no AgentExecutor in them (an Agents SDK or pydantic-ai agent,
    an imported trace): they have no plan() frame and no agent_action steps of their own to tell."""

    def __init__(self, console: Console | None = None, redactor: Redactor | None = None, lang: str = "en") -> None:
        super().__init__(console, redactor, lang)
        # An imported run has no plan() frame: a round is its first model call outside a tool, its replies
        # are said as they come (one that asks for no tool when the next round starts, if it was not the
        # answer), and a call is invoked when it is first seen, by its id (a tool may start before the
        # reply that asked for it is over, in frameworks that stream).
        self._imported = False
        self._round_said = self._reply_round = 0
        self._unsaid_reply: LLMEndEvent | None = None
        self._asked: list[tuple[str, str, str]] = []  # (tool, arguments, id) the last reply asked for
        self._invoked: set[str] = set()
        self._invoked_unnamed: list[tuple[str, str]] = []  # (tool, arguments) said without an id

    def _starts_imported_round(self, e: LLMStartEvent) -> bool:
        if not self._imported or e.iteration == self._round_said:  # a delegate's call (in a tool call) is one too
            return False
        self._round_said = e.iteration
        return True

    def _say_unsaid_reply(self) -> None:
        if self._unsaid_reply is not None:
            self._say_reply(self._unsaid_reply)
            self._unsaid_reply = None

    def _say_reply(self, e: LLMEndEvent) -> None:
        why = self.words("narration.imported.partial", "yellow", why=e.partial) if e.partial else Text("")
        self.say(self.words("narration.imported.reply", "bold", reply=self.text(e.text, "green")), why)

    def _invoke(self, tool: str, tool_input: str, call_id: str | None) -> None:
        """An imported run's tool call, said once, with its id, when its request or its run is first seen."""
        if call_id:
            if call_id in self._invoked:
                return
            self._invoked.add(call_id)
        elif (tool, tool_input) in self._invoked_unnamed:  # a reply's call without an id, run under one
            self._invoked_unnamed.remove((tool, tool_input))
            return
        lane = ((f"[{call_id}] ", "dim"),) if call_id else ()
        self.say(*lane, self.text(f"Invoking: `{tool}` with `{tool_input}`", self.colour(tool)))

    def _on_tool_start(self, e: ToolStartEvent) -> None:
        if self._imported:
            self._invoke(e.tool, e.tool_input, e.tool_call_id)

    def _say_imported_action(self, e: AgentActionEvent) -> None:
        """The reply was said at llm_end: only the call, by the id the reply gave it."""
        asked = next((a for a in self._asked if a[:2] == (e.tool, e.tool_input)), None)
        if asked is not None:
            self._asked.remove(asked)
        self._invoke(e.tool, e.tool_input, asked[2] if asked and asked[2] else None)
        if not (asked and asked[2]):
            self._invoked_unnamed.append((e.tool, e.tool_input))

    def _say_imported_reply(self, e: LLMEndEvent) -> None:
        """A round's reply: said now when it asks for tools (what it says before them is its thought);
        kept until the next round when it asks for none, as it may be the run's answer (said as Output)."""
        if e.iteration == self._reply_round:  # the round's call recorded twice (a client span inside): said once
            return
        self._reply_round = e.iteration
        self._asked = [(c.name, c.arguments, c.id) for c in e.tool_calls or ()]
        if e.tool_calls:
            if e.text.strip() or e.partial:
                self._say_reply(e)
        elif e.text.strip() or e.partial:
            self._unsaid_reply = e

    # Another framework's own steps (the Agents SDK's handoffs and guardrails, pydantic-ai's output retries).
    def _on_handoff(self, e: HandoffEvent) -> None:
        self.say(
            ("  handoff: ", "magenta"),
            self.text(e.from_agent, "magenta"),
            (" -> ", "magenta"),
            self.text(e.to_agent, "bold magenta"),
        )

    def _on_guardrail(self, e: GuardrailEvent) -> None:
        style = "bold red" if e.tripped else "green"
        verdict = "tripped its tripwire: the run stops" if e.tripped else "passed"
        self.say((f"  {e.stage} guardrail ", style), self.text(e.guardrail, style), (f" {verdict}", style))

    def _on_output_retry(self, e: OutputRetryEvent) -> None:
        self.say(
            (f"  output rejected (retry {e.attempt}), the model is told: ", "yellow"), self.text(e.message, "yellow")
        )

"""Prints a run as it happens, the way LangChain's verbose mode does, with the loop's checks shown."""

from __future__ import annotations

from rich.console import Console
from rich.text import Text

from executor.events import (
    AgentActionEvent,
    AgentFinishEvent,
    BreakerClosedEvent,
    BreakerHalfOpenEvent,
    BreakerOpenEvent,
    CalculatorEvalEvent,
    ChainEndEvent,
    ChainErrorEvent,
    ChainStartEvent,
    ContextTrimmedEvent,
    DegradeEvent,
    EventBase,
    FallbackEvent,
    FinishCheckEvent,
    InvalidToolEvent,
    LimitReachedEvent,
    LLMEndEvent,
    LLMStartEvent,
    McpExtractEvent,
    McpRequestEvent,
    McpResultEvent,
    ParseErrorEvent,
    PlanErrorEvent,
    RateLimitWaitEvent,
    RefusalEvent,
    RetryEvent,
    SummarizedEvent,
    ToolEndEvent,
    ToolErrorEvent,
)

from ...trace.redact import Redactor, default_redactor
from ...trace.run_inputs import answer_of, last_user_message, question_of
from ..text.literal import literal

TOOL_COLOURS = ["cyan", "magenta", "yellow", "blue", "bright_green", "bright_magenta"]


def reply_text(e: LLMEndEvent) -> str:
    """An llm_end's reply as it came back: its text, then each tool call with its id."""
    calls = [f"-> {call.name}({call.arguments}) id={call.id}" for call in e.tool_calls or ()]
    return "\n".join(([e.text] if e.text else []) + calls)


def is_summary_call(e: EventBase) -> bool:
    """The context budget's summary call runs inside plan but is not a plan round."""
    return "_summarize" in e.frames


def is_plan_call(e: EventBase) -> bool:
    return "plan" in e.frames and not is_summary_call(e) and not getattr(e, "tool_call_id", None)


def _lane(e: EventBase) -> tuple[tuple[str, str], ...]:
    """A concurrent call's events are tagged with its id: several calls of one reply interleave."""
    call_id = getattr(e, "tool_call_id", None)
    return ((f"[{call_id}] ", "dim"),) if call_id else ()


def _entering(e: ChainStartEvent) -> tuple[str | tuple[str, str], ...]:
    """The run's opening line: an AgentExecutor's as LangChain prints it; a LangGraph agent or an imported
    trace is named for what it is (a trace's own name is untrusted: the caller's Text shows it literally)."""
    graph = e.settings.get("graph")
    if graph:
        return (("> Entering new ", "bold"), (literal(str(graph)).plain, "bold"), (" run (LangGraph)...", "bold"))
    if e.settings.get("imported"):
        return (("> Entering an imported run...", "bold"),)
    return (("> Entering new AgentExecutor chain...", "bold"),)


class Narrator:
    """A listener: feed it events and it prints the run. All model and tool text goes through `literal`."""

    def __init__(
        self, console: Console | None = None, show_prompts: bool = False, redactor: Redactor | None = None
    ) -> None:
        self.console = console or Console(highlight=False)
        self.show_prompts = show_prompts
        # What the trace file redacts, the screen redacts too: narration is often piped to a log.
        self.redactor = redactor if redactor is not None else default_redactor()
        self._colours: dict[str, str] = {}
        self._question_unsaid = False  # the run's inputs named no question: the first model call's is said
        self._last_reply = ""  # the run's last model reply with text: its answer when its outputs hold none

    def text(self, value: object, style: str = "") -> Text:
        """A field of an event (untrusted): redacted, escapes made visible, never read as markup."""
        return literal(self.redactor.redact_text(str(value)), style)

    def colour(self, tool: str) -> str:
        if tool not in self._colours:
            self._colours[tool] = TOOL_COLOURS[len(self._colours) % len(TOOL_COLOURS)]
        return self._colours[tool]

    def say(self, *parts: Text | str | tuple[str, str]) -> None:
        """One line: `literal` Text for what a model, a tool or a trace wrote, (text, style) for our own words."""
        self.console.print(Text.assemble(*parts), soft_wrap=True)

    def __call__(self, event: EventBase) -> None:
        # Each _on_<kind> takes its kind's class (a test holds the names to the annotations).
        handler = getattr(self, f"_on_{event.kind}", None)
        if handler is not None:
            handler(event)

    def _on_chain_start(self, e: ChainStartEvent) -> None:
        for tool in e.tools:
            self.colour(tool.name)
        self.say("\n", *_entering(e))
        question = question_of(e.inputs)
        self._question_unsaid = not question
        if question:
            self.say(("Question: ", "dim"), self.text(question))

    def _on_llm_start(self, e: LLMStartEvent) -> None:
        if self._question_unsaid and e.messages:
            self._question_unsaid = False
            question = last_user_message(e.messages)
            if question:  # an imported run's inputs often hold the framework's own objects, not the question
                self.say(
                    ("Question: ", "dim"), self.text(question), ("   (the first model call's user message)", "dim")
                )
        if is_summary_call(e):
            self.say(("  ↳ the history is over budget: a summary call asks ", "dim"), self.text(e.model, "bold dim"))
        elif is_plan_call(e):
            sent = f" with {len(e.messages)} messages" if e.messages is not None else ""
            self.say(
                ("\n── round ", "dim"),
                (str(e.iteration), "bold dim"),
                (" · plan() asks ", "dim"),
                self.text(e.model, "dim"),
                (f"{sent} ──", "dim"),
            )
        if self.show_prompts:
            self.say(("prompt sent:\n", "dim"), self.text(e.prompt, "dim"))

    def _on_agent_action(self, e: AgentActionEvent) -> None:
        if not e.log.strip():  # a LangGraph agent's call has no text of its own: say it as LangChain's tool agents do
            self.say(*_lane(e), self.text(f"Invoking: `{e.tool}` with `{e.tool_input}`", self.colour(e.tool)))
            return
        self.say(*_lane(e), self.text(e.log.strip() if e.tool_call_id else e.log.lstrip(), self.colour(e.tool)))

    def _on_agent_finish(self, e: AgentFinishEvent) -> None:
        if e.log:
            self.say(self.text(e.log.lstrip(), "green"))

    def _on_calculator_eval(self, e: CalculatorEvalEvent) -> None:
        self.say(
            ("  ↳ the calculator's model wrote ", "dim"),
            self.text(e.expression, "bold"),
            (" and numexpr computed ", "dim"),
            self.text(e.result, "bold"),
        )

    # A tool served by an MCP server: the request, the server's raw answer, and the part the agent is told.
    def _on_mcp_request(self, e: McpRequestEvent) -> None:
        self.say(
            ("  ↳ MCP ", "dim"),
            self.text(f"{e.method} #{e.request_id}", "dim"),
            (" to ", "dim"),
            self.text(e.server, "dim"),
        )

    def _on_mcp_result(self, e: McpResultEvent) -> None:
        failed = (" · isError: the tool ran and failed", "red") if e.is_error else ("", "dim")
        blocks = f"{len(e.content)} content block(s), {e.size:,} bytes"
        self.say(
            ("  ↳ the server answered ", "dim"), self.text(f"#{e.request_id}", "dim"), (f": {blocks}", "dim"), failed
        )

    def _on_mcp_extract(self, e: McpExtractEvent) -> None:
        if e.matched is not None:
            found = f" matched {e.matches} nodes (the observation lists them all)" if e.matches else " matched"
            self.say(("  ↳ probed with JSONPath: ", "dim"), self.text(e.matched, "bold"), (found, "dim"))
        else:
            tried = ", ".join(e.paths)
            self.say(
                ("  ↳ no JSONPath matched (tried ", "yellow"),
                self.text(tried, "yellow"),
                ("): the call fails with the answer's outline", "yellow"),
            )

    def _on_tool_end(self, e: ToolEndEvent) -> None:
        self.say(*_lane(e), ("Observation: ", "bold"), self.text(e.observation, self.colour(e.tool)))

    def _on_context_trimmed(self, e: ContextTrimmedEvent) -> None:
        self.say(
            (
                f"Context trimmed ({e.reason}): {e.messages_before} → {e.messages_after} messages, "
                f"{e.tokens_before} → {e.tokens_after} tokens; dropped the {len(e.dropped)} oldest",
                "yellow",
            )
        )

    def _on_summarized(self, e: SummarizedEvent) -> None:
        self.say(
            (
                f"Summarized: {len(e.replaced)} messages replaced by one summary "
                f"({e.messages_before} → {e.messages_after} messages, {e.tokens_before} → {e.tokens_after} "
                "tokens): ",
                "yellow",
            ),
            self.text(str(e.summary.get("content", "")), "yellow"),
        )

    def _on_invalid_tool(self, e: InvalidToolEvent) -> None:
        self.say(("Observation (invalid tool): ", "bold red"), self.text(e.observation, "red"))

    def _on_parse_error(self, e: ParseErrorEvent) -> None:
        self.say(("Parse error: ", "bold red"), self.text(e.error, "red"))
        if e.handled:
            self.say(("Observation (sent back): ", "bold"), self.text(e.observation, "red"))

    def _on_tool_error(self, e: ToolErrorEvent) -> None:
        status = "handled, becomes the observation" if e.handled else "not handled, the run stops"
        self.say(
            *_lane(e),
            ("Tool error in ", "bold red"),
            self.text(e.tool, "bold red"),
            (f" ({status}): ", "bold red"),
            self.text(f"{e.error_type}: {e.message}", "red"),
        )

    def _on_retry(self, e: RetryEvent) -> None:
        self.say(
            ("  retry ", "yellow"),
            self.text(f"{e.target} {e.name!r}", "yellow"),
            (f" after attempt {e.attempt}, waiting {float(e.delay):.2f}s: ", "yellow"),
            self.text(e.error, "yellow"),
        )

    def _on_rate_limit_wait(self, e: RateLimitWaitEvent) -> None:
        self.say((f"  rate limiter held the call for {e.waited:.3f}s", "yellow"))

    # A model that fails for good: breakers, fallbacks, degradation to rules, refusals.
    def _on_breaker_open(self, e: BreakerOpenEvent) -> None:
        cause = (
            "its half-open trial failed" if e.from_state == "half_open" else f"{e.failures} failures in {e.window:g}s"
        )
        self.say(
            ("  breaker OPEN for ", "bold red"),
            literal(e.model, "bold red"),
            (f" ({cause}; no calls for {e.cool_down:g}s): ", "red"),
            literal(e.error, "red"),
        )

    def _on_breaker_half_open(self, e: BreakerHalfOpenEvent) -> None:
        self.say(
            ("  breaker half-open for ", "yellow"),
            literal(e.model, "yellow"),
            (f" after {e.open_for:g}s: one trial call goes through", "yellow"),
        )

    def _on_breaker_closed(self, e: BreakerClosedEvent) -> None:
        self.say(("  breaker closed for ", "green"), literal(e.model, "green"), (": the trial call worked", "green"))

    def _on_fallback(self, e: FallbackEvent) -> None:
        why = "refused unsent by its open breaker" if e.refused else f"failed for good ({e.error_type})"
        self.say(
            ("  fallback: ", "bold yellow"),
            literal(e.failed_model, "bold"),
            (f" {why}; ", "yellow"),
            ("asking ", "yellow"),
            literal(e.next_model, "bold"),
            (" the same prompt", "yellow"),
        )

    def _on_llm_end(self, e: LLMEndEvent) -> None:
        if e.tool_call_id is None and e.text.strip():
            self._last_reply = e.text
        if e.answered_by:
            self.say(("  (answered by ", "dim"), literal(e.answered_by, "bold"), (")", "dim"))

    def _on_plan_error(self, e: PlanErrorEvent) -> None:
        self.say(
            (f"  plan got no action ({e.failures}/{e.degrade_after} before the rules take over): ", "red"),
            literal(f"{e.error_type}: {e.message}", "red"),
        )

    def _on_degrade(self, e: DegradeEvent) -> None:
        head = f"Degraded to rules after {e.failures} failures in a row: "
        if e.rule is None:
            self.say((head, "bold red"), ("no rule matches the question", "red"))
            return
        self.say(
            (head, "bold magenta"),
            ("rule ", "magenta"),
            literal(e.rule, "bold"),
            (" → ", "magenta"),
            literal(f"{e.tool}({e.tool_input!r})", "bold"),
        )

    def _on_refusal(self, e: RefusalEvent) -> None:
        self.say((f"Refusal ({e.detected_by}), answered as plain text: ", "bold yellow"), literal(e.text, "yellow"))

    def _on_finish_check(self, e: FinishCheckEvent) -> None:
        style = "bold green" if e.is_finish else "bold yellow"
        self.say(
            ("isinstance(output, AgentFinish) → ", "dim"),
            (str(e.is_finish), style),
            ("   (", "dim"),
            self.text(e.output_type, "dim"),
            (")", "dim"),
        )

    def _on_limit_reached(self, e: LimitReachedEvent) -> None:
        self.say(
            ("Stopped: ", "bold red"),
            self.text(e.reason, "bold red"),
            (f" reached after {e.iterations} iterations ({e.elapsed:.2f}s), early_stopping_method=", "bold red"),
            self.text(e.early_stopping_method, "bold red"),
        )

    def _on_chain_end(self, e: ChainEndEvent) -> None:
        self.say(("> Finished chain.", "bold"))
        answer = answer_of(e.outputs)
        if answer == "" and self._last_reply:  # an imported run whose export kept no output
            self.say(
                ("Output: ", "bold"), self.text(self._last_reply, "bold green"), ("   (the last model reply)", "dim")
            )
            return
        self.say(("Output: ", "bold"), self.text(answer, "bold green"))

    def _on_chain_error(self, e: ChainErrorEvent) -> None:
        self.say(("> Chain failed: ", "bold red"), self.text(f"{e.error_type}: {e.message}", "red"))

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
    GuardrailEvent,
    HandoffEvent,
    InvalidToolEvent,
    LimitReachedEvent,
    LLMEndEvent,
    LLMStartEvent,
    McpExtractEvent,
    McpRequestEvent,
    McpResultEvent,
    OutputRetryEvent,
    ParseErrorEvent,
    PlanErrorEvent,
    RateLimitWaitEvent,
    RefusalEvent,
    RetryEvent,
    SummarizedEvent,
    ToolEndEvent,
    ToolErrorEvent,
    ToolStartEvent,
)

from ...trace.redact import Redactor, default_redactor
from ...trace.run_inputs import answer_of, last_user_message, question_of
from ..text.literal import literal
from ..text.styled_message import styled

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


def _entering(e: ChainStartEvent, lang: str) -> Text:
    """The run's opening line: an AgentExecutor's as LangChain prints it; a LangGraph agent or an imported
    trace is named for what it is (a trace's own name is untrusted: shown literally)."""
    graph = e.settings.get("graph")
    if graph:
        return styled("narration.entering.graph", lang, "bold", graph=literal(str(graph), "bold"))
    if e.settings.get("imported"):
        return styled("narration.entering.imported", lang, "bold")
    framework = e.settings.get("framework")
    if framework:  # an Agents SDK or pydantic-ai agent: no AgentExecutor chain in it
        named = literal(str(framework), "bold")
        if not e.settings.get("agent"):  # pydantic-ai's Agent(name=...) is optional
            return styled("narration.entering.framework_unnamed", lang, "bold", framework=named)
        agent = literal(str(e.settings["agent"]), "bold")
        return styled("narration.entering.framework", lang, "bold", framework=named, agent=agent)
    return styled("narration.entering.chain", lang, "bold")


class Narrator:
    """A listener: feed it events and it prints the run. All model and tool text goes through `literal`."""

    def __init__(
        self,
        console: Console | None = None,
        show_prompts: bool = False,
        redactor: Redactor | None = None,
        lang: str = "en",
    ) -> None:
        self.console = console or Console(highlight=False)
        self.show_prompts = show_prompts
        self.lang = lang  # our own words; LangChain's printed lines stay as LangChain prints them
        # What the trace file redacts, the screen redacts too: narration is often piped to a log.
        self.redactor = redactor if redactor is not None else default_redactor()
        self._colours: dict[str, str] = {}
        self._question_unsaid = False  # the run's inputs named no question: the first model call's is said
        self._last_reply = ""  # the run's last model reply with text: its answer when its outputs hold none
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

    def words(self, key: str, style: str, /, **args: object) -> Text:
        """The catalogue's message `key` in the narrator's language; Text arguments keep their own style."""
        return styled(key, self.lang, style, **args)

    def __call__(self, event: EventBase) -> None:
        # Each _on_<kind> takes its kind's class (a test holds the names to the annotations).
        handler = getattr(self, f"_on_{event.kind}", None)
        if handler is not None:
            handler(event)

    def _on_chain_start(self, e: ChainStartEvent) -> None:
        for tool in e.tools:
            self.colour(tool.name)
        self.say("\n", _entering(e, self.lang))
        # An Agents SDK or pydantic-ai run is told as an imported one is: rounds and the calls each reply
        # asked for, from its model calls and tool runs (it has no AgentExecutor's agent_action steps).
        self._imported = bool(e.settings.get("imported") or e.settings.get("framework"))
        question = question_of(e.inputs)
        self._question_unsaid = not question
        if question:
            self.say(self.words("narration.question", "dim", question=self.text(question)))

    def _on_llm_start(self, e: LLMStartEvent) -> None:
        if self._question_unsaid and e.messages:
            self._question_unsaid = False
            question = last_user_message(e.messages)
            if question:  # an imported run's inputs often hold the framework's own objects, not the question
                self.say(
                    self.words("narration.question", "dim", question=self.text(question)),
                    self.words("narration.question.first_call", "dim"),
                )
        if is_summary_call(e):
            self.say(self.words("narration.summary_call", "dim", model=self.text(e.model, "bold dim")))
        elif is_plan_call(e) or self._starts_imported_round(e):
            self._say_unsaid_reply()
            sent = "" if e.messages is None else self.words("narration.round.messages", "dim", count=len(e.messages))
            round_ = Text(str(e.iteration), "bold dim")
            key = "narration.round.imported" if self._imported else "narration.round"
            self.say(self.words(key, "dim", iteration=round_, model=self.text(e.model, "dim"), sent=sent))
        if self.show_prompts:
            self.say(self.words("narration.prompt_sent", "dim", prompt=self.text(e.prompt, "dim")))

    def _starts_imported_round(self, e: LLMStartEvent) -> bool:
        if not self._imported or e.tool_call_id is not None or e.iteration == self._round_said:
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

    def _on_agent_action(self, e: AgentActionEvent) -> None:
        if self._imported:  # the reply was said at llm_end: only the call, by the id the reply gave it
            asked = next((a for a in self._asked if a[:2] == (e.tool, e.tool_input)), None)
            if asked is not None:
                self._asked.remove(asked)
            self._invoke(e.tool, e.tool_input, asked[2] if asked and asked[2] else None)
            if not (asked and asked[2]):
                self._invoked_unnamed.append((e.tool, e.tool_input))
            return
        if not e.log.strip():  # a LangGraph agent's call has no text of its own: say it as LangChain's tool agents do
            invoking = self.words("narration.invoking", "", tool=e.tool, tool_input=e.tool_input).plain
            self.say(*_lane(e), self.text(invoking, self.colour(e.tool)))
            return
        self.say(*_lane(e), self.text(e.log.strip() if e.tool_call_id else e.log.lstrip(), self.colour(e.tool)))

    def _on_agent_finish(self, e: AgentFinishEvent) -> None:
        if e.log:
            self.say(self.text(e.log.lstrip(), "green"))

    def _on_calculator_eval(self, e: CalculatorEvalEvent) -> None:
        expression, result = self.text(e.expression, "bold"), self.text(e.result, "bold")
        self.say(self.words("narration.calculator", "dim", expression=expression, result=result))

    # A tool served by an MCP server: the request, the server's raw answer, and the part the agent is told.
    def _on_mcp_request(self, e: McpRequestEvent) -> None:
        call = self.text(f"{e.method} #{e.request_id}", "dim")
        self.say(self.words("narration.mcp.request", "dim", call=call, server=self.text(e.server, "dim")))

    def _on_mcp_result(self, e: McpResultEvent) -> None:
        failed = self.words("narration.mcp.is_error", "red") if e.is_error else ""
        blocks = self.words("narration.mcp.blocks", "dim", count=len(e.content), size=f"{e.size:,}")
        request = self.text(f"#{e.request_id}", "dim")
        self.say(self.words("narration.mcp.result", "dim", request=request, blocks=blocks, failed=failed))

    def _on_mcp_extract(self, e: McpExtractEvent) -> None:
        if e.matched is not None:
            matched = self.words("narration.mcp.matched_many", "dim", count=e.matches) if e.matches else Text("")
            self.say(self.words("narration.mcp.matched", "dim", path=self.text(e.matched, "bold")), matched)
        else:
            tried = self.text(", ".join(e.paths), "yellow")
            self.say(self.words("narration.mcp.unmatched", "yellow", tried=tried))

    def _on_tool_end(self, e: ToolEndEvent) -> None:
        self._say_unsaid_reply()  # an agent run as a tool (Agent.as_tool): its answer, before the tool's result
        observation = self.text(e.observation, self.colour(e.tool))
        self.say(*_lane(e), self.words("narration.observation", "bold", observation=observation))

    def _on_context_trimmed(self, e: ContextTrimmedEvent) -> None:
        self.say(
            self.words(
                "narration.context_trimmed",
                "yellow",
                reason=e.reason,
                messages_before=e.messages_before,
                messages_after=e.messages_after,
                tokens_before=e.tokens_before,
                tokens_after=e.tokens_after,
                dropped=len(e.dropped),
            )
        )

    def _on_summarized(self, e: SummarizedEvent) -> None:
        self.say(
            self.words(
                "narration.summarized",
                "yellow",
                replaced=len(e.replaced),
                messages_before=e.messages_before,
                messages_after=e.messages_after,
                tokens_before=e.tokens_before,
                tokens_after=e.tokens_after,
                summary=self.text(str(e.summary.get("content", "")), "yellow"),
            )
        )

    def _on_invalid_tool(self, e: InvalidToolEvent) -> None:
        self.say(self.words("narration.invalid_tool", "bold red", observation=self.text(e.observation, "red")))

    def _on_parse_error(self, e: ParseErrorEvent) -> None:
        self.say(self.words("narration.parse_error", "bold red", error=self.text(e.error, "red")))
        if e.handled:
            observation = self.text(e.observation, "red")
            self.say(self.words("narration.parse_error.sent_back", "bold", observation=observation))

    def _on_tool_error(self, e: ToolErrorEvent) -> None:
        self._say_unsaid_reply()
        key = "narration.tool_error.handled" if e.handled else "narration.tool_error.unhandled"
        tool, error = self.text(e.tool, "bold red"), self.text(f"{e.error_type}: {e.message}", "red")
        self.say(*_lane(e), self.words(key, "bold red", tool=tool, error=error))

    def _on_retry(self, e: RetryEvent) -> None:
        what, error = self.text(f"{e.target} {e.name!r}", "yellow"), self.text(e.error, "yellow")
        delay = f"{float(e.delay):.2f}"
        self.say(self.words("narration.retry", "yellow", what=what, attempt=e.attempt, delay=delay, error=error))

    def _on_rate_limit_wait(self, e: RateLimitWaitEvent) -> None:
        self.say(self.words("narration.rate_limit_wait", "yellow", waited=f"{e.waited:.3f}"))

    # A model that fails for good: breakers, fallbacks, degradation to rules, refusals.
    def _on_breaker_open(self, e: BreakerOpenEvent) -> None:
        if e.from_state == "half_open":
            cause = self.words("narration.breaker.open.trial_failed", "red")
        else:
            cause = self.words("narration.breaker.open.failures", "red", failures=e.failures, window=f"{e.window:g}")
        model, error = literal(e.model, "bold red"), literal(e.error, "red")
        cool_down = f"{e.cool_down:g}"
        self.say(
            self.words("narration.breaker.open", "red", model=model, cause=cause, cool_down=cool_down, error=error)
        )

    def _on_breaker_half_open(self, e: BreakerHalfOpenEvent) -> None:
        model = literal(e.model, "yellow")
        self.say(self.words("narration.breaker.half_open", "yellow", model=model, open_for=f"{e.open_for:g}"))

    def _on_breaker_closed(self, e: BreakerClosedEvent) -> None:
        self.say(self.words("narration.breaker.closed", "green", model=literal(e.model, "green")))

    def _on_fallback(self, e: FallbackEvent) -> None:
        failed, next_model = literal(e.failed_model, "bold"), literal(e.next_model, "bold")
        key = "narration.fallback.refused" if e.refused else "narration.fallback.failed"
        self.say(self.words(key, "yellow", failed=failed, next=next_model, error_type=e.error_type))

    def _on_llm_end(self, e: LLMEndEvent) -> None:
        if self._imported and e.tool_call_id is None and e.iteration == self._round_said:
            self._say_imported_reply(e)
        if e.tool_call_id is None and e.text.strip():
            self._last_reply = e.text
        if e.answered_by:
            self.say(self.words("narration.answered_by", "dim", model=literal(e.answered_by, "bold")))

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

    def _on_plan_error(self, e: PlanErrorEvent) -> None:
        error = literal(f"{e.error_type}: {e.message}", "red")
        failures, degrade_after = e.failures, e.degrade_after
        self.say(self.words("narration.plan_error", "red", failures=failures, degrade_after=degrade_after, error=error))

    def _on_degrade(self, e: DegradeEvent) -> None:
        if e.rule is None:
            self.say(self.words("narration.degrade.no_rule", "bold red", failures=e.failures))
            return
        rule, call = literal(e.rule, "bold"), literal(f"{e.tool}({e.tool_input!r})", "bold")
        self.say(self.words("narration.degrade.rule", "magenta", failures=e.failures, rule=rule, call=call))

    def _on_refusal(self, e: RefusalEvent) -> None:
        text = literal(e.text, "yellow")
        self.say(self.words("narration.refusal", "bold yellow", detected_by=e.detected_by, text=text))

    def _on_finish_check(self, e: FinishCheckEvent) -> None:
        if e.decided_by == "graph_edge":  # LangGraph tests no AgentFinish: its edge reads the reply
            self.say(self.words("narration.graph_edge.end" if e.is_finish else "narration.graph_edge.tools", "dim"))
            return
        is_finish = Text(str(e.is_finish), "bold green" if e.is_finish else "bold yellow")
        output_type = self.text(e.output_type, "dim")
        self.say(self.words("narration.finish_check", "dim", is_finish=is_finish, output_type=output_type))

    def _on_limit_reached(self, e: LimitReachedEvent) -> None:
        self.say(
            self.words(
                "narration.limit_reached",
                "bold red",
                reason=self.text(e.reason, "bold red"),
                iterations=e.iterations,
                elapsed=f"{e.elapsed:.2f}",
                method=self.text(e.early_stopping_method, "bold red"),
            )
        )

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

    def _on_chain_end(self, e: ChainEndEvent) -> None:
        answer = answer_of(e.outputs)
        unsaid = self._unsaid_reply
        if unsaid is not None and (
            answer.strip() not in ("", unsaid.text.strip()) or unsaid.partial
        ):  # not the Output below
            self._say_unsaid_reply()
        self.say(self.words("narration.finished", "bold"))
        if answer == "" and self._last_reply:  # an imported run whose export kept no output
            self.say(
                self.words("narration.output", "bold", answer=self.text(self._last_reply, "bold green")),
                self.words("narration.output.last_reply", "dim"),
            )
            return
        self.say(self.words("narration.output", "bold", answer=self.text(answer, "bold green")))

    def _on_chain_error(self, e: ChainErrorEvent) -> None:
        self.say(
            self.words("narration.chain_failed", "bold red", error=self.text(f"{e.error_type}: {e.message}", "red"))
        )

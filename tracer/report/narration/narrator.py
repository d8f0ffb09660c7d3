"""Prints a run as it happens, the way LangChain's verbose mode does, with the loop's checks shown."""

from __future__ import annotations

from rich.console import Console
from rich.text import Text

from executor.events import (
    AgentActionEvent,
    AgentFinishEvent,
    CalculatorEvalEvent,
    ChainEndEvent,
    ChainErrorEvent,
    ChainStartEvent,
    ContextTrimmedEvent,
    EventBase,
    FinishCheckEvent,
    InvalidToolEvent,
    LimitReachedEvent,
    LLMEndEvent,
    LLMStartEvent,
    McpExtractEvent,
    McpRequestEvent,
    McpResultEvent,
    ParseErrorEvent,
    SummarizedEvent,
    ToolEndEvent,
    ToolErrorEvent,
)

from ...trace.redact import Redactor
from ...trace.run_inputs import answer_of, last_user_message, question_of
from ..graph_edge import edge_target
from ..text.literal import literal
from ..text.styled_message import styled
from .framework_runs import FrameworkRunNarration
from .recovery import RecoveryNarration
from .voice import lane


def reply_text(e: LLMEndEvent) -> str:
    """An llm_end's reply as it came back: its text, then each tool call with its id."""
    calls = [f"-> {call.name}({call.arguments}) id={call.id}" for call in e.tool_calls or ()]
    return "\n".join(([e.text] if e.text else []) + calls)


def is_summary_call(e: EventBase) -> bool:
    """The context budget's summary call runs inside plan but is not a plan round."""
    return "_summarize" in e.frames


def is_plan_call(e: EventBase) -> bool:
    return "plan" in e.frames and not is_summary_call(e) and not getattr(e, "tool_call_id", None)


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


class Narrator(FrameworkRunNarration, RecoveryNarration):
    """A listener: feed it events and it prints the run. All model and tool text goes through `literal`."""

    def __init__(
        self,
        console: Console | None = None,
        show_prompts: bool = False,
        redactor: Redactor | None = None,
        lang: str = "en",
    ) -> None:
        super().__init__(console, redactor, lang)
        self.show_prompts = show_prompts
        self._question_unsaid = False  # the run's inputs named no question: the first model call's is said
        self._last_reply = ""  # the run's last model reply with text: its answer when its outputs hold none

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
            if e.tool_call_id:  # an agent a tool delegates to: its rounds run inside that call
                key = "narration.round.in_call"
            said = {"iteration": round_, "model": self.text(e.model, "dim"), "sent": sent}
            call = {"call": self.text(e.tool_call_id, "dim")} if e.tool_call_id else {}
            self.say(self.words(key, "dim", **said, **call))
        if self.show_prompts:
            self.say(self.words("narration.prompt_sent", "dim", prompt=self.text(e.prompt, "dim")))

    def _on_agent_action(self, e: AgentActionEvent) -> None:
        if self._imported:
            self._say_imported_action(e)
            return
        if not e.log.strip():  # a LangGraph agent's call has no text of its own: say it as LangChain's tool agents do
            invoking = self.words("narration.invoking", "", tool=e.tool, tool_input=e.tool_input).plain
            self.say(*lane(e), self.text(invoking, self.colour(e.tool)))
            return
        self.say(*lane(e), self.text(e.log.strip() if e.tool_call_id else e.log.lstrip(), self.colour(e.tool)))

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
        self.say(*lane(e), self.words("narration.observation", "bold", observation=observation))

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
        self.say(*lane(e), self.words(key, "bold red", tool=tool, error=error))

    def _on_llm_end(self, e: LLMEndEvent) -> None:
        if self._imported and e.iteration == self._round_said:  # a delegate's reply (in a tool call) too
            self._say_imported_reply(e)
        if e.tool_call_id is None and e.text.strip():
            self._last_reply = e.text
        if e.answered_by:
            self.say(self.words("narration.answered_by", "dim", model=literal(e.answered_by, "bold")))

    def _on_finish_check(self, e: FinishCheckEvent) -> None:
        if e.decided_by == "graph_edge":  # LangGraph tests no AgentFinish: its edge reads the reply
            target = edge_target(e.went_to, e.is_finish)
            if e.is_finish and target != "END":  # your routing function sent the answer on to a node of yours
                self.say(self.words("narration.graph_edge.to", "dim", node=self.text(target, "bold")))
            else:
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

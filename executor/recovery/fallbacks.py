"""Fallback models: when a model fails for good, the next one answers the same prompt, narrated as a fallback event."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any, cast

from ..awaiting import Narrated
from ..callee import model_callee
from ..events import CalleeRef, FallbackEvent
from ..models.chat_model import ChatModel, ModelReply, ToolCallingModel, generate_with_retries
from ..models.messages import ChatRequest, Message
from ..run_context import RunContext
from .retry import describe_error


class FallbackModel:
    """LangChain: RunnableWithFallbacks (what `model.with_fallbacks([other])` builds).

    Each model gets the run's whole retry policy (and its own breaker, when it has one); only a
    call that still fails moves on to the next model. The prompt and stop sequences are unchanged.
    When every model fails, the first model's error is raised, as LangChain does.
    """

    def __init__(
        self,
        primary: ChatModel,
        fallbacks: Sequence[ChatModel],
        exceptions_to_handle: tuple[type[BaseException], ...] = (Exception,),
    ) -> None:
        if not fallbacks:
            raise ValueError("with_fallbacks needs at least one fallback model")
        self.primary, self.fallbacks = primary, tuple(fallbacks)
        self.exceptions_to_handle = exceptions_to_handle
        self.model_name = primary.model_name  # llm_start names the model asked first

    @property
    def models(self) -> tuple[ChatModel, ...]:
        return (self.primary, *self.fallbacks)

    @property
    def live(self) -> bool:  # retried by default when any model in the chain calls a service
        return any(getattr(model, "live", False) is True for model in self.models)

    @property
    def callee(self) -> CalleeRef | None:  # llm_start names the primary, so its code is the callee
        return model_callee(self.primary)

    def __repr__(self) -> str:
        return f"FallbackModel({self.primary!r}, fallbacks={list(self.fallbacks)!r})"

    def describe(self, now: float) -> dict[str, Any]:
        """The chain in order, each with its breaker's state (chain_start records it for replays)."""
        return {"model": self.model_name, "chain": [describe_at(model, now) for model in self.models]}

    def with_fallbacks(self, fallbacks: Sequence[ChatModel]) -> FallbackModel:
        return FallbackModel(self.primary, [*self.fallbacks, *fallbacks], self.exceptions_to_handle)

    def generate(self, prompt: str, stop: Sequence[str]) -> ModelReply:
        """Outside a run (no events): the first model that answers."""
        return self._first_answer(lambda model: model.generate(prompt, stop))

    def generate_messages(
        self,
        messages: Sequence[Message],
        tools: Sequence[dict],
        tool_choice: str = "auto",
        parallel_tool_calls: bool = True,
    ) -> ModelReply:
        """The tool-calling request outside a run (in a run, narrated_generate gets it as a ChatRequest)."""
        # Asked this, the chain is a tool-calling agent's, whose models are ToolCallingModels.
        return self._first_answer(
            lambda model: cast(ToolCallingModel, model).generate_messages(
                messages, tools, tool_choice, parallel_tool_calls
            )
        )

    def _first_answer(self, ask: Callable[[ChatModel], ModelReply]) -> ModelReply:
        first_error: BaseException | None = None
        for model in self.models:
            try:
                return ask(model)
            except self.exceptions_to_handle as error:
                first_error = first_error or error
        assert first_error is not None
        raise first_error

    def narrated_generate(
        self, run: RunContext, prompt: str | ChatRequest, stop: Sequence[str]
    ) -> Narrated[ModelReply]:
        # LangChain: RunnableWithFallbacks.invoke — try each runnable in turn, raise the first error.
        models = self.models
        first_error: BaseException | None = None
        for index, model in enumerate(models):
            try:
                reply = yield from generate_with_retries(run, model, prompt, stop)
            except self.exceptions_to_handle as error:
                first_error = first_error or error
                if index + 1 == len(models):
                    raise first_error from error
                yield run.emit(FallbackEvent, failed_model=model.model_name, error_type=type(error).__name__,
                               error=describe_error(error), refused=bool(getattr(error, "refused", False)),
                               next_model=models[index + 1].model_name)  # fmt: skip
                continue
            return reply if index == 0 else replace(reply, answered_by=model.model_name)
        raise AssertionError("unreachable: the loop returns or raises")


def with_fallbacks(
    model: ChatModel,
    fallbacks: Sequence[ChatModel],
    exceptions_to_handle: tuple[type[BaseException], ...] = (Exception,),
) -> FallbackModel:
    """LangChain: `model.with_fallbacks(fallbacks)`, for any ChatModel."""
    if isinstance(model, FallbackModel):
        return model.with_fallbacks(fallbacks)
    return FallbackModel(model, fallbacks, exceptions_to_handle)


def describe_at(model: ChatModel, now: float) -> dict[str, Any]:
    """One link of a chain as chain_start records it: its own description (a breaker's state), else its name."""
    describe = getattr(model, "describe", None)
    return describe(now) if callable(describe) else {"model": model.model_name}

"""The `openai` provider: any OpenAI-compatible chat-completions endpoint, through the openai SDK."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

import openai

from ...recovery.retry import parse_retry_after
from ..chat_model import ModelReply
from ..config import ENV_API_KEY, ENV_BASE_URL, ModelConfig, display_url, url_credentials
from ..credentials import hide_credentials
from ..messages import Message, ToolCall
from .body_limit import capped_http_client, too_large_cause
from .errors import (
    MalformedReply,
    ProviderAuthError,
    ProviderConnectionError,
    ProviderError,
    ProviderHTTPError,
    ProviderTimeout,
    ProviderUnreachable,
)

MAX_MESSAGE_CHARS = 300
_LONE_SURROGATE = re.compile(r"[\ud800-\udfff]")


def valid_text(text: str) -> tuple[str, int]:
    """`text` with each lone surrogate replaced by U+FFFD, and how many were replaced.

    Why: JSON may carry an escape such as "\\ud800" that decodes to half a UTF-16 pair, a
    str no UTF-8 encoder accepts, so the trace writer or the terminal would be the first to
    crash on it, far from the cause. Every text from the network passes here first.
    """
    if text.isascii():
        return text, 0
    return _LONE_SURROGATE.subn("\ufffd", text)


class OpenAIChatModel:
    """A ChatModel that sends the prompt as one user message and returns the reply text and token usage.

    The SDK's own retries are switched off (max_retries=0): loopscope's RetryPolicy does the
    retrying, so that every retry is an event the learner can see and a test can count.
    """

    live = True  # it calls a service: an AgentExecutor gives it the CLI's default RetryPolicy

    def __init__(self, model_name: str, config: ModelConfig, client: openai.OpenAI | None = None) -> None:
        self.model_name = model_name
        self.endpoint = display_url(config.endpoint)
        key = config.require_api_key()
        self._secrets = [key, *url_credentials(config.endpoint).values()]  # a 401 body may echo any of them
        self._client = client or openai.OpenAI(
            api_key=key,
            base_url=config.endpoint,
            timeout=config.timeout,
            max_retries=0,
            http_client=capped_http_client(config.max_response_bytes, self.endpoint),
        )
        self._timeout = config.timeout

    def __repr__(self) -> str:
        return f"OpenAIChatModel({self.model_name!r}, endpoint={self.endpoint!r})"

    def generate(self, prompt: str, stop: Sequence[str]) -> ModelReply:
        request: dict[str, Any] = {"model": self.model_name, "messages": [{"role": "user", "content": prompt}]}
        if stop:
            request["stop"] = list(stop)  # the server cuts the reply; we do not trim it again
        try:
            completion = self._client.chat.completions.create(**request)
        except (openai.APIError, json.JSONDecodeError) as error:
            raise self._translate(error) from error
        return self._reply_from(completion)

    def generate_messages(
        self,
        messages: Sequence[Message],
        tools: Sequence[dict],
        tool_choice: str = "auto",
        parallel_tool_calls: bool = True,
    ) -> ModelReply:
        """The tool-calling path: the message history as it is, the tools as JSON-Schema functions."""
        request: dict[str, Any] = {"model": self.model_name, "messages": [dict(m) for m in messages]}
        if tools:  # the API refuses tool_choice and parallel_tool_calls without tools
            request.update(tools=list(tools), tool_choice=tool_choice, parallel_tool_calls=parallel_tool_calls)
        try:
            completion = self._client.chat.completions.create(**request)
        except (openai.APIError, json.JSONDecodeError) as error:
            raise self._translate(error) from error
        return self._reply_from(completion)

    def list_models(self) -> list[str]:
        """The model ids the endpoint says it serves (GET /models): a quick check of URL and key."""
        try:
            return sorted(valid_text(model.id)[0] for model in self._client.models.list())
        except (openai.APIError, json.JSONDecodeError) as error:
            raise self._translate(error) from error

    def _reply_from(self, completion: Any) -> ModelReply:
        choices = getattr(completion, "choices", None)
        if not choices or getattr(choices[0], "message", None) is None:
            raise MalformedReply(
                f"the reply from {self.endpoint} has no choices[0].message; "
                "is this an OpenAI-compatible chat-completions endpoint?"
            )
        usage = getattr(completion, "usage", None)
        counts = None
        if usage is not None:
            counts = {
                name: value
                for name in ("prompt_tokens", "completion_tokens", "total_tokens")
                if isinstance(value := getattr(usage, name, None), int)
            }
        message = choices[0].message
        text, replaced = valid_text(message.content or "")
        refusal = getattr(message, "refusal", None)  # set when the model declined (structured refusal)
        finish_reason = getattr(choices[0], "finish_reason", None)
        if not isinstance(finish_reason, str) or finish_reason in ("stop", "tool_calls"):
            finish_reason = None  # kept only when it is news ("length", "content_filter")
        return ModelReply(
            text,
            counts or None,
            finish_reason=finish_reason,
            refusal=valid_text(refusal)[0] if isinstance(refusal, str) else None,
            tool_calls=self._tool_calls_of(message),
            replaced_surrogates=replaced,
        )

    def _tool_calls_of(self, message: Any) -> tuple[ToolCall, ...]:
        calls = []
        for call in getattr(message, "tool_calls", None) or ():
            function = getattr(call, "function", None)
            if not getattr(call, "id", None) or function is None or not getattr(function, "name", None):
                raise MalformedReply(f"a tool call from {self.endpoint} has no id or function name")
            calls.append(
                ToolCall(
                    valid_text(call.id)[0], valid_text(function.name)[0], valid_text(function.arguments or "{}")[0]
                )
            )
        return tuple(calls)

    def _clean(self, text: str) -> str:
        """One line, no credentials, not too long, valid: error text from a server is untrusted."""
        text = hide_credentials(valid_text(text)[0], self._secrets)
        text = " ".join(text.split())
        return text if len(text) <= MAX_MESSAGE_CHARS else text[:MAX_MESSAGE_CHARS] + "..."

    def _translate(self, error: Exception) -> ProviderError:
        where = self.endpoint
        if (too_large := too_large_cause(error)) is not None:
            return too_large
        if isinstance(error, json.JSONDecodeError):
            return MalformedReply(f"the reply from {where} is not valid JSON ({self._clean(str(error))})")
        if isinstance(error, openai.APITimeoutError):
            return ProviderTimeout(f"no reply from {where} within {self._timeout:g}s")
        if isinstance(error, openai.APIConnectionError) and _never_connected(error):
            cause = self._clean(str(error.__cause__))
            return ProviderUnreachable(
                f"could not connect to {where} ({cause}); check {ENV_BASE_URL} and that the server is running"
            )
        if isinstance(error, openai.APIConnectionError):
            cause = self._clean(str(error.__cause__ or error))
            return ProviderConnectionError(
                f"could not reach {where} ({cause}); check {ENV_BASE_URL} and that the server is running"
            )
        if isinstance(error, openai.APIStatusError):
            return self._translate_status(error)
        return MalformedReply(f"the reply from {where} was not understood ({self._clean(str(error))})")

    def _translate_status(self, error: openai.APIStatusError) -> ProviderError:
        status, detail = error.status_code, self._clean(_server_message(error))
        said = f"HTTP {status} from {self.endpoint}: {detail}"
        if status == 401:
            return ProviderAuthError(f"{said}; check {ENV_API_KEY}", status)
        if status == 403:
            return ProviderAuthError(f"{said}; check that {ENV_API_KEY} may use {self.model_name!r}", status)
        if status == 404:
            return ProviderHTTPError(
                f"{said}; check the model name {self.model_name!r} and that {ENV_BASE_URL} ends in /v1", status
            )
        return ProviderHTTPError(said, status, _retry_after(error))


def _never_connected(error: BaseException) -> bool:
    # The HTTP library's ConnectError (refused, unknown host), matched by name: the SDK may ship
    # its own copy of httpx, so the class cannot be imported from one fixed place.
    cause = error.__cause__
    while cause is not None:
        if type(cause).__name__ == "ConnectError":
            return True
        cause = cause.__cause__ or cause.__context__
    return False


def _server_message(error: openai.APIStatusError) -> str:
    body = error.body
    if isinstance(body, dict):
        inner = body.get("error", body)
        message = inner.get("message") if isinstance(inner, dict) else inner
        if message:
            return str(message)
    return error.message


def _retry_after(error: openai.APIStatusError) -> float | None:
    headers = error.response.headers
    millis = headers.get("retry-after-ms")
    if millis is not None:
        try:
            return max(0.0, float(millis) / 1000)
        except ValueError:
            pass  # not a number: the standard retry-after header below decides
    value = headers.get("retry-after")
    return parse_retry_after(value) if value is not None else None

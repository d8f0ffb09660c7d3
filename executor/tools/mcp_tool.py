"""A tool that runs on an MCP server: its call narrated as the JSON-RPC request, the raw answer and the probe of its shape."""

from __future__ import annotations

import asyncio
import json
import keyword
import re
from collections.abc import Sequence
from concurrent.futures import Future
from functools import partial
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, create_model, model_serializer

from ..awaiting import AwaitRequest, Narrated
from ..events import McpExtractEvent, McpRequestEvent, McpResultEvent
from ..run_context import RunContext
from .args import ToolInputError, _schema_name, expected_input
from .mcp_errors import McpExtractError, McpRateLimited, McpToolError
from .mcp_extract import extract
from .mcp_wire import McpAnswer, McpCaller
from .tool import ErrorHandler, Tool, ToolTimeout

# Words a vendor's isError text uses for "too many requests": retried as a 429 would be.
_RATE_LIMITED = re.compile(r"\b429\b|too many requests|rate.?limit", re.IGNORECASE)
_JSON_TYPES: dict[str, Any] = {"string": str, "integer": int, "number": float, "boolean": bool}


class _Arguments(BaseModel):
    """Arguments for an MCP tool: the fields its input schema names, extra ones passed on as they are."""

    model_config = ConfigDict(extra="allow")

    @model_serializer(mode="wrap")
    def _given_only(self, handler: Any) -> dict[str, Any]:
        # Only what was given is sent: an optional argument left out must not reach the server as null.
        data = handler(self)
        given = {self.__class__.model_fields[name].alias or name for name in self.model_fields_set}
        return {key: value for key, value in data.items() if key in given or key in (self.model_extra or {})}


def arguments_model(tool_name: str, input_schema: dict[str, Any]) -> type[BaseModel]:
    """A pydantic model for the server's input schema: simple types checked here, the rest by the server."""
    properties = input_schema.get("properties")
    required = set(input_schema.get("required") or [])
    fields: dict[str, Any] = {}
    for number, (name, spec) in enumerate(properties.items() if isinstance(properties, dict) else []):
        spec = spec if isinstance(spec, dict) else {}
        declared = spec.get("type")
        kind = _JSON_TYPES.get(declared, Any) if isinstance(declared, str) else Any
        usable = name.isidentifier() and not keyword.iskeyword(name) and not name.startswith("_")
        field = Field(... if name in required else None, alias=None if usable else name)
        fields[name if usable else f"argument_{number}"] = (kind if name in required else kind | None, field)
    return create_model(_schema_name(tool_name), __base__=_Arguments, **fields)


class McpTool(Tool):
    """One tool of an MCP server (see mcp_tools): its calls go to `caller`, a live connection or a recording."""

    def __init__(
        self,
        offered: dict[str, Any],
        caller: McpCaller,
        *,
        timeout: float,
        startup_timeout: float = 60.0,
        extract_paths: Sequence[str] = (),
        handle_tool_error: ErrorHandler = True,
        retry_policy: Any = None,
    ) -> None:
        self.input_schema: dict[str, Any] = dict(offered.get("input_schema") or {"type": "object"})
        super().__init__(
            offered["name"],
            offered.get("description") or "",
            self._attempt,
            handle_tool_error=handle_tool_error,
            deterministic=False,  # its answers come from another process: a replay reads them from the trace
            retry_policy=retry_policy,
            args_schema=arguments_model(offered["name"], self.input_schema),
        )
        self.offered = offered
        self.caller = caller
        self.server = caller.label
        self.call_timeout = timeout
        self.startup_timeout = startup_timeout
        self.extract_paths = tuple(extract_paths)
        self.emits_events = True
        self.callee = None  # its function runs in the server's process: no source here to step into

    def answered_by(self, caller: McpCaller) -> McpTool:
        """The same tool (schema, handling, probing) with its calls going to `caller` (a replay's recording)."""
        copy = McpTool(self.offered, caller, timeout=self.call_timeout, startup_timeout=self.startup_timeout,
                       extract_paths=self.extract_paths,
                       handle_tool_error=self.handle_tool_error, retry_policy=self.retry_policy)  # fmt: skip
        copy.mcp_listing = getattr(self, "mcp_listing", None)  # type: ignore[attr-defined]
        return copy

    def json_schema(self) -> dict[str, Any]:
        """The server's own input schema, exactly: what a tool-calling model is sent."""
        return dict(self.input_schema)

    def _bind(self, tool_input: str | dict[str, Any], run: RunContext) -> Any:
        arguments = self._arguments(tool_input)  # a bad input is refused before anything is sent
        return partial(self._attempt, arguments, run)

    def _arguments(self, tool_input: str | dict[str, Any]) -> dict[str, Any]:
        schema = self.args_schema
        value: Any = tool_input
        if isinstance(tool_input, str):
            fields = list(schema.model_fields.values())
            if len(fields) == 1 and fields[0].annotation in (str, str | None):  # one text argument: the input as it is
                value = {fields[0].alias or next(iter(schema.model_fields)): tool_input}
            else:
                try:
                    value = json.loads(tool_input or "{}")
                except json.JSONDecodeError as error:
                    raise ToolInputError(f"the input is not JSON ({error.msg}). {expected_input(schema)}") from None
        if not isinstance(value, dict):
            raise ToolInputError(f"the input is a JSON {type(value).__name__}, not an object. {expected_input(schema)}")
        try:
            return schema.model_validate(value).model_dump(mode="json", by_alias=True)
        except ValueError as error:
            raise ToolInputError(f"{str(error).splitlines()[-1].strip()}. {expected_input(schema)}") from None

    def _attempt(self, arguments: dict[str, Any], run: RunContext) -> Narrated[str]:
        """One call: tools/call sent, its answer recorded as it came, then read (and probed) for the observation."""
        hold = getattr(self.caller, "hold", None)
        if hold is not None:
            hold(run)  # the connection stays open until this run is over
        pending = self.caller.start_call(self.name, arguments, self.call_timeout)
        # Sending may first (re)start the server: its start-up has a bound of its own.
        request_id = yield from _waited(
            run, pending.sent, self.startup_timeout + self.call_timeout, self._late("was not sent")
        )
        yield run.emit(McpRequestEvent, server=self.server, method="tools/call", request_id=request_id,
                       tool=self.name, arguments=arguments)  # fmt: skip
        answer: McpAnswer = yield from _waited(run, pending.answer, self.call_timeout + 1, self._late("got no answer"))
        yield run.emit(McpResultEvent, server=self.server, request_id=request_id, content=answer.content,
                       structured_content=answer.structured, is_error=answer.is_error, size=answer.size)  # fmt: skip
        text = text_of(answer.content)
        if answer.is_error:
            what = f"MCP tool {self.name!r} answered with an error: {text or '(no text)'}"
            raise McpRateLimited(what) if _RATE_LIMITED.search(text) else McpToolError(what)
        if not self.extract_paths:
            return text if text or answer.structured is None else json.dumps(answer.structured, ensure_ascii=False)
        found = extract(answer_document(text, answer), self.extract_paths)
        yield run.emit(McpExtractEvent, tool=self.name, paths=found.paths, matched=found.matched,
                       decoded=found.decoded, shape=found.shape,
                       matches=found.count if found.count > 1 else None)  # fmt: skip
        if found.matched is None:
            raise McpExtractError(
                f"no path found the answer in what {self.name!r} returned: tried {', '.join(found.paths)}; "
                f"the answer looked like {found.shape}"
            )
        value = found.value
        return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)

    def _late(self, what: str) -> str:
        return f"MCP tool {self.name!r} on {self.server!r} {what} within {self.call_timeout:g} seconds"


def _waited(run: RunContext, future: Future[Any], timeout: float, late: str) -> Narrated[Any]:
    """What `future` gives, waited for as the run's driver needs (the async driver awaits it); ToolTimeout when late."""
    try:
        if getattr(run, "awaits_in_driver", False):
            return (yield AwaitRequest(_awaited(future, timeout)))
        return future.result(timeout)
    except TimeoutError:
        future.cancel()  # the SDK then tells the server the request is cancelled
        raise ToolTimeout(late) from None


async def _awaited(future: Future[Any], timeout: float) -> Any:
    return await asyncio.wait_for(asyncio.wrap_future(future), timeout)


def text_of(content: list[dict[str, Any]]) -> str:
    """The content blocks as the agent reads them: text as it is, anything else named in brackets."""
    parts = []
    for block in content:
        kind = block.get("type")
        if kind == "text":
            parts.append(str(block.get("text", "")))
        elif kind in ("image", "audio"):
            parts.append(f"[{kind} {block.get('mimeType', '?')}, {len(str(block.get('data', ''))):,} base64 chars]")
        elif kind == "resource_link":
            parts.append(f"[resource {block.get('uri', '?')}]")
        elif kind == "resource":
            inner = block.get("resource")
            resource: dict[str, Any] = inner if isinstance(inner, dict) else {}
            parts.append(str(resource.get("text")) if "text" in resource else f"[resource {resource.get('uri', '?')}]")
        else:
            parts.append(f"[{kind} content]")
    return "\n".join(parts)


def answer_document(text: str, answer: McpAnswer) -> Any:
    """What `$` means to the extract paths: the text answer parsed as JSON; else the structured content;
    else the whole result ({"content": [...], "isError": false})."""
    try:
        return json.loads(text)
    except ValueError:
        pass  # not JSON: the next candidate
    if answer.structured is not None:
        return answer.structured
    return {"content": answer.content, "isError": answer.is_error}

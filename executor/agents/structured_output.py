"""Structured output: pull a JSON answer out of a reply defensively and validate it into a pydantic model."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from typing import Any

from pydantic import BaseModel, ValidationError

from ..schema import AgentFinish
from .json_spans import bracket_spans
from .parser import OutputParserException

_FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_-]*)[ \t]*\n(.*?)```", re.DOTALL)
_PATH_PART = re.compile(r"\.([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]")
# Where the answer may sit inside the JSON a model wrote: the whole of it, or one of the wrappers
# models like to add. Like the JSON agent of the reference article, the first path that yields a
# valid value wins, and a string found there is parsed once more (JSON inside a JSON string).
DEFAULT_PATHS = (
    "$",
    "$.output",
    "$.answer",
    "$.final_answer",
    "$.result",
    "$.data",
    "$.response",
    "$.choices[0].message.content",
)
MAX_ERROR_CHARS = 600
MAX_DEPTH = 100  # brackets inside brackets; far beyond any answer schema, far below the recursion limit
EMBEDDED_SEARCH_CHARS = 1_000_000  # beyond any model's output limit; a longer reply is read as a whole only
MAX_EMBEDDED_VALUES = 100_000  # bracketed values tried at most: each costs a decode and a validation
DECODE_BUDGET = 16  # characters decoded per character searched, over all embedded candidates


def json_candidates(text: str) -> Iterator[Any]:
    """Every JSON value the text may mean, most likely first: fenced ```json blocks, the whole
    text, then each object or array embedded in prose, by where it starts.

    Bounded for any reply: a value nested deeper than the interpreter's stack allows is not JSON,
    nor is an embedded one nested deeper than MAX_DEPTH; the embedded search reads at most the
    first EMBEDDED_SEARCH_CHARS characters, tries at most MAX_EMBEDDED_VALUES values and decodes
    at most DECODE_BUDGET times what it read (an adversarial reply stops there, not in hours).
    """
    for match in _FENCE.finditer(text):
        if match.group(1).lower() in ("", "json", "json5", "javascript"):
            yield from _decoded(match.group(2).strip())
    yield from _decoded(text.strip())
    searched = text[:EMBEDDED_SEARCH_CHARS]
    budget = DECODE_BUDGET * len(searched) + 65536
    for start, end in bracket_spans(searched, MAX_DEPTH, MAX_EMBEDDED_VALUES):
        budget -= end + 1 - start
        if budget < 0:
            return
        # Its own slice, not raw_decode(text, start): a decode error counts the lines before its
        # position, which over the whole text made each failed start cost the text's length.
        yield from _decoded(searched[start : end + 1])


def _decoded(text: str) -> Iterator[Any]:
    try:
        yield json.loads(text)
    except (json.JSONDecodeError, RecursionError):  # RecursionError: nested deeper than the stack allows
        return


def value_at(document: Any, path: str) -> Any:
    """A minimal JSONPath: `$`, `.key` and `[index]` steps. Raises LookupError when a step is missing."""
    value = _lookup(document, _path_steps(path))
    if value is _MISSING:
        raise LookupError(path)
    return value


def _path_steps(path: str) -> tuple[str | int, ...]:
    if not path.startswith("$"):
        raise ValueError(f"a path starts with '$', got {path!r}")
    return tuple(key or int(index) for key, index in _PATH_PART.findall(path[1:]))


_MISSING = object()  # a path step that is not there (cheaper than raising, on every candidate and path)


def _lookup(value: Any, steps: tuple[str | int, ...]) -> Any:
    for step in steps:
        if isinstance(step, str):
            if not isinstance(value, dict) or step not in value:
                return _MISSING
        elif not isinstance(value, list) or step >= len(value):
            return _MISSING
        value = value[step]
    return value


def extract_structured(text: str, response_format: type[BaseModel], paths: Sequence[str] = DEFAULT_PATHS) -> BaseModel:
    """The first candidate JSON value, at the first path that has one, that validates.

    Raises OutputParserException whose observation tells the model what was wrong and what to send.
    """
    first_error: ValidationError | None = None
    found_json = False
    steps = [_path_steps(path) for path in paths]
    for candidate in json_candidates(text):
        found_json = True
        for path_steps in steps:
            value = _lookup(candidate, path_steps)
            if value is _MISSING:
                continue
            for inner in _with_inner_json(value):
                try:
                    return response_format.model_validate(inner)
                except ValidationError as error:
                    first_error = first_error or error
    raise _answer_error(text, response_format, first_error if found_json else None)


def _with_inner_json(value: Any) -> Iterator[Any]:
    yield value
    if isinstance(value, str):
        yield from _decoded(value.strip())


def _answer_error(text: str, response_format: type[BaseModel], error: ValidationError | None) -> OutputParserException:
    if error is None:
        problem = "it contains no JSON value"
    else:
        problem = "; ".join(
            f"{'.'.join(map(str, e['loc'])) or 'value'}: {e['msg']}" for e in error.errors(include_url=False)
        )
        problem = f"it does not match {response_format.__name__} ({problem})"
    schema = json.dumps(response_format.model_json_schema(), ensure_ascii=False)
    observation = (
        f"Your final answer could not be used: {problem}. Reply again with only a JSON object "
        f"matching this JSON Schema: {schema}"
    )
    return OutputParserException(
        f"Could not read the final answer as {response_format.__name__}: {problem}"[:MAX_ERROR_CHARS],
        observation=observation,
        llm_output=text,
        send_to_llm=True,
    )


def parse_structured_answer(text: str, response_format: type[BaseModel]) -> AgentFinish:
    """The final answer as an AgentFinish whose "output" is the validated model."""
    return AgentFinish({"output": extract_structured(text, response_format)}, text)


def structured_finish(finish: AgentFinish, response_format: type[BaseModel]) -> AgentFinish:
    """An AgentFinish whose output is text, re-read as `response_format` (already-structured ones pass)."""
    output = finish.return_values.get("output")
    if isinstance(output, response_format):
        return finish
    return AgentFinish({**finish.return_values, "output": extract_structured(str(output), response_format)}, finish.log)

"""The models a user may pick from: AVAILABLE_MODELS (JSON) with a built-in default list, and the default model."""

# AVAILABLE_MODELS holds a JSON list of objects, e.g. in .env:
#
#     AVAILABLE_MODELS=[{"id": "gpt-4o-mini", "name": "GPT-4o mini"},
#                       {"id": "qwen-plus", "name": "Qwen Plus", "base_url": "http://localhost:8000/v1"}]
#
# Each object: "id" (required: the name the endpoint knows), "name" (shown to people; defaults to the id),
# "provider" (a provider name, default "openai"), "base_url" (an http(s) endpoint for this model only),
# "api_key_env" (the name of the variable that holds this model's key: keys never sit in the list);
# any other key is kept in `extra` for a provider that needs it.
#
# The default model is the FIRST entry: the list is read in order of preference, and the same order
# is the fallback chain (first answers, the next takes over when it fails for good). The article this
# follows takes the last entry, because its list runs from the smallest model to the largest; one
# ordering that means "try these, in this order" serves the default and the fallbacks alike.
# LOOPSCOPE_MODEL (flag > environment > .env) overrides the default: an id or a name from the list,
# or any PROVIDER:NAME spec.

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from dotenv import dotenv_values
from pydantic import SecretStr

from .config import ENV_MODEL, ModelConfig, _pick, display_url, url_problem

ENV_MODELS = "AVAILABLE_MODELS"
_KNOWN_KEYS = ("id", "name", "provider", "base_url", "api_key_env")


@dataclass(frozen=True)
class ModelEntry:
    """One model of the list. `spec` is what create_model takes (PROVIDER:ID)."""

    id: str
    name: str
    provider: str = "openai"
    base_url: str | None = None
    api_key_env: str | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def spec(self) -> str:
        return f"{self.provider}:{self.id}"

    def describe(self) -> str:
        where = f" at {display_url(self.base_url)}" if self.base_url else ""
        return f"{self.spec} ({self.name}){where}"


DEFAULT_MODELS: tuple[ModelEntry, ...] = (
    ModelEntry("gpt-4o-mini", "GPT-4o mini"),
    ModelEntry("gpt-4o", "GPT-4o"),
    ModelEntry("gpt-4.1-mini", "GPT-4.1 mini"),
)


@dataclass(frozen=True)
class ModelList:
    """The resolved list, the default model, where each came from, and one-line warnings to show."""

    models: tuple[ModelEntry, ...]
    default: ModelEntry
    origins: Mapping[str, str]
    warnings: tuple[str, ...] = ()

    @property
    def fallbacks(self) -> tuple[ModelEntry, ...]:
        """The other models, in list order: the chain that takes over when the default fails for good."""
        return tuple(entry for entry in self.models if entry != self.default)

    def find(self, wanted: str) -> ModelEntry | None:
        """The entry whose id, name or spec is `wanted`."""
        for entry in self.models:
            if wanted in (entry.id, entry.name, entry.spec):
                return entry
        return None


def parse_model_entries(text: str, where: str, providers: list[str]) -> tuple[list[ModelEntry] | None, list[str]]:
    """The valid entries of a JSON list, and one warning per problem (an entry with a problem is left
    out). Entries are None when the value as a whole is unusable (not JSON, not a list)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        return None, [
            f"{ENV_MODELS} ({where}) is not valid JSON ({error.msg} at line {error.lineno} column {error.colno})"
        ]
    except RecursionError:  # e.g. 5,000 "[": the decoder gives up at the interpreter's stack limit
        return None, [
            f"{ENV_MODELS} ({where}) is not valid JSON (nested too deeply to read; it should be a flat list of objects)"
        ]
    if not isinstance(data, list):
        return None, [f"{ENV_MODELS} ({where}) must be a JSON list of objects, got {type(data).__name__}"]
    entries: list[ModelEntry] = []
    warnings: list[str] = []
    for number, item in enumerate(data, start=1):
        entry, problem = _entry_from(item, providers)
        if problem:
            warnings.append(f"{ENV_MODELS} ({where}) entry #{number} skipped: {problem}")
        elif entry is not None:
            entries.append(entry)
    return entries, warnings


def _entry_from(item: Any, providers: list[str]) -> tuple[ModelEntry | None, str | None]:
    if not isinstance(item, dict):
        return None, f'expected an object with an "id", got {_preview(item)}'
    model_id, name = item.get("id"), item.get("name", item.get("id"))
    provider, base_url, key_env = item.get("provider", "openai"), item.get("base_url"), item.get("api_key_env")
    if not isinstance(model_id, str) or not model_id.strip():
        return None, '"id" must be a non-empty string (the model name the endpoint knows)'
    for label, value in (("name", name), ("provider", provider), ("base_url", base_url), ("api_key_env", key_env)):
        if value is not None and not isinstance(value, str):
            return None, f'"{label}" must be a string, got {_preview(value)}'
    if provider not in providers:
        return None, f"unknown provider {provider!r} (available: {', '.join(providers)})"
    if base_url is not None and (problem := url_problem(base_url)):
        return None, f'"base_url" {problem}'
    extra = {key: value for key, value in item.items() if key not in _KNOWN_KEYS}
    return ModelEntry(
        model_id.strip(),
        (name or model_id).strip(),
        provider,
        base_url.rstrip("/") if base_url else None,
        key_env,
        extra,
    ), None


def _preview(value: Any) -> str:
    """A short description of a JSON value for a warning: a list or object by its size (writing a
    deeply nested one back out could fail as its reading nearly did), anything else as JSON."""
    if isinstance(value, list):
        return f"a list of {len(value)}"
    if isinstance(value, dict):
        return f"an object with keys {', '.join(map(repr, list(value)[:3]))}"[:60] if value else "an empty object"
    return json.dumps(value, ensure_ascii=True)[:60]


def load_model_list(
    model: str | None = None,
    environ: Mapping[str, str] | None = None,
    dotenv_path: str | os.PathLike[str] | None = None,
) -> ModelList:
    """AVAILABLE_MODELS and LOOPSCOPE_MODEL resolved like every setting: flag > environment > .env.

    Never raises on bad configuration: a missing, malformed or empty list gives the built-in
    DEFAULT_MODELS and a warning saying why; a bad entry is skipped with a warning.
    """
    from .providers import available_providers  # providers import models; keep this module's import light

    environ = os.environ if environ is None else environ
    dotenv_file = Path(dotenv_path) if dotenv_path is not None else Path.cwd() / ".env"
    dotenv = dotenv_values(dotenv_file) if dotenv_file.is_file() else {}
    text, list_origin = _pick(ENV_MODELS, None, "", environ, dotenv, dotenv_file)
    entries, warnings = (
        ([], []) if text is None else parse_model_entries(text, list_origin, list(available_providers()))
    )
    if not entries:
        if text is not None:
            instead = f"using the built-in list ({', '.join(entry.id for entry in DEFAULT_MODELS)})"
            if entries is None:  # one problem with the whole value: one line says it and what happens
                warnings[-1] += f"; {instead}"
            else:
                warnings.append(f"{ENV_MODELS} ({list_origin}) has no usable entry; {instead}")
            list_origin = f"built-in default (the {ENV_MODELS} value was not usable)"
        else:
            list_origin = f"built-in default ({ENV_MODELS} not set)"
        entries = list(DEFAULT_MODELS)
    wanted, default_origin = _pick(ENV_MODEL, model, "--model", environ, dotenv, dotenv_file)
    default = _choose_default(entries, wanted)
    if default.provider not in available_providers():
        warnings.append(
            f"{ENV_MODEL} ({default_origin}) names the unknown provider {default.provider!r}; "
            f"available: {', '.join(available_providers())}"
        )
    if wanted is None:
        default_origin = f"first entry of the list ({list_origin.split(' (')[0]})"
    return ModelList(tuple(entries), default, {"models": list_origin, "default": default_origin}, tuple(warnings))


def _choose_default(entries: list[ModelEntry], wanted: str | None) -> ModelEntry:
    if wanted is None or not wanted.strip():
        return entries[0]
    wanted = wanted.strip()
    for entry in entries:
        if wanted in (entry.id, entry.name, entry.spec):
            return entry
    provider, colon, name = wanted.partition(":")
    return ModelEntry(name, name, provider) if colon else ModelEntry(wanted, wanted)


def entry_config(entry: ModelEntry, config: ModelConfig, environ: Mapping[str, str] | None = None) -> ModelConfig:
    """`config` adjusted for one entry: its own endpoint, and its own key when it names a variable."""
    environ = os.environ if environ is None else environ
    changes: dict[str, Any] = {}
    if entry.base_url:
        changes["base_url"] = entry.base_url
    if entry.api_key_env and environ.get(entry.api_key_env):
        changes["api_key"] = SecretStr(environ[entry.api_key_env])
    return replace(config, **changes) if changes else config


def create_model_chain(
    listed: ModelList,
    config: ModelConfig,
    breaker: Mapping[str, Any] | None = None,
    environ: Mapping[str, str] | None = None,
) -> Any:
    """The default model, with the rest of the list as its fallbacks (in list order).

    With `breaker` settings (e.g. {"failure_threshold": 3, "cool_down": 30}), each model sits behind
    the process's circuit breaker for its endpoint. A list of one model gives that model alone.
    """
    # Here, not at the top, like available_providers above: importing this module (the CLI's option
    # parsing does) must not load the models and their event classes.
    from ..recovery.circuit_breaker import with_breaker
    from ..recovery.fallbacks import FallbackModel
    from .providers import create_model

    models = []
    for entry in (listed.default, *listed.fallbacks):
        model = create_model(entry.spec, entry_config(entry, config, environ))
        models.append(with_breaker(model, **breaker) if breaker is not None else model)
    return models[0] if len(models) == 1 else FallbackModel(models[0], models[1:])

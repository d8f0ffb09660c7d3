"""`loopscope models`: the model list (AVAILABLE_MODELS), the default model and why, endpoints and key, each with its source."""

from __future__ import annotations

import argparse
import os

from rich.console import Console

from executor.models.config import (
    DEFAULT_BASE_URL,
    ENV_API_KEY,
    ENV_BASE_URL,
    ENV_MODEL,
    ModelConfig,
    ModelConfigError,
    display_url,
    load_model_config,
)
from executor.models.model_list import ENV_MODELS, ModelEntry, ModelList, load_model_list
from executor.models.providers import ProviderError, available_providers

from ..trace.literal_text import scrub
from . import COMMANDS
from .language import usage_error
from .usage_error import UsageError


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "models",
        help=COMMANDS["models"],
        description=f"Settings come from flags, then the environment ({ENV_MODELS}, {ENV_MODEL}, "
        f"{ENV_BASE_URL}, {ENV_API_KEY}), then a .env file in the current directory; "
        f"without a usable {ENV_MODELS} a built-in list is used. "
        "The API key itself is never printed.",
    )
    p.add_argument(
        "--model", metavar="ID|PROVIDER:NAME", help="preview this default model instead of the configured one"
    )
    p.add_argument("--base-url", metavar="URL", help="preview this endpoint instead of the configured one")
    p.add_argument(
        "--remote",
        action="store_true",
        help="also ask the endpoint which models it serves (needs the key; one request)",
    )
    return p


def _endpoint(entry: ModelEntry, config: ModelConfig) -> tuple[str, str]:
    """(endpoint, where it came from) for one model of the list."""
    if entry.base_url:
        return display_url(entry.base_url), f"{ENV_MODELS} entry"
    if config.base_url:
        return display_url(config.base_url), f"{ENV_BASE_URL}, {config.origins['base_url']}"
    return DEFAULT_BASE_URL, "built-in"


def list_rows(listed: ModelList, config: ModelConfig) -> list[str]:
    """The list as a table: a mark on the default, then id, name, provider, endpoint (and its source)."""
    entries = list(listed.models) + ([] if listed.default in listed.models else [listed.default])
    width_id = max(len("id"), *(len(scrub(e.id)) for e in entries))
    width_name = max(len("name"), *(len(scrub(e.name)) for e in entries))
    width_provider = max(len("provider"), *(len(scrub(e.provider)) for e in entries))
    rows = [f"     {'id':<{width_id}}  {'name':<{width_name}}  {'provider':<{width_provider}}  endpoint"]
    for entry in entries:
        mark = "  *  " if entry == listed.default else "     "
        endpoint, source = _endpoint(entry, config)
        extra = "   (not in the list)" if entry not in listed.models else ""
        if entry.api_key_env:  # the variable's name only, never its value
            extra += f"   key: {scrub(entry.api_key_env)} ({'set' if os.environ.get(entry.api_key_env) else 'not set'})"
        rows.append(
            f"{mark}{scrub(entry.id):<{width_id}}  {scrub(entry.name):<{width_name}}  "
            f"{scrub(entry.provider):<{width_provider}}  {scrub(endpoint)}   ({source}){extra}"
        )
    return rows


def setting_rows(listed: ModelList, config: ModelConfig) -> list[tuple[str, str, str]]:
    """(label, value, where it came from) for the default model, its fallbacks, endpoint and key."""
    fallbacks = " → ".join(entry.id for entry in listed.fallbacks) or "none (the list has one model)"
    endpoint = display_url(config.base_url) if config.base_url else DEFAULT_BASE_URL
    key = "set" if config.api_key else f"not set (needed by the openai provider: set {ENV_API_KEY})"
    why = listed.origins["default"]
    why = why if why.startswith("first entry") else f"{ENV_MODEL}, {why}"
    return [
        ("default", listed.default.spec, why),
        ("fallbacks", fallbacks, "the rest of the list, in order: `run --fallbacks` chains them"),
        ("endpoint", endpoint, config.origins["base_url"] if config.base_url else "built-in"),
        ("api key", key, config.origins["api_key"] if config.api_key else ""),
    ]


def _load(args: argparse.Namespace) -> tuple[ModelList, ModelConfig]:
    try:
        config = load_model_config(model=args.model, base_url=args.base_url)
    except ModelConfigError as error:
        raise UsageError(str(error)) from None
    return load_model_list(model=args.model), config


def _remote_models(config: ModelConfig) -> list[str]:
    from executor.models.providers.openai_chat import OpenAIChatModel  # the openai SDK, slow to import: only here

    try:
        return OpenAIChatModel("", config).list_models()
    except (ModelConfigError, ProviderError) as error:
        raise usage_error("cli.models.error.listing", None, problem=error) from None


def run(args: argparse.Namespace) -> int:
    console = Console(highlight=False, soft_wrap=True)  # paths and URLs stay whole
    listed, config = _load(args)
    # Every line holds settings from .env or the environment, or names from the server: shown literally.
    say = lambda text, style="": console.print(scrub(text), style=style, markup=False)  # noqa: E731
    say(f"models ({ENV_MODELS}: {scrub(listed.origins['models'])})", "bold")
    for row in list_rows(listed, config):
        say(row)
    say("")
    for label, value, origin in setting_rows(listed, config):
        say(f"{label:<10} {scrub(value)}" + (f"   ({scrub(origin)})" if origin else ""))
    if listed.warnings:
        say("\nwarnings", "bold yellow")
        for warning in listed.warnings:
            say(f"  ! {scrub(warning)}", "yellow")
    say("\nproviders (use as PROVIDER:NAME)", "bold")
    for name, note in available_providers().items():
        say(f"  {name:<10} {note}")
    if args.remote:
        served = _remote_models(config)
        say(f"\n{display_url(config.endpoint)} serves {len(served)} models", "bold")
        for name in served:
            say(f"  {scrub(name)}")  # ids come from the server: untrusted
    return 0

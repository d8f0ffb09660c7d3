"""`loopscope models`: which model, endpoint and key are configured (and where from), and the providers."""

from __future__ import annotations

import argparse

from rich.console import Console

from executor.config import (
    DEFAULT_BASE_URL,
    ENV_API_KEY,
    ENV_BASE_URL,
    ENV_MODEL,
    ModelConfig,
    ModelConfigError,
    display_url,
    load_model_config,
)
from executor.providers import ProviderError, available_providers

from ..trace.literal_text import scrub
from .usage_error import UsageError
from . import COMMANDS


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    p = sub.add_parser("models", help=COMMANDS["models"],
                       description=f"Settings come from flags, then the environment ({ENV_MODEL}, "
                                   f"{ENV_BASE_URL}, {ENV_API_KEY}), then a .env file in the current "
                                   "directory. The API key itself is never printed.")
    p.add_argument("--model", metavar="PROVIDER:NAME", help="preview this model instead of the configured one")
    p.add_argument("--base-url", metavar="URL", help="preview this endpoint instead of the configured one")
    p.add_argument("--remote", action="store_true",
                   help="also ask the endpoint which models it serves (needs the key; one request)")
    return p


def _settings(args: argparse.Namespace) -> tuple[list[tuple[str, str, str]], ModelConfig]:
    """(label, value, where it came from) for model, endpoint and key, and the config itself."""
    try:
        config = load_model_config(model=args.model, base_url=args.base_url)
    except ModelConfigError as error:
        raise UsageError(str(error)) from None
    origins = config.origins
    model = config.model or f"(none: pass --model or set {ENV_MODEL})"
    endpoint = display_url(config.base_url) if config.base_url else DEFAULT_BASE_URL
    key = "set" if config.api_key else f"not set (needed by the openai provider: set {ENV_API_KEY})"
    return [("model", model, origins["model"]),
            ("endpoint", endpoint, origins["base_url"] if config.base_url else "default"),
            ("api key", key, origins["api_key"] if config.api_key else "")], config


def _remote_models(config: ModelConfig) -> list[str]:
    from executor.providers.openai_chat import OpenAIChatModel

    try:
        return OpenAIChatModel("", config).list_models()
    except (ModelConfigError, ProviderError) as error:
        raise UsageError(f"could not list models: {error}") from None


def run(args: argparse.Namespace) -> int:
    console = Console(highlight=False, soft_wrap=True)  # paths and URLs stay whole
    rows, config = _settings(args)
    for label, value, origin in rows:
        console.print(f"{label:<10} {scrub(value)}" + (f"   ({origin})" if origin else ""), markup=False)
    console.print("\nproviders (use as PROVIDER:NAME)", style="bold")
    for name, note in available_providers().items():
        console.print(f"  {name:<10} {note}", markup=False)
    if args.remote:
        served = _remote_models(config)
        console.print(f"\n{display_url(config.endpoint)} serves {len(served)} models", style="bold", markup=False)
        for name in served:
            console.print(f"  {scrub(name)}", markup=False)  # ids come from the server: untrusted
    return 0

"""Model providers by name: `openai` and `scripted` built in, others registered or installed as entry points."""

# A model is named PROVIDER:NAME (openai:gpt-4o-mini, replay:fixtures/rose_pricing.jsonl). A provider
# is a factory taking a ModelRequest and returning a ChatModel. A third-party package adds one under
# the entry-point group "loopscope.providers", e.g. in its pyproject.toml:
#
#     [project.entry-points."loopscope.providers"]
#     mycloud = "mycloud_loopscope:create"
#
# Built-in names cannot be shadowed by an installed package; register_provider (in-process, e.g. in
# a test) takes precedence over both.

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib.metadata import EntryPoint, entry_points

from ..chat_model import ChatModel, ModelReply, ScriptedModel
from ..config import ModelConfig, ModelConfigError, load_model_config
from .errors import (
    MalformedReply,
    ProviderAuthError,
    ProviderConnectionError,
    ProviderError,
    ProviderHTTPError,
    ProviderNotFound,
    ProviderTimeout,
    ProviderUnreachable,
    ResponseTooLarge,
)

ENTRY_POINT_GROUP = "loopscope.providers"
DEFAULT_PROVIDER = "openai"


@dataclass(frozen=True)
class ModelRequest:
    """What a provider factory is given: the part after the colon, the configuration, and,
    for providers that answer from a script, the replies."""

    provider: str
    name: str
    config: ModelConfig
    replies: tuple[str | ModelReply, ...] = ()


ProviderFactory = Callable[[ModelRequest], ChatModel]


def _create_openai(request: ModelRequest) -> ChatModel:
    from .openai_chat import OpenAIChatModel  # imported on first use: `import executor` stays light

    if not request.name:
        raise ModelConfigError("name the model after the provider, e.g. --model openai:gpt-4o-mini")
    return OpenAIChatModel(request.name, request.config)


def _create_scripted(request: ModelRequest) -> ChatModel:
    if not request.replies:
        raise ModelConfigError(
            "the scripted provider answers from a scenario's replies; "
            "use --model scripted with a scenario that has them"
        )
    return ScriptedModel(request.replies, model_name=request.name or "scripted")


_BUILTIN: dict[str, ProviderFactory] = {"openai": _create_openai, "scripted": _create_scripted}
_BUILTIN_HELP = {
    "openai": "OpenAI-compatible chat completions (openai SDK)",
    "scripted": "answers with a scenario's scripted replies, no network",
}
_registered: dict[str, tuple[ProviderFactory, str]] = {}


def register_provider(name: str, factory: ProviderFactory, description: str = "") -> None:
    """Make `name` available in this process (wins over built-ins and installed entry points)."""
    if not name or ":" in name or name != name.strip():
        raise ValueError(f"a provider name is a non-empty word without ':' or spaces, got {name!r}")
    _registered[name] = (factory, description or "registered in this process")


def unregister_provider(name: str) -> None:
    _registered.pop(name, None)


def _installed() -> dict[str, EntryPoint]:
    return {ep.name: ep for ep in entry_points(group=ENTRY_POINT_GROUP)}


def available_providers() -> dict[str, str]:
    """Every provider name with a one-line note on what it is and where it comes from."""
    found = {name: f"{note} (built in)" for name, note in _BUILTIN_HELP.items()}
    for name, ep in _installed().items():
        if name not in found:
            package = ep.dist.name if ep.dist is not None else "an installed package"
            found[name] = f"{ep.value} (entry point from {package})"
    for name, (_, note) in _registered.items():
        found[name] = note
    return dict(sorted(found.items()))


def find_provider(name: str) -> ProviderFactory:
    if name in _registered:
        return _registered[name][0]
    if name in _BUILTIN:
        return _BUILTIN[name]
    installed = _installed()
    if name in installed:
        try:
            return installed[name].load()
        except Exception as error:  # a broken plugin must not take the command line down with a traceback
            raise ModelConfigError(
                f"Provider {name!r} ({installed[name].value}) failed to load: {type(error).__name__}: {error}"
            ) from error
    raise ProviderNotFound(name, list(available_providers()))


def parse_model_spec(spec: str) -> tuple[str, str]:
    """`openai:gpt-4o-mini` -> ("openai", "gpt-4o-mini"). Without a colon, a provider's own name
    means that provider (`scripted`); anything else is a model of the default provider."""
    spec = spec.strip()
    if not spec:
        raise ModelConfigError("the model is empty; use PROVIDER:NAME, e.g. openai:gpt-4o-mini")
    provider, colon, name = spec.partition(":")
    if colon:
        return provider, name
    if spec in available_providers():
        return spec, ""
    return DEFAULT_PROVIDER, spec


def create_model(spec: str, config: ModelConfig | None = None, replies: Sequence[str | ModelReply] = ()) -> ChatModel:
    """The ChatModel that `spec` names, built by its provider.

    Without `config`, the settings come from where the command line reads them: the
    environment, then ./.env (load_model_config).
    """
    provider, name = parse_model_spec(spec)
    factory = find_provider(provider)
    config = config or load_model_config()
    return factory(ModelRequest(provider=provider, name=name, config=config, replies=tuple(replies)))


__all__ = [
    "DEFAULT_PROVIDER",
    "ENTRY_POINT_GROUP",
    "MalformedReply",
    "ModelRequest",
    "ProviderAuthError",
    "ProviderConnectionError",
    "ProviderError",
    "ProviderFactory",
    "ProviderHTTPError",
    "ProviderNotFound",
    "ProviderTimeout",
    "ProviderUnreachable",
    "ResponseTooLarge",
    "available_providers",
    "create_model",
    "find_provider",
    "parse_model_spec",
    "register_provider",
    "unregister_provider",
]

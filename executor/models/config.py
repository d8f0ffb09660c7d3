"""Where a live model's settings come from: flags, then the environment, then a .env file."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from dotenv import dotenv_values
from pydantic import SecretStr

from .credentials import userinfo_credentials

ENV_API_KEY = "OPENAI_API_KEY"
ENV_BASE_URL = "OPENAI_BASE_URL"
ENV_MODEL = "LOOPSCOPE_MODEL"
DEFAULT_BASE_URL = "https://api.openai.com/v1"
DEFAULT_TIMEOUT = 60.0
ENV_MAX_RESPONSE_BYTES = "LOOPSCOPE_MAX_RESPONSE_BYTES"
# A chat completion is kilobytes; past this the endpoint is broken or hostile, and reading on would
# cost memory (a 1 GB body took 2-3 GB) for a reply no loop can use.
DEFAULT_MAX_RESPONSE_BYTES = 32 * 1024 * 1024


class ModelConfigError(ValueError):
    """A live model cannot be set up as configured; the message is one line naming what to set."""


# Query parameters that carry a credential (Azure's ?api-key=, signed URLs' ?sig=, ?token=, ...).
_SECRET_QUERY_NAME = re.compile(r"key|token|secret|sig|pass|auth|credential|code", re.IGNORECASE)


# C0 and C1 control characters and DEL. httpx refuses them in a URL (with a traceback from deep
# inside the client), and a CR LF in a URL or a key would start a new request header.
_CONTROL_CHARACTER = re.compile("[\x00-\x1f\x7f-\x9f]")


def url_credentials(url: str) -> dict[str, str]:
    """Name -> value of every credential in a URL: its password (and the Basic credentials an
    HTTP client makes of the userinfo) and secret-named query parameters."""
    parts = urlsplit(url)
    found = {
        f"base-url-{name}": value for name, value in parse_qsl(parts.query) if value and _SECRET_QUERY_NAME.search(name)
    }
    found.update((f"base-url-{name}", value) for name, value in userinfo_credentials(url).items())
    return found


def url_problem(url: str) -> str | None:
    """What makes `url` unusable as an endpoint, as words to follow its name; None when it is usable."""
    control = _CONTROL_CHARACTER.search(url)
    if control:
        return (
            f"holds a control character ({control.group()!r} at position {control.start()}); "
            "a URL is one line of printable characters"
        )
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - read for its check: a port that is not a number in 0-65535 raises
    except ValueError as error:
        return f"is not a valid URL ({error})"
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return f"is not an http(s) URL: {display_url(url)!r}"
    return None


def display_url(url: str) -> str:
    """The URL without any user:password@ part or credential query values, safe to print."""
    try:
        parts = urlsplit(url)
    except ValueError:  # a '[' that opens no IPv6 address: nothing of it is shown, it may hold a password
        return "(not a URL)"
    netloc = parts.netloc.rsplit("@", 1)[-1]
    query = urlencode(
        [
            (name, "***" if value and _SECRET_QUERY_NAME.search(name) else value)
            for name, value in parse_qsl(parts.query, keep_blank_values=True)
        ],
        safe="*",
    )
    return urlunsplit(parts._replace(netloc=netloc, query=query))


@dataclass(frozen=True)
class ModelConfig:
    """A resolved configuration. `origins` says where each value came from, for `loopscope models`.

    The key is a pydantic SecretStr: printing, repr() or logging this object shows '**********'.
    """

    model: str | None = None
    base_url: str | None = None
    api_key: SecretStr | None = field(default=None, repr=False)
    timeout: float = DEFAULT_TIMEOUT
    origins: Mapping[str, str] = field(default_factory=dict)
    max_response_bytes: int = DEFAULT_MAX_RESPONSE_BYTES

    @property
    def endpoint(self) -> str:
        return self.base_url or DEFAULT_BASE_URL

    def require_api_key(self) -> str:
        if self.api_key is None or not self.api_key.get_secret_value().strip():
            raise ModelConfigError(
                f"{ENV_API_KEY} is not set: export {ENV_API_KEY}=... or put it in a .env file "
                "(a local server that ignores keys accepts any non-empty value)"
            )
        return self.api_key.get_secret_value()


def _pick(
    name: str,
    flag_value: str | None,
    flag: str,
    environ: Mapping[str, str],
    dotenv: Mapping[str, str | None],
    dotenv_file: Path | None,
) -> tuple[str | None, str]:
    if flag_value:
        return flag_value, f"{flag} flag"
    if environ.get(name):
        return environ[name], "environment"
    if dotenv.get(name):
        return dotenv[name], f".env ({dotenv_file})"
    return None, "not set"


def load_model_config(
    model: str | None = None,
    base_url: str | None = None,
    api_key: str | None = None,
    timeout: float | None = None,
    environ: Mapping[str, str] | None = None,
    dotenv_path: str | os.PathLike[str] | None = None,
    max_response_bytes: int | None = None,
) -> ModelConfig:
    """Resolve each setting: a flag wins over the environment, which wins over `.env`.

    `.env` is read (default: ./.env) without copying anything into os.environ.
    """
    environ = os.environ if environ is None else environ
    dotenv_file = Path(dotenv_path) if dotenv_path is not None else Path.cwd() / ".env"
    dotenv = dotenv_values(dotenv_file) if dotenv_file.is_file() else {}
    chosen_model, model_origin = _pick(ENV_MODEL, model, "--model", environ, dotenv, dotenv_file)
    chosen_url, url_origin = _pick(ENV_BASE_URL, base_url, "--base-url", environ, dotenv, dotenv_file)
    chosen_key, key_origin = _pick(ENV_API_KEY, api_key, "api_key argument", environ, dotenv, dotenv_file)
    if chosen_url is not None:
        chosen_url = chosen_url.strip().rstrip("/")
        problem = url_problem(chosen_url)
        if problem:
            raise ModelConfigError(f"{ENV_BASE_URL} ({url_origin}) {problem}; use e.g. http://localhost:8000/v1")
    if chosen_key is not None and (control := _CONTROL_CHARACTER.search(chosen_key)):
        raise ModelConfigError(
            f"{ENV_API_KEY} ({key_origin}) holds a control character ({control.group()!r} "
            f"at position {control.start()}); a key is one line of printable characters"
        )
    if timeout is not None and not timeout > 0:
        raise ModelConfigError(f"timeout must be a positive number of seconds, got {timeout}")
    flag_cap = str(max_response_bytes) if max_response_bytes is not None else None
    chosen_cap, cap_origin = _pick(
        ENV_MAX_RESPONSE_BYTES, flag_cap, "max_response_bytes argument", environ, dotenv, dotenv_file
    )
    return ModelConfig(
        model=chosen_model,
        base_url=chosen_url,
        api_key=SecretStr(chosen_key) if chosen_key else None,
        timeout=timeout or DEFAULT_TIMEOUT,
        origins={
            "model": model_origin,
            "base_url": url_origin,
            "api_key": key_origin,
            "max_response_bytes": cap_origin,
        },
        max_response_bytes=_byte_count(chosen_cap, cap_origin),
    )


def _byte_count(value: str | None, origin: str) -> int:
    if value is None:
        return DEFAULT_MAX_RESPONSE_BYTES
    text = value.strip().replace("_", "")
    if not (text.isascii() and text.isdigit() and len(text) <= 18) or int(text) < 1:
        raise ModelConfigError(
            f"{ENV_MAX_RESPONSE_BYTES} ({origin}) must be a whole number of bytes, e.g. "
            f"{DEFAULT_MAX_RESPONSE_BYTES} (the default, 32 MiB); got {value[:40]!r}"
        )
    return int(text)

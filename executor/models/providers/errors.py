"""What a model provider raises, in terms the retry policy and the command line understand."""

from __future__ import annotations

from ...recovery.retry import TransientError
from ..config import ModelConfigError


class ProviderNotFound(ModelConfigError, LookupError):
    """`--model x:...` names no provider that is built in, registered, or installed."""

    def __init__(self, name: str, available: list[str]) -> None:
        super().__init__(f"Provider {name!r} not found; available: {', '.join(available) or '(none)'}")
        self.name, self.available = name, available


class ProviderError(Exception):
    """A model call failed. `status_code` and `retry_after` (seconds) are set when the server sent them."""

    def __init__(self, message: str, status_code: int | None = None, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.status_code = status_code
        self.retry_after = retry_after


class ProviderAuthError(ProviderError, PermissionError):
    """The endpoint refused the key (401) or the key may not use this model (403): never worth retrying."""


class ProviderConnectionError(ProviderError, ConnectionError):
    """The endpoint could not be reached, or dropped the connection before answering."""


class ProviderUnreachable(ProviderError):
    """No connection could be made at all (refused, unknown host): the URL or the server is wrong.

    Deliberately not a ConnectionError, so the default RetryPolicy fails fast instead of
    backing off for a minute against a port nobody listens on; a connection dropped mid-reply
    is a ProviderConnectionError and is retried.
    """


class ProviderTimeout(ProviderError, TimeoutError):
    """The endpoint did not answer within the client's timeout."""


class ProviderHTTPError(ProviderError):
    """Any other HTTP error status; the retry policy decides by `status_code` (429, 5xx...)."""


class MalformedReply(ProviderError, TransientError):
    """The endpoint answered 200 with something that is not a chat completion (often a flaky gateway)."""


class ResponseTooLarge(ProviderError):
    """The endpoint's response is larger than LOOPSCOPE_MAX_RESPONSE_BYTES (see body_limit.py). Not
    retried: the same request to the same endpoint would most likely send as much again, and each try
    downloads up to the cap (a FallbackModel still moves on to its next model)."""

"""A cap on the bytes read from a model endpoint: past it the call fails in one line and nothing more is read."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any

import openai

from ..config import ENV_MAX_RESPONSE_BYTES
from .errors import ResponseTooLarge


def capped_http_client(max_bytes: int, where: str) -> Any:
    """The SDK's own default HTTP client, with every response body counted as it streams in.

    A response hook runs before the body is read: it refuses a Content-Length over the cap at
    once, and wraps the body so that reading stops, with ResponseTooLarge, at the first byte past
    the cap. The bytes counted are the decoded ones (a gzip body is decoded here, in bounded
    pieces, by the library's own decoders), so a small compressed body cannot inflate past it.
    """
    library = _http_library()
    stream_base: type = library.SyncByteStream

    class CappedStream(stream_base):
        def __init__(self, decoding: Any) -> None:
            self._decoding = decoding

        def __iter__(self) -> Iterator[bytes]:
            read = 0
            for chunk in self._decoding.iter_bytes():
                read += len(chunk)
                if read > max_bytes:
                    raise _too_large(where, max_bytes)
                yield chunk

        def close(self) -> None:
            self._decoding.close()

    def cap(response: Any) -> None:
        declared = response.headers.get("content-length", "")
        encodings = response.headers.get("content-encoding")
        if not encodings and declared.isascii() and declared.isdigit() and int(declared) > max_bytes:
            raise _too_large(where, max_bytes, f"it announced {int(declared):,}")
        # The body is decoded inside CappedStream, so the outer response must not decode it again.
        decoding = library.Response(
            response.status_code, headers={"content-encoding": encodings} if encodings else {}, stream=response.stream
        )
        if encodings:
            del response.headers["content-encoding"]
        response.stream = CappedStream(decoding)

    return openai.DefaultHttpxClient(event_hooks={"response": [cap]})


def too_large_cause(error: BaseException) -> ResponseTooLarge | None:
    """The ResponseTooLarge behind `error`, if an SDK wrapped it (older SDKs turn any error while
    reading into a connection error, which the retry policy would retry)."""
    seen = 0
    cause: BaseException | None = error
    while cause is not None and seen < 20:
        if isinstance(cause, ResponseTooLarge):
            return cause
        cause, seen = cause.__cause__ or cause.__context__, seen + 1
    return None


def _too_large(where: str, max_bytes: int, said: str = "") -> ResponseTooLarge:
    return ResponseTooLarge(
        f"the response from {where} is larger than {max_bytes:,} bytes"
        f"{f' ({said})' if said else ''}; loopscope stopped reading it (raise "
        f"{ENV_MAX_RESPONSE_BYTES} if such a reply is expected)"
    )


def _http_library() -> ModuleType:
    # The SDK sends with httpx, or with its fork httpx2 in newer releases: the stream and response
    # classes must be that library's own, so they are taken from the SDK's client class.
    client_class: Callable[..., Any] = openai.DefaultHttpxClient
    base = next(cls for cls in client_class.__mro__ if cls.__name__ == "Client")  # type: ignore[attr-defined]
    return importlib.import_module(base.__module__.partition(".")[0])

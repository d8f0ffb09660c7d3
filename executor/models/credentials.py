"""Credentials a URL carries (its user:password@ and the Basic header made of it), and hiding credentials in text."""

from __future__ import annotations

import base64
import functools
import re
from collections.abc import Iterable
from urllib.parse import unquote, urlsplit

# A secret shorter than this is not hunted for as text: a key "k" (any value does for a local server)
# made "keep-alive" read "***eep-alive". The shapes below still find it in a URL or a header.
MIN_HIDDEN_LENGTH = 4
# Shapes of credentials a server may echo back in an error ("Incorrect API key provided: sk-...",
# the request's own headers in a 401 body, the URL it was asked for). Each keeps its "keep" group
# (the header name, the word Bearer, a URL's scheme and user) and loses the rest to ***.
CREDENTIAL_SHAPES = (
    r"(?i)(?P<keep>\b(?:proxy-)?authorization\s*:\s*)(?:[a-z]+\s+)?\S+",  # any scheme, whole
    r"(?i)(?P<keep>\bbearer\s+)\S+",
    # base64 holds a capital, digit, + or / after its first character; "basic training" does not
    r"(?P<keep>\b(?i:basic)\s+)[A-Za-z0-9+/](?=[A-Za-z0-9+/]*[A-Z0-9+/])[A-Za-z0-9+/]{5,}={0,2}",
    r"(?P<keep>)\bsk-[A-Za-z0-9_\-*]{6,}",
    r"(?i)(?P<keep>\b[a-z][a-z0-9+.-]*://(?:[^\s/?#@:]*:)?)[^\s/?#]+(?=@)",  # user:password@ or token@
)


def userinfo_credentials(url: str) -> dict[str, str]:
    """The password of a URL's user:password@ (as written and decoded), and the Basic credentials
    an HTTP client sends for it: httpx, so the openai client, turns a URL's userinfo into
    `Authorization: Basic base64(user:password)`, in place of the Bearer key."""
    try:
        parts = urlsplit(url.strip())
        user, password = parts.username, parts.password
    except ValueError:  # not a URL after all (a '[' that opens no IPv6 address)
        return {}
    if user is None and password is None:
        return {}
    found = {}
    if password:
        found["password"] = password
        if unquote(password) != password:
            found["password-decoded"] = unquote(password)
    pair = f"{unquote(user or '')}:{unquote(password or '')}"
    found["basic-credentials"] = base64.b64encode(pair.encode("utf-8")).decode("ascii")
    return found


@functools.cache  # compiled on the first error message, not when the trace writer imports this module
def _credential_shapes() -> tuple[re.Pattern[str], ...]:
    return tuple(re.compile(shape) for shape in CREDENTIAL_SHAPES)


def hide_credentials(text: str, secrets: Iterable[str] = ()) -> str:
    """`text` with each of `secrets` (MIN_HIDDEN_LENGTH long or more) and each credential shape replaced by ***."""
    long_enough = (secret for secret in secrets if len(secret) >= MIN_HIDDEN_LENGTH)
    for secret in sorted(long_enough, key=len, reverse=True):  # longest first: no leftovers
        text = text.replace(secret, "***")
    for shape in _credential_shapes():
        text = shape.sub(r"\g<keep>***", text)
    return text

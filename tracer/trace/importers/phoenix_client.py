"""Phoenix's REST API read over plain HTTP: a project's spans page by page, and annotations, every read capped."""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ..literal_text import scrub

PAGE = 1000  # spans per request: the most /v1/projects/{project}/spans gives
MAX_PAGE_BYTES = 64 << 20  # one response; a server that sends more is refused, not read to the end
MAX_SPANS = 200_000  # spans pulled in one import: past this, narrow it with --since or --trace-id
MAX_PAGES = MAX_SPANS // PAGE + 10  # a server whose cursor never ends is stopped
IDS_PER_REQUEST = 50  # trace or span ids named in one annotations request (its URL stays short)
TIMEOUT = 30.0  # seconds for one request


class PhoenixError(Exception):
    """The Phoenix server could not be reached, refused, or answered with something that is not its API; one line."""


@dataclass(frozen=True)
class PhoenixSource:
    """What `import --phoenix` pulls: the server, the project, and optionally one trace or a start time."""

    url: str  # http(s)://host:port, the server's root (Phoenix's UI and API share it)
    project: str = "default"
    trace_id: str | None = None
    since: datetime | None = None  # spans that started at or after this (aware, UTC)
    api_key: str | None = None  # PHOENIX_API_KEY, read by the command: sent as a bearer token


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    """A redirect is refused: it would carry the API key to wherever the server points."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        raise PhoenixError(f"the Phoenix server redirected to {scrub(newurl)[:200]}; give that address instead")


_OPENER = urllib.request.build_opener(_NoRedirects)


def checked_url(url: str) -> str:
    parts = urllib.parse.urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise PhoenixError(f"--phoenix {scrub(url)[:200]!r} is not an http(s) address; e.g. http://127.0.0.1:6006")
    return urllib.parse.urlunsplit((parts.scheme, parts.netloc, parts.path.rstrip("/"), "", ""))


class PhoenixClient:
    """GETs against one Phoenix server, JSON back, at most MAX_PAGE_BYTES each."""

    def __init__(self, source: PhoenixSource) -> None:
        self.source = source
        self.base = checked_url(source.url)
        self.project = urllib.parse.quote(source.project, safe="")

    def get(self, path: str, query: list[tuple[str, str]]) -> Any:
        url = f"{self.base}{path}" + (f"?{urllib.parse.urlencode(query)}" if query else "")
        headers = {"Accept": "application/json"}
        if self.source.api_key:
            headers["Authorization"] = f"Bearer {self.source.api_key}"
        request = urllib.request.Request(url, headers=headers)
        try:
            with _OPENER.open(request, timeout=TIMEOUT) as response:
                body = response.read(MAX_PAGE_BYTES + 1)
        except urllib.error.HTTPError as error:
            raise PhoenixError(self._refusal(error, path)) from None
        except (urllib.error.URLError, OSError) as error:
            reason = getattr(error, "reason", error)
            raise PhoenixError(f"cannot reach the Phoenix server at {self.base}: {scrub(str(reason))[:200]}") from None
        if len(body) > MAX_PAGE_BYTES:
            raise PhoenixError(f"{path}: the answer is larger than {MAX_PAGE_BYTES >> 20} MB; not read")
        try:
            return json.loads(body)
        except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):
            raise PhoenixError(
                f"{self.base}{path} did not answer with JSON; is {self.base} a Phoenix server?"
            ) from None

    def _refusal(self, error: urllib.error.HTTPError, path: str) -> str:
        detail = error.read(300).decode("utf-8", "replace").strip().splitlines()
        said = f" ({scrub(detail[0])[:200]})" if detail else ""
        if error.code in (401, 403):
            hint = "check PHOENIX_API_KEY" if self.source.api_key else "set PHOENIX_API_KEY to a key of that server"
            return f"the Phoenix server at {self.base} asks for an API key (HTTP {error.code}); {hint}"
        if error.code == 404 and path.endswith("/spans"):
            return (
                f"the Phoenix server at {self.base} has no project {self.source.project!r} (HTTP 404){said}; "
                "name one with --project (`default` is Phoenix's own)"
            )
        return f"the Phoenix server at {self.base} refused {path}: HTTP {error.code} {error.reason}{said}"

    def spans(self) -> Iterator[list[dict[str, Any]]]:
        """The project's spans, one page at a time (--since and a whole --trace-id are asked of the server)."""
        query = [("limit", str(PAGE))]
        if self.source.since is not None:
            query.append(("start_time", self.source.since.isoformat()))
        if self.source.trace_id and len(self.source.trace_id) == 32:
            query.append(("trace_id", self.source.trace_id))  # a whole id; the start of one is matched here
        cursor, pulled = None, 0
        for _page in range(MAX_PAGES):
            page = self.get(f"/v1/projects/{self.project}/spans", query + ([("cursor", cursor)] if cursor else []))
            data = page.get("data") if isinstance(page, dict) else None
            if not isinstance(data, list):
                raise PhoenixError(f"{self.base}: the spans answer has no data list; is it a Phoenix server?")
            spans = [span for span in data if isinstance(span, dict)]
            pulled += len(spans)
            if pulled > MAX_SPANS:
                raise PhoenixError(
                    f"project {self.source.project!r} has more than {MAX_SPANS:,} spans to pull; "
                    "narrow the import with --since or --trace-id"
                )
            yield spans
            cursor = page.get("next_cursor")
            if not cursor or not isinstance(cursor, str):
                return
        raise PhoenixError(f"{self.base}: the spans kept coming after {MAX_PAGES:,} pages; stopped")

    def annotations(self, kind: str, ids: list[str]) -> list[dict[str, Any]]:
        """Trace (kind "trace") or span (kind "span") annotations of these ids; [] from a Phoenix too old
        to have the endpoint (its scores are then not imported, the runs are)."""
        found: list[dict[str, Any]] = []
        for at in range(0, len(ids), IDS_PER_REQUEST):
            query = [(f"{kind}_ids", one) for one in ids[at : at + IDS_PER_REQUEST]] + [("limit", str(PAGE))]
            cursor = None
            for _page in range(MAX_PAGES):
                try:
                    page = self.get(
                        f"/v1/projects/{self.project}/{kind}_annotations",
                        query + ([("cursor", cursor)] if cursor else []),
                    )
                except PhoenixError as error:
                    if "HTTP 404" in str(error) or "HTTP 405" in str(error):
                        return found
                    raise
                data = page.get("data") if isinstance(page, dict) else None
                found.extend(item for item in data or [] if isinstance(item, dict))
                cursor = page.get("next_cursor") if isinstance(page, dict) else None
                if not cursor or not isinstance(cursor, str):
                    break
        return found

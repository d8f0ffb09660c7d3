"""textual-serve's Server answering only its own page: a per-start token, an Origin check, no other host's assets."""

from __future__ import annotations

import hmac
import ipaddress
import json
import logging
import re
import secrets
from collections.abc import Awaitable, Callable
from pathlib import Path

from ..extras import missing_extra

try:
    import aiohttp_jinja2
    import jinja2
    from aiohttp import web
    from textual_serve.server import Server, to_int
except ImportError as missing:  # tests/test_extras.py hides the packages
    raise missing_extra("serve", "loopscope serve", missing) from None

PAGE_DIR = Path(__file__).resolve().parent / "serve_page"
# The machine's own fonts, never a download: a monospace one for Latin, then ones with Chinese (Debian's
# fonts-noto-cjk, macOS's PingFang, Windows' YaHei). xterm.js draws on a canvas with this list, and the browser
# takes each glyph from the first font that has it; with none that has Chinese, Chinese is drawn as empty boxes.
FONT_STACK = (
    '"DejaVu Sans Mono", Menlo, Consolas, "Noto Sans Mono CJK SC", "Noto Sans CJK SC", '
    '"WenQuanYi Zen Hei Mono", "WenQuanYi Zen Hei", "PingFang SC", "Microsoft YaHei", monospace'
)
# What textual-serve's script asks xterm.js for: Roboto Mono, which only its page fetched (from Google's servers).
LIBRARY_FONT = "\"'Roboto Mono', Monaco, 'Courier New', monospace\""
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")
PAGE_QUERY = {"token", "fontsize"}  # textual-serve's script also obeys ?ping=URL (a fetch to any host): refused
FORBIDDEN = "loopscope serve: open the address `loopscope serve` printed (its token is part of it)\n"
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
# A host name or a bracketed IPv6 address, nothing else: what a Host header may say before it is written into
# the page's policy and websocket address (a `;` or a space there would add a directive of its own).
PLAIN_HOST = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9.-]{0,252})|\[[0-9A-Fa-f:.]{2,45}\]")


def url_host(host: str) -> str:
    """A host as it appears in a URL (an IPv6 address in brackets)."""
    return f"[{host}]" if ":" in host else host


def is_wildcard(host: str) -> bool:
    """0.0.0.0 or ::, which answer on every address of the machine (names the server cannot list)."""
    try:
        return ipaddress.ip_address(host).is_unspecified
    except ValueError:
        return False


def terminal_script(statics_path: Path) -> bytes:
    """textual-serve's browser script, its terminal drawn with FONT_STACK instead of Roboto Mono."""
    script = (statics_path / "js" / "textual.js").read_text(encoding="utf-8")
    # A textual-serve that no longer names Roboto Mono gets its script as it is: the page still loads
    # nothing from elsewhere, and tests/cli/test_serve_guard.py says the font list is no longer applied.
    return script.replace(LIBRARY_FONT, json.dumps(FONT_STACK), 1).encode("utf-8")


def presented_token(request: web.Request) -> str:
    """The token a request carries: `?token=` on the page, the path's second segment on /ws/T and /static/T/."""
    if request.path == "/":
        return request.query.get("token", "")
    parts = request.path.split("/")
    return parts[2] if len(parts) > 2 else ""


class HideToken(logging.Filter):
    """Writes each request line of the console log with `<token>` where this start's token was."""

    def __init__(self, token: str) -> None:
        super().__init__()
        self.token = token

    def filter(self, record: logging.LogRecord) -> bool:
        # aiohttp's access log formats the request line (`GET /?token=... HTTP/1.1`) before logging it,
        # and the terminal's scrollback or a pasted log would hand the token to whoever reads it
        message = record.getMessage()
        if self.token in message:
            record.msg, record.args = message.replace(self.token, "<token>"), ()
        return True


class GuardedServer(Server):
    """Serves one command's debugger to the browser that has this start's token, from this server's own origin."""

    def __init__(self, command: str, *, host: str, port: int, title: str) -> None:
        super().__init__(command, host=host, port=port, title=title, templates_path=PAGE_DIR)
        self.token = secrets.token_urlsafe(32)
        self.url = f"http://{url_host(host)}:{port}/?token={self.token}"
        self._script = terminal_script(self.statics_path)
        names = (*LOOPBACK_NAMES, host)
        self._origins = frozenset(f"http://{url_host(name)}:{port}" for name in names)

    def initialize_logging(self) -> None:
        super().initialize_logging()
        logging.getLogger("aiohttp.access").addFilter(HideToken(self.token))

    async def _make_app(self) -> web.Application:
        app = web.Application(middlewares=[self._require_token])
        aiohttp_jinja2.setup(app, loader=jinja2.FileSystemLoader(self.templates_path))
        app.add_routes(
            [
                web.get("/", self.handle_index),
                web.get(f"/ws/{self.token}", self.handle_websocket),
                web.get(f"/static/{self.token}/js/textual.js", self.handle_script),  # before the folder it is in
                web.static(f"/static/{self.token}", self.statics_path),
            ]
        )  # no /download/: textual-serve's script asks for it without the token, and the debugger never sends files
        app.on_startup.append(self.on_startup)
        app.on_shutdown.append(self.on_shutdown)
        return app

    @web.middleware
    async def _require_token(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        # compare_digest on bytes: its time does not tell how much of a guess was right, and a non-ASCII
        # guess is a mismatch (on str it would raise, a 500 instead of a 403)
        presented = presented_token(request).encode("utf-8", "replace")
        if not hmac.compare_digest(presented, self.token.encode("ascii")):
            raise web.HTTPForbidden(text=FORBIDDEN)
        return await handler(request)

    def allows_origin(self, request: web.Request) -> bool:
        """A websocket opened by this server's own page: its Origin is this host:port as the browser named it."""
        origin = request.headers.get("Origin")
        if origin in self._origins:
            return True
        # Bound to every address, the browser may use any of the machine's names; the token still guards.
        return is_wildcard(self.host) and origin == f"http://{request.host}" and request.url.port == self.port

    def page_host(self, request: web.Request) -> str:
        """The host:port the page's websocket is to connect to, from the bound host and port only.

        The Host header is used only when it names this server as bound (a loopback name, the --host
        address) or, bound to every address, when it is a plain host name on this port; otherwise
        the bound address. It is never copied in unchecked: it goes into the page's policy.
        """
        given = request.headers.get("Host", "")
        if f"http://{given}" in self._origins:
            return given
        name, _, port = given.rpartition(":")
        if is_wildcard(self.host) and port == str(self.port) and PLAIN_HOST.fullmatch(name):
            return given
        return f"{url_host(self.host)}:{self.port}"

    async def handle_index(self, request: web.Request) -> web.StreamResponse:
        if not set(request.query) <= PAGE_QUERY:
            raise web.HTTPBadRequest(text=f"loopscope serve: the page takes only {sorted(PAGE_QUERY)} in its address\n")
        context = {
            "title": self.title,
            "font_size": to_int(request.query.get("fontsize", "16"), 16),
            "font_stack": FONT_STACK,
            "static_url": f"/static/{self.token}/",
            "websocket_url": f"ws://{self.page_host(request)}/ws/{self.token}",
        }
        response = aiohttp_jinja2.render_template("app_index.html", request, context)
        response.headers["Content-Security-Policy"] = (
            f"default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
            f"font-src 'self'; connect-src 'self' ws://{self.page_host(request)}; base-uri 'none'; form-action 'none'; "
            "frame-ancestors 'none'"
        )
        response.headers["Referrer-Policy"] = "no-referrer"  # the token is in the address: never pass it on
        return response

    async def handle_script(self, request: web.Request) -> web.Response:
        return web.Response(body=self._script, content_type="application/javascript", charset="utf-8")

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        if not self.allows_origin(request):
            raise web.HTTPForbidden(text="loopscope serve: this websocket answers only its own page\n")
        return await super().handle_websocket(request)

    async def on_startup(self, app: web.Application) -> None:
        """Say nothing: `loopscope serve` printed the address (textual-serve's banner would lack the token)."""

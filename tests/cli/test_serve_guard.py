"""`loopscope serve` answers only its own page: the token, the Origin check and the page's own assets, in process."""

from __future__ import annotations

import json
import logging
import re
import shlex
import sys
from html.parser import HTMLParser
from pathlib import Path

import aiohttp
import pytest
from aiohttp.test_utils import TestServer, make_mocked_request

from tests.helpers.served_debugger import free_port
from tests.helpers.system_packages import fonts_with_chinese, needs_chinese_font
from tracer.cli.serve_guard import FONT_STACK, LIBRARY_FONT, GuardedServer

# Stands in for the debugger: each start leaves a line in a file, then sends one screenful (textual-serve's packets).
STAND_IN = (
    "import sys; open(sys.argv[1], 'a').write('started\\n'); out = sys.stdout.buffer; "
    "out.write(b'__GANGLION__\\n' + b'D' + (11).to_bytes(4, 'big') + b'trace bytes'); out.flush(); "
    "sys.stdin.buffer.read()"
)


@pytest.fixture
async def guarded(tmp_path):
    """A GuardedServer on a free port whose sessions run STAND_IN; yields (server, base URL, marker file)."""
    marker = tmp_path / "started"
    port = free_port()
    server = GuardedServer(
        shlex.join([sys.executable, "-c", STAND_IN, str(marker)]), host="127.0.0.1", port=port, title="loopscope"
    )
    test_server = TestServer(await server._make_app(), host="127.0.0.1", port=port)  # the app textual-serve runs
    await test_server.start_server()
    try:
        yield server, f"http://127.0.0.1:{port}", marker
    finally:
        await test_server.close()


async def _status(url: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as http, http.get(url) as response:
        return response.status, await response.text()


async def _open_websocket(url: str, origin: str | None) -> tuple[int, bytes]:
    """The HTTP status of a websocket's opening, and the bytes it then carried (nothing if refused)."""
    headers = {"Origin": origin} if origin is not None else {}
    async with aiohttp.ClientSession() as http:
        try:
            async with http.ws_connect(url, headers=headers) as ws:
                message = await ws.receive(timeout=30)
                return 101, message.data if message.type == aiohttp.WSMsgType.BINARY else b""
        except aiohttp.WSServerHandshakeError as refused:
            return refused.status, b""


@pytest.mark.parametrize("query", ["", "?token=", "?token=guess", "?token=%E4%B8%AD", "?tok=TOKEN", "?token=TOKEN%00"])
async def test_the_page_without_its_token_is_403_and_reveals_nothing(guarded, query):
    server, base, _ = guarded
    status, body = await _status(f"{base}/{query.replace('TOKEN', server.token)}")
    assert status == 403
    assert server.token not in body and "/ws" not in body and "open the address" in body


async def test_a_prefix_of_the_token_is_refused(guarded):
    server, base, _ = guarded
    assert (await _status(f"{base}/?token={server.token[:-1]}"))[0] == 403
    assert (await _status(f"{base}/?token={server.token}"))[0] == 200


@pytest.mark.parametrize("extra", ["&ping=https://evil.example/beacon", "&delay=1"])
async def test_the_page_refuses_textual_serves_other_switches(guarded, extra):
    # ?ping=URL makes textual-serve's script fetch that URL from the user's browser: a link holding the token
    # could make the page call any host. The page takes only its token and a font size.
    server, base, _ = guarded
    status, body = await _status(f"{base}/?token={server.token}{extra}")
    assert status == 400 and "textual.js" not in body
    assert (await _status(f"{base}/?token={server.token}&fontsize=20"))[0] == 200


@pytest.mark.parametrize(
    "path",
    [
        "/static/css/xterm.css",
        "/static/guess/css/xterm.css",
        "/static/js/textual.js",
        "/download/anything",
        "/favicon.ico",
        "/static/TOKEN/",
        "/static/TOKEN/../../x",
    ],
)
async def test_assets_without_the_token_are_refused_and_no_folder_is_listed(guarded, path):
    server, base, _ = guarded
    status, body = await _status(base + path.replace("TOKEN", server.token))
    assert status == 403 and server.token not in body and "xterm" not in body
    assert (await _status(f"{base}/static/{server.token}/css/xterm.css"))[0] == 200


@pytest.mark.parametrize(
    ("path", "origin"),
    [
        ("/ws/TOKEN", "http://evil.example"),  # another web page the user has open
        ("/ws/TOKEN", "http://evil.example:PORT"),  # DNS rebinding: evil.example resolved to 127.0.0.1
        ("/ws/TOKEN", "http://127.0.0.1:1"),  # another local service, on another port
        ("/ws/TOKEN", "https://127.0.0.1:PORT"),  # not the scheme the page is served with
        ("/ws/TOKEN", "null"),  # a sandboxed frame or a file:// page
        ("/ws/TOKEN", None),  # no Origin at all (not a browser's own page)
        ("/ws", "http://127.0.0.1:PORT"),  # textual-serve's own path, no token
        ("/ws/guess", "http://127.0.0.1:PORT"),  # a wrong token from the right origin
        ("/ws/TOKEN?token=guess", "http://evil.example"),  # both wrong
    ],
)
async def test_a_foreign_websocket_gets_403_no_debugger_and_no_bytes(guarded, path, origin):
    server, base, marker = guarded
    port = base.rsplit(":", 1)[1]
    fill = lambda text: text.replace("TOKEN", server.token).replace("PORT", port)  # noqa: E731
    status, data = await _open_websocket(f"ws://127.0.0.1:{port}{fill(path)}", origin and fill(origin))
    assert (status, data) == (403, b"")
    assert not marker.exists(), "a refused websocket still started a debugger session"
    # the same server, its own page's request: the session starts and sends its bytes (the refusal was real)
    status, data = await _open_websocket(f"ws://127.0.0.1:{port}/ws/{server.token}", base)
    assert (status, data) == (101, b"trace bytes")
    assert marker.read_text() == "started\n"


async def test_localhost_is_as_good_as_127_0_0_1(guarded):
    server, base, marker = guarded
    port = base.rsplit(":", 1)[1]
    status, _ = await _open_websocket(f"ws://127.0.0.1:{port}/ws/{server.token}", f"http://localhost:{port}")
    assert status == 101 and marker.exists()


def test_bound_to_every_address_the_origin_must_be_the_host_the_browser_used_on_this_port():
    server = GuardedServer("true", host="0.0.0.0", port=8000, title="t")
    lan = {"Host": "192.168.1.5:8000", "Origin": "http://192.168.1.5:8000"}
    assert server.allows_origin(make_mocked_request("GET", f"/ws/{server.token}", headers=lan))
    elsewhere = {"Host": "192.168.1.5:8000", "Origin": "http://evil.example:8000"}
    assert not server.allows_origin(make_mocked_request("GET", f"/ws/{server.token}", headers=elsewhere))
    other_port = {"Host": "192.168.1.5:9000", "Origin": "http://192.168.1.5:9000"}
    assert not server.allows_origin(make_mocked_request("GET", f"/ws/{server.token}", headers=other_port))


def test_each_start_has_its_own_token_and_an_ipv6_address_is_bracketed():
    first, second = (GuardedServer("true", host="::1", port=8000, title="t") for _ in range(2))
    assert first.token != second.token and len(first.token) >= 40
    assert first.url == f"http://[::1]:8000/?token={first.token}"


class _Addresses(HTMLParser):
    """Every address an HTML page makes the browser load or connect to."""

    def __init__(self) -> None:
        super().__init__()
        self.addresses: list[str] = []
        self.styles: list[str] = []
        self._in_style = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._in_style = tag == "style"
        loads = ("src", "href", "data-session-websocket-url")
        self.addresses += [value or "" for name, value in attrs if name in loads]
        self.styles += [value or "" for name, value in attrs if name == "style"]

    def handle_data(self, data: str) -> None:
        if self._in_style:
            self.styles.append(data)


async def test_the_page_and_its_assets_load_nothing_from_another_host(guarded):
    server, base, _ = guarded
    async with aiohttp.ClientSession() as http, http.get(f"{base}/?token={server.token}") as response:
        page, policy = await response.text(), response.headers["Content-Security-Policy"]
    assert "default-src 'none'" in policy and "frame-ancestors 'none'" in policy
    parsed = _Addresses()
    parsed.feed(page)
    static = f"/static/{server.token}/"
    assert sorted(parsed.addresses) == [
        "",
        f"{static}css/xterm.css",
        f"{static}js/textual.js",
        "data:,",
        f"ws://127.0.0.1:{base.rsplit(':', 1)[1]}/ws/{server.token}",
    ]
    assert not re.search(r"https?:|//[\w.-]+\.\w|url\(|@import", page.replace("ws://127.0.0.1:", ""))
    assert "Roboto" not in page and FONT_STACK in page
    for asset in ("css/xterm.css", "js/textual.js"):
        status, text = await _status(f"{base}{static}{asset}")
        code = re.sub(r"/\*.*?\*/", "", text, flags=re.S)  # xterm.css credits two projects in a comment
        assert status == 200 and not re.search(r"https?://|url\(|@import|fonts\.g", code), asset


async def test_the_terminal_draws_with_the_local_font_list_not_roboto_mono(guarded):
    server, base, _ = guarded
    status, script = await _status(f"{base}/static/{server.token}/js/textual.js")
    assert status == 200 and f"fontFamily:{json.dumps(FONT_STACK)}" in script
    assert LIBRARY_FONT not in script and "Roboto" not in script


FAMILIES = [family.strip().strip('"') for family in FONT_STACK.split(",")]


def test_the_font_list_names_the_font_with_chinese_each_system_ships():
    """Checked on any machine: Debian's fonts-noto-cjk, macOS's and Windows' own fonts with Chinese."""
    assert {"Noto Sans Mono CJK SC", "Noto Sans CJK SC", "PingFang SC", "Microsoft YaHei"} <= set(FAMILIES)


@needs_chinese_font
def test_the_font_list_names_an_installed_font_that_has_chinese():
    """Where a font with Chinese is installed, serve's font list names one: else the page draws empty boxes."""
    assert fonts_with_chinese() & set(FAMILIES), (
        f"serve's font list ({FONT_STACK}) names none of this machine's fonts with Chinese "
        f"({', '.join(sorted(fonts_with_chinese()))}), so the browser draws empty boxes"
    )


def test_serve_passes_the_users_agents_on_to_each_tabs_debugger(tmp_path):
    """A trace of the user's agent gets real locals under serve only when serve was told to trust it."""
    import argparse

    from tracer.cli.serve import debugger_command

    trace = tmp_path / "run.jsonl"
    args = argparse.Namespace(trace=str(trace), tutorial=None, lang=None, agents=["my_agent:build", "b.py:go"])
    trace.write_bytes(Path("fixtures/rose_pricing.jsonl").read_bytes())
    command = debugger_command(args)
    assert command[-4:] == ["--agent", "my_agent:build", "--agent", "b.py:go"]
    assert debugger_command(argparse.Namespace(**{**vars(args), "agents": []}))[-1] == str(trace.resolve())


@pytest.mark.parametrize(
    "host",
    ["a; script-src *", "127.0.0.1:1; connect-src *", "evil.example", "localhost:1 ws://evil.example"],
)
async def test_the_pages_policy_is_built_from_the_bound_address_never_the_host_header(guarded, host):
    """The attack: `Host: a; script-src *` was copied into the Content-Security-Policy, adding a directive."""
    server, base, _ = guarded
    port = base.rsplit(":", 1)[1]
    async with (
        aiohttp.ClientSession() as http,
        http.get(f"{base}/?token={server.token}", headers={"Host": host}) as response,
    ):
        page, policy = await response.text(), response.headers["Content-Security-Policy"]
    directives = [part.strip().split(" ", 1) for part in policy.split(";")]
    assert [name for name, _ in directives].count("script-src") == 1
    assert dict(directives)["script-src"] == "'self'"
    assert dict(directives)["connect-src"] == f"'self' ws://127.0.0.1:{port}"
    assert "evil" not in policy and "evil" not in page and f"ws://127.0.0.1:{port}/ws/{server.token}" in page


def test_bound_to_every_address_a_plain_host_name_on_this_port_is_the_pages_only():
    server = GuardedServer("true", host="0.0.0.0", port=8000, title="t")
    assert server.page_host(make_mocked_request("GET", "/", headers={"Host": "192.168.1.5:8000"})) == "192.168.1.5:8000"
    assert server.page_host(make_mocked_request("GET", "/", headers={"Host": "[fe80::1]:8000"})) == "[fe80::1]:8000"
    for hostile in ("a; script-src *:8000", "lan:9000", "a b:8000", "x'y:8000"):
        assert server.page_host(make_mocked_request("GET", "/", headers={"Host": hostile})) == "0.0.0.0:8000", hostile


async def test_the_console_log_names_each_path_without_the_token(guarded, caplog):
    server, base, _ = guarded
    server.initialize_logging()
    with caplog.at_level(logging.INFO, logger="aiohttp.access"):
        assert (await _status(f"{base}/?token={server.token}"))[0] == 200
        await _status(f"{base}/static/{server.token}/js/textual.js")
    lines = [record.getMessage() for record in caplog.records if record.name == "aiohttp.access"]
    assert len(lines) == 2, lines
    assert not any(server.token in line for line in lines)
    assert "GET /?token=<token> " in lines[0] and "/static/<token>/js/textual.js" in lines[1]

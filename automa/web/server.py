"""HTTP plumbing for the board, on the standard library's ThreadingHTTPServer: nothing to
install, nothing added to the CLI's start-up (it is imported only by `automa serve`), and a
board at a table serves a handful of clients on one machine's network.

Every answer is JSON except the page and its files; a refused request gets its 4xx and one
line, never a traceback. No CORS: a POST must be JSON (a cross-site form cannot send it) and
come from the page's own origin, and the Host must be an address or this machine's name (a DNS
rebinding page cannot reach the board)."""

from __future__ import annotations

import contextlib
import ipaddress
import json
import re
import socket
import sys
import traceback
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from automa.safe_text import one_line
from automa.web import api, campaign, photo
from automa.web import forecast as board_forecast
from automa.web.api import ApiError, Board, call

STATIC = Path(__file__).parent / "static"
ACCESS_PATH = "/api/access"  # {"write": bool}: may this client change the battle?
READ_ONLY = ("this board is read-only from another machine; start `automa serve` with "
             "--remote-control to let other devices on the network drive the battle")
MAX_BODY = 64 * 1024
MAX_FIELDS = 60  # fields in a GET's query string
DRAIN_LIMIT = 1024 * 1024  # a body over the limit is read and dropped up to this, then cut off
STATIC_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*(\.[A-Za-z0-9]+)+")
CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8", ".svg": "image/svg+xml", ".png": "image/png",
    ".json": "application/json; charset=utf-8", ".ico": "image/x-icon",
    ".txt": "text/plain; charset=utf-8", ".woff2": "font/woff2",
}
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self'; "
                               "script-src 'self'",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


def json_bytes(payload: Any) -> bytes:
    return json.dumps(payload, ensure_ascii=False, allow_nan=False).encode("utf-8")


class BoardHandler(BaseHTTPRequestHandler):
    """One request. `board` and `names` (the Host names accepted besides addresses) are set on
    a subclass per server."""

    board: Board
    names: frozenset[str] = frozenset({"localhost"})
    remote_control: bool = False  # may another machine write (`automa serve --remote-control`)?
    server_version = "automa-board"
    sys_version = ""
    error_content_type = "application/json; charset=utf-8"
    timeout = 60  # seconds a client may take to send its request (a stalled one frees its thread)

    # -- answering ------------------------------------------------------------------------------

    def _send(self, status: int, body: bytes, content_type: str,
              extra: dict[str, str] | None = None) -> None:
        self.send_response(status)
        for name, value in {**SECURITY_HEADERS, **(extra or {})}.items():
            self.send_header(name, value)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _json(self, status: int, payload: Any, extra: dict[str, str] | None = None) -> None:
        self._send(status, json_bytes(payload), "application/json; charset=utf-8", extra)

    def _error(self, status: int, message: str, extra: dict[str, str] | None = None) -> None:
        self._json(status, {"error": one_line(message)}, extra)

    def send_error(self, code: int, message: str | None = None,
                   explain: str | None = None) -> None:
        """The library's own refusals (a bad request line, an unknown method) as JSON too."""
        if code == 501:  # a method the board has no handler for
            code, message = 405, f"method {self.command} not allowed"
        self.close_connection = True
        with contextlib.suppress(OSError):
            self._error(code, message or self.responses.get(code, ("error",))[0])

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        """Only refusals are worth a line on the terminal (the page polls twice a second)."""
        if isinstance(code, int) and code >= 400:
            self.log_message("%s %s -> %s", self.command, one_line(self.path[:200]), code)

    def log_message(self, format: str, *args: Any) -> None:
        sys.stderr.write(f"automa serve: {format % args}\n")

    # -- methods --------------------------------------------------------------------------------

    def do_GET(self) -> None:
        self._route("GET")

    def do_HEAD(self) -> None:
        self._route("HEAD")

    def do_POST(self) -> None:
        self._route("POST")

    def _refuse_method(self) -> None:
        self._error(405, f"method {self.command} not allowed")

    do_PUT = do_DELETE = do_PATCH = do_OPTIONS = do_TRACE = do_CONNECT = _refuse_method

    # -- routing --------------------------------------------------------------------------------

    def _route(self, method: str) -> None:
        try:
            self._answer(method)
        except ApiError as error:
            self._error(error.status, str(error))
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True
        except Exception as error:  # a bug, not a bad request: one line, the trace on stderr
            traceback.print_exc(file=sys.stderr)
            self._error(500, f"internal error: {type(error).__name__}: {error}")

    def _answer(self, method: str) -> None:
        if not self._host_allowed():
            raise ApiError(403, "unexpected Host header; open the board by its address")
        path = urlsplit(self.path).path
        if path in ("/", "/index.html") or path.startswith("/static/"):
            if method not in ("GET", "HEAD"):
                self._error(405, f"method {method} not allowed on {path}", {"Allow": "GET"})
                return
            self._static("index.html" if path in ("/", "/index.html")
                         else path[len("/static/"):])
            return
        if path == ACCESS_PATH and method in ("GET", "HEAD"):
            self._refuse_other_pages()
            self._json(200, {"write": self._may_write()})
            return
        routes = endpoints()
        route = routes.get(path)
        if route is None:
            raise ApiError(404, f"no such page or endpoint: {path[:100]}")
        wanted, _ = route
        if method != wanted and not (method == "HEAD" and wanted == "GET"):
            self._error(405, f"{path} takes {wanted}, not {method}", {"Allow": wanted})
            return
        if wanted == "POST" and not self._may_write():
            raise ApiError(403, READ_ONLY)
        body = self._body(BODY_LIMITS.get(path, MAX_BODY), path in photo.IMAGE_BODIES) \
            if wanted == "POST" else _query(self.path)
        self._refuse_other_pages()
        status, payload = call(self.board, path, body, routes)
        if isinstance(payload, campaign.Download):  # a file to save, not JSON
            self._send(status, payload.data, "application/json; charset=utf-8",
                       {"Content-Disposition": f'attachment; filename="{payload.name}"'})
            return
        self._json(status, payload)

    def _may_write(self) -> bool:
        return may_write(str(self.client_address[0]), self.remote_control)

    def _host_allowed(self) -> bool:
        host = (self.headers.get("Host") or "").strip().lower()
        if not host:
            return True  # HTTP/1.0 without a Host: not a browser
        name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
        name = name.strip("[]")
        if name in self.names:
            return True
        try:
            ipaddress.ip_address(name)
        except ValueError:
            return False
        return True

    def _static(self, raw: str) -> None:
        name = unquote(raw)
        if not STATIC_NAME.fullmatch(name):
            raise ApiError(404, f"no such file: {raw[:100]}")
        path = STATIC / name
        if not path.is_file() or path.resolve().parent != STATIC.resolve():
            raise ApiError(404, f"no such file: {name}")
        kind = CONTENT_TYPES.get(path.suffix.lower(), "application/octet-stream")
        self._send(200, path.read_bytes(), kind)

    def _body(self, limit: int = MAX_BODY, image: bool = False) -> Any:
        """The POST's JSON body: checked for size, type and syntax before anything reads it.
        `image`: the body is a photo's bytes (the Photo button), checked for size and type."""
        length_text = self.headers.get("Content-Length")
        if self.headers.get("Transfer-Encoding"):
            self.close_connection = True
            raise ApiError(400, "send the body with a Content-Length, not chunked")
        try:
            length = int(length_text) if length_text is not None else 0
        except ValueError:
            length = -1
        if length < 0:
            self.close_connection = True
            raise ApiError(400, "a bad Content-Length")
        if length > limit:
            self._drain(length)
            raise ApiError(413, f"the body is over {_size(limit)}")
        data = self.rfile.read(length) if length else b""
        self._refuse_other_pages()
        kind = (self.headers.get("Content-Type") or "").split(";")[0].strip().lower()
        if image:
            if not kind.startswith("image/"):
                raise ApiError(415, "send the photo itself as the body (Content-Type: "
                                    "image/jpeg or image/png)")
            return photo.ImageBody(data, kind)
        if kind != "application/json":
            raise ApiError(415, "send the body as JSON (Content-Type: application/json)")
        if not data.strip():
            return None
        try:
            return json.loads(data.decode("utf-8"), parse_constant=_no_constant)
        except (UnicodeDecodeError, ValueError, RecursionError) as error:
            raise ApiError(400, f"the body is not JSON ({error})") from None

    def _drain(self, length: int) -> None:
        """Read an oversized body (up to a limit) so the client sees the 413, then close."""
        self.close_connection = True
        left = min(length, DRAIN_LIMIT)
        while left > 0:
            chunk = self.rfile.read(min(left, 65536))
            if not chunk:
                break
            left -= len(chunk)

    def _refuse_other_pages(self) -> None:
        """Every endpoint answers the board's own page only: a browser says which site a
        request comes from (`Sec-Fetch-Site`, and `Origin` on a POST or a script's fetch); a
        request without them is not from a page (curl, the tests) and is answered."""
        site = (self.headers.get("Sec-Fetch-Site") or "").strip().lower()
        origin = self.headers.get("Origin")
        host = (self.headers.get("Host") or "").strip().lower()
        if site in ("cross-site", "same-site") or (
                origin is not None and urlsplit(origin).netloc.lower() != host):
            raise ApiError(403, "a request from another site's page is refused")


def endpoints() -> dict[str, tuple[str, Callable[[Board, object], api.Result]]]:
    """Every API path: a battle's (web/api.py), a campaign's with export, import and the
    open question (web/campaign.py), the Photo button's (web/photo.py) and the forecast
    (web/forecast.py)."""
    return {**api.ENDPOINTS, **campaign.ENDPOINTS, **photo.ENDPOINTS, **board_forecast.ENDPOINTS}


BODY_LIMITS = {**campaign.BODY_LIMITS, **photo.BODY_LIMITS}  # bytes, where not MAX_BODY


def _size(limit: int) -> str:
    """A body limit in words: 64 KB, 40 MB."""
    return f"{limit // (1024 * 1024)} MB" if limit >= 1024 * 1024 else f"{limit // 1024} KB"


def _query(target: str) -> dict[str, list[str]]:
    """A GET's query string, each field's values in order (`by=a&by=b`)."""
    try:
        return parse_qs(urlsplit(target).query, keep_blank_values=True, max_num_fields=MAX_FIELDS)
    except ValueError:
        raise ApiError(400, f"more than {MAX_FIELDS} fields in the query") from None


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


class BoardServer(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True


class BoardServer6(BoardServer):
    address_family = socket.AF_INET6


def may_write(client: str, remote_control: bool) -> bool:
    """Only this machine drives the battle, unless the board was started with
    --remote-control: a phone on the network watches."""
    return remote_control or is_loopback(client.removeprefix("::ffff:"))


def make_server(board: Board, host: str = "127.0.0.1", port: int = 0,
                remote_control: bool = False) -> BoardServer:
    """A server for the board, bound (port 0: any free port) but not yet serving."""
    names = {"localhost", socket.gethostname().lower(), f"{socket.gethostname().lower()}.local",
             host.lower()}
    handler = type("Handler", (BoardHandler,), {"board": board, "names": frozenset(names),
                                                "remote_control": remote_control})
    server_class = BoardServer6 if ":" in host else BoardServer
    return server_class((host, port), handler)


def is_loopback(host: str) -> bool:
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def url_of(server: BoardServer, host: str) -> str:
    port = server.server_address[1]
    shown = "127.0.0.1" if host in ("0.0.0.0", "") else ("[::1]" if host == "::" else host)
    if ":" in shown and not shown.startswith("["):
        shown = f"[{shown}]"
    return f"http://{shown}:{port}/"

"""The review web page's server: Python's own ``http.server``, bound to 127.0.0.1.

Why the standard library: the page needs a dozen small JSON and image routes for one local user, which
``ThreadingHTTPServer`` serves without adding a dependency. What it serves is closed: the page's own
three static files, and photos only by their name in the review's photo list (never a path joined
from the request), so nothing outside the folder it was given can be reached. Requests must name this
server as their Host (no DNS rebinding) and changes must be JSON POSTs (no cross-site form posts).
"""

from __future__ import annotations

import contextlib
import json
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from typing import Any
from urllib.parse import parse_qs, urlsplit

from golfscan.review.session import ReviewError, ReviewSession

HOST = "127.0.0.1"
STATIC = {"/": ("index.html", "text/html; charset=utf-8"), "/app.js": ("app.js", "text/javascript; charset=utf-8"),
          "/style.css": ("style.css", "text/css; charset=utf-8")}
MAX_BODY = 1 << 20


class ReviewServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, session: ReviewSession, port: int = 0):
        self.session = session
        super().__init__((HOST, port), Handler)

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.server_address[1]}/"


class Handler(BaseHTTPRequestHandler):
    server: ReviewServer
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
        """Quiet: the terminal shows the URL and errors, not every request."""

    # ------------------------------------------------------------------------------------------ routes

    def do_GET(self) -> None:
        if not self._host_ok():
            return
        url = urlsplit(self.path)
        query = {k: v[0] for k, v in parse_qs(url.query).items()}
        session = self.server.session
        if url.path in STATIC:
            name, kind = STATIC[url.path]
            self._send(HTTPStatus.OK, resources.files(__package__).joinpath("static", name).read_bytes(), kind)
            return
        routes = {
            "/api/photos": lambda: self._json({"root": session.root.name, "folder": session.folder,
                                               "photos": session.photos(),
                                               "problems": [p.__dict__ for p in session.problems]}),
            "/api/photo": lambda: self._json(session.state(query.get("photo", ""))),
            "/api/choices": lambda: self._json(session.choices(query.get("photo", ""), query.get("where", ""))),
            "/api/image": lambda: self._send(HTTPStatus.OK, session.image_jpeg(query.get("photo", "")), "image/jpeg"),
            "/api/overlay": lambda: self._send(HTTPStatus.OK, session.overlay_png(query.get("photo", "")), "image/png"),
            "/api/crop": lambda: self._send(HTTPStatus.OK, session.crop_png(query.get("photo", ""),
                                                                            query.get("where", "")), "image/png"),
        }
        self._route(routes.get(url.path))

    def do_POST(self) -> None:
        if not self._host_ok():
            return
        if self.headers.get("Content-Type", "").split(";")[0].strip() != "application/json":
            self._error(HTTPStatus.UNSUPPORTED_MEDIA_TYPE, "changes are JSON requests")
            return
        length = int(self.headers.get("Content-Length") or 0)
        if length > MAX_BODY:
            self._error(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, "request too large")
            return
        try:
            body = json.loads(self.rfile.read(length) or b"{}")
        except json.JSONDecodeError:
            body = None
        if not isinstance(body, dict):
            self._error(HTTPStatus.BAD_REQUEST, "expected a JSON object")
            return
        session = self.server.session
        photo, where = str(body.get("photo", "")), str(body.get("where", ""))
        routes = {
            "/api/correct": lambda: self._json(session.correct(photo, where, body.get("value"))),
            "/api/uncorrect": lambda: self._json(session.uncorrect(photo, where)),
            "/api/rescore-folder": lambda: self._json(session.rescore_folder()),
        }
        self._route(routes.get(urlsplit(self.path).path))

    # ------------------------------------------------------------------------------------------ helpers

    def _route(self, action) -> None:
        if action is None:
            self._error(HTTPStatus.NOT_FOUND, "not found")
            return
        try:
            action()
        except ReviewError as err:
            self._error(HTTPStatus.NOT_FOUND, str(err))
        except Exception as err:  # noqa: BLE001 - a scanner bug on one photo: say so on the page, keep serving
            self._error(HTTPStatus.INTERNAL_SERVER_ERROR, " ".join(f"{type(err).__name__}: {err}".split()))

    def _host_ok(self) -> bool:
        port = self.server.server_address[1]
        if self.headers.get("Host") in {f"{HOST}:{port}", f"localhost:{port}"}:
            return True
        self._error(HTTPStatus.FORBIDDEN, "unexpected Host header")
        return False

    def _json(self, data: Any) -> None:
        self._send(HTTPStatus.OK, json.dumps(data).encode(), "application/json")

    def _error(self, status: HTTPStatus, message: str) -> None:
        self._send(status, json.dumps({"error": message}).encode(), "application/json")

    def _send(self, status: HTTPStatus, body: bytes, kind: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.end_headers()
        self.wfile.write(body)


def serve(session: ReviewSession, port: int = 0, ready=None) -> None:
    """Serve until Ctrl-C. ``ready(url)`` is called once the server listens."""
    with ReviewServer(session, port) as server:
        if ready:
            ready(server.url)
        with contextlib.suppress(KeyboardInterrupt):  # Ctrl-C is how a person stops it
            server.serve_forever(poll_interval=0.2)

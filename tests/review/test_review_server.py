"""The review server: local only, closed to files outside the folder, JSON changes, Ctrl-C stops it."""

from __future__ import annotations

import http.client
import json
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from golfscan.review.server import ReviewServer
from golfscan.review.session import ReviewSession

RUN_CLI = Path(__file__).parents[1] / "batch" / "run_cli.py"
REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def server(club_night):
    srv = ReviewServer(ReviewSession(club_night))
    thread = threading.Thread(target=srv.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    yield srv
    srv.shutdown()
    srv.server_close()


def request(srv, method: str, path: str, body=None, headers=None):
    conn = http.client.HTTPConnection(*srv.server_address, timeout=10)
    data = json.dumps(body).encode() if body is not None else None
    conn.request(method, path, data, {"Content-Type": "application/json", **(headers or {})})
    response = conn.getresponse()
    payload = response.read()
    conn.close()
    return response.status, payload


def test_binds_to_loopback_only(server):
    assert server.server_address[0] == "127.0.0.1"


def test_page_and_api(server):
    status, page = request(server, "GET", "/")
    assert status == 200 and b"golfscan review" in page
    status, body = request(server, "GET", "/api/photos")
    assert status == 200
    assert {p["photo"] for p in json.loads(body)["photos"]} == {
        "loose/broken.jpg", "loose/solo.png", "table1/ada.png", "table1/bo.png"}
    status, body = request(server, "POST", "/api/correct",
                           {"photo": "table1/bo.png", "where": "cells[0][1]", "value": {"k": "water"}})
    assert status == 200 and json.loads(body)["result"]["scores"][0]["total"] == 1
    status, image = request(server, "GET", "/api/image?photo=table1/bo.png")
    assert status == 200 and image.startswith(b"\xff\xd8")


@pytest.mark.parametrize("path", [
    "/api/image?photo=../outside.png",
    "/api/image?photo=%2e%2e%2foutside.png",
    "/api/image?photo=/etc/passwd",
    "/api/overlay?photo=table1/setup.json",
    "/../outside.png",
    "/static/../../outside.png",
    "/app.js/../../outside.png",
    "/outside.png",
])
def test_nothing_outside_the_folder_is_served(server, club_night, painted, path):
    painted.paint(club_night.parent / "outside.png", ["GFG", "EEE"])
    status, body = request(server, "GET", path)
    assert status == 404
    assert not body.startswith(b"\x89PNG") and not body.startswith(b"\xff\xd8")


def test_rescore_folder_updates_the_standings(server, club_night):
    request(server, "POST", "/api/correct", {"photo": "table1/bo.png", "where": "cells[0][1]", "value": {"k": "water"}})
    status, body = request(server, "POST", "/api/rescore-folder", {})
    assert status == 200
    (game,) = json.loads(body)["games"]
    assert {s["player"]: s["rank"] for s in game["result"]["standings"]} == {"Ada": 1, "Bo": 2}
    assert "Game in table1" in json.loads(body)["summary"]
    assert (club_night / "golfscan-results" / "results.csv").is_file()


def test_foreign_host_and_form_posts_are_refused(server):
    assert request(server, "GET", "/api/photos", headers={"Host": "evil.example:80"})[0] == 403
    conn = http.client.HTTPConnection(*server.server_address, timeout=10)
    conn.request("POST", "/api/correct", b"photo=table1/bo.png", {"Content-Type": "application/x-www-form-urlencoded"})
    assert conn.getresponse().status == 415


def test_ctrl_c_stops_the_server_cleanly(club_night):
    proc = subprocess.Popen([sys.executable, str(RUN_CLI), "review", str(club_night), "--no-open"],
                            env={**os.environ, "PYTHONPATH": str(REPO)}, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            # as from a terminal: a run started in the background inherits Ctrl-C ignored
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        line = proc.stdout.readline()
        assert line.startswith("Review at http://127.0.0.1:"), line + proc.stderr.read()
        port = int(line.split(":")[2].split("/")[0])
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        conn.request("GET", "/api/photos")
        assert conn.getresponse().status == 200
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=10)
    finally:
        proc.kill()
    assert proc.returncode == 0 and "stopped" in out and "Traceback" not in err

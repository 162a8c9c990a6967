"""The review page in a real headless Chromium: open a flagged photo, correct a cell, see the score
change, reload and see it kept. Uses the system's Chromium (``make setup`` installs it); never
downloads a browser."""

from __future__ import annotations

import shutil
import threading

import pytest
from playwright import sync_api

from golfscan.review.server import ReviewServer
from golfscan.review.session import ReviewSession

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture
def page(club_night, tmp_path):
    if not shutil.which(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: make setup installs Debian's chromium")
    server = ReviewServer(ReviewSession(club_night))
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    with sync_api.sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(tmp_path / "profile"), executable_path=CHROMIUM, headless=True, args=ARGS)
        tab = context.new_page()
        tab.set_default_timeout(15_000)
        tab.goto(server.url)
        yield tab
        context.close()
    server.shutdown()
    server.server_close()


def test_correct_a_cell_in_the_browser_and_reload(page, club_night):
    page.click("nav button[data-photo='table1/bo.png']")
    total = page.locator("table[data-player='Bo'] [data-test=total]")
    assert total.inner_text() == "3"
    flagged = page.locator("#outlines polygon.flagged")
    assert flagged.count() == 1
    first_read = page.locator("#read-list li").first
    assert first_read.get_attribute("data-where") == "cells[0][1]"  # least sure first
    # the outlines are laid over the photo: click once the photo has its size, as a person would
    page.wait_for_function("(img => img.complete && img.naturalWidth > 0)(document.getElementById('photo'))")
    flagged.click(force=True)
    page.wait_for_selector("#picker:not([hidden]) #choices button[data-label='water']")
    page.click("#choices button[data-label='water']")
    page.wait_for_function("document.querySelector(\"table[data-player='Bo'] [data-test=total]\").textContent === '1'")
    assert page.locator("#outlines polygon.corrected").count() == 1
    page.reload()
    page.wait_for_selector("table[data-player='Bo']")  # the photo comes back from the address
    assert page.locator("table[data-player='Bo'] [data-test=total]").inner_text() == "1"
    assert page.locator("#read-list li.corrected").get_attribute("data-where") == "cells[0][1]"
    assert (club_night / "table1" / "bo.png.golfscan.json").is_file()

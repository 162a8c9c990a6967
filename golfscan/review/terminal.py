"""Review without a browser: the doubtful reads one by one, each with its close-up and a prompt.

The close-up is saved as a PNG and its path printed; terminals that show images (iTerm2 and WezTerm's
inline images, kitty's graphics) also get it inline. Answers: Enter accepts the read (it is recorded,
so it is not asked again), a number picks a choice, ``?`` lists every choice, text filters them,
JSON (``{...}``, ``"..."``, ``[...]``) is taken as the value, ``s`` skips, ``q`` stops.
"""

from __future__ import annotations

import base64
import json
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from golfscan.review.session import ReviewError, ReviewSession

SHOWN_FIRST = 9
KITTY_CHUNK = 4096


def inline_image(png: bytes, env: dict[str, str] | None = None) -> str:
    """The escape sequence that shows ``png`` in this terminal, or "" when it cannot.

    >>> inline_image(b"x", {"TERM_PROGRAM": "iTerm.app"}).startswith("\\x1b]1337;File=")
    True
    >>> inline_image(b"x", {"TERM": "xterm-256color"})
    ''
    """
    env = os.environ if env is None else env
    data = base64.b64encode(png).decode()
    if env.get("TERM_PROGRAM") in {"iTerm.app", "WezTerm"}:
        return f"\x1b]1337;File=inline=1;size={len(png)};height=6:{data}\a\n"
    if env.get("TERM") == "xterm-kitty" or env.get("KITTY_WINDOW_ID"):
        chunks = [data[i:i + KITTY_CHUNK] for i in range(0, len(data), KITTY_CHUNK)]
        parts = [f"\x1b_G{'a=T,f=100,' if i == 0 else ''}m={int(i < len(chunks) - 1)};{chunk}\x1b\\"
                 for i, chunk in enumerate(chunks)]
        return "".join(parts) + "\n"
    return ""


def _totals(state: dict[str, Any]) -> str:
    if not state["result"]:
        return f"not scored: {state['error']}"
    return ", ".join(f"{s['player']} {s['total']}" for s in state["result"]["scores"])


def review_in_terminal(
    session: ReviewSession,
    ask: Callable[[str], str],
    say: Callable[[str], None],
    crops: Path | None = None,
    show_inline: bool | None = None,
) -> int:
    """Walk the doubtful reads of every photo; returns how many reads were changed or confirmed.

    Close-ups go to ``crops``; without it, to a temporary folder removed when the review ends.
    """
    if crops is None:
        with tempfile.TemporaryDirectory(prefix="golfscan-review-") as scratch:
            return review_in_terminal(session, ask, say, Path(scratch), show_inline)
    show_inline = sys.stdout.isatty() if show_inline is None else show_inline
    done = 0
    for entry in session.photos():
        rel = entry["photo"]
        try:
            state = session.state(rel)
        except ReviewError as err:
            say(f"! {err}")
            continue
        doubtful = [r for r in state["reads"] if r["flagged"]]
        if not doubtful:
            continue
        say(f"\n{rel} ({state['title']}): {_totals(state)}; {len(doubtful)} read(s) to check")
        for read in doubtful:
            answer = _ask_one(session, rel, read, ask, say, crops, show_inline)
            if answer == "quit":
                return done
            if answer is not None:
                done += 1
                say(f"  -> {_totals(session.state(rel))}")
    say(f"\n{done} read(s) corrected or confirmed." if done else "\nNo read to check.")
    if done and session.folder:
        say(f"Update the folder's results and standings with: golfscan batch {session.root}")
    return done


def _ask_one(session: ReviewSession, rel: str, read: dict[str, Any], ask, say, crops: Path,
             show_inline: bool) -> Any:
    """One read: show it, ask, record the answer. Returns the value recorded, None (skipped) or "quit"."""
    where = read["where"]
    note = f" - {read['note']}" if read["note"] else ""
    say(f"\n  {where}: read as {read['label']} (confidence {read['confidence']:.2f}){note}")
    if read["polygon"]:
        png = session.crop_png(rel, where)
        path = crops / f"{rel.replace('/', '_')}-{where}.png"
        path.write_bytes(png)
        say(f"  close-up: {path}")
        if show_inline and (escape := inline_image(png)):
            say(escape)
    options = session.choices(rel, where)
    _list(say, options, options[:SHOWN_FIRST])
    if len(options) > SHOWN_FIRST:
        say(f"     ... {len(options)} choices: ? lists them all, or type part of a name")
    while True:
        answer = ask("  Enter accepts, number picks, s skips, q quits").strip()
        if answer == "q":
            return "quit"
        if answer == "s":
            return None
        if answer == "?":
            _list(say, options)
            continue
        value, problem = _value(answer, read, options)
        if problem:
            say(f"  {problem}")
            if isinstance(value, list):
                _list(say, options, value)
            continue
        try:
            session.correct(rel, where, value)
        except ReviewError as err:
            say(f"  ! {err}")
            continue
        return value


def _value(answer: str, read: dict[str, Any], options: list[dict[str, Any]]) -> tuple[Any, str]:
    """(value, "") for a usable answer, else (matching options or None, why not)."""
    if not answer:
        return read["value"], ""
    if answer.isdigit():
        n = int(answer)
        return (options[n - 1]["value"], "") if 1 <= n <= len(options) else (None, f"no choice {n}")
    if answer[0] in "{[\"":
        try:
            return json.loads(answer), ""
        except json.JSONDecodeError as err:
            return None, f"not JSON: {err.msg}"
    matches = [o for o in options if answer.lower() in o["label"].lower()]
    if len(matches) == 1:
        return matches[0]["value"], ""
    return matches, f"{len(matches)} choices match {answer!r}" + (": pick by number" if matches else "")


def _list(say, options: list[dict[str, Any]], only: list[dict[str, Any]] | None = None) -> None:
    """Number the choices as in the full list, so a number always means the same choice."""
    say("\n".join(f"     {i:>3}. {o['label']}" for i, o in enumerate(options, start=1) if only is None or o in only))

"""Terminal review: doubtful reads one by one, a close-up path, accept or change."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from golfscan import corrections
from golfscan.cli import main
from golfscan.review.session import ReviewSession
from golfscan.review.terminal import review_in_terminal

BO = Path("table1") / "bo.png"


def test_change_a_read_by_name(club_night):
    outcome = CliRunner().invoke(main, ["review", str(club_night), "--terminal"], input="water\n")
    assert outcome.exit_code == 0, outcome.output
    assert "cells[0][1]: read as fairway, edges W-E (confidence 0.56)" in outcome.output
    assert "-> Bo 1" in outcome.output  # rescored: the hole is broken by water
    (fix,) = corrections.load_sidecar(club_night / BO).corrections
    assert (fix.where, fix.value) == ("cells[0][1]", {"k": "water"})


def test_accepting_records_the_read_so_it_is_not_asked_again(club_night):
    runner = CliRunner()
    first = runner.invoke(main, ["review", str(club_night), "--terminal"], input="\n")
    assert "1 read(s) corrected or confirmed" in first.output
    (fix,) = corrections.load_sidecar(club_night / BO).corrections
    assert fix.value == {"k": "fairway", "edges": ["W", "E"]}
    second = runner.invoke(main, ["review", str(club_night), "--terminal"], input="")
    assert "No read to check." in second.output


def test_numbers_follow_the_full_list_and_bad_answers_ask_again(club_night):
    outcome = CliRunner().invoke(main, ["review", str(club_night), "--terminal"], input="999\nfairway\n2\n")
    assert "no choice 999" in outcome.output
    assert "choices match 'fairway': pick by number" in outcome.output
    (fix,) = corrections.load_sidecar(club_night / BO).corrections
    assert fix.value == {"k": "water"}  # choice 2: the scanner's second guess


def test_quit_leaves_everything_as_it_was(club_night):
    outcome = CliRunner().invoke(main, ["review", str(club_night), "--terminal"], input="q\n")
    assert outcome.exit_code == 0
    assert not corrections.sidecar_path(club_night / BO).exists()


def test_the_close_up_is_there_while_asked_and_gone_after(club_night):
    said: list[str] = []
    seen: list[bytes] = []

    def ask(_prompt: str) -> str:
        crop = next(line.split("close-up: ")[1] for line in said if "close-up: " in line)
        seen.append(Path(crop).read_bytes())
        return "s"

    review_in_terminal(ReviewSession(str(club_night), None), ask, said.append, show_inline=False)
    assert seen and seen[0].startswith(b"\x89PNG")
    crop = next(line.split("close-up: ")[1] for line in said if "close-up: " in line)
    assert not Path(crop).parent.exists()

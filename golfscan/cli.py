"""The ``golfscan`` command line."""

from __future__ import annotations

import json
import sys

import click

from golfscan.report import format_result
from rules import registry
from rules import standins as standin_values
from rules.common import BoardError

EXIT_BAD_INPUT = 2


def fail(message: str, code: int = EXIT_BAD_INPUT) -> None:
    """Print one line to stderr and exit: bad input never shows a traceback."""
    click.echo(f"golfscan: {message}", err=True)
    sys.exit(code)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="golfscan")
def main() -> None:
    """Score finished golf-themed tabletop games from a photo or a board file."""


@main.command("score-board")
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.option("--expert", is_flag=True, help="Minigolf Designer: rank clients among the players (expert variant).")
@click.option(
    "--standins",
    type=click.Path(dir_okay=False),
    envvar="GOLFSCAN_STANDINS",
    help="JSON file overriding stand-in values ({game: {key: value}}); see docs/standins.md.",
)
def score_board(files: tuple[str, ...], as_json: bool, expert: bool, standins: str | None) -> None:
    """Score board FILES (JSON). Several files of one game print the standings."""
    try:
        standin_values.set_overrides(standins)
        loaded = [registry.load_board(f) for f in files]
        games = {engine.GAME for engine, _ in loaded}
        if len(games) > 1:
            fail(f"files mix games ({', '.join(sorted(games))}); score one game at a time")
        engine = loaded[0][0]
        result = engine.score([board for _, board in loaded], {"expert": expert})
    except BoardError as err:
        fail(str(err))
    if as_json:
        click.echo(json.dumps(result.to_dict(), indent=2))
    else:
        click.echo(format_result(result, engine.TITLE), nl=False)

"""``rules`` typed during a game at the terminal (``parlour play``, piped input): the game's
"how a turn works" screen, ``rules all`` its full rules, and ``help`` names the command — never
"unknown move 'rules'"."""

from __future__ import annotations

import pytest

from conftest import run_parlour
from parlour import games


def typed_at_the_first_turn(game_id: str, *lines: str) -> str:
    """What a person reads who types ``lines`` at their first turn against ``random`` bots, then quits."""
    game = games.get(game_id)
    players = ",".join(["human"] + ["random"] * (game.players - 1))
    out = run_parlour("play", game_id, "--players", players, "--seed", "4",
                      stdin="\n".join([*lines, "quit"]) + "\n", columns=120)
    assert out.returncode == 0 and "Traceback" not in out.stdout + out.stderr, out.stdout[-2000:] + out.stderr
    return out.stdout


@pytest.mark.parametrize("game_id", games.GAME_IDS)
def test_rules_during_a_game_shows_how_a_turn_works(game_id: str) -> None:
    game = games.get(game_id)
    said = typed_at_the_first_turn(game_id, "rules")
    flat = " ".join(said.split())
    assert "unknown move" not in said
    assert f"{game.name}: how a turn works" in flat
    assert "The round ends" in flat and "Who leads." in flat
    assert "Type rules all for the full rules." in flat
    assert "## Options" not in said and "Options" not in flat, "the turn, not the whole rules"


def test_rules_all_shows_the_full_rules_and_help_names_both() -> None:
    said = typed_at_the_first_turn("minus-twenty", "help", "rules all", "RULES")
    flat = " ".join(said.split())
    assert "unknown move" not in said
    assert "rules shows how a turn works (rules all: the full rules)" in flat
    assert "Options" in flat and "Stall rule." in flat  # the rules page's sections
    assert flat.count("Minus Twenty: how a turn works") == 1  # typed in capitals too


def test_a_word_after_rules_that_is_not_all_is_read_as_a_move() -> None:
    said = typed_at_the_first_turn("twenty", "rules 7h")
    assert "how a turn works" not in said and "'rules'" in said  # the move's error names the verb

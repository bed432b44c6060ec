"""Each game's rules page (``parlour rules GAME``, the web's rules) names every rule option
the game has, and its micro variant's options; each game's "how a turn works" fits one screen;
a plug-in serves its own of both, and a game without them is one clear error (a 404 on the web)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from parlour import games
from parlour.cli import app
from parlour.game import Game, MissingRulesError
from parlour.games.registry import GameEntry


@pytest.mark.parametrize("game_id", games.GAME_IDS)
def test_the_rules_page_names_every_option(game_id: str) -> None:
    game = games.get(game_id)
    text = game.rules()
    missing = [o.name for o in game.options if f"`{o.name}`" not in text]
    assert not missing, f"{game_id}'s rules page does not name {missing}"


@pytest.mark.parametrize("game_id", games.GAME_IDS)
def test_the_rules_page_gives_the_micro_variant(game_id: str) -> None:
    game = games.get(game_id)
    text = " ".join(game.rules().split())
    assert game.micro_options
    for name, value in game.micro_options.items():
        shown = str(value).lower() if isinstance(value, bool) else str(value)
        assert f"{name}={shown}" in text, (game_id, name)


SCREEN_LINES = 40
"""A terminal screen, or the drawer on a phone before the full rules: "how a turn works" fits it."""


@pytest.mark.parametrize("game_id", games.GAME_IDS)
def test_how_a_turn_works_fits_one_screen_and_says_it_all(game_id: str) -> None:
    game = games.get(game_id)
    text = game.turn()
    lines = text.strip().splitlines()
    assert lines[0] == f"# {game.name}: how a turn works"
    assert len(lines) <= SCREEN_LINES and max(map(len, lines)) <= 100, game_id
    flat = " ".join(text.split())
    for said in ("score", "**The round ends**", "**Who leads.**", "Moves: "):
        assert said in flat, (game_id, said)


@pytest.mark.parametrize("game_id", games.GAME_IDS)
def test_designer_options_are_the_studies_not_the_real_game(game_id: str) -> None:
    """The options a newcomer sees are the real game's: the match's length or target and the
    published variants; decks cut down for study, rulings read the other way and safety limits are
    for designers (the new-table form keeps them behind "Options for designers")."""
    game = games.get(game_id)
    real = {o.name for o in game.options if not o.designer}
    assert real == {
        "twenty": {"open_hands", "rounds"},
        "minus-twenty": {"hand_size", "rounds", "target_score", "best_of"},
        "progression": {"rounds", "target_score"},
        "silver-bars": {"target_score"},
    }[game_id]


# -- a game serves its own rules; a game with none is a clear error -------------------------

@pytest.fixture
def plugins(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Ladder (a plug-in with its own rules text) and Pageless (Ladder under another id, with no
    rules text and no page in parlour's tree) registered for one test; Ladder's rules text."""
    import ladder  # registers Ladder (imported here: other tests list the games without it)

    class Pageless(ladder.Ladder):
        id = "pageless"
        name = "Pageless"
        rules = Game.rules
        turn = Game.turn

    monkeypatch.setattr(sys.modules[__name__], "PAGELESS", Pageless(), raising=False)
    ladder.register()
    games.register(GameEntry(id="pageless", game=f"{__name__}:PAGELESS"))
    try:
        yield ladder.RULES
    finally:
        games.REGISTRY.unregister("ladder")
        games.REGISTRY.unregister("pageless")


def test_a_plugin_game_serves_its_own_rules(plugins: str) -> None:
    assert games.get("ladder").rules() == plugins
    result = CliRunner().invoke(app, ["rules", "ladder"])
    assert result.exit_code == 0, result.stderr
    assert "climb" in result.stdout and "stock" in result.stdout


def test_a_game_without_rules_is_one_clear_line(plugins: str) -> None:
    with pytest.raises(MissingRulesError, match="Pageless has no rules page"):
        games.get("pageless").rules()
    with pytest.raises(MissingRulesError, match=r"Pageless has no 'how a turn works' page \(parlour/rules/pageless\."):
        games.get("pageless").turn()
    result = CliRunner().invoke(app, ["rules", "pageless"])
    assert result.exit_code == 2
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: Pageless has no rules page"), result.stderr
    assert result.stdout == ""


def test_the_web_serves_a_plugins_rules_and_says_404_without_them(plugins: str, tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from parlour.web.app import create_app

    client = TestClient(create_app(f"sqlite:///{tmp_path / 'rules.db'}"), raise_server_exceptions=False)
    answer = client.get("/api/games/ladder/rules")
    assert answer.status_code == 200 and answer.json() == {"markdown": plugins}
    answer = client.get("/api/games/pageless/rules")
    assert answer.status_code == 404, answer.text
    error = answer.json()["error"]
    assert error.startswith("Pageless has no rules page") and "\n" not in error
    answer = client.get("/api/games/ladder/turn")
    assert answer.status_code == 200 and answer.json() == {"markdown": ladder_turn()}
    answer = client.get("/api/games/pageless/turn")
    assert answer.status_code == 404, answer.text
    error = answer.json()["error"]
    assert error.startswith("Pageless has no 'how a turn works' page") and "\n" not in error


def ladder_turn() -> str:
    import ladder

    return ladder.TURN

"""Each game's rules page (``parlour rules GAME``, the web's rules) names every rule option
the game has, and its micro variant's options."""

from __future__ import annotations

import pytest

from parlour import games


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

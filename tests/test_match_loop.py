"""One match loop (:func:`parlour.match.play_out`) for ``match.play_bots`` and the lab's arena,
each seeding its bots' RNGs its own way: the records both make are the ones they made before the
loop was shared (sha256 of each record's JSON, first 16 hex digits, taken from the two loops as
they were), so no stored result, benchmark or test golden changes."""

from __future__ import annotations

import hashlib
import random

import pytest

from parlour import bots, games, record
from parlour.game import State
from parlour.lab import arena
from parlour.match import bot_rng, play_bots, play_out

MATCHES = {
    ("minus-twenty", "random", 0): "0d62f5be4e025968",
    ("minus-twenty", "random", 1): "d73f718c5dd66e5d",
    ("minus-twenty", "easy", 0): "e358f2860853661a",
    ("minus-twenty", "easy", 1): "74981e5f6708bcdc",
    ("minus-twenty", "medium", 0): "e9db2db65d18a868",
    ("minus-twenty", "medium", 1): "258ab40aac428f41",
    ("progression", "random", 0): "fa3b9b99a007423f",
    ("progression", "random", 1): "7aed964e04ea890c",
    ("progression", "easy", 0): "4e2eef672d0202ef",
    ("progression", "easy", 1): "b18ef1eeea61c1ad",
    ("progression", "medium", 0): "1da15b7fc347ab16",
    ("progression", "medium", 1): "9fe4538e414eb204",
    ("twenty", "random", 0): "5546a88ea09e2d23",
    ("twenty", "random", 1): "f9c2130fa7bda80c",
    ("twenty", "easy", 0): "215d121b2f73f912",
    ("twenty", "easy", 1): "d96d824f98836d1f",
    ("twenty", "medium", 0): "62e0721166bd3bc6",
    ("twenty", "medium", 1): "ba997ad8654c43ac",
    ("silver-bars", "random", 0): "4b012af7c4415a67",
    ("silver-bars", "random", 1): "5abeae485947c2c5",
    ("silver-bars", "easy", 0): "cf49ddb225caf78a",
    ("silver-bars", "easy", 1): "9a982c23a3338e96",
    ("silver-bars", "medium", 0): "32900990210a2161",
    ("silver-bars", "medium", 1): "6a4f60dbc491c73a",
}
ARENA = {
    ("minus-twenty", (0, 1), 0.0, False): "9ca002b5d1dca90b",
    ("minus-twenty", (0, 1), 0.0, True): "d6646d8b92ed9378",
    ("minus-twenty", (0, 1), 0.1, False): "0614e6e28e25fc40",
    ("minus-twenty", (0, 1), 0.1, True): "522e0cb507a2a846",
    ("minus-twenty", (1, 0), 0.0, False): "37e04d36172dae06",
    ("minus-twenty", (1, 0), 0.0, True): "f3ea25a379b569e3",
    ("minus-twenty", (1, 0), 0.1, False): "cedaf516028418b9",
    ("minus-twenty", (1, 0), 0.1, True): "ca5f426509777ea6",
    ("progression", (0, 1, 2), 0.0, False): "f1317a3fdff6acda",
    ("progression", (0, 1, 2), 0.0, True): "ca0bea8f8cf98c97",
    ("progression", (0, 1, 2), 0.1, False): "d682324c0e390cf2",
    ("progression", (0, 1, 2), 0.1, True): "87f9eaed2982683b",
    ("progression", (1, 2, 0), 0.0, False): "f968f1cd6199d386",
    ("progression", (1, 2, 0), 0.0, True): "a6deb0b44b908aae",
    ("progression", (1, 2, 0), 0.1, False): "6fa7faa6ef48b08b",
    ("progression", (1, 2, 0), 0.1, True): "858c187c43cbfd37",
    ("twenty", (0, 1), 0.0, False): "d5615472ad58eab6",
    ("twenty", (0, 1), 0.0, True): "d946ddfb8488f05e",
    ("twenty", (0, 1), 0.1, False): "ef1711f8e4214a7d",
    ("twenty", (0, 1), 0.1, True): "9c1b939716e5e99a",
    ("twenty", (1, 0), 0.0, False): "099658acd30049a0",
    ("twenty", (1, 0), 0.0, True): "f1dd4d75d17f111e",
    ("twenty", (1, 0), 0.1, False): "5545effe1561981d",
    ("twenty", (1, 0), 0.1, True): "0ccd38a0c96c65eb",
    ("silver-bars", (0, 1), 0.0, False): "39daff48e52c0008",
    ("silver-bars", (0, 1), 0.0, True): "07a010ac7381d0b6",
    ("silver-bars", (0, 1), 0.1, False): "dce19ca97785278d",
    ("silver-bars", (0, 1), 0.1, True): "b8b026f6c4dd4825",
    ("silver-bars", (1, 0), 0.0, False): "0c8c40f87c4e2e35",
    ("silver-bars", (1, 0), 0.0, True): "cae8d1dd1675f2ce",
    ("silver-bars", (1, 0), 0.1, False): "76526c6cb30cdb75",
    ("silver-bars", (1, 0), 0.1, True): "6b6c1df2460eb4ee",
}


def digest(state: State) -> str:
    return hashlib.sha256(record.dumps(state).encode()).hexdigest()[:16]


@pytest.mark.parametrize(("game_id", "bot", "seed"), sorted(MATCHES))
def test_play_bots_makes_the_records_it_made_before(game_id: str, bot: str, seed: int) -> None:
    game = games.get(game_id)
    state = play_bots(game, [bots.make(bot) for _ in range(game.players)], seed=seed)
    assert digest(state) == MATCHES[game_id, bot, seed]


@pytest.mark.parametrize(("game_id", "seating", "noise", "rounds_only"), sorted(ARENA))
def test_the_arena_makes_the_records_it_made_before(game_id: str, seating: tuple[int, ...], noise: float,
                                                    rounds_only: bool) -> None:
    specs = ["easy", "medium", "random"][: games.get(game_id).players]
    state = arena.play_match(game_id, specs, 3, seating, noise=noise, rounds_only=rounds_only)
    assert digest(state) == ARENA[game_id, seating, noise, rounds_only]


def test_the_loop_plays_with_the_rngs_its_caller_seeds() -> None:
    """The same state and bots with the RNGs of ``play_bots`` give its match; with the arena's, another."""
    game = games.get("twenty")
    players = [bots.make("easy"), bots.make("easy")]
    mine = play_out(game.new_match(seed=5), players, [bot_rng(5, seat) for seat in range(2)])
    assert digest(mine) == digest(play_bots(game, players, seed=5))
    theirs = play_out(game.new_match(seed=5), players, [arena.arena_bot_rng(5, (0, 1), seat) for seat in range(2)])
    assert digest(theirs) != digest(mine)
    one = play_out(game.new_match(seed=5), players, [random.Random(1), random.Random(2)], rounds_only=True)
    assert one.round_index == 0 and one.current_player() is None

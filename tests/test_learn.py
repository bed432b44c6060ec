"""Every game's tutorial replayed through the engine: each asked move legal at its step, each
scripted move legal, the round over at the end, and the scoring told as the engine scored it."""

from __future__ import annotations

import json

import pytest

from parlour import games, learn
from parlour.game import Move
from parlour.games.registry import GameEntry

GAME_IDS = [game_id for game_id in games.ids() if games.entry(game_id).tutorial is not None]


def test_every_game_of_parlour_has_a_tutorial() -> None:
    assert sorted(GAME_IDS) == ["minus-twenty", "progression", "silver-bars", "twenty"]


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_tutorial_replays_through_the_engine(game_id: str) -> None:
    tutorial = learn.tutorial(game_id)
    game = games.get(game_id)
    state = game.new_match(options=tutorial.options, first=tutorial.first, names=list(tutorial.names),
                           deal=tutorial.deal)
    asks = 0
    for number, step in enumerate(tutorial.steps):
        if step.kind == learn.SAY:
            assert step.text, f"step {number} says nothing"
            continue
        legal = state.legal_moves()
        moves = [Move.parse(text) for text in step.moves]
        for move in moves:
            assert move in legal, f"step {number}: {move} is not legal ({state.why_illegal(move)})"
        if step.kind == learn.ASK:
            asks += 1
            assert state.current_player() == tutorial.seat, f"step {number} asks when it is not the learner's turn"
            assert step.text or number > 0
        state.apply(moves[0])
    assert asks >= 8
    assert state.is_round_over(), "the steps end before the round does"


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_lesson_walked_to_the_end_tells_the_engines_scoring(game_id: str) -> None:
    lesson = learn.Lesson(learn.tutorial(game_id))
    while not lesson.done:
        step = lesson.step
        assert step is not None
        reply = lesson.answer(learn.NEXT if step.kind == learn.SAY else step.moves[0])
        assert reply.ok, reply.message
    state = lesson.state
    assert state.is_round_over()
    scoring = lesson.scoring()
    assert scoring[0] == "How your round scored:"
    for seat, points in enumerate(state.scores):
        who = "You score" if seat == lesson.seat else f"{state.names[seat]} scores"
        sign = "−" if points < 0 else ""
        assert any(line.startswith(f"{who} {sign}{abs(points)} point") for line in scoring), (seat, scoring)
    mine = [e for e in state.events if e.seat == lesson.seat and e.points]
    assert sum(e.points for e in mine) == state.scores[lesson.seat]
    for event in mine:
        assert "  " + event.describe(state.names, lesson.seat) in scoring
    assert lesson.said[-len(scoring):] == scoring
    assert lesson.answer("next") == learn.Reply(False, "The lesson is over.")


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_move_a_step_accepts_leads_to_the_end(game_id: str) -> None:
    tutorial = learn.tutorial(game_id)
    for number, step in enumerate(tutorial.steps):
        for choice in step.moves[1:] if step.kind == learn.ASK else ():
            lesson = learn.Lesson(tutorial)
            while not lesson.done:
                now = lesson.step
                assert now is not None
                answer = choice if lesson.index == number else learn.NEXT if now.kind == learn.SAY else now.moves[0]
                assert lesson.answer(answer).ok, (number, choice, lesson.index)
            assert lesson.state.is_round_over()


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_wrong_move_is_explained_and_changes_nothing(game_id: str) -> None:
    lesson = learn.Lesson(learn.tutorial(game_id))
    explained = 0
    while not lesson.done:
        step = lesson.step
        assert step is not None
        if step.kind == learn.ASK:
            before = lesson.state.snapshot()
            wanted = lesson.asked()
            other = next((m for m in lesson.state.legal_moves() if m not in wanted), None)
            if other is not None:
                reply = lesson.answer(str(other))
                assert not reply.ok
                assert not reply.message[0].islower() and "This lesson asks you to" in reply.message
                if step.wrong:
                    assert reply.message.startswith(step.wrong[0].upper() + step.wrong[1:])
                explained += 1
            reply = lesson.answer("bogus")
            assert not reply.ok and "This lesson asks you to" in reply.message
            assert lesson.state.snapshot() == before
        reply = lesson.answer(learn.NEXT if step.kind == learn.SAY else step.moves[0])
        assert reply.ok
    assert explained >= 5


def test_an_illegal_move_is_explained_in_the_words_of_the_rule() -> None:
    lesson = learn.Lesson(learn.tutorial("minus-twenty"))
    while lesson.step is not None and lesson.step.moves != ("play 6C",):
        step = lesson.step
        lesson.answer(learn.NEXT if step.kind == learn.SAY else step.moves[0])
    reply = lesson.answer("play 3C")
    assert not reply.ok
    reason = lesson.state.why_illegal(Move.parse("play 3C"))
    assert reason is not None and reason in reply.message
    assert reply.message.endswith(f"This lesson asks you to {lesson.wanted_text(lesson.asked())}.")
    assert "6♣" in lesson.wanted_text(lesson.asked())


def test_a_say_step_waits_for_next() -> None:
    lesson = learn.Lesson(learn.tutorial("twenty"))
    assert lesson.step is not None and lesson.step.kind == learn.SAY
    assert not lesson.answer("play KH").ok
    assert lesson.index == 0
    assert lesson.answer("").ok and lesson.index == 1


def test_a_tutorial_is_read_with_reasons() -> None:
    game = games.get("twenty")
    data = json.loads(games.entry("twenty").load_tutorial())
    with pytest.raises(learn.TutorialError, match="lacks 'steps'"):
        learn.parse_tutorial({k: v for k, v in data.items() if k != "steps"}, game)
    with pytest.raises(learn.TutorialError, match="says, asks or scripts"):
        learn.parse_tutorial({**data, "steps": [{"shout": "hello"}]}, game)
    with pytest.raises(learn.TutorialError, match="needs 2 names"):
        learn.parse_tutorial({**data, "names": ["You"]}, game)


def test_a_game_without_a_tutorial_says_so() -> None:
    entry = GameEntry(id="nothing", game="parlour.games.twenty:GAME")
    with pytest.raises(ValueError, match="has no tutorial"):
        entry.load_tutorial()
    assert learn.has_tutorial("twenty")

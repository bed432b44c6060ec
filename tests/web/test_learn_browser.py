"""Each game's guided first match in a real browser (Debian's chromium, Playwright): opened from
the home page's "Learn to play", walked to its end by clicking (a card of the hand, then its move
button; a move button that needs no card; "Next"), with a wrong move explained on the way and one
move typed; screenshots of a lesson step at 1280 and 390 px."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from parlour import games, learn
from parlour.game import Move

from .conftest import ServerProcess
from .test_browser import LAPTOP, PHONE, new_page, no_errors, person, shoot

pytestmark = [pytest.mark.slow, pytest.mark.browser]

GAME_IDS = [game_id for game_id in games.ids() if games.entry(game_id).tutorial is not None]
SHOT_AT = {"twenty": 8, "minus-twenty": 11, "progression": 15, "silver-bars": 9}
"""The step shot for each game's screenshots: one that asks for a move, well into the lesson."""



def lesson_of(page: Page) -> dict[str, Any]:
    """The server's last answer, as the page holds it."""
    found: dict[str, Any] = page.evaluate("() => window.parlour.page")
    return found


def answered(page: Page, count: int) -> None:
    """Wait until the page has ``count`` answers accepted and its request is back."""
    page.wait_for_function(f"() => window.parlour.answers.length === {count} && !window.parlour.busy")


def click_move(page: Page, move: str) -> None:
    """Make ``move`` as a person does: its card in the hand, then its button; or its button alone."""
    parsed = Move.parse(move)
    if parsed.args and str(parsed.args[0]) in page.eval_on_selector_all(
            ".my-hand [data-card]", "els => els.map(e => e.dataset.card)"):
        page.locator(f".my-hand [data-card='{parsed.args[0]}']").first.click()
    page.locator(f"#actions button[data-move='{move}']").first.click()


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_lesson_is_completed_by_clicking(server: ServerProcess, browser: Browser, game_id: str) -> None:
    tutorial = learn.tutorial(game_id)
    ctx = person(browser, LAPTOP)
    page = new_page(ctx)
    page.goto(server.url + "/")
    link = page.locator(f".game-card[data-game='{game_id}'] a.learn-link")
    link.wait_for()
    assert page.locator("a.learn-link").count() == len(GAME_IDS)
    link.click()
    page.wait_for_url(f"**/learn/{game_id}")
    page.locator("#coach").wait_for()
    count, wrong_shown, typed, shot = 0, False, False, False
    while True:
        lesson = lesson_of(page)
        if lesson["done"]:
            break
        step = tutorial.steps[lesson["step"]["index"]]
        assert lesson["step"]["text"] == step.text
        if step.kind == learn.SAY:
            page.locator("#lesson-next").click()
        else:
            assert lesson["layout"]["moves"], "an asked move with nothing to click"
            if lesson["step"]["index"] == SHOT_AT[game_id]:
                shoot(page, f"learn-{game_id}-laptop")
                page.set_viewport_size(PHONE)
                shoot(page, f"learn-{game_id}-phone")
                page.set_viewport_size(LAPTOP)
                shot = True
            offered = [m["move"] for m in lesson["layout"]["moves"]]
            other = next((m for m in offered if m not in step.moves), None)
            if not wrong_shown and other is not None:
                click_move(page, other)  # a wrong move: explained, and nothing changes
                message = page.locator("#lesson-message")
                message.wait_for()
                assert "This lesson asks you to" in message.inner_text()
                answered(page, count)
                wrong_shown = True
            if not typed and step.kind == learn.ASK:
                page.locator("#lesson-move").fill(step.moves[0].lower())
                page.locator("#lesson-send").click()
                typed = True
            else:
                click_move(page, step.moves[0])
        count += 1
        answered(page, count)
    assert wrong_shown and typed and shot
    lesson = lesson_of(page)
    state = learn.Lesson(tutorial)
    for text in lesson_answers(tutorial):
        assert state.answer(text).ok
    assert lesson["scoring"] == state.scoring()
    coach = page.locator("#coach").inner_text()
    for line in state.scoring():
        assert line.strip() in coach
    assert page.locator("#lesson-play").get_attribute("href") == "/#new"
    no_errors(page)
    ctx.close()


def lesson_answers(tutorial: learn.Tutorial) -> list[str]:
    return [learn.NEXT if s.kind == learn.SAY else s.moves[0] for s in tutorial.steps if s.kind != learn.SCRIPT]


def test_an_unknown_lesson_says_so(server: ServerProcess, browser: Browser) -> None:
    ctx = person(browser, LAPTOP)
    page = new_page(ctx)
    page.goto(server.url + "/learn/chess")
    assert "Unknown game 'chess'" in page.locator("p.error").inner_text()
    no_errors(page)
    ctx.close()

"""Learning a game at the table, in a real browser (Debian's chromium, driven by Playwright): the rules
drawer opens on "how a turn works", then the full rules, and closes with Esc, on a laptop and on a
phone; the new-table form keeps the designers' options out of the way; one click on the home page
starts a game against the computer; a hint with one legal move says "your only move".

Screenshots of the drawer go to ``$PARLOUR_SCREENSHOTS`` like every browser test's (a reviewed set
is in ``docs/screenshots/``).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from parlour import games

from .conftest import ServerProcess
from .test_browser import (
    LAPTOP,
    PHONE,
    context,  # noqa: F401 (the fixture)
    create,
    name_me,
    new_page,
    no_errors,
    person,
    screenshot_dir,
    table_url,
    wait_state,
    wait_turn_or_end,
)

pytestmark = [pytest.mark.slow, pytest.mark.browser]

VIEWPORTS = {"laptop": LAPTOP, "phone": PHONE}


def shoot_view(page: Page, name: str) -> Path:
    """What the screen shows (the drawer is fixed to the window: a full-page picture would stretch it)."""
    path = screenshot_dir() / f"{name}.png"
    page.screenshot(path=str(path))
    return path


def against_the_computer(game_id: str) -> list[dict[str, str]]:
    return [{"kind": "me"}] + [{"kind": "bot", "level": "easy"}] * (games.get(game_id).players - 1)


@pytest.mark.parametrize("viewport", ["laptop", "phone"])
def test_the_rules_drawer_opens_on_how_a_turn_works(server: ServerProcess, browser: Browser,
                                                    viewport: str) -> None:
    size = VIEWPORTS[viewport]
    ctx = person(browser, size)
    try:
        name_me(ctx, server, "Ada")
        for game_id in games.GAME_IDS:
            game = games.get(game_id)
            page = new_page(ctx)
            page.goto(table_url(server, create(ctx, server, game_id, against_the_computer(game_id))))
            wait_state(page)
            drawer = page.locator("#rules-drawer")
            assert drawer.is_hidden()
            button = page.locator("#table-head #rules-btn")
            assert button.is_visible() and button.get_attribute("aria-expanded") == "false"
            button.click()
            turn = page.locator("#rules-turn")
            turn.locator("h3").first.wait_for()
            assert turn.locator("h3").first.inner_text() == f"{game.name}: how a turn works"
            said = " ".join(turn.inner_text().split())
            assert "The round ends" in said and "Who leads." in said
            assert page.locator("#rules-title").inner_text() == f"Rules of {game.name}"
            # Then the full rules, below the turn: its sections, not its first heading again.
            full = page.locator("#rules-full")
            assert page.evaluate("() => !!(document.getElementById('rules-turn').compareDocumentPosition("
                                 "document.getElementById('rules-full')) & Node.DOCUMENT_POSITION_FOLLOWING)")
            assert full.locator("h4").count() >= 3 and game.name not in full.locator("h3").all_inner_texts()
            # The drawer fits the window, the turn at its top in view; on a phone it takes the whole width.
            box, head = drawer.bounding_box(), turn.bounding_box()
            assert box and head
            assert box["x"] >= 0 and abs(box["x"] + box["width"] - size["width"]) <= 1, box
            assert box["height"] <= size["height"] + 1 and head["y"] < size["height"] / 2, head
            if viewport == "phone":
                assert box["width"] >= size["width"] - 1, box
            assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
            assert button.get_attribute("aria-expanded") == "true"
            shoot_view(page, f"rules-drawer-{game_id}-{viewport}")
            page.keyboard.press("Escape")
            drawer.wait_for(state="hidden")
            focused = page.evaluate("() => document.activeElement && document.activeElement.id")
            assert focused == "rules-btn", page.evaluate("() => document.activeElement.outerHTML.slice(0, 200)")
            # Open again: the texts are kept; the close button closes it too.
            button.click()
            turn.locator("h3").first.wait_for()
            page.locator("#rules-close").click()
            drawer.wait_for(state="hidden")
            no_errors(page)
            page.close()
    finally:
        ctx.close()


def designer_options(server: ServerProcess, game_id: str) -> tuple[list[str], list[str]]:
    """The game's options as /api/games gives them: (the real game's, the designers')."""
    listed = next(g for g in server.get("/api/games").json() if g["id"] == game_id)
    return ([o["name"] for o in listed["options"] if not o["designer"]],
            [o["name"] for o in listed["options"] if o["designer"]])


def test_the_designers_options_are_behind_a_closed_disclosure(server: ServerProcess,
                                                            context: BrowserContext) -> None:  # noqa: F811
    page = new_page(context)
    page.goto(server.url + "/")
    page.locator("#nt-start").wait_for()
    for game_id in games.GAME_IDS:
        page.select_option("#nt-game", game_id)
        real, designer = designer_options(server, game_id)
        assert real and designer
        disclosure = page.locator("#nt-designer")
        assert disclosure.locator("summary").inner_text() == "Options for designers"
        assert disclosure.get_attribute("open") is None
        for name in real:
            assert page.locator(f"#opt-{name}").is_visible(), (game_id, name)
        for name in designer:
            assert page.locator(f"#opt-{name}").is_hidden(), (game_id, name)
            assert disclosure.locator(f"#opt-{name}").count() == 1
    page.locator("#new").scroll_into_view_if_needed()
    shoot_view(page, "new-table-designer-options-closed")
    # Opened, a designer option is set and the table is made with it.
    page.select_option("#nt-game", "minus-twenty")
    page.locator("#nt-designer summary").click()
    page.locator("#opt-stall_limit").fill("0")
    page.fill("#nt-name", "Ada")
    page.select_option(".seat-kind[data-seat='1']", "bot:easy")
    page.locator("#nt-start").click()
    page.wait_for_url(re.compile(r"/table/[\w-]+$"))
    st = wait_state(page)
    assert st["view"]["options"]["stall_limit"] == 0 and st["view"]["options"]["suits"] == 4
    no_errors(page)


def test_one_click_plays_the_game_against_the_computer(server: ServerProcess,
                                                     context: BrowserContext) -> None:  # noqa: F811
    page = new_page(context)
    page.goto(server.url + "/")
    play = page.locator(".game-card[data-game='progression'] button.play-computer")
    assert play.inner_text() == "Play Progression against the computer"
    shoot_view(page, "home-play-against-the-computer")
    play.click()
    page.wait_for_url(re.compile(r"/table/[\w-]+$"))
    st = wait_state(page)
    game = games.get("progression")
    assert st["view"]["game"] == "progression" and st["view"]["seat"] == 0
    assert st["view"]["options"] == game.check_options({}), "the game as published"
    assert [(s["kind"], s["level"]) for s in st["seats"][1:]] == [("bot", "medium")] * (game.players - 1)
    # The other button still leads to the form, with the game chosen.
    page.goto(server.url + "/")
    page.locator(".game-card[data-game='silver-bars'] button.choose-seats").click()
    page.wait_for_function("() => document.getElementById('nt-game').value === 'silver-bars'")
    no_errors(page)


def test_a_hint_with_nothing_to_choose_says_your_only_move(server: ServerProcess,
                                                          context: BrowserContext) -> None:  # noqa: F811
    name_me(context, server, "Ada")
    table = create(context, server, "twenty", against_the_computer("twenty"), hand_size=1, ranks=6)
    page = new_page(context)
    page.goto(table_url(server, table))
    st = wait_turn_or_end(page)
    assert len(st["legal"]) == 1
    page.locator("#hint-btn").click()
    item = page.locator("#hints li")
    item.first.wait_for()
    words = item.first.locator("button.hint-move").inner_text()
    assert item.first.inner_text().replace("\n", " ") == f"{words} — your only move"
    shoot_view(page, "hint-your-only-move")
    no_errors(page)

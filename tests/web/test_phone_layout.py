"""The table on a phone (390 x 844), in a real browser (Debian's chromium, driven by Playwright): on its
first turn a player sees their whole hand and the buttons of their moves without scrolling, in every game
(the seat's own area stays at the bottom of the window, style.css's ``.seat-area.docked``), and no other
element covers them; scrolled to the end, the board shows everything with nothing under the hand; the
other seats' moves since the player's last one are said under the banner; on a laptop nothing of this
shows. Screenshots of the first turn, as the phone shows it: ``table-<game>-phone`` in
``$PARLOUR_SCREENSHOTS`` (a reviewed set is in ``docs/screenshots/``).

Nothing here depends on chance: any deal must pass, and every wait is for a condition, not for a time.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from parlour import games

from .conftest import ServerProcess
from .test_browser import (
    LAPTOP,
    PHONE,
    create,
    name_me,
    new_page,
    no_errors,
    person,
    play_turns,
    screenshot_dir,
    state,
    table_url,
    wait_state,
    wait_turn_or_end,
    wait_version_above,
)

pytestmark = [pytest.mark.slow, pytest.mark.browser]

IN_VIEW = """els => els.map(function (el) {
  const r = el.getBoundingClientRect();
  const x = r.left + r.width / 2, y = r.top + r.height / 2;
  const hit = document.elementFromPoint(x, y);
  return {what: el.dataset.card || el.textContent, top: r.top, bottom: r.bottom, left: r.left, right: r.right,
          on_top: !!hit && el.contains(hit), hit: hit ? hit.className : null};
})"""
"""For each element: its box in the window, and whether the element at its centre is itself (or inside it)."""


def boxes(page: Page, selector: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = page.eval_on_selector_all(selector, IN_VIEW)
    return found


def assert_in_view(page: Page, selector: str) -> None:
    """Every element of ``selector`` is inside the window as it is (not scrolled), and on top there."""
    found = boxes(page, selector)
    assert found, selector
    height, width = page.evaluate("() => [window.innerHeight, window.innerWidth]")
    for box in found:
        assert 0 <= box["top"] and box["bottom"] <= height and 0 <= box["left"] and box["right"] <= width, (
            selector, box, height)
        assert box["on_top"], (selector, box)


def against_bots(game_id: str) -> list[dict[str, Any]]:
    return [{"kind": "me"}] + [{"kind": "bot", "level": "easy"}] * (games.get(game_id).players - 1)


def test_a_phone_shows_the_hand_and_its_moves_without_scrolling(server: ServerProcess,
                                                                 browser: Browser) -> None:
    ctx = person(browser, PHONE)
    try:
        name_me(ctx, server, "Ada")
        for game_id in games.GAME_IDS:
            page = new_page(ctx)
            page.goto(table_url(server, create(ctx, server, game_id, against_bots(game_id))))
            st = wait_turn_or_end(page)
            assert st["status"] == "playing" and st["legal"], game_id
            assert page.evaluate("() => window.scrollY") == 0
            assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth"), game_id
            assert page.evaluate("() => document.documentElement.scrollHeight > window.innerHeight"), (
                game_id, "the page is longer than the window: the test would prove nothing")
            assert_in_view(page, ".my-hand .card")
            assert_in_view(page, "#actions")
            # The other seats' moves since mine (all of them, before my first move), as the log says them.
            others = [m["text"] for m in st["moves"]][-4:]
            if others:
                assert page.locator("#recent li").all_inner_texts() == others
                assert_in_view(page, "#recent li")
                # The longest lines (a Silver Bars steal names its thief last) wrap, whole, within the page.
                fits = page.evaluate("""() => {
                    const li = document.createElement('li');
                    li.textContent = 'Easy bot steals 3\u2666 from your vault 2 into their vault 4 '
                        + 'with a lo thief (J\u2663)';
                    document.querySelector('#recent').appendChild(li);
                    const seen = [document.documentElement.scrollWidth <= window.innerWidth,
                                  li.scrollWidth <= li.clientWidth + 1,
                                  li.getBoundingClientRect().right <= window.innerWidth + 1];
                    li.remove();
                    return seen;
                }""")
                assert fits == [True, True, True], (game_id, "a long recent move sticks out or is cut", fits)
            else:
                assert page.locator("#recent").count() == 0
            page.screenshot(path=str(screenshot_dir() / f"table-{game_id}-phone.png"))
            if game_id == "progression":
                # A card picked: its move buttons; played: the draw, a button under the hand too.
                page.locator(".my-hand .card.playable").first.click()
                page.locator("#actions button.move").first.wait_for()
                assert_in_view(page, "#actions button.move")
                version = st["version"]
                page.locator("#actions button.move").first.click()
                page.wait_for_function(
                    "v => { const s = window.parlour.state; return s.version > v && s.legal.length > 0; }",
                    arg=version)
                draw = page.locator("#actions button.move[data-move^='draw']").first
                draw.wait_for()
                assert_in_view(page, "#actions button.move")
                # Drawn, and the bots moved: the line says their moves since mine, not mine.
                version = state(page)["version"]
                draw.click()
                st = wait_version_above(page, version)
                st = wait_turn_or_end(page)
                mine = max(i for i, m in enumerate(st["moves"]) if m["seat"] == st["view"]["seat"])
                since = [m["text"] for m in st["moves"][mine + 1:]][-4:]
                assert since and page.locator("#recent li").all_inner_texts() == since
                assert_in_view(page, ".my-hand .card")
            # Scrolled to the end, the seat's area is in its own place: nothing of the board is under it.
            page.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")
            page.wait_for_function("() => window.scrollY > 0")
            mine = page.locator(".seat-area.docked").bounding_box()
            middle = page.locator(".board .middle").bounding_box()
            assert mine is not None and middle is not None
            assert middle["y"] + middle["height"] <= mine["y"] + 1, game_id
            no_errors(page)
            page.close()
    finally:
        ctx.close()


def test_a_laptop_keeps_the_hand_in_the_board(server: ServerProcess, browser: Browser) -> None:
    """At 1280 px the seat's area is not stuck to the window and the phone's line of recent moves is hidden."""
    ctx = person(browser, LAPTOP)
    try:
        name_me(ctx, server, "Ada")
        page = new_page(ctx)
        page.goto(table_url(server, create(ctx, server, "progression", against_bots("progression"))))
        wait_state(page)
        if not wait_turn_or_end(page)["moves"]:
            play_turns(page, 2)  # a play and a draw: then the bots move
        wait_turn_or_end(page)
        assert page.evaluate("() => getComputedStyle(document.querySelector('.seat-area.docked')).position") == "static"
        assert page.locator("#recent").count() == 1 and page.locator("#recent").is_hidden()
        assert_in_view(page, ".my-hand .card")
        no_errors(page)
    finally:
        ctx.close()

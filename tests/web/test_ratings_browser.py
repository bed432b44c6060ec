"""Ratings in a real browser (Debian's chromium): a person starts a rated match against a bot from the
new-table form, plays it to the end by clicking, and finds the new rating beside their name, on their
page (with the plot of its history) and on the game's leaderboard.  Screenshots of the player's page
and the leaderboard at 1280 and 390 px."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page

from parlour.web import ratings

from .conftest import ServerProcess
from .test_browser import (
    LAPTOP,
    PHONE,
    name_me,
    new_page,
    no_errors,
    person,
    play_to_end,
    shoot,
)

pytestmark = [pytest.mark.slow, pytest.mark.browser]


def start_rated_table(page: Page, server: ServerProcess) -> None:
    """Through the new-table form: Twenty, me against the easy bot, rated."""
    page.goto(server.url + "/")
    page.locator("#nt-game").select_option("twenty")
    page.locator("select.seat-kind[data-seat='1']").select_option("bot:easy")
    page.locator("#nt-rated").check()
    page.locator("#nt-start").click()
    page.wait_for_url("**/table/*")
    page.wait_for_function("() => window.parlour && window.parlour.state")


def test_a_rated_match_against_a_bot_shows_the_new_rating_on_the_players_page_and_the_leaderboard(
        server: ServerProcess, browser: Browser) -> None:
    ctx = person(browser, LAPTOP)
    name_me(ctx, server, "Ada")
    page = new_page(ctx)
    start_rated_table(page, server)
    assert page.locator("#rated").inner_text() == "Rated match"
    bot_badge = page.locator(".seat-area[data-seat='1'] .badge.rating")
    assert bot_badge.inner_text() == f"★ {ratings.anchors().of('twenty', 'easy').shown:.1f}", "the bot's fixed rating"
    assert page.locator(".seat-area[data-seat='0'] .badge.rating").count() == 0, "no rating before a rated match"
    final = play_to_end([page])
    totals = final["summary"]["totals"]
    mine = page.locator(".seat-area[data-seat='0'] a.badge.rating")
    mine.wait_for()
    seat = final["seats"][0]
    assert mine.inner_text() == f"★ {seat['rating']:.1f}"
    shoot(page, "rated-match-end-laptop")
    data = ctx.request.get(f"{server.url}/api/players/{seat['player']}").json()
    (twenty,) = data["ratings"]
    if totals[0] != totals[1]:
        assert (twenty["mu"] > ratings.NEWCOMER.mu) == (totals[0] > totals[1]), "a win raises it, a loss lowers it"
    no_errors(page)

    mine.click()
    page.wait_for_url(f"**/player/{seat['player']}")
    assert page.locator("#player-name").inner_text() == "Ada"
    assert page.locator("#player-ratings .rating-value").first.inner_text().startswith(f"{twenty['rating']:.1f}")
    page.wait_for_function("() => { const i = document.getElementById('rating-plot'); "
                           "return i && i.complete && i.naturalWidth > 0; }")
    assert page.locator("#player-matches .match-row").count() == 1
    assert "rated" in page.locator("#player-matches .match-row").inner_text()
    no_errors(page)
    shoot(page, "player-page-laptop")

    page.goto(server.url + "/leaderboard/twenty")
    row = page.locator("#leaderboard tr.leader")
    row.first.wait_for()
    assert row.count() == 1 and "Ada" in row.inner_text() and f"{twenty['rating']:.1f}" in row.inner_text()
    assert page.locator("#bot-ratings tbody tr").count() == 4
    no_errors(page)
    shoot(page, "leaderboard-laptop")

    phone = person(browser, PHONE)
    pages = ((f"/player/{seat['player']}", "player-page-phone"), ("/leaderboard/twenty", "leaderboard-phone"))
    for path, name in pages:
        other = new_page(phone)
        other.goto(server.url + path)
        other.locator("#player-name, #leaderboard").first.wait_for()
        if "player" in path:
            other.wait_for_function("() => { const i = document.getElementById('rating-plot'); "
                                    "return i && i.complete && i.naturalWidth > 0; }")
        assert other.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth + 1"), \
            f"{path} is wider than a phone"
        no_errors(other)
        shoot(other, name)
    phone.close()
    ctx.close()

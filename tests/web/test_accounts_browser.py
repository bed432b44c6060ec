"""Accounts and My games in a real browser (Debian's chromium): a person registers in one browser
context (a refusal shown in the server's words first), plays a short match against a bot to its end
by clicking, signs out; in a second context they sign in and find the same match in My games, whose
replay link opens the match's replay.  Screenshots of the panels and of My games at 1280 and 390 px."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page

from parlour.web.accounts import PASSWORD_RULE

from .conftest import ServerProcess
from .test_browser import (
    AGAINST,
    LAPTOP,
    PHONE,
    call,
    new_page,
    no_errors,
    person,
    play_to_end,
    shoot,
    table_url,
    wait_state,
)

pytestmark = [pytest.mark.slow, pytest.mark.browser]

SHORT = {"suits": 1, "ranks": 7, "hand_size": 2, "hands": 1, "rounds": 1}
"""Twenty in four moves."""
PASSWORD = "correct horse battery"


def fill_panel(page: Page, username: str, password: str) -> None:
    page.fill("#account-username", username)
    page.fill("#account-password", password)
    page.locator("#account-submit").click()


def shoot_both(page: Page, name: str) -> None:
    """The page at 1280 px and at 390 px wide."""
    page.set_viewport_size(LAPTOP)
    shoot(page, name)
    page.set_viewport_size(PHONE)
    shoot(page, name + "-phone")
    page.set_viewport_size(LAPTOP)


def test_register_play_sign_out_and_find_the_match_in_my_games_on_a_second_browser(
        server: ServerProcess, browser: Browser) -> None:
    first = person(browser)
    page = new_page(first)
    page.goto(server.url + "/")
    page.locator("#register-open").click()
    page.locator("#account-panel").wait_for()
    fill_panel(page, "bea", "short")
    error = page.locator("#account-error")
    error.wait_for()
    assert error.inner_text() == PASSWORD_RULE[0].upper() + PASSWORD_RULE[1:]
    shoot_both(page, "account-register")
    page.fill("#account-password", PASSWORD)
    page.locator("#account-submit").click()
    page.locator("#account-who").wait_for()
    assert page.locator("#account-who").inner_text() == "bea"
    assert page.locator("#account-panel").count() == 0
    assert page.locator("#me .me-who").inner_text() == "bea"  # a guest without a name takes the username

    # A rated match against the easy bot (its rating is a fixed anchor): Bea's rating, kept with her identity.
    table = call(first, server, "POST", "/api/tables", {"game": "twenty", "seats": AGAINST, "options": SHORT,
                                                        "rated": True})
    page.goto(table_url(server, table))
    wait_state(page)
    final = play_to_end([page])
    assert final["status"] == "finished"
    me = call(first, server, "GET", "/api/me")
    assert me["page"] and me["page"].startswith("/player/"), me
    rating = call(first, server, "GET", "/api/players/" + me["page"].rsplit("/", 1)[1])["ratings"]
    page.locator("#signout").click()
    page.locator("#signin-open").wait_for()  # the page was loaded again as a new guest
    page.goto(server.url + "/me/games")
    page.locator("#mygames-empty").wait_for()
    no_errors(page)
    first.close()

    second = person(browser)
    other = new_page(second)
    other.goto(server.url + "/me/games")
    other.locator("#mygames-empty").wait_for()
    other.locator("#signin-open").click()
    fill_panel(other, "bea", "not the password")
    other.locator("#account-error").wait_for()
    assert other.locator("#account-error").inner_text() == "That username and password do not match an account"
    shoot_both(other, "account-signin")
    other.fill("#account-password", PASSWORD)
    other.locator("#account-submit").click()
    other.locator("#account-who").wait_for()
    line = other.locator(f".mygames-line[data-table='{table['table_id']}']")
    line.wait_for()
    assert other.locator(".mygames-line").count() == 1
    winners = final["summary"]["winners"]
    expected = "You won" if winners == [0] else "You lost" if 0 not in winners else "Drawn"
    assert line.locator(".mygames-result").inner_text().startswith(expected)
    assert line.locator(".mygames-opponents .badge").inner_text() == "bot · easy"
    assert line.locator(".mygames-game .badge").inner_text() == "rated"
    # the same rating: the account's identity came with the sign-in
    assert call(second, server, "GET", "/api/me")["page"] == me["page"]
    assert call(second, server, "GET", "/api/players/" + me["page"].rsplit("/", 1)[1])["ratings"] == rating
    assert other.locator("#mygames-page").get_attribute("href") == me["page"]
    assert line.locator(".mygames-record").get_attribute("href") == f"/api/tables/{table['table_id']}/record"
    shoot_both(other, "my-games")

    line.locator(".mygames-replay").click()
    other.locator("#replay-counter").wait_for()  # the table page opened the match's replay
    assert other.url.endswith(f"/table/{table['table_id']}")
    no_errors(other)
    second.close()

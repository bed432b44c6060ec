"""Play again in a real browser (Debian's chromium): two people, each in a browser context of their own, play
a short match to its end, both click "Play again" and both pages land at the new table, seats rotated.
Screenshots of the end of the match with "Play again" at 1280 and 390 px."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser

from .conftest import ServerProcess
from .test_browser import (
    LAPTOP,
    PHONE,
    call,
    create,
    name_me,
    new_page,
    no_errors,
    person,
    play_to_end,
    shoot,
    state,
    table_url,
    wait_state,
)
from .test_play_again import SHORT

pytestmark = [pytest.mark.slow, pytest.mark.browser]


def test_both_click_play_again_and_land_at_the_new_table_with_seats_rotated(server: ServerProcess,
                                                                             browser: Browser) -> None:
    ada_ctx, bea_ctx = person(browser, LAPTOP), person(browser, PHONE)
    try:
        name_me(ada_ctx, server, "Ada")
        table = create(ada_ctx, server, "twenty", [{"kind": "me"}, {"kind": "friend"}], **SHORT)
        invite = table["invites"][0]["url"].split("#invite=")[1]
        call(bea_ctx, server, "POST", f"/api/tables/{table['table_id']}/accept", {"invite": invite, "name": "Bea"})
        ada, bea = new_page(ada_ctx), new_page(bea_ctx)
        for page in (ada, bea):
            page.goto(table_url(server, table))
            wait_state(page)
        assert (state(ada)["view"]["seat"], state(bea)["view"]["seat"]) == (0, 1)
        final = play_to_end([ada, bea])
        assert final["status"] == "finished"
        for page in (ada, bea):
            page.locator("#play-again-btn").wait_for()
            assert page.locator("#play-again-btn").inner_text() == "↻ Play again"
        ada.locator("#play-again-btn").click()
        bea.locator("#play-again .again-yes").wait_for()
        assert bea.locator("#play-again .again-yes").inner_text() == "Ada wants to play again."
        ada.locator("#play-again-btn:disabled").wait_for()
        assert "Waiting for Bea" in ada.locator("#play-again").inner_text()
        shoot(ada, "play-again-ada")
        shoot(bea, "play-again-bea-phone")
        old_url = ada.url
        bea.locator("#play-again-btn").click()
        for page in (ada, bea):
            page.wait_for_url(re.compile(r"/table/[\w-]+$"))
            page.wait_for_function("old => window.location.href !== old && window.parlour && window.parlour.state",
                                   arg=old_url)
        new_id = ada.url.rsplit("/", 1)[1]
        assert new_id != table["table_id"] and bea.url == ada.url
        ada_state, bea_state = wait_state(ada), wait_state(bea)
        assert (ada_state["view"]["seat"], bea_state["view"]["seat"]) == (1, 0)  # one place on
        assert ada_state["status"] == "playing" and ada_state["view"]["options"] == final["view"]["options"]
        assert [s["name"] for s in ada_state["seats"]] == ["Bea", "Ada"]
        no_errors(ada)
        no_errors(bea)
    finally:
        ada_ctx.close()
        bea_ctx.close()

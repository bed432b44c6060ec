"""Table chat in a real browser (Debian's chromium): Ada hosts, Bea takes the invitation on a phone
under a name that is HTML, Cy watches.  What each says appears on all three pages as the characters
typed (no element is made of it, no dialog opens), a spectator's marked as such; Ada chooses not to
see spectators' messages and the choice outlives a reload; "… joined", "… left" and the number
watching are shown to the players.  Screenshots of the chat at 1280 and 390 px."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page

from .conftest import ServerProcess
from .test_browser import (
    PHONE,
    host_invites_a_friend,
    name_me,
    new_page,
    no_errors,
    person,
    shoot,
    take_the_seat,
    wait_state,
)

pytestmark = [pytest.mark.slow, pytest.mark.browser]

HOSTILE = "<img src=x onerror=alert(1)>"
"""A name and a message that would run a script if a page ever took them as HTML."""


def lines(page: Page) -> list[str]:
    """The chat panel's lines as the page shows them (text)."""
    return [text.strip() for text in page.locator("#chat-list li").all_inner_texts()]


def say(page: Page, text: str, enter: bool = True) -> None:
    page.fill("#chat-input", text)
    if enter:
        page.press("#chat-input", "Enter")
    else:
        page.locator("#chat-send").click()
    page.wait_for_function("() => document.getElementById('chat-input').value === ''")


def wait_line(page: Page, text: str) -> None:
    """Until a chat line ends with ``text`` (its time, name and badge come first)."""
    page.wait_for_function(
        "t => [...document.querySelectorAll('#chat-list .chat-text')].some(e => e.textContent === t)", arg=text)


def wait_notice(page: Page, text: str) -> None:
    page.wait_for_function(
        "t => [...document.querySelectorAll('#chat-list .chat-notice')].some(e => e.textContent === t)", arg=text)


def no_markup(page: Page) -> None:
    """Nothing said became an element: the list holds only the panel's own."""
    assert page.locator("#chat-list img, #chat-list b").count() == 0


def test_chat_between_two_players_and_a_spectator_shows_text_only(server: ServerProcess, browser: Browser) -> None:
    ada_ctx, bea_ctx, cy_ctx = person(browser), person(browser, PHONE), person(browser)
    try:
        ada, link = host_invites_a_friend(server, ada_ctx, rounds=2)
        ada.locator("#chat").wait_for()
        assert lines(ada) == ["Nothing said yet."]
        assert ada.locator("#chat-hide").is_visible()
        bea = new_page(bea_ctx)
        take_the_seat(bea, link, HOSTILE)
        wait_notice(ada, f"{HOSTILE} joined.")
        name_me(cy_ctx, server, "Cy")
        cy = new_page(cy_ctx)
        cy.goto(link.split("#")[0])
        wait_state(cy)
        assert cy.evaluate("() => window.parlour.role") == "spectator"
        assert not cy.locator("#chat-hide").is_visible(), "a spectator sees every message"
        for page in (ada, bea):
            page.wait_for_function("() => document.getElementById('spectators').textContent === '1 watching'")

        say(ada, "Hello <b>there</b>")
        say(bea, HOSTILE, enter=False)
        say(cy, "Nice hand, Ada")
        for page in (ada, bea, cy):
            for text in ("Hello <b>there</b>", HOSTILE, "Nice hand, Ada"):
                wait_line(page, text)
            no_markup(page)
        names = ada.locator("#chat-list .chat-name").all_inner_texts()
        assert names == ["Ada", HOSTILE, "Cy"]
        spectator = ada.locator("#chat-list .chat-line.spectator")
        assert spectator.count() == 1 and "spectator" in spectator.inner_text()
        assert ada.locator("#chat-list .chat-line.mine .chat-name").inner_text() == "Ada"
        shoot(ada, "chat-1280")
        shoot(bea, "chat-390")
        # A message too long is refused by the server in plain words (the box caps what is typed).
        ada.evaluate("() => window.parlour.send({type: 'chat', text: 'x'.repeat(301)})")
        ada.locator(".toast.error", has_text="A message is at most 300 characters").wait_for()

        # Ada chooses not to see spectators' messages: kept in this browser, through a reload.
        ada.locator("#chat-hide-spectators").check()
        assert "Nice hand, Ada" not in " ".join(lines(ada))
        assert "1 message from a spectator hidden." in lines(ada)
        ada.reload()
        wait_state(ada)
        wait_line(ada, HOSTILE)
        assert ada.locator("#chat-hide-spectators").is_checked()
        assert "Nice hand, Ada" not in " ".join(lines(ada))
        say(cy, "Still watching")
        say(bea, "Your turn?")
        wait_line(ada, "Your turn?")
        assert "2 messages from spectators hidden." in lines(ada)
        wait_line(bea, "Still watching")  # Bea did not choose to hide them
        ada.locator("#chat-hide-spectators").uncheck()
        wait_line(ada, "Still watching")

        bea.close()
        wait_notice(ada, f"{HOSTILE} left.")
        cy.close()
        ada.wait_for_function("() => document.getElementById('spectators').hidden")
        for page in (ada, bea, cy):
            no_errors(page)
    finally:
        for ctx in (ada_ctx, bea_ctx, cy_ctx):
            ctx.close()

"""The front end in a real browser (Debian's chromium, driven by Playwright).

People play whole matches by clicking highlighted cards and move buttons;
a friend takes a seat by opening the host's invitation link (once: whoever
opens it after that watches); no page holds another seat's secret; a
spectator's page never holds a card that is in a hand; the move box keeps
what is being typed while the table moves on; a reload and a server crash
(SIGKILL) resume the game where it was; unknown and abandoned tables say so;
no page breaks its Content-Security-Policy.  Every browser context is a
person of its own (its own session cookie).  Tests save screenshots in
``$PARLOUR_SCREENSHOTS`` (default ``tests/web/screenshots/``) for review.

Nothing here depends on chance: the deals are the server's (any deal must
pass), and every wait is for a condition, not for a time.
"""

from __future__ import annotations

import json
import os
import random
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import (
    Browser,
    BrowserContext,
    ConsoleMessage,
    Page,
    ViewportSize,
    WebSocket,
    WebSocketRoute,
)

from parlour import games
from parlour.game import NO_UNDO_PAST_A_DRAW, Move, State
from parlour.match import discard_question, face_card_thrown_away

from .conftest import DATA, ServerProcess, cards_in, hidden_cards, states_by_version

pytestmark = [pytest.mark.slow, pytest.mark.browser]

LAPTOP: ViewportSize = {"width": 1280, "height": 900}
PHONE: ViewportSize = {"width": 390, "height": 844}
STEP_TIMEOUT = 20_000  # ms: a bot's move, a reconnect
SUIT_LETTER = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}
"""A log sentence with points in it."""
PRINTED_CARD = re.compile(r"(?<![0-9A-Za-z])(10|[2-9AJQK])([♣♦♥♠])")


def screenshot_dir() -> Path:
    folder = Path(os.environ.get("PARLOUR_SCREENSHOTS") or Path(__file__).resolve().parent / "screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def shoot(page: Page, name: str) -> Path:
    """The whole page, drawn in a window as tall as the page: a full-page picture of the window as it is would
    leave what sticks to the window's bottom (a seat's hand on a phone) where the window ended."""
    path = screenshot_dir() / f"{name}.png"
    window = page.viewport_size
    tall = page.evaluate("() => document.documentElement.scrollHeight")
    if window is not None and tall > window["height"]:
        page.set_viewport_size({"width": window["width"], "height": tall})
    try:
        page.screenshot(path=str(path), full_page=True)
    finally:
        if window is not None:
            page.set_viewport_size(window)
    return path


# -- fixtures -------------------------------------------------------------------

def person(browser: Browser, viewport: ViewportSize = LAPTOP) -> BrowserContext:
    """A browser context: one person, with a session cookie of its own."""
    ctx = browser.new_context(viewport=viewport)
    ctx.set_default_timeout(STEP_TIMEOUT)
    return ctx


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    ctx = person(browser)
    yield ctx
    ctx.close()


def new_page(ctx: BrowserContext) -> Page:
    """A page that fails the test (in :func:`no_errors`) on any script error, alert box, or
    Content-Security-Policy violation."""
    page = ctx.new_page()
    errors: list[str] = []
    csp: list[str] = []

    def console(message: ConsoleMessage) -> None:
        if "Content Security Policy" in message.text or "Content-Security-Policy" in message.text:
            csp.append(message.text)

    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("dialog", lambda dialog: errors.append(f"dialog: {dialog.message}"))
    page.on("console", console)
    page.errors = errors  # type: ignore[attr-defined]
    page.csp = csp  # type: ignore[attr-defined]
    return page


def no_errors(page: Page) -> None:
    errors = page.errors  # type: ignore[attr-defined]
    assert not errors, errors
    csp = page.csp  # type: ignore[attr-defined]
    assert not csp, csp


# -- the server, as the browser context's person -----------------------------------------

def call(ctx: BrowserContext, server: ServerProcess, method: str, path: str, body: Any = None) -> Any:
    """An API request with the context's cookie (Playwright's request context shares them)."""
    answer = ctx.request.fetch(server.url + path, method=method, data=body)
    assert answer.ok, (method, path, answer.status, answer.text())
    return answer.json()


def name_me(ctx: BrowserContext, server: ServerProcess, name: str) -> None:
    assert call(ctx, server, "PUT", "/api/me", {"name": name}) == {"name": name}


def create(ctx: BrowserContext, server: ServerProcess, game: str, seats: list[dict[str, Any]],
           **options: Any) -> dict[str, Any]:
    """``POST /api/tables`` as the context's person (the host)."""
    table: dict[str, Any] = call(ctx, server, "POST", "/api/tables", {"game": game, "seats": seats, "options": options})
    return table


def sit_down(ctx: BrowserContext, server: ServerProcess, game: str, seats: list[dict[str, Any]],
             **options: Any) -> Page:
    """Ada creates a table of ``game`` with ``seats`` and opens it at her seat (its first state shown)."""
    name_me(ctx, server, "Ada")
    table = create(ctx, server, game, seats, **options)
    page = new_page(ctx)
    page.goto(table_url(server, table))
    wait_state(page)
    return page


def table_url(server: ServerProcess, table: dict[str, Any]) -> str:
    return f"{server.url}/table/{table['table_id']}"


def record_of(server: ServerProcess, table_id: str) -> dict[str, Any]:
    answer = server.get(f"/api/tables/{table_id}/record")
    assert answer.status_code == 200, answer.text
    data: dict[str, Any] = answer.json()
    return data


AGAINST = [{"kind": "me"}, {"kind": "bot", "level": "easy"}]


# -- reading and driving a table page -------------------------------------------------

def state(page: Page) -> dict[str, Any]:
    """The newest ``state`` message the page received."""
    st: dict[str, Any] | None = page.evaluate("() => window.parlour && window.parlour.state")
    assert st is not None, "the page has no state"
    return st


def wait_state(page: Page, timeout: float = STEP_TIMEOUT) -> dict[str, Any]:
    page.wait_for_function("() => window.parlour && window.parlour.state", timeout=timeout)
    return state(page)


def wait_version_above(page: Page, version: int, timeout: float = STEP_TIMEOUT) -> dict[str, Any]:
    page.wait_for_function(
        "v => window.parlour && window.parlour.state && window.parlour.state.version > v", arg=version, timeout=timeout
    )
    return state(page)


def wait_turn_or_end(page: Page, timeout: float = STEP_TIMEOUT) -> dict[str, Any]:
    """Until it is this page's turn, or the round or match is over."""
    page.wait_for_function(
        """() => { const s = window.parlour && window.parlour.state;
                   return s && (s.status !== 'playing' || s.legal.length > 0); }""",
        timeout=timeout,
    )
    return state(page)


def hand_in_page(page: Page) -> list[str]:
    return [str(c) for c in page.eval_on_selector_all(".my-hand [data-card]", "els => els.map(e => e.dataset.card)")]


def click_a_move(page: Page, prefer: str = "draw") -> str:
    """Make one move the way a person does: a raised card, then one of its move buttons;
    or a move button that needs no card (``prefer`` first).  Returns the move."""
    st = state(page)
    legal = st["legal"]
    assert legal, "not this page's turn"
    free = page.locator(f"[data-move='{prefer}']")
    if prefer in legal and free.count():
        move = prefer
        free.first.click()
        return move
    cards = page.locator(".my-hand .card.playable")
    if cards.count():
        cards.first.click()
        button = page.locator("#actions button.move[data-move]").first
        button.wait_for()
        move = str(button.get_attribute("data-move"))
        assert move in legal, (move, legal)
        button.click()
        return move
    button = page.locator("#actions button.move[data-move], [data-move].lock-btn").first
    move = str(button.get_attribute("data-move"))
    assert move in legal, (move, legal)
    button.click()
    return move


def play_turns(page: Page, moves: int, prefer: str = "draw") -> list[str]:
    """This page makes ``moves`` moves (bots answer in between)."""
    made = []
    for _ in range(moves):
        st = wait_turn_or_end(page)
        if st["status"] != "playing":
            break
        made.append(click_a_move(page, prefer))
        wait_version_above(page, st["version"])
    return made


def play_to_end(pages: list[Page], max_changes: int = 3000, stop_at: int | None = None) -> dict[str, Any]:
    """Seated pages play by clicking until the match is finished (or the table reaches version
    ``stop_at``); returns the last state."""
    for _ in range(max_changes):
        states = [state(p) for p in pages]
        first = states[0]
        if stop_at is not None and first["version"] >= stop_at:
            for p in pages[1:]:
                p.wait_for_function("v => window.parlour.state.version >= v", arg=first["version"])
            return first
        if first["status"] == "finished":
            for p in pages:
                p.wait_for_function("() => window.parlour.state.status === 'finished'")
                p.locator("#result.final").wait_for()
            return state(pages[0])
        if first["status"] == "round_over":
            pages[0].locator("#next-round").click()
            wait_version_above(pages[0], first["version"])
            continue
        mover = next((i for i, s in enumerate(states) if s["status"] == "playing" and s["legal"]), None)
        if mover is None:
            top = max(s["version"] for s in states)
            behind = [p for p, s in zip(pages, states) if s["version"] < top]
            if behind:  # a page not yet told of the last move (it may be the one to move next)
                for p in behind:
                    p.wait_for_function("v => window.parlour.state.version >= v", arg=top)
                continue
            # every page is up to date and none is to move: a bot is
            pages[0].wait_for_function(
                "v => window.parlour.state.version > v || window.parlour.state.legal.length > 0",
                arg=first["version"],
            )
            for p in pages[1:]:
                p.wait_for_function("v => window.parlour.state.version >= v", arg=state(pages[0])["version"])
            continue
        click_a_move(pages[mover])
        wait_version_above(pages[mover], states[mover]["version"])
    raise AssertionError(f"no end after {max_changes} changes")


def table_id_of(page: Page) -> str:
    return str(page.evaluate("() => window.parlour.id"))


def sorted_cards(cards: list[str]) -> list[str]:
    ranks = "A23456789TJQK"
    return sorted(cards, key=lambda c: (9 if c == "JK" else "CDHS".index(c[1]), -1 if c == "JK" else ranks.index(c[0])))


def check_final_sheet(page: Page, final: dict[str, Any]) -> None:
    """The score sheet, the winner, the record link and the replay stepper at the match end."""
    result = page.locator("#result.final")
    result.wait_for()
    totals = final["summary"]["totals"]
    sheet = result.locator("table.scores")
    assert sheet.locator("tbody tr").count() == len(final["summary"]["rounds"])
    foot = sheet.locator("tfoot th").all_inner_texts()[1:]
    assert [t.replace("−", "-") for t in foot] == [str(t) for t in totals]
    heading = result.locator("h2").first.inner_text()
    assert "win" in heading or "draw" in heading, heading
    href = page.locator("#download-record").get_attribute("href", timeout=1000)
    assert href is not None and href.endswith("/record")


def check_breakdown(page: Page, st: dict[str, Any]) -> None:
    """The round-over panel explains the round's scores: each seat's score and its scoring sentences."""
    box = page.locator("#breakdown")
    box.wait_for()
    names = st["view"]["names"]
    last = st["summary"]["rounds"][-1]
    assert box.locator(".seat-result").count() == len(names)
    for seat in range(len(names)):
        seat_box = box.locator(f".seat-result[data-seat='{seat}']")
        head = seat_box.locator(".round-score").inner_text().replace("−", "-")
        assert head.startswith(("+" if last[seat] > 0 else "") + str(last[seat])), (head, last[seat])
        # what scored, and all of the round's end (a meld worth 0 too), in the server's words for this reader
        scoring = [e["text"] for e in st["log"] if e["seat"] == seat and (e["points"] or e["move"] == len(st["moves"]))]
        shown = seat_box.locator(".score-lines li").all_inner_texts()
        assert shown == scoring, (shown, scoring)


def check_replay(page: Page) -> None:
    page.locator("#replay-match").click()
    counter = page.locator("#replay-counter")
    counter.wait_for()
    last = counter.inner_text()
    match = re.match(r"step (\d+) / (\d+)", last)
    assert match and match.group(1) == match.group(2), last
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    assert counter.inner_text() == f"step {int(match.group(1)) - 2} / {match.group(2)}"
    page.locator("#replay-next").click()
    assert counter.inner_text() == f"step {int(match.group(1)) - 1} / {match.group(2)}"
    # After the match the replay shows every hand face up.
    assert page.locator("#replay-overlay .other-hand .card.back").count() == 0
    assert page.locator("#replay-overlay .other-hand .card.face").count() > 0


class FrameLog:
    """Every WebSocket frame a page receives, decoded, and as received."""

    def __init__(self, page: Page) -> None:
        self.frames: list[dict[str, Any]] = []
        self.raw: list[str] = []
        page.on("websocket", self._socket)

    def _socket(self, ws: WebSocket) -> None:
        def received(payload: str | bytes) -> None:
            text = payload if isinstance(payload, str) else payload.decode()
            self.raw.append(text)
            self.frames.append(json.loads(text))
        ws.on("framereceived", received)


def notation(value: Any) -> Any:
    """``value`` with every printed card (``9♠``, ``10♥``) written in notation (``9S``, ``TH``)."""
    if isinstance(value, str):
        return PRINTED_CARD.sub(lambda m: ("T" if m[1] == "10" else m[1]) + SUIT_LETTER[m[2]], value)
    if isinstance(value, dict):
        return {k: notation(v) for k, v in value.items()}
    if isinstance(value, list):
        return [notation(v) for v in value]
    return value


def named_cards(frame: Any) -> set[str]:
    """Every card a frame names, in notation or printed."""
    return cards_in(frame) | cards_in(notation(frame))


def leaks(frames: list[dict[str, Any]], states: list[Any], known_ok: bool) -> list[str]:
    """Hidden cards (hands, stock) named in frames, judged at the version of the last ``state``."""
    found = []
    version = None
    for frame in frames:
        if frame.get("type") == "state":
            version = frame["version"]
        if version is None:
            continue
        st = states[version]
        hidden = hidden_cards(st, None)
        if known_ok:
            for seat_known in st.observation(0)["known"]:
                hidden -= set(seat_known)
        bad = named_cards(frame) & hidden
        if bad:
            found.append(f"version {version}, {frame.get('type')}: {sorted(bad)}")
    return found


def page_cards(page: Page) -> tuple[int, set[str]]:
    """The version the page shows and every card it names: card elements, and cards in its text."""
    got = page.evaluate(
        """() => ({version: window.parlour && window.parlour.state ? window.parlour.state.version : -1,
                   cards: Array.from(document.querySelectorAll('[data-card]')).map(e => e.dataset.card),
                   text: document.body.innerText})"""
    )
    return int(got["version"]), set(got["cards"]) | cards_in(notation(got["text"]))


def page_secrets(page: Page) -> str:
    """Everything a page keeps where a script or a person could read it: its address, its HTML
    (input values included), localStorage and sessionStorage."""
    got: dict[str, Any] = page.evaluate(
        """() => ({url: location.href, html: document.documentElement.outerHTML,
                   inputs: Array.from(document.querySelectorAll('input, textarea')).map(e => e.value),
                   local: Object.keys(localStorage).map(k => k + '=' + localStorage.getItem(k)),
                   session: Object.keys(sessionStorage).map(k => k + '=' + sessionStorage.getItem(k)),
                   history: history.state === null ? '' : JSON.stringify(history.state)})"""
    )
    return json.dumps(got)


# -- invitations ------------------------------------------------------------------

def host_invites_a_friend(server: ServerProcess, host: BrowserContext, game: str = "minus-twenty",
                          rounds: int | None = 1) -> tuple[Page, str]:
    """The host fills in the form (her name, a friend's seat) and copies the invitation from her table page."""
    page = new_page(host)
    page.goto(server.url + "/")
    page.locator("#nt-start").wait_for()
    assert page.locator("#me-change").inner_text() == "Choose your name"
    page.select_option("#nt-game", game)
    assert page.locator("#nt-name").is_visible(), "no name chosen yet: the form asks for it"
    page.fill("#nt-name", "Ada")
    # At most one seat is "me": the option is offered in no other seat.
    assert page.locator(".seat-kind[data-seat='1'] option[value=me]").is_disabled()
    page.select_option(".seat-kind[data-seat='1']", "friend")
    if rounds is not None:
        page.fill("#opt-rounds", str(rounds))
    page.locator("#nt-start").click()
    page.wait_for_url(re.compile(r"/table/[\w-]+$"))
    wait_state(page)
    wait_me(page, "Ada")
    invite = page.locator(".invite-url[data-seat='1']")
    link = invite.input_value()
    assert re.fullmatch(re.escape(server.url) + r"/table/[\w-]+#invite=[\w-]+", link), link
    assert page.locator("#invites button.copy").count() == 1
    return page, link


def take_the_seat(page: Page, link: str, name: str, host: str = "Ada", game: str = "Minus Twenty",
                  shot: str | None = None) -> dict[str, Any]:
    """A friend opens the invitation and takes the seat; the fragment is gone from the address bar at once."""
    page.goto(link)
    page.locator("#take-seat").wait_for()
    assert "#" not in page.url and "invite" not in page.url, page.url
    heading = page.locator("#invitation h1").inner_text()
    assert heading == f"{host} invited you to play {game} (seat 2).", heading
    if shot:
        shoot(page, shot)
    page.fill("#invite-name", name)
    page.locator("#take-seat").click()
    st = wait_state(page)
    assert st["view"]["seat"] == 1
    wait_me(page, name)
    return st


def wait_me(page: Page, name: str) -> None:
    """The top bar says whom this browser plays as."""
    page.wait_for_function(
        "n => document.getElementById('me').textContent.replace(/\\s+/g, ' ').startsWith('Playing as ' + n + ' ')",
        arg=name)


def code_of(link: str) -> str:
    return link.partition("#invite=")[2]


# -- the tests ----------------------------------------------------------------

def test_twenty_against_a_bot_to_the_score_sheet(server: ServerProcess, context: BrowserContext) -> None:
    """From the home page's form to the final score sheet, by clicking cards; the round-over panel
    explains each round's scores."""
    page = new_page(context)
    page.goto(server.url + "/")
    page.locator(".game-card").first.wait_for()
    assert page.locator(".game-card").count() == 4
    page.locator(".game-card[data-game='twenty'] summary").click()
    page.locator(".game-card[data-game='twenty'] .rules h4").first.wait_for()
    page.locator("#nt-start").wait_for()
    shoot(page, "home")
    page.select_option("#nt-game", "twenty")
    page.locator("#nt-start").click()
    page.locator("#nt-error").get_by_text("Write your name").wait_for()  # the creator's seat needs a name
    page.fill("#nt-name", "Ada")
    page.select_option(".seat-kind[data-seat='1']", "bot:easy")
    page.locator("#nt-start").click()
    page.wait_for_url(re.compile(r"/table/[\w-]+$"))
    first = wait_state(page)
    assert first["view"]["game"] == "twenty" and first["view"]["seat"] == 0
    assert first["seats"][0]["name"] == "Ada"
    assert page.locator("#invites").count() == 0 or not page.locator("#invites").is_visible()

    clicked = 0
    while True:
        st = wait_turn_or_end(page)
        if st["status"] == "finished":
            break
        if st["status"] == "round_over":
            page.locator("#result").wait_for()
            check_breakdown(page, st)
            shoot(page, "twenty-round-over")
            page.locator("#next-round").click()
        else:
            hand = hand_in_page(page)
            assert hand == sorted_cards(st["view"]["hand"]), "the hand is shown sorted"
            assert page.locator(".my-hand .card.playable").count() == len(st["legal"])
            move = click_a_move(page)
            assert move.startswith("play ")
            clicked += 1
            if clicked == 7:
                shoot(page, "twenty-vs-bot")
        wait_version_above(page, st["version"])
    final = state(page)
    assert clicked == 50  # 25 cards a round, two rounds
    check_final_sheet(page, final)
    check_breakdown(page, final)
    shoot(page, "twenty-final")
    record = record_of(server, table_id_of(page))
    assert record["totals"] == final["summary"]["totals"]
    check_replay(page)
    shoot(page, "twenty-replay")
    no_errors(page)


def test_two_people_play_minus_twenty_with_an_invite_link(server: ServerProcess, browser: Browser) -> None:
    """Ada starts a table with a friend seat from the form and copies the invitation from her table page;
    Bea opens it, names herself, takes the seat; they play to the end."""
    ada_ctx, bea_ctx = person(browser), person(browser, PHONE)
    try:
        ada, link = host_invites_a_friend(server, ada_ctx)
        shoot(ada, "host-invitation")
        bea = new_page(bea_ctx)
        st = take_the_seat(bea, link, "Bea", shot="invitation-phone")
        assert st["view"]["options"]["rounds"] == 1
        # The host's invitation is gone once it is accepted.
        ada.locator(".invite-url").wait_for(state="detached")
        ada.wait_for_function("() => window.parlour.state.seats[1].name === 'Bea'")
        final = play_to_end([ada, bea])
        assert final["status"] == "finished"
        for page in (ada, bea):
            check_final_sheet(page, state(page))
            check_breakdown(page, state(page))
        shoot(ada, "minus-twenty-two-people-ada")
        shoot(bea, "minus-twenty-two-people-bea-phone")
        record = record_of(server, table_id_of(ada))
        assert len(record["rounds"]) == 1
        assert record["players"] == ["Ada", "Bea"]
        assert record["totals"] == final["summary"]["totals"]
        no_errors(ada)
        no_errors(bea)
    finally:
        ada_ctx.close()
        bea_ctx.close()


def test_a_used_invitation_makes_a_spectator_who_sees_no_card_of_the_friends_hand(
    server: ServerProcess, browser: Browser
) -> None:
    """Cy opens Bea's invitation after Bea took the seat: he is told so plainly and watches; no frame he
    receives names a card of Bea's hand (judged at each version by Bea's own frames), and he cannot move."""
    ada_ctx, bea_ctx, cy_ctx = person(browser), person(browser), person(browser, PHONE)
    try:
        ada, link = host_invites_a_friend(server, ada_ctx)
        bea = new_page(bea_ctx)
        bea_frames = FrameLog(bea)
        take_the_seat(bea, link, "Bea")

        cy = new_page(cy_ctx)
        cy_frames = FrameLog(cy)
        cy.goto(link)
        notice = cy.locator("#notice")
        notice.wait_for()
        assert notice.inner_text() == "This invitation was already accepted by Bea — you are watching as a spectator."
        assert "#" not in cy.url
        watching = wait_state(cy)
        assert cy.evaluate("() => window.parlour.seat") is None
        assert watching["view"]["hand"] is None and watching["legal"] == []
        assert cy.locator("#watching").is_visible()
        shoot(cy, "spectator-after-a-used-invitation-phone")

        reached = play_to_end([ada, bea], stop_at=24)
        cy.wait_for_function("v => window.parlour.state.version >= v", arg=reached["version"])
        st = state(cy)
        assert cy.locator(".my-hand").count() == 0
        assert cy.locator(".takeable, .card.playable, #actions").count() == 0
        assert not cy.locator("#notation").is_visible()
        # Sending a move anyway gets a refusal, and the table does not change.
        legal = state(bea)["legal"] or state(ada)["legal"]
        cy.wait_for_function("v => window.parlour.state.version >= v", arg=st["version"])
        st = state(cy)
        before = len(cy_frames.frames)
        count = cy.evaluate("""m => { const T = window.parlour, n = T.received;
            T.ws.send(JSON.stringify({type: 'move', move: m, version: T.state.version})); return n; }""",
                            legal[0] if legal else "draw")
        cy.wait_for_function("n => window.parlour.received > n", arg=count)
        refusal = next(f for f in cy_frames.frames[before:] if f.get("type") in ("error", "state"))
        assert refusal == {**refusal, "type": "error", "code": "unauthorized"}, refusal
        assert state(cy)["version"] == st["version"]
        assert cy.evaluate("() => window.parlour.ws.readyState") == 1

        # Bea's hand at every version, from her own frames (less the cards everyone saw her take).
        bea_hands: dict[int, set[str]] = {}
        for frame in bea_frames.frames:
            if frame.get("type") == "state":
                known = set((frame["view"].get("known") or [[], []])[1])
                bea_hands[frame["version"]] = set(frame["view"]["hand"]) - known
        assert len(bea_hands) >= 20
        seen: list[str] = []
        version = None
        checked = 0
        for frame in cy_frames.frames:
            if frame.get("type") == "state":
                version = frame["version"]
                assert frame["view"]["hand"] is None
            assert version is not None or frame.get("type") == "welcome", frame
            if version is None:
                assert not named_cards(frame) & bea_hands[min(bea_hands)], frame
                continue
            assert version in bea_hands, f"Bea's page never had version {version}"
            bad = named_cards(frame) & bea_hands[version]
            if bad:
                seen.append(f"version {version}, {frame.get('type')}: {sorted(bad)}")
            checked += 1
        assert checked > 20
        assert not seen, seen
        # The check is not blind: Bea's own frames name her cards.
        assert any(named_cards(f) & bea_hands[f["version"]] for f in bea_frames.frames if f.get("type") == "state")
        for page in (ada, bea, cy):
            no_errors(page)
    finally:
        for ctx in (ada_ctx, bea_ctx, cy_ctx):
            ctx.close()


def test_the_hosts_page_holds_no_secret_of_another_seat(server: ServerProcess, browser: Browser) -> None:
    """Once Bea accepted, the invitation is nowhere in Ada's page: not in its HTML, its inputs, its
    storage, nor any WebSocket frame since (and, after a reload, in no frame at all).  Bea's page never
    keeps it either.  Frames reach Ada's page with the code only in the welcome of her own table."""
    ada_ctx, bea_ctx = person(browser), person(browser)
    try:
        ada, link = host_invites_a_friend(server, ada_ctx)
        code = code_of(link)
        ada_frames = FrameLog(ada)
        ada.reload()
        wait_state(ada)
        ada.locator(".invite-url[data-seat='1']").wait_for()
        assert all(f["type"] == "welcome" for f in ada_frames.frames if code in json.dumps(f)), \
            "the invitation reaches the host only in her table's summary"
        before = len(ada_frames.raw)

        bea = new_page(bea_ctx)
        take_the_seat(bea, link, "Bea")
        ada.locator(".invite-url").wait_for(state="detached")
        ada.wait_for_function("() => window.parlour.state.seats[1].connected")
        assert code not in page_secrets(ada)
        assert not [raw for raw in ada_frames.raw[before:] if code in raw]
        assert code not in page_secrets(bea)
        ada.wait_for_function("() => window.parlour.table.invites.length === 0")
        for page in (ada, bea):
            assert code not in page.evaluate("() => JSON.stringify(window.parlour)")

        ada_frames.raw.clear()
        ada.reload()
        wait_state(ada)
        assert code not in page_secrets(ada)
        assert ada_frames.raw and not [raw for raw in ada_frames.raw if code in raw]
        # The host page tells the seats apart without the link: Bea's seat is taken, the panel is gone.
        assert ada.locator("#invites").count() == 0
        for page in (ada, bea):
            no_errors(page)
    finally:
        ada_ctx.close()
        bea_ctx.close()


def test_the_host_reopens_the_seat_of_a_player_who_left(server: ServerProcess, browser: Browser) -> None:
    """Bea leaves; Ada re-opens her seat and gets a new invitation, which Cy takes; Bea's old page
    (if it came back) would only watch."""
    ada_ctx, bea_ctx, cy_ctx = person(browser), person(browser), person(browser)
    try:
        ada, link = host_invites_a_friend(server, ada_ctx)
        bea = new_page(bea_ctx)
        take_the_seat(bea, link, "Bea")
        ada.wait_for_function("() => window.parlour.state.seats[1].connected")
        assert ada.locator(".reopen-btn").count() == 0, "no re-open while the player is there"
        bea.close()
        ada.locator(".reopen-btn[data-seat='1']").click()
        new_link = ada.locator(".invite-url[data-seat='1']").input_value()
        assert new_link != link and "#invite=" in new_link
        shoot(ada, "host-reopened-seat")
        cy = new_page(cy_ctx)
        cy.goto(new_link)
        cy.locator("#take-seat").wait_for()
        cy.fill("#invite-name", "Cy")
        cy.locator("#take-seat").click()
        assert wait_state(cy)["view"]["seat"] == 1
        ada.wait_for_function("() => window.parlour.state.seats[1].name === 'Cy'")
        ada.locator(".invite-url").wait_for(state="detached")
        # Bea comes back: the seat is not hers any more.
        bea = new_page(bea_ctx)
        bea.goto(table_url(server, {"table_id": table_id_of(ada)}))
        assert wait_state(bea)["view"]["hand"] is None
        assert bea.evaluate("() => window.parlour.seat") is None
        for page in (ada, bea, cy):
            no_errors(page)
    finally:
        for ctx in (ada_ctx, bea_ctx, cy_ctx):
            ctx.close()


def test_the_move_box_keeps_its_text_and_focus_when_the_table_moves(server: ServerProcess, browser: Browser) -> None:
    """Ada types in the move box while a state arrives (a move by whoever is to move): the text, the focus
    and the caret stay, and the board is redrawn; then Bea leaves, and the `seats` message that says so
    changes the presence dot without redrawing the board."""
    ada_ctx, bea_ctx = person(browser), person(browser, PHONE)
    try:
        ada, link = host_invites_a_friend(server, ada_ctx)
        bea = new_page(bea_ctx)
        take_the_seat(bea, link, "Bea")
        ada.wait_for_function("() => window.parlour.state.seats[1].connected")
        st = state(ada)
        box = ada.locator("#notation")
        box.click()
        ada.keyboard.type("play 7")
        ada.evaluate("() => document.getElementById('notation').setSelectionRange(2, 2)")
        # The move is sent by the mover's page script: nothing touches Ada's box.
        mover = ada if st["legal"] else bea
        mover.wait_for_function("v => window.parlour.state.version === v && window.parlour.state.legal.length > 0",
                                arg=st["version"])
        mover.evaluate("m => window.parlour.send({type: 'move', move: m})", state(mover)["legal"][0])
        wait_version_above(ada, st["version"])
        ada.wait_for_function("v => document.getElementById('app').dataset.version === String(v)",
                              arg=st["version"] + 1)
        assert box.input_value() == "play 7"
        assert ada.evaluate("() => document.activeElement && document.activeElement.id") == "notation"
        assert ada.evaluate("""() => { const e = document.getElementById('notation');
                                       return [e.selectionStart, e.selectionEnd]; }""") == [2, 2]

        ada.evaluate("() => { window.__board = document.querySelector('.board'); }")
        bea.close()
        ada.locator(".seat-area[data-seat='1'] .dot.off").wait_for()
        assert ada.evaluate("() => window.__board === document.querySelector('.board')"), "the board was not redrawn"
        assert box.input_value() == "play 7"
        assert ada.evaluate("() => document.activeElement && document.activeElement.id") == "notation"
        ada.keyboard.press("End")
        ada.keyboard.type("H")
        assert box.input_value() == "play 7H"
        no_errors(ada)
    finally:
        ada_ctx.close()
        bea_ctx.close()


def test_the_move_box_keeps_its_text_when_a_bot_moves(server: ServerProcess, context: BrowserContext) -> None:
    name_me(context, server, "Ada")
    table = create(context, server, "twenty", AGAINST)
    page = new_page(context)
    page.goto(table_url(server, table))
    st = wait_turn_or_end(page)
    page.locator("#notation").click()
    page.keyboard.type("pl")
    page.evaluate("m => window.parlour.send({type: 'move', move: m})", st["legal"][0])
    # My move, then the bot's: two states while the box has focus.
    page.wait_for_function("v => window.parlour.state.version >= v + 2 && window.parlour.state.legal.length > 0",
                           arg=st["version"])
    assert page.locator("#notation").input_value() == "pl"
    assert page.evaluate("() => document.activeElement.id") == "notation"
    page.keyboard.type("ay " + state(page)["legal"][0].split(" ")[1])
    page.keyboard.press("Enter")
    wait_version_above(page, st["version"] + 2)
    assert page.locator("#notation").input_value() == ""
    no_errors(page)


def test_a_face_card_typed_alone_that_can_only_be_discarded_asks_first(
    server: ServerProcess, context: BrowserContext
) -> None:
    """A card typed alone in the move box that names only a discard asks first when it is a face card
    (Minus Twenty's multipliers, Silver Bars' thieves, strikes and rubble): "no" keeps it and sends
    nothing; "yes", or the whole notation typed, sends the discard; a number card is not asked about."""
    name_me(context, server, "Ada")
    table = create(context, server, "minus-twenty", AGAINST)
    page = context.new_page()  # not new_page(): here a dialog is expected
    sent: list[str] = []
    # The page is told below that it may play moves the server's position does not hold, so the server's
    # reading of what is typed (``resolve``, tested with the server) is played here as a server holding
    # them would answer: every other message goes through to the server.
    readings = {"kd": "discard KD", "discard kd": "discard KD", "7d": "discard 7D"}

    def through_a_reader(ws: WebSocketRoute) -> None:
        to_server = ws.connect_to_server()

        def from_page(message: str | bytes) -> None:
            sent.append(str(message))
            asked_for = json.loads(message)
            if asked_for.get("type") == "resolve":
                text = asked_for["text"]
                move = Move.parse(readings[text.lower()])
                face = face_card_thrown_away(text, move)  # the server's rule, answered as the server would
                ws.send(json.dumps({"type": "resolved", "text": text, "move": str(move),
                                    "confirm": discard_question(face) if face else None}))
            else:
                to_server.send(message)

        ws.on_message(from_page)
        to_server.on_message(ws.send)

    page.route_web_socket(re.compile(r".*/ws/tables/.*"), through_a_reader)
    asked: list[str] = []
    answers: list[bool] = []

    def answer(dialog: Any) -> None:
        asked.append(dialog.message)
        if answers.pop(0):
            dialog.accept()
        else:
            dialog.dismiss()

    page.on("dialog", answer)
    page.goto(table_url(server, table))
    wait_turn_or_end(page)
    # What the page is told it may play: here, K♦ and 7♦ only as discards.
    page.evaluate("() => { window.parlour.state.legal = ['discard KD', 'discard 7D', 'draw']; }")

    def moves_sent(since: int) -> list[str]:
        return [json.loads(f)["move"] for f in sent[since:] if json.loads(f).get("type") == "move"]

    def typed(text: str) -> list[str]:
        """Type ``text`` and press Enter; the moves that the page then sends."""
        before = len(sent)
        page.locator("#notation").fill(text)
        page.locator("#notation").press("Enter")
        deadline = time.monotonic() + STEP_TIMEOUT / 1000
        while not moves_sent(before) and time.monotonic() < deadline:
            page.wait_for_timeout(20)
        return moves_sent(before)

    answers.append(False)
    before = len(sent)
    page.locator("#notation").fill("kd")
    page.locator("#notation").press("Enter")
    page.locator(".toast", has_text="Kept: discard K♦ not played.").wait_for()  # said once the person answered "no"
    assert asked == ["K♦ can only be discarded now: discard it?"] and moves_sent(before) == []
    assert page.locator("#notation").input_value() == "kd"  # kept, to correct
    answers.append(True)
    assert typed("kd") == ["discard KD"] and len(asked) == 2
    page.evaluate("() => { window.parlour.state.legal = ['discard KD', 'discard 7D', 'draw']; }")
    assert typed("discard kd") == ["discard KD"] and len(asked) == 2
    page.evaluate("() => { window.parlour.state.legal = ['discard KD', 'discard 7D', 'draw']; }")
    assert typed("7d") == ["discard 7D"] and len(asked) == 2


def test_an_unknown_table_says_there_is_none(server: ServerProcess, context: BrowserContext) -> None:
    page = new_page(context)
    sockets: list[str] = []
    page.on("websocket", lambda ws: sockets.append(ws.url))
    page.goto(server.url + "/table/no-such-table")
    page.locator("#no-table").wait_for(timeout=3000)
    assert page.locator("#no-table h1").inner_text() == "There is no table at this address."
    assert "Connecting" not in page.locator("body").inner_text()
    assert page.locator("#conn").is_hidden()
    assert not sockets, "no WebSocket (and so no reconnect loop) for a table that is not there"
    shoot(page, "no-table")
    no_errors(page)


def test_an_abandoned_table_says_so_with_the_scores(sqlite_url: str, tmp_path: Path, browser: Browser) -> None:
    """A table nobody used for the server's idle time ends as abandoned; its page says so, shows the
    scores so far, and does not keep reconnecting."""
    server = ServerProcess(sqlite_url, log_path=tmp_path / "server.log",
                           extra=("--idle-minutes", "0.02", "--first-move-minutes", "0.02",
                                  "--message-rate", "1000")).start()
    ctx = person(browser)
    try:
        name_me(ctx, server, "Ada")
        table = create(ctx, server, "twenty", AGAINST)
        deadline = time.monotonic() + 30
        while server.table(table["table_id"])["status"] != "abandoned":  # nobody is at it
            assert time.monotonic() < deadline, "the idle table was not abandoned"
            time.sleep(0.1)
        page = new_page(ctx)
        sockets: list[str] = []
        page.on("websocket", lambda ws: sockets.append(ws.url))
        page.goto(table_url(server, table))
        result = page.locator("#result.abandoned")
        result.wait_for()
        assert result.locator("h2").inner_text() == "This table was abandoned: nobody played at it for a long time."
        assert result.locator("table.scores").count() == 1
        assert page.locator("#conn").is_hidden()
        page.wait_for_function("() => window.parlour.closed && window.parlour.ws.readyState === 3")
        assert len(sockets) == 1
        assert page.locator(".card.playable, .takeable").count() == 0
        shoot(page, "abandoned")
        no_errors(page)
    finally:
        ctx.close()
        server.stop()


def test_pages_keep_their_content_security_policy(server: ServerProcess, context: BrowserContext) -> None:
    """The home page, a table (every game's board, with the Twenty meter's width set by script) and the
    replay page (a record replayed) load with no CSP violation; the check itself sees one when a page
    sets a style attribute."""
    page = new_page(context)
    response = page.goto(server.url + "/")
    assert response is not None and "script-src 'self'" in response.headers["content-security-policy"]
    page.locator("#nt-start").wait_for()
    page.locator(".game-card[data-game='minus-twenty'] summary").click()
    page.locator(".game-card[data-game='minus-twenty'] .rules h4").first.wait_for()
    name_me(context, server, "Ada")
    for game, players in (("twenty", 2), ("minus-twenty", 2), ("silver-bars", 2), ("progression", 3)):
        table = create(context, server, game, [{"kind": "me"}] + [{"kind": "bot", "level": "easy"}] * (players - 1))
        page.goto(table_url(server, table))
        wait_turn_or_end(page)
        play_turns(page, 2)
        if game == "twenty":
            assert page.locator(".meter-fill").evaluate("e => e.style.width").endswith("%")
    page.locator("#replay-btn").click()
    page.locator("#replay-overlay").wait_for()
    page.goto(server.url + "/replay")
    page.set_input_files("#record-file", str(DATA / "silver-bars-hi-thief.json"))
    page.locator("#replay-counter").wait_for()
    page.locator("#replay-next").click()
    page.reload()
    page.locator("#record-file").wait_for()
    no_errors(page)
    # The check can fail: a style attribute is refused, and the refusal is reported.
    with page.expect_console_message(lambda m: "Content Security Policy" in m.text):
        page.evaluate("() => document.body.setAttribute('style', 'color: red')")
    assert page.csp, "a refused style attribute is reported"  # type: ignore[attr-defined]


def test_the_front_end_is_es_modules_served_as_javascript(server: ServerProcess, context: BrowserContext) -> None:
    """The page loads one module script, app.js, which imports every module of static/js/ and nothing
    else; each is served as JavaScript (a browser refuses a module of another type) and runs under the
    page's Content-Security-Policy."""
    static = Path(__file__).resolve().parents[2] / "src" / "parlour" / "web" / "static"
    page = new_page(context)
    scripts: dict[str, str] = {}
    page.on("response", lambda r: scripts.__setitem__(r.url, r.headers.get("content-type", ""))
            if r.url.endswith(".js") else None)
    page.goto(server.url + "/")
    page.locator("#nt-start").wait_for()
    tags = page.evaluate("() => Array.from(document.scripts).map(s => [s.type, s.getAttribute('src')])")
    assert tags == [["module", "/static/app.js"]]
    modules = {"/static/app.js"} | {f"/static/js/{f.name}" for f in (static / "js").glob("*.js")}
    assert {url.removeprefix(server.url) for url in scripts} == modules
    assert all(kind.startswith("text/javascript") for kind in scripts.values()), scripts
    no_errors(page)


def test_locked_vaults_fit_a_phone(server: ServerProcess, browser: Browser) -> None:
    """A replayed Silver Bars round with every vault locked, at 390 px: no vault header overflows."""
    ctx = person(browser, PHONE)
    try:
        page = new_page(ctx)
        page.goto(server.url + "/replay")
        page.set_input_files("#record-file", str(DATA / "silver-bars-perfect-round.json"))
        page.locator("#replay-counter").wait_for()
        page.locator("#replay-last").click()
        assert re.fullmatch(r"step (\d+) / \1", page.locator("#replay-counter").inner_text())
        locked = page.locator(".vault.locked")
        assert locked.count() >= 5
        overflow = page.evaluate("""() => Array.from(document.querySelectorAll('.col-head, .column'))
            .filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.textContent)""")
        assert not overflow, overflow
        assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
        shoot(page, "silver-bars-locked-vaults-phone")
        no_errors(page)
    finally:
        ctx.close()


def test_a_spectator_sees_no_card_in_any_hand(server: ServerProcess, browser: Browser) -> None:
    """Minus Twenty, a person against a bot, watched by a spectator: no hidden card reaches the
    spectator's page, neither in a frame nor on screen.  The same check finds the player's own hand
    in the player's frames, so it can fail."""
    ctx, watch_ctx = person(browser), person(browser, PHONE)
    try:
        name_me(ctx, server, "Ada")
        table = create(ctx, server, "minus-twenty", [{"kind": "me"}, {"kind": "bot", "level": "medium"}], rounds=1)
        player = new_page(ctx)
        player_frames = FrameLog(player)
        watcher = new_page(watch_ctx)
        watcher_frames = FrameLog(watcher)
        watcher.goto(table_url(server, table))
        wst = wait_state(watcher)
        assert wst["view"]["hand"] is None and wst["legal"] == []
        assert watcher.locator(".my-hand").count() == 0
        player.goto(table_url(server, table))
        wait_state(player)

        samples: list[tuple[int, set[str]]] = []
        for _ in range(400):
            st = wait_turn_or_end(player)
            if st["status"] != "playing":
                break
            click_a_move(player)
            wait_version_above(player, st["version"])
            samples.append(page_cards(watcher))
            if len(samples) == 12:
                shoot(watcher, "spectator-phone")
        assert state(player)["status"] == "finished"
        watcher.wait_for_function("() => window.parlour.state.status === 'finished'")
        samples.append(page_cards(watcher))

        states = states_by_version(record_of(server, table["table_id"]))
        assert len(samples) > 20
        shown_leaks = []
        for version, cards in samples:
            hidden = hidden_cards(states[version], None)
            for seat_known in states[version].observation(0)["known"]:
                hidden -= set(seat_known)
            if cards & hidden:
                shown_leaks.append(f"version {version}: {sorted(cards & hidden)}")
        assert not shown_leaks, shown_leaks
        state_frames = [f for f in watcher_frames.frames if f.get("type") == "state"]
        assert len(state_frames) > 20
        assert not leaks(watcher_frames.frames, states, known_ok=True)
        # The check is not blind: the player's own frames do hold cards of a hand.
        assert leaks(player_frames.frames, states, known_ok=True)
        no_errors(watcher)
        no_errors(player)
    finally:
        ctx.close()
        watch_ctx.close()


def test_the_move_log_shows_the_servers_words(server: ServerProcess, context: BrowserContext) -> None:
    """The log lists the server's sentences for this viewer ("You …" for my moves, the bot's name for its
    own), one per move of the round."""
    page = sit_down(context, server, "minus-twenty", [{"kind": "me"}, {"kind": "bot", "level": "medium"}])
    play_turns(page, 6)
    st = wait_turn_or_end(page)
    lines = page.locator("#log .move-line").all_inner_texts()
    assert st.get("moves") is not None, "the server words the moves"
    assert lines == [m["text"] for m in st["moves"]][-60:]
    assert len(lines) == len(st["view"]["moves"]) >= 6
    mine = [m["text"] for m in st["moves"] if m["seat"] == 0]
    theirs = [m["text"] for m in st["moves"] if m["seat"] == 1]
    assert mine and all(t.startswith("You ") for t in mine), mine
    assert theirs and all(t.startswith("Medium bot ") for t in theirs), theirs
    # The card I drew is named to me; the bot's never is.
    draws = [t for t in mine if t.startswith("You draw ")]
    assert draws and all(re.fullmatch(r"You draw (10|[2-9AJQK])[♣♦♥♠] from the draw pile", t) for t in draws), draws
    assert all(t == "Medium bot draws a card from the draw pile" for t in theirs if " draws " in t), theirs
    no_errors(page)


def test_the_hint_names_each_move_once_in_words(server: ServerProcess, context: BrowserContext) -> None:
    """"Play 9♣ on your ♣ meld — about 2.7 points better for you than your opponent, give or take 1.3":
    the move in words once, then the server's words for its estimate; a click on a suggestion plays it."""
    name_me(context, server, "Ada")
    table = create(context, server, "minus-twenty", AGAINST)
    page = new_page(context)
    page.goto(table_url(server, table))
    st = wait_turn_or_end(page)
    page.locator("#hint-btn").click()
    items = page.locator("#hints li")
    items.first.wait_for()
    hints = page.evaluate("() => window.parlour.hint")
    assert 1 <= items.count() == len(hints) <= 3
    for item, hint in zip(items.all(), hints, strict=True):
        text = item.inner_text().replace("\n", " ")
        assert hint["move"] not in text, f"the notation is not repeated: {text}"
        words = item.locator("button.hint-move").inner_text()
        assert re.match(r"(Play|Discard|Take|Draw) ", words), words
        assert text == f"{words} — {hint['outlook']}", text
        assert re.fullmatch(r"about ([0-9]+\.[0-9] points (better|worse) for you than|even with) your opponent"
                            r", give or take [0-9]+\.[0-9]", hint["outlook"]), hint["outlook"]
    shoot(page, "hint")
    move = hints[0]["move"]
    items.first.locator("button").click()
    after = wait_version_above(page, st["version"])
    assert after["view"]["moves"][-1] == move
    no_errors(page)


def marked(message: str | bytes) -> str | bytes:
    """A server message with its layout's words marked, so a page shows where each comes from:
    the game's name, the prompt, every move's words, the badges and the cards' tags."""
    data = json.loads(message)
    if data.get("type") != "state":
        return message
    layout = data["layout"]
    layout["name"] = "Layout " + layout["name"]
    if layout["prompt"]:
        layout["prompt"] = "layout prompt"
    for offer in layout["moves"]:
        offer["text"], offer["short"] = "T: " + offer["text"], "S: " + offer["short"]
    for seat in layout["seats"]:
        seat["badges"].append({"text": "from the layout", "title": None, "cls": "marked"})
    for role in layout["roles"].values():
        role["tag"] = "~" + role["tag"]
    return json.dumps(data)


@pytest.mark.parametrize("game", ["twenty", "silver-bars"])
def test_the_page_draws_the_table_from_the_layout(server: ServerProcess, context: BrowserContext, game: str) -> None:
    """The page knows no game: the move buttons say the server's words (the card picked's moves
    without the card), the badges and card tags are the layout's; change the layout on its way
    and the page shows the change."""
    page = sit_down(context, server, game, AGAINST)
    play_turns(page, 3)
    st = wait_turn_or_end(page)
    for _ in range(20):  # a turn with a card to play (not only a strike to resolve: the deal is random)
        if st["status"] != "playing" or any(o["card"] is not None for o in st["layout"]["moves"]):
            break
        play_turns(page, 1)
        st = wait_turn_or_end(page)
    assert st["status"] == "playing" and st["legal"]
    layout = st["layout"]
    offers = {o["move"]: o for o in layout["moves"]}
    assert page.locator("#table-head h1").inner_text() == layout["name"]
    assert page.locator("#turn").inner_text() == "Your turn — " + layout["prompt"]
    for seat, part in enumerate(layout["seats"]):
        badges = page.locator(f".seat-area[data-seat='{seat}'] .seat-head .badge").all_inner_texts()
        # the layout's badges, less the server's own: a bot's level, a total, a rating
        assert [b["text"] for b in part["badges"]] == [b for b in badges if not b.startswith(("bot ·", "total ", "★ "))]
    for card in page.locator(".my-hand .card").all():
        code = str(card.get_attribute("data-card"))
        assert card.locator(".tag").text_content() == layout["roles"][code]["tag"]
    free = page.locator("#actions button.move").all()
    assert [b.inner_text() for b in free] == [o["text"] for o in layout["moves"] if o["card"] is None]
    card = page.locator(".my-hand .card.playable").first
    code = str(card.get_attribute("data-card"))
    card.click()
    page.locator("#actions .action-label").wait_for()
    buttons = page.locator("#actions button.move").all()
    words = {str(b.get_attribute("data-move")): b.inner_text() for b in buttons}
    for move, offer in offers.items():
        assert words.get(move) == (offer["short"] if offer["card"] == code else offer["text"] if offer["card"] is None
                                   else None), move
    no_errors(page)

    # The same table through a connection whose layouts are marked on the way.
    address = page.url
    page.close()
    page = new_page(context)
    def through_a_marker(ws: WebSocketRoute) -> None:
        to_server = ws.connect_to_server()
        ws.on_message(to_server.send)
        to_server.on_message(lambda message: ws.send(marked(message)))

    page.route_web_socket(re.compile(r".*/ws/tables/.*"), through_a_marker)
    page.goto(address)
    st = wait_turn_or_end(page)
    assert page.locator("#table-head h1").inner_text() == "Layout " + layout["name"]
    assert page.locator("#turn").inner_text() == "Your turn — layout prompt"
    assert page.locator(".seat-head .badge.marked").count() == len(st["layout"]["seats"])
    assert all(t.startswith("~") for t in page.locator(".my-hand .card .tag").all_text_contents())
    page.locator(".my-hand .card.playable").first.click()
    page.locator("#actions .action-label").wait_for()
    texts = page.locator("#actions button.move").all_inner_texts()
    assert texts and all(t.startswith(("S: ", "T: ")) for t in texts), texts
    move = str(page.locator("#actions button.move").first.get_attribute("data-move"))
    page.locator("#actions button.move").first.click()
    after = wait_version_above(page, st["version"])
    made = len(st["view"]["moves"])  # the move was made (a bot may have answered already)
    assert after["view"]["round"] > st["view"]["round"] or after["view"]["moves"][made] == move
    shoot(page, f"{game}-marked-layout")
    no_errors(page)


class PluginServer(ServerProcess):
    """A server that plays Ladder too: tests/ladder.py, a plug-in named in ``PARLOUR_PLUGINS``."""

    def environment(self) -> dict[str, str]:
        env = super().environment()
        tests = str(DATA.parent)
        env["PARLOUR_PLUGINS"] = "ladder"
        env["PYTHONPATH"] = tests + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
        return env


def test_a_plugin_game_is_played_in_the_page_with_no_change_to_it(sqlite_url: str, tmp_path: Path,
                                                                  browser: Browser) -> None:
    """Ladder, registered in one file outside parlour, is played to its end by clicking: its
    registry entry's layout module is all the page needs."""
    plugin = PluginServer(sqlite_url, log_path=tmp_path / "server.log", extra=("--message-rate", "1000")).start()
    ctx = person(browser)
    try:
        page = sit_down(ctx, plugin, "ladder", AGAINST)
        assert page.locator("#table-head h1").inner_text() == "Ladder"
        assert page.locator(".seat-area .column[data-ladder]").count() == 2
        final = play_to_end([page])
        assert final["status"] == "finished"
        shoot(page, "ladder-plugin")
        no_errors(page)
    finally:
        ctx.close()


def test_reloading_resumes_at_the_same_position(server: ServerProcess, context: BrowserContext) -> None:
    page = sit_down(context, server, "minus-twenty", AGAINST)
    play_turns(page, 8)  # four turns of two moves
    before = wait_turn_or_end(page)
    hand_before = hand_in_page(page)
    assert len(hand_before) == 7
    page.reload()
    page.wait_for_function("v => window.parlour && window.parlour.state && window.parlour.state.version >= v",
                           arg=before["version"])
    after = state(page)
    assert after["version"] == before["version"]
    assert after["view"]["hand"] == before["view"]["hand"]
    assert after["view"]["moves"] == before["view"]["moves"]
    assert after["legal"] == before["legal"]
    assert hand_in_page(page) == hand_before
    shoot(page, "reload-resumed")
    assert play_turns(page, 2)
    no_errors(page)


def test_the_page_reconnects_after_a_server_crash(server: ServerProcess, context: BrowserContext) -> None:
    """SIGKILL mid-game; the page says it is reconnecting, finds the restarted server by itself,
    and the game goes on to the end with nothing lost."""
    page = sit_down(context, server, "twenty", [{"kind": "me"}, {"kind": "bot", "level": "medium"}])
    play_turns(page, 6)
    before = wait_turn_or_end(page)
    assert before["status"] == "playing" and before["legal"]
    server.kill()
    page.locator("#conn").wait_for(state="visible")
    assert "reconnecting" in page.locator("#conn").inner_text().lower()
    shoot(page, "reconnecting")
    page.wait_for_function("() => window.parlour.retry >= 2")  # it tried again, and failed, while the server was down
    server.restart()
    page.locator("#conn").wait_for(state="hidden", timeout=30_000)
    after = wait_state(page)
    assert after["version"] == before["version"]
    assert after["view"]["moves"] == before["view"]["moves"]
    assert after["view"]["hand"] == before["view"]["hand"]
    final = play_to_end([page])
    record = record_of(server, table_id_of(page))
    assert record["rounds"][0]["moves"][: len(before["view"]["moves"])] == before["view"]["moves"]
    assert record["totals"] == final["summary"]["totals"]
    check_final_sheet(page, final)
    shoot(page, "after-crash-final")
    no_errors(page)


def test_the_lobby_pages_through_open_tables_and_a_seat_is_joined(server: ServerProcess, browser: Browser) -> None:
    """23 tables with an open seat: the lobby shows 20 and a next page of 3; Bea joins one from it."""
    ada_ctx, bea_ctx = person(browser), person(browser, PHONE)
    others = [person(browser) for _ in range(3)]
    try:
        made = []
        for k in range(23):
            host = [ada_ctx, *others][k // 8]  # a player may have 10 tables being played
            made.append(create(host, server, "twenty", [{"kind": "bot", "level": "easy"}, {"kind": "open"}]))
        bea = new_page(bea_ctx)
        bea.goto(server.url + "/#lobby")
        bea.locator(".lobby-row").first.wait_for()
        assert bea.locator(".lobby-row").count() == 20
        assert "page 1 of 2" in bea.locator("#lobby .pager").inner_text()
        assert bea.locator("#lobby-prev").is_disabled()
        bea.locator("#lobby-next").click()
        bea.wait_for_function("() => document.querySelectorAll('.lobby-row').length === 3")
        assert "page 2 of 2" in bea.locator("#lobby .pager").inner_text()
        shoot(bea, "lobby-page-2-phone")
        oldest = made[0]["table_id"]
        row = bea.locator(f".lobby-row[data-table='{oldest}']")
        row.locator("button.join").click()
        bea.locator("#me-name").fill("Bea")  # no name chosen yet: the top bar asks first
        bea.locator("#me-save").click()
        bea.wait_for_url(re.compile(rf"/table/{oldest}$"))
        st = wait_state(bea)
        assert st["view"]["seat"] == 1 and st["seats"][1]["name"] == "Bea"
        no_errors(bea)
    finally:
        for ctx in (ada_ctx, bea_ctx, *others):
            ctx.close()


@pytest.mark.parametrize("viewport", ["laptop", "phone"])
def test_screenshots_of_every_game_mid_game(server: ServerProcess, browser: Browser, viewport: str) -> None:
    """Each game's table mid-game, with a card picked so its move buttons show (Progression with two bots);
    nothing sticks out of the page sideways, and every player is in the score table."""
    ctx = person(browser, LAPTOP if viewport == "laptop" else PHONE)
    try:
        name_me(ctx, server, "Ada")
        for game, players, turns in (("minus-twenty", 2, 14), ("progression", 3, 12), ("twenty", 2, 7),
                                     ("silver-bars", 2, 14)):
            seats = [{"kind": "me"}] + [{"kind": "bot", "level": "easy"}] * (players - 1)
            table = create(ctx, server, game, seats)
            page = new_page(ctx)
            page.goto(table_url(server, table))
            wait_state(page)
            play_turns(page, turns)
            st = wait_turn_or_end(page)
            if st["status"] == "playing" and page.locator(".my-hand .card.playable").count():
                page.locator(".my-hand .card.playable").last.click()
                page.locator("#actions button.move").first.wait_for()
            assert page.locator(".board").count() == 1
            overflow = page.evaluate("""() => Array.from(
                    document.querySelectorAll('.col-head, .seat-head, table.scores th, .hints li'))
                .filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.className + ': ' + e.textContent)""")
            assert not overflow, overflow
            wide = page.evaluate("""() => document.documentElement.scrollWidth <= window.innerWidth ? [] :
                Array.from(document.querySelectorAll('body *')).filter(e => e.getBoundingClientRect().right
                    > window.innerWidth + 1).map(e => `${e.tagName}.${e.className} (right ${
                    Math.round(e.getBoundingClientRect().right)} of ${window.innerWidth}): ${
                    (e.textContent || '').slice(0, 60)}`)""")
            if wide:
                shoot(page, f"{game}-{viewport}-too-wide")
            assert not wide, f"{game}: the page scrolls sideways: {wide[:8]}"
            for th in page.locator(".score-panel thead th").all():
                assert th.is_visible()
                box = th.bounding_box()
                panel = page.locator(".score-panel").bounding_box()
                assert box and panel and box["x"] + box["width"] <= panel["x"] + panel["width"] + 1, th.inner_text()
            shoot(page, f"{game}-{viewport}")
            no_errors(page)
            page.close()
    finally:
        ctx.close()


def test_a_long_replay_comes_a_page_at_a_time(server: ServerProcess, browser: Browser, tmp_path: Path) -> None:
    """The longest match the rules allow (100 rounds, some 20,000 steps) replays in the browser: the
    server sends a page of steps at a time, and the viewer fetches the page of the step it goes to."""
    from .test_replay_limits import capped_record

    path = tmp_path / "long.json"
    data = capped_record()
    path.write_text(json.dumps(data))
    ctx = person(browser)
    try:
        page = new_page(ctx)
        pages: list[str] = []
        page.on("request", lambda r: pages.append(r.url) if "/api/replay" in r.url else None)
        page.goto(server.url + "/replay")
        page.set_input_files("#record-file", str(path))
        page.locator("#replay-counter").wait_for()
        first = page.locator("#replay-counter").inner_text()
        total = int(first.split(" / ")[1])
        assert first == f"step 0 / {total}" and total > 10_000
        page.locator("#replay-last").click()
        page.wait_for_function("() => document.querySelector('#replay-counter').textContent === "
                               f"'step {total} / {total}' && document.querySelector('#replay-loading').hidden")
        assert page.locator(".replay-round").inner_text().startswith("Round 100")
        page.keyboard.press("ArrowLeft")
        assert page.locator("#replay-counter").inner_text() == f"step {total - 1} / {total}"
        assert len(pages) == 2 and "offset=0" in pages[0] and f"offset={(total // 100) * 100}" in pages[1], pages
        no_errors(page)
    finally:
        ctx.close()


def test_the_table_says_who_leads_why_undo_is_gone_and_refusals_in_plain_words(
    server: ServerProcess, context: BrowserContext
) -> None:
    """Issue 33's small words at the table: the round header says who leads the round; a refused move
    is told to its player in the second person with the log's card names, in a toast that leaves the
    hand uncovered; once a draw showed a hidden card, the page says why there is no undo."""
    page = sit_down(context, server, "minus-twenty", AGAINST)
    st = wait_turn_or_end(page)
    lead = page.locator("#lead").inner_text()
    first = st["moves"][0]["seat"] if st["moves"] else st["view"]["to_move"]
    assert lead == ("You lead this round" if first == 0 else "Easy bot leads this round"), lead
    hand = st["view"]["hand"]
    absent = next(c for c in ("2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC") if c not in hand)
    page.evaluate("m => window.parlour.send({type: 'move', move: m, version: window.parlour.state.version})",
                  f"play {absent}")
    toast = page.locator(".toast.error").first
    toast.wait_for()
    words = toast.inner_text()
    shown = absent.replace("T", "10").replace("C", "♣")
    assert words.startswith(f"{shown} is not in your hand (you hold "), words
    assert "Ada" not in words and "You's" not in words
    below = toast.bounding_box()
    cards = page.locator(".my-hand").bounding_box()
    assert below is not None and cards is not None
    assert below["y"] + below["height"] <= cards["y"], "the toast covers the hand"
    play_turns(page, 2)  # a play and a draw from the draw pile
    wait_turn_or_end(page)
    assert page.locator("#undo-btn").count() == 0
    assert page.locator("#undo-note").inner_text() == NO_UNDO_PAST_A_DRAW + "."
    no_errors(page)


def tied_progression(seed: int) -> State:
    """A one-round Progression match of seeded random moves, played to its end."""
    state = games.get("progression").new_match(seed=seed, options={"rounds": 1}, names=["Ann", "Bo", "Cy"])
    rng = random.Random(seed)
    while state.current_player() is not None:
        state.apply(rng.choice(state.legal_moves()))
    return state


def test_two_of_three_who_tie_share_the_win_in_the_result_panel(server: ServerProcess, context: BrowserContext) -> None:
    """Real ties of the engine (seeded Progression matches where two of the three end level) worded by the
    page's own result panel code: "You and Cy share the win", never "The match is a draw"."""
    page = new_page(context)
    page.goto(server.url + "/")
    page.locator("#nt-start").wait_for()
    for seed, winners in ((4, [0, 2]), (15, [1, 2])):
        state = tied_progression(seed)
        assert state.winners() == winners and len(set(state.totals)) == 2
        said = page.evaluate("""([winners, names]) => import("/static/js/panels.js").then(m =>
            [0, 1, 2, null].map(me => m.winnersText({summary: {winners: winners}}, names, me, true)))""",
                             [state.winners(), list(state.names)])
        won = [state.names[w] for w in winners]
        lost = next(s for s in range(3) if s not in winners)
        for me, text in zip([0, 1, 2, None], said, strict=True):
            if me in winners:
                other = state.names[next(w for w in winners if w != me)]
                assert text == f"★ You and {other} share the win", text
            else:
                assert text == f"★ {won[0]} and {won[1]} share the win", (me, lost, text)
    every = page.evaluate("""() => import("/static/js/panels.js").then(m =>
        m.winnersText({summary: {winners: [0, 1, 2]}}, ["Ann", "Bo", "Cy"], 0, true))""")
    assert every == "The match is a draw"
    no_errors(page)

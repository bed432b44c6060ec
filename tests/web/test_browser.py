"""The front end in a real browser (Debian's chromium, driven by Playwright).

People play whole matches by clicking highlighted cards and move buttons;
a spectator's page never holds a card that is in a hand; a reload and a
server crash (SIGKILL) resume the game where it was.  Every test saves a
screenshot of its table in ``$PARLOUR_SCREENSHOTS`` (default
``tests/web/screenshots/``) for review.
"""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, WebSocket, sync_playwright

from .conftest import ServerProcess, cards_in, hidden_cards, states_by_version

pytestmark = [pytest.mark.slow, pytest.mark.browser]

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync",
]
LAPTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
STEP_TIMEOUT = 20_000  # ms: a bot's move, a reconnect
SUIT_LETTER = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}


def screenshot_dir() -> Path:
    folder = Path(os.environ.get("PARLOUR_SCREENSHOTS") or Path(__file__).resolve().parent / "screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def shoot(page: Page, name: str) -> Path:
    path = screenshot_dir() / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


# -- fixtures -------------------------------------------------------------------

@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Debian's chromium, headless (nothing is downloaded)."""
    assert Path(CHROMIUM).exists(), f"{CHROMIUM} is missing: run scripts/test-setup.sh"
    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield chromium
        chromium.close()


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    ctx = browser.new_context(viewport=LAPTOP)
    ctx.set_default_timeout(STEP_TIMEOUT)
    yield ctx
    ctx.close()


def new_page(ctx: BrowserContext) -> Page:
    """A page that fails the test on any script error (and never shows an alert box)."""
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("dialog", lambda dialog: errors.append(f"dialog: {dialog.message}"))
    page.errors = errors  # type: ignore[attr-defined]
    return page


def no_errors(page: Page) -> None:
    errors = page.errors  # type: ignore[attr-defined]
    assert not errors, errors


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


def play_to_end(pages: list[Page], max_changes: int = 3000) -> dict[str, Any]:
    """Seated pages play by clicking until the match is finished; returns the final state."""
    for _ in range(max_changes):
        states = [state(p) for p in pages]
        first = states[0]
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
        if mover is None:  # a bot (or another page, not yet told) is to move
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


def create(server: ServerProcess, game: str, seats: list[dict[str, Any]], **options: Any) -> dict[str, Any]:
    return server.create_table(game, seats=seats, options=options)


def seat_url(server: ServerProcess, table: dict[str, Any], seat: int) -> str:
    url = str(table["seats"][seat]["url"])
    return url if url.startswith("http") else server.url + url


def record_of(server: ServerProcess, table_id: str) -> dict[str, Any]:
    answer = server.get(f"/api/tables/{table_id}/record")
    assert answer.status_code == 200, answer.text
    data: dict[str, Any] = answer.json()
    return data


def check_final_sheet(page: Page, final: dict[str, Any]) -> None:
    """The score sheet, the winner, the record link and the replay stepper at the match end."""
    result = page.locator("#result.final")
    result.wait_for()
    totals = final["summary"]["totals"]
    sheet = result.locator("table.scores")
    assert sheet.locator("tbody tr").count() == len(final["summary"]["rounds"])
    foot = sheet.locator("tfoot th").all_inner_texts()[1:]
    assert [t.replace("−", "-") for t in foot] == [str(t) for t in totals]
    heading = result.locator("h2").inner_text()
    assert "win" in heading or "draw" in heading, heading
    link = page.locator("#download-record")
    assert link.get_attribute("href", timeout=1000).endswith("/record")


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


# -- the tests ----------------------------------------------------------------

def test_twenty_against_a_bot_to_the_score_sheet(server: ServerProcess, context: BrowserContext) -> None:
    """From the home page's form to the final score sheet, by clicking cards."""
    page = new_page(context)
    page.goto(server.url + "/")
    page.locator(".game-card").first.wait_for()
    assert page.locator(".game-card").count() == 4
    page.locator(".game-card[data-game='twenty'] summary").click()
    page.locator(".game-card[data-game='twenty'] .rules h4").first.wait_for()
    shoot(page, "home")
    page.select_option("#nt-game", "twenty")
    page.fill("#nt-name", "Ada")
    page.select_option(".seat-kind[data-seat='1']", "bot:easy")
    page.locator("#nt-start").click()
    page.wait_for_url(re.compile(r"/table/[^#]+#token="))
    first = wait_state(page)
    assert first["view"]["game"] == "twenty" and first["view"]["seat"] == 0

    clicked = 0
    while True:
        st = wait_turn_or_end(page)
        if st["status"] == "finished":
            break
        if st["status"] == "round_over":
            page.locator("#result").wait_for()
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
    shoot(page, "twenty-final")
    record = record_of(server, table_id_of(page))
    assert record["totals"] == final["summary"]["totals"]
    check_replay(page)
    shoot(page, "twenty-replay")
    no_errors(page)


def table_id_of(page: Page) -> str:
    return str(page.evaluate("() => window.parlour.id"))


def sorted_cards(cards: list[str]) -> list[str]:
    ranks = "A23456789TJQK"
    return sorted(cards, key=lambda c: (9 if c == "JK" else "CDHS".index(c[1]), -1 if c == "JK" else ranks.index(c[0])))


def test_two_people_play_minus_twenty_with_an_invite_link(server: ServerProcess, browser: Browser) -> None:
    """Ada starts a table with a friend seat from the form; Bea opens the invite link; they play to the end."""
    ada_ctx = browser.new_context(viewport=LAPTOP)
    bea_ctx = browser.new_context(viewport=PHONE)
    try:
        for ctx in (ada_ctx, bea_ctx):
            ctx.set_default_timeout(STEP_TIMEOUT)
        ada = new_page(ada_ctx)
        ada.goto(server.url + "/")
        ada.select_option("#nt-game", "minus-twenty")
        ada.fill("#nt-name", "Ada")
        ada.select_option(".seat-kind[data-seat='1']", "friend")
        ada.fill("#opt-rounds", "1")
        ada.locator("#nt-start").click()
        ada.wait_for_url(re.compile(r"/table/"))
        wait_state(ada)
        invite = ada.locator(".invite-url[data-seat='1']")
        link = invite.input_value()
        assert "#token=" in link
        assert ada.locator(".invites button", has_text="Copy").count() >= 1

        bea = new_page(bea_ctx)
        bea.goto(link)
        st = wait_state(bea)
        assert st["view"]["seat"] == 1
        assert st["view"]["options"]["rounds"] == 1
        final = play_to_end([ada, bea])
        assert final["status"] == "finished"
        for page in (ada, bea):
            check_final_sheet(page, state(page))
        shoot(ada, "minus-twenty-two-people-ada")
        shoot(bea, "minus-twenty-two-people-bea-phone")
        record = record_of(server, table_id_of(ada))
        assert len(record["rounds"]) == 1
        assert record["totals"] == final["summary"]["totals"]
        no_errors(ada)
        no_errors(bea)
    finally:
        ada_ctx.close()
        bea_ctx.close()


def page_cards(page: Page) -> tuple[int, set[str]]:
    """The version the page shows and every card it names: card elements, and cards in its text
    (in notation, ``7H``, or as printed, ``7♥``)."""
    got = page.evaluate(
        """() => ({version: window.parlour && window.parlour.state ? window.parlour.state.version : -1,
                   cards: Array.from(document.querySelectorAll('[data-card]')).map(e => e.dataset.card),
                   text: document.body.innerText})"""
    )
    text = re.sub(r"\b(10|[2-9AJQK])([♣♦♥♠])", lambda m: ("T" if m[1] == "10" else m[1]) + SUIT_LETTER[m[2]],
                  got["text"])
    return int(got["version"]), set(got["cards"]) | cards_in(text)


class FrameLog:
    """Every WebSocket frame a page receives."""

    def __init__(self, page: Page) -> None:
        self.frames: list[dict[str, Any]] = []
        page.on("websocket", self._socket)

    def _socket(self, ws: WebSocket) -> None:
        def received(payload: str | bytes) -> None:
            self.frames.append(json.loads(payload))
        ws.on("framereceived", received)


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
        bad = cards_in(frame) & hidden
        if bad:
            found.append(f"version {version}, {frame.get('type')}: {sorted(bad)}")
    return found


def test_a_spectator_sees_no_card_in_any_hand(server: ServerProcess, browser: Browser) -> None:
    """Minus Twenty, a person against a bot, watched by a spectator: no hidden card reaches the
    spectator's page, neither in a frame nor on screen.  The same check finds the player's own hand
    in the player's frames, so it can fail."""
    seats = [{"kind": "me", "name": "Ada"}, {"kind": "bot", "level": "medium"}]
    table = create(server, "minus-twenty", seats, rounds=1)
    ctx = browser.new_context(viewport=LAPTOP)
    watch_ctx = browser.new_context(viewport=PHONE)
    try:
        ctx.set_default_timeout(STEP_TIMEOUT)
        watch_ctx.set_default_timeout(STEP_TIMEOUT)
        player = new_page(ctx)
        player_frames = FrameLog(player)
        watcher = new_page(watch_ctx)
        watcher_frames = FrameLog(watcher)
        watcher.goto(server.url + f"/table/{table['table_id']}")
        wst = wait_state(watcher)
        assert wst["view"]["hand"] is None and wst["legal"] == []
        assert watcher.locator(".my-hand").count() == 0
        player.goto(seat_url(server, table, 0))
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


def test_reloading_resumes_at_the_same_position(server: ServerProcess, context: BrowserContext) -> None:
    table = create(server, "minus-twenty", [{"kind": "me", "name": "Ada"}, {"kind": "bot", "level": "easy"}])
    page = new_page(context)
    page.goto(seat_url(server, table, 0))
    wait_state(page)
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
    table = create(server, "twenty", [{"kind": "me", "name": "Ada"}, {"kind": "bot", "level": "medium"}])
    page = new_page(context)
    page.goto(seat_url(server, table, 0))
    wait_state(page)
    play_turns(page, 6)
    before = wait_turn_or_end(page)
    assert before["status"] == "playing" and before["legal"]
    server.kill()
    page.locator("#conn").wait_for(state="visible")
    assert "reconnecting" in page.locator("#conn").inner_text().lower()
    shoot(page, "reconnecting")
    time.sleep(1.0)
    server.restart()
    page.locator("#conn").wait_for(state="hidden", timeout=30_000)
    after = wait_state(page)
    assert after["version"] == before["version"]
    assert after["view"]["moves"] == before["view"]["moves"]
    assert after["view"]["hand"] == before["view"]["hand"]
    final = play_to_end([page])
    record = record_of(server, table["table_id"])
    assert record["rounds"][0]["moves"][: len(before["view"]["moves"])] == before["view"]["moves"]
    assert record["totals"] == final["summary"]["totals"]
    check_final_sheet(page, final)
    shoot(page, "after-crash-final")
    no_errors(page)


@pytest.mark.parametrize("viewport", ["laptop", "phone"])
def test_screenshots_of_every_game_mid_game(server: ServerProcess, browser: Browser, viewport: str) -> None:
    """Each game's table mid-game, with a card picked so its move buttons show (Progression with two bots)."""
    ctx = browser.new_context(viewport=LAPTOP if viewport == "laptop" else PHONE)
    ctx.set_default_timeout(STEP_TIMEOUT)
    try:
        for game, players, turns in (("minus-twenty", 2, 14), ("progression", 3, 12), ("twenty", 2, 7),
                                     ("silver-bars", 2, 14)):
            seats = [{"kind": "me", "name": "Ada"}] + [{"kind": "bot", "level": "easy"}] * (players - 1)
            table = create(server, game, seats)
            page = new_page(ctx)
            page.goto(seat_url(server, table, 0))
            wait_state(page)
            play_turns(page, turns)
            st = wait_turn_or_end(page)
            if st["status"] == "playing" and page.locator(".my-hand .card.playable").count():
                page.locator(".my-hand .card.playable").last.click()
                page.locator("#actions button.move").first.wait_for()
            assert page.locator(".board").count() == 1
            shoot(page, f"{game}-{viewport}")
            no_errors(page)
            page.close()
    finally:
        ctx.close()

"""The post-game review in a real browser: "Review" in the result panel of a finished match opens the
replay with the review worked out, and the replay jumps from mistake to mistake; a spectator's replay
offers no review."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext

from parlour import record, review

from .conftest import DATA, ServerProcess
from .test_browser import LAPTOP, new_page, no_errors, shoot
from .test_review import finished_table

pytestmark = [pytest.mark.slow, pytest.mark.browser]

REVIEW_TIMEOUT = 120_000  # ms: the whole match judged by the hint level's search


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    ctx = browser.new_context(viewport=LAPTOP)
    ctx.set_default_timeout(20_000)
    yield ctx
    ctx.close()


def test_review_jumps_from_mistake_to_mistake(server: ServerProcess, context: BrowserContext) -> None:
    table_id, ann = finished_table(server)  # Ann's moves are random: the review finds mistakes
    context.add_cookies([{"name": name, "value": value, "url": server.url} for name, value in ann.http.cookies.items()])
    page = new_page(context)
    page.goto(f"{server.url}/table/{table_id}")
    page.locator("#review-match").click()
    page.locator("#replay-overlay #review-accuracy").wait_for(timeout=REVIEW_TIMEOUT)
    status = ann.get(f"/api/tables/{table_id}/review").json()
    steps = [step for j, step in zip(status["review"]["judgements"], status["steps"], strict=True) if j["mistake"]]
    assert steps, "random play with no mistake"
    total = page.locator("#replay-counter").inner_text().split(" / ")[1]
    # Opened at the first mistake: the position where Ann chose, and the sentence of the mistake.
    assert page.locator("#replay-counter").inner_text() == f"step {steps[0]} / {total}"
    line = page.locator("#review-line").inner_text()
    assert re.match(r"Mistake 1 of \d+ · Round \d, move \d+: you played “.+”; the computer preferred “.+” "
                    r"\(−\d+\.\d points\)", line), line
    shown = int(status["review"]["accuracy"] + 0.5)  # rounded half up, as the page's Math.round does
    assert page.locator("#review-accuracy").inner_text() == f"Review: accuracy {shown}%"
    shoot(page, "review-twenty")
    if len(steps) > 1:
        page.locator("#review-next").click()
        assert page.locator("#replay-counter").inner_text() == f"step {steps[1]} / {total}"
        assert page.locator("#review-line").inner_text().startswith(f"Mistake 2 of {len(steps)} · ")
    page.locator("#review-prev").click()
    assert page.locator("#replay-counter").inner_text() == f"step {steps[0]} / {total}"
    page.locator(".review-all summary").click()
    page.locator(".review-mistake").last.click()
    assert page.locator("#replay-counter").inner_text() == f"step {steps[-1]} / {total}"
    no_errors(page)

    # Closed and opened again from the replay button: the stored review, with no new work.
    page.locator("#replay-close").click()
    page.locator("#replay-btn").click()
    page.locator("#replay-overlay #review-accuracy").wait_for()
    no_errors(page)


def test_a_spectators_replay_offers_no_review(server: ServerProcess, context: BrowserContext) -> None:
    table_id, _ann = finished_table(server)
    page = new_page(context)
    page.goto(f"{server.url}/table/{table_id}")
    page.locator("#replay-match").wait_for()
    assert page.locator("#review-match").count() == 0
    page.locator("#replay-match").click()
    page.locator("#replay-counter").wait_for()
    page.wait_for_load_state("networkidle")
    assert page.locator("#review").is_hidden()
    no_errors(page)


def test_the_replay_page_reviews_the_seat_picked(server: ServerProcess, context: BrowserContext) -> None:
    """An uploaded record: pick your seat, ask for the review, and the replay jumps to your mistakes."""
    raw = (DATA / "twenty-illustrative.json").read_bytes()
    page = new_page(context)
    page.goto(server.url + "/replay")
    page.set_input_files("#record-file", str(DATA / "twenty-illustrative.json"))
    page.locator("#replay-counter").wait_for()
    assert page.locator("#review-seat option").all_inner_texts() == ["Albert", "Bertha"]
    page.locator("#review-seat").select_option("1")
    page.locator("#review-start").click()
    page.locator("#review-accuracy").wait_for(timeout=REVIEW_TIMEOUT)
    status = server.get(f"/api/reviews/{hashlib.sha256(raw).hexdigest()}", params={"seat": 1}).json()
    expected = review.review(record.loads(raw), 1).to_data()
    assert status["review"] == expected
    shown = int(expected["accuracy"] + 0.5)
    assert page.locator("#review-accuracy").inner_text() == f"Review: accuracy {shown}%"
    steps = [step for j, step in zip(expected["judgements"], status["steps"], strict=True) if j["mistake"]]
    if steps:
        total = page.locator("#replay-counter").inner_text().split(" / ")[1]
        page.locator("#review-next").click()
        assert page.locator("#replay-counter").inner_text() == f"step {steps[0]} / {total}"
        assert page.locator("#review-line").inner_text().startswith(f"Mistake 1 of {len(steps)} · Round ")
    else:
        assert page.locator("#review-line").inner_text().startswith("No mistakes")
    shoot(page, "review-replay-page")
    # The other seat: its own review, not asked for yet.
    page.locator("#review-seat").select_option("0")
    page.locator("#review-start").wait_for()
    no_errors(page)

"""The guided first matches in the browser: a lesson's page, as JSON, from the learner's answers.

The server keeps no lesson.  Each request brings every answer the learner has given so far (``next``
at a step that tells something, a move in notation at a step that asks for one); the lesson is
walked again from the tutorial's start (:class:`parlour.learn.Lesson`, a few dozen moves), and the
page says where it is now: what has been said, the step waiting, the learner's view of the table
with its layout (the same one a real table is drawn from), and, once the round is over, its scoring.
An answer the lesson does not accept stops the walk there: the page says why (in the words of the
rule) and how many answers it accepted, so the browser keeps only those.  The browser holds no rule.
"""

from __future__ import annotations

from typing import Any

from parlour import games, learn
from parlour.web import layouts
from parlour.web.tables import TableError

MAX_ANSWERS = 400
"""The most answers a request may bring (every tutorial has far fewer steps)."""
MAX_ANSWER = 100
"""The longest answer looked at, in characters (a move is a few)."""

ANSWERS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "answers": {
            "type": "array", "maxItems": MAX_ANSWERS, "items": {"type": "string", "maxLength": MAX_ANSWER},
            "description": "every answer so far: 'next' at a step that tells something, a move at one that asks",
        },
    },
    "required": ["answers"],
}
"""The request body, for the API's description (:mod:`parlour.web.openapi`)."""


def tutorials() -> list[dict[str, str]]:
    """Every game with a tutorial: its id, name and the tutorial's title."""
    found = []
    for game_id in games.ids():
        if learn.has_tutorial(game_id):
            found.append({"game": game_id, "name": games.get(game_id).name, "title": learn.tutorial(game_id).title})
    return found


def read_answers(data: Any) -> list[str]:
    """The answers of a request body (``{"answers": [...]}``); :class:`TableError` saying what is wrong."""
    if not isinstance(data, dict) or "answers" not in data:
        raise TableError('the request body is {"answers": [...]}, the answers given so far')
    answers = data["answers"]
    if not isinstance(answers, list) or not all(isinstance(a, str) for a in answers):
        raise TableError("answers is a list of texts")
    if len(answers) > MAX_ANSWERS:
        raise TableError(f"at most {MAX_ANSWERS} answers")
    if any(len(a) > MAX_ANSWER for a in answers):
        raise TableError(f"an answer is at most {MAX_ANSWER} characters")
    return answers


def lesson_page(game_id: str, answers: list[str]) -> dict[str, Any]:
    """The lesson of ``game_id`` after ``answers`` (see the module docstring)."""
    try:
        known = learn.has_tutorial(game_id)
    except ValueError as exc:
        raise TableError(str(exc), 404) from None
    if not known:
        raise TableError(f"{games.get(game_id).name} has no tutorial", 404)
    lesson = learn.Lesson(learn.tutorial(game_id))
    accepted, refused = 0, None
    for text in answers:
        reply = lesson.answer(text)
        if not reply.ok:
            refused = reply
            break
        accepted += 1
    state, step = lesson.state, lesson.step
    view = state.observation(lesson.seat)
    asking = step is not None and step.kind == learn.ASK
    return {
        "game": game_id,
        "title": lesson.tutorial.title,
        "seat": lesson.seat,
        "names": list(state.names),
        "accepted": accepted,
        "ok": refused is None,
        "message": refused.message if refused is not None else None,
        "step": {
            "index": lesson.index, "count": len(lesson.tutorial.steps),
            "kind": step.kind if step is not None else None, "text": step.text if step is not None else "",
        },
        "said": list(lesson.said),
        "view": view,
        "layout": layouts.table_layout(view, layouts.offers(state) if asking else []),
        "done": lesson.done,
        "scoring": lesson.scoring(),
    }

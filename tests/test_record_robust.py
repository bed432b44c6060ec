"""Issue 17: every bad record file gives one clear line, never a traceback or a hang.

Through the real ``parlour`` command (replay, replay --json, hint), and a
property-based test that feeds random bytes and mutated golden records to the
reader: the answer is a replay or a :class:`RecordError`, never anything else.
"""

from __future__ import annotations

import json
import math
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import DATA, run_parlour
from parlour import record
from parlour.record import RecordError

GOLDEN = sorted(p for p in DATA.glob("*.json"))
TEXTS = [p.read_text(encoding="utf-8") for p in GOLDEN]
TWENTY = (DATA / "twenty-illustrative.json").read_text(encoding="utf-8")
COMMANDS = [("replay",), ("replay", "--json"), ("hint",)]


def _truncated() -> bytes:
    cut = TWENTY.index('"play', TWENTY.index('"moves"')) + 4  # inside a move's string
    return TWENTY[:cut].encode()


BAD_FILES: dict[str, bytes] = {
    "nested": b"[" * 100_000 + b"]" * 100_000,
    "truncated": _truncated(),
    "not-utf8": b'{"format": "parlour-record/1", "game": "tw\xffenty"}',
    "latin1": "{\"players\": [\"Zo\u00eb\"]}".encode("latin-1"),
    "empty": b"",
    "blank": b" \n\t\n",
    "array": b"[1, 2]",
    "number": b"1" * 5000,
    "huge-first": TWENTY.replace('"first": 0', '"first": 1e400').encode(),
    "markup": b'{"format": "[bold]x[/] [/red]"}',
    "deep-meta": TWENTY.replace('"format"', '"meta": {"x": ' + "[" * 5000 + "]" * 5000 + '},\n "format"', 1).encode(),
}


def check_one_line(result: Any, args: tuple[str, ...]) -> str:
    """The command failed with one line on stderr (or one JSON object on stdout for --json)."""
    assert result.returncode != 0, (args, result.stdout, result.stderr)
    assert "Traceback" not in result.stderr + result.stdout, (args, result.stderr)
    if "--json" in args:
        answer = json.loads(result.stdout)
        assert isinstance(answer, dict) and answer["ok"] is False, answer
        assert isinstance(answer["error"], str) and "\n" not in answer["error"]
        return str(answer["error"])
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, (args, result.stderr)
    assert result.stdout == "", (args, result.stdout)
    return lines[0]


@pytest.mark.parametrize("args", COMMANDS, ids=" ".join)
@pytest.mark.parametrize("name", sorted(BAD_FILES))
def test_a_bad_file_gives_one_clear_line(tmp_path: Path, name: str, args: tuple[str, ...]) -> None:
    path = tmp_path / f"{name}.json"
    path.write_bytes(BAD_FILES[name])
    line = check_one_line(run_parlour(*args, str(path), timeout=60), args)
    assert "round 0, move 0" not in line and " at at " not in line, line
    if name == "nested":
        assert "nested too deeply" in line
    if name == "truncated":
        last_line = _truncated().count(b"\n") + 1
        assert "not valid JSON" in line and f"line {last_line} " in line and "cut short" in line, line
    if name in ("not-utf8", "latin1"):
        assert "not UTF-8" in line
    if name in ("empty", "blank"):
        assert "empty" in line


@pytest.mark.parametrize("args", COMMANDS, ids=" ".join)
def test_a_directory_or_a_missing_file_gives_one_clear_line(tmp_path: Path, args: tuple[str, ...]) -> None:
    assert "Is a directory" in check_one_line(run_parlour(*args, str(tmp_path)), args)
    line = check_one_line(run_parlour(*args, str(tmp_path / "nowhere.json")), args)
    assert "No such file" in line and "round 0" not in line


def test_a_record_with_a_byte_order_mark_replays(tmp_path: Path) -> None:
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + TWENTY.encode())
    result = run_parlour("replay", "--json", str(path))
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["totals"] == [82, 110]
    assert run_parlour("replay", str(path)).returncode == 0
    assert record.loads(b"\xef\xbb\xbf" + TWENTY.encode()).players == ["Albert", "Bertha"]
    assert record.replay(record.loads("\ufeff" + TWENTY)).totals == [82, 110]


def test_errors_with_a_place_keep_their_round_and_move() -> None:
    data = json.loads(TWENTY)
    data["rounds"][0]["scores"] = [1, 2]
    with pytest.raises(RecordError) as info:
        record.replay(record.from_data(data))
    assert str(info.value).startswith("round 1, move 50: ")
    data["rounds"][0]["moves"][2] = "x" * 100_000 + "\n"
    with pytest.raises(RecordError) as info:
        record.replay(record.from_data(data))
    assert (info.value.round, info.value.move) == (1, 3)
    assert "\n" not in str(info.value) and len(str(info.value)) < 300


# -- the property: a replay or a RecordError, nothing else ------------------------------

def outcome(source: str | bytes) -> None:
    """Read and replay ``source``: it replays, or it raises one short one-line RecordError."""
    try:
        record.replay(record.loads(source))
    except RecordError as exc:
        text = str(exc)
        assert text.strip() and "\n" not in text and len(text) < 300, text
        assert isinstance(exc.round, int) and isinstance(exc.move, int)
        if exc.round == 0:
            assert not text.startswith("round 0")


JUNK = "[]{}\",:.-+0123456789eE truefalsnul\\\n\t\ufeff\u00e9\U0001f0a1x"

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.integers(min_value=10**30, max_value=10**60)
    | st.floats(allow_nan=True) | st.text(max_size=12) | st.sampled_from(["7H", "JK", "play 7H", "draw", ""]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)


@st.composite
def text_mutants(draw: st.DrawFn, depths: tuple[int, ...] = (1, 3, 100, 5000)) -> str:
    """A golden record's text with characters deleted, duplicated, replaced, truncated or nested."""
    text = draw(st.sampled_from(TEXTS))
    for _ in range(draw(st.integers(1, 4))):
        if not text:
            break
        i = draw(st.integers(0, len(text) - 1))
        j = min(len(text), i + draw(st.integers(1, 40)))
        kind = draw(st.sampled_from(["delete", "duplicate", "replace", "truncate", "nest", "insert"]))
        if kind == "delete":
            text = text[:i] + text[j:]
        elif kind == "duplicate":
            text = text[:j] + text[i:j] + text[j:]
        elif kind == "replace":
            text = text[:i] + draw(st.text(alphabet=JUNK, min_size=1, max_size=3)) + text[i + 1:]
        elif kind == "truncate":
            text = text[:i]
        elif kind == "nest":
            depth = draw(st.sampled_from(depths))
            text = text[:i] + "[" * depth + text[i:j] + "]" * depth + text[j:]
        else:
            text = text[:i] + draw(st.text(alphabet=JUNK, max_size=8)) + text[i:]
    return text


@st.composite
def data_mutants(draw: st.DrawFn) -> str:
    """A golden record with one value somewhere replaced (wrong type, huge, nested) or removed."""
    data = json.loads(draw(st.sampled_from(TEXTS)))
    for _ in range(draw(st.integers(1, 3))):
        node: Any = data
        while True:  # walk down to a random container
            children = list(node.items()) if isinstance(node, dict) else list(enumerate(node))
            containers = [(k, v) for k, v in children if isinstance(v, (dict, list)) and v]
            if not containers or draw(st.integers(0, 3)) == 0:
                break
            node = draw(st.sampled_from(containers))[1]
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        if not keys:
            continue
        key = draw(st.sampled_from(keys))
        action = draw(st.sampled_from(["set", "set", "delete", "wrap", "deep"]))
        if action == "set":
            node[key] = draw(json_values)
        elif action == "delete":
            del node[key]
        elif action == "wrap":
            node[key] = [node[key]]
        else:
            value: Any = node[key]
            for _ in range(draw(st.sampled_from([10, 70, 400]))):
                value = [value]
            node[key] = value
    return json.dumps(data, allow_nan=True, default=str)


ROBUST = settings(
    derandomize=True, max_examples=300, deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@ROBUST
@given(st.binary(max_size=400))
def test_random_bytes_give_a_replay_or_a_record_error(raw: bytes) -> None:
    outcome(raw)


@ROBUST
@given(text_mutants())
def test_mutated_golden_texts_give_a_replay_or_a_record_error(text: str) -> None:
    outcome(text)


@ROBUST
@given(data_mutants())
def test_mutated_golden_values_give_a_replay_or_a_record_error(text: str) -> None:
    outcome(text)


@settings(derandomize=True, max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(text_mutants().map(str.encode), st.binary(max_size=200)), st.booleans())
def test_mutated_files_give_a_replay_or_a_record_error(raw: bytes, bom: bool) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "record.json"
        path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + raw)
        try:
            record.replay(record.load(path))
        except RecordError as exc:
            assert "\n" not in str(exc) and len(str(exc)) < 300


def test_every_golden_record_still_reads() -> None:
    for text in TEXTS:
        try:
            record.replay(record.loads(text))
        except RecordError as exc:
            assert math.isfinite(exc.round)

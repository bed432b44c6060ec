"""The plumbing of ``benchmarks/baselines.py``: a tiny training run of each algorithm, a
couple of evaluation deals, and the JSON it writes (its fields and intervals).

It checks what holds for any seed (intervals hold their estimates, win rates are rates,
a deal is played from every seat), never how well a few hundred steps learned."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")
pytest.importorskip("stable_baselines3")

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import baselines


def test_help_and_bad_names(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_help:
        baselines.parse(["--help"])
    assert exit_help.value.code == 0
    assert "--steps" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        baselines.parse(["--games", "chess"])
    args = baselines.parse([])
    assert args.games == list(baselines.GAMES) and args.algos == ["ppo", "dqn"]
    assert args.opponents == ["random", "medium"] and args.against == ["random", "medium", "hard"]
    assert baselines.parse(["--opponents", "sparring", "--against", "sparring,hard"]).against == ["sparring", "hard"]


def test_a_tiny_grid_writes_its_json(tmp_path: Path) -> None:
    out = tmp_path / "b.json"
    args = baselines.parse(["--games", "twenty", "--algos", "ppo,dqn", "--opponents", "random",
                            "--against", "random,medium", "--steps", "300", "--deals", "2",
                            "--seed", "7", "--out", str(out), "--quiet"])
    result = baselines.run(args)
    assert json.loads(out.read_text()) == json.loads(json.dumps(baselines._finite(result)))
    protocol = result["protocol"]
    assert protocol["seed"] == 7 and protocol["train_steps"] == 300
    assert protocol["eval_deals"] == {"random": 2, "medium": 2}
    assert [(r["game"], r["algo"], r["train_opponent"]) for r in result["runs"]] == [
        ("twenty", "ppo", "random"), ("twenty", "dqn", "random")]
    for run in result["runs"]:
        assert set(run["eval"]) == {"random", "medium"}
        for ev in run["eval"].values():
            assert ev["deals"] == 2 and ev["matches"] == 4  # two seats a deal
            low, high = ev["win_ci"]
            assert 0.0 <= low <= ev["win_rate"] <= high <= 1.0
            halves = ev["win_rate"] * ev["matches"] * 2  # a shared top counts half a win
            assert halves == pytest.approx(round(halves))
            low, high = ev["margin_ci"]
            assert low <= ev["margin"] <= high
            assert ev["margin"] == pytest.approx(np.mean(ev["per_deal_margin"]))
            assert ev["steps"] > 0
    table = baselines.markdown([json.loads(out.read_text())]).splitlines()
    assert table[0].startswith("| game | algorithm | trained against |") and "vs medium: win" in table[0]
    assert len(table) == 2 + len(result["runs"]) and table[2].startswith("| twenty | MaskablePPO | random | 300 |")
    first = result["runs"][0]["eval"]["random"]
    assert f"{first['win_rate']:.1%} (" in table[2] and f"of {first['matches']}" in table[2]


def test_evaluation_is_duplicate_and_seeded() -> None:
    """The same deals from every seat: a policy that plays the first legal action scores the
    same each time, and the deal's seatings are what the margin averages."""
    def first(_obs: np.ndarray, mask: np.ndarray) -> int:
        return int(np.flatnonzero(mask)[0])

    one = baselines.evaluate(first, "twenty", "medium", deals=2, seed=3)
    two = baselines.evaluate(first, "twenty", "medium", deals=2, seed=3)
    assert one.per_deal_margin == two.per_deal_margin and one.win_rate == two.win_rate
    env = baselines.ParlourEnv("twenty", opponent="medium")
    seed = baselines.deal_seed(3, 0)
    margins = [baselines.play(first, env, seed, seat)[1] for seat in (0, 1)]
    assert one.per_deal_margin[0] == pytest.approx(sum(margins) / 2)


def test_masked_dqn_only_plays_legal_actions() -> None:
    """Masked exploration (ε = 1) and masked greed (ε = 0) both pick legal actions only."""
    env = baselines.make_env("twenty", "random")
    model = baselines.build("dqn", env, seed=1, steps=300)
    obs, _info = env.reset(seed=1)
    mask = env.unwrapped.action_masks()
    for epsilon in (0.0, 1.0):
        for _ in range(20):
            action = baselines.masked_dqn_actions(model, obs[None], mask[None], epsilon)[0]
            assert mask[action]

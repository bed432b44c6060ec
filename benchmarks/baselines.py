"""Learning baselines under a fixed protocol: MaskablePPO and DQN on each game, trained
against a parlour bot, then evaluated against random, medium and hard on duplicate deals.

    python benchmarks/baselines.py                       # the whole grid, defaults below
    python benchmarks/baselines.py --games twenty --algos ppo --opponents random \\
        --steps 20000 --deals 50 --against random,medium --out /tmp/b.json
    python benchmarks/baselines.py --vector 16 --games minus-twenty --algos ppo --opponents random \\
        --steps 1000000 --against random,medium --out /tmp/v.json   # on the compiled engine

Needs ``stable-baselines3`` and ``sb3-contrib`` (and ``torch``).  Everything runs on one
thread (``torch.set_num_threads(1)``).

The protocol (what ``docs/baselines.json`` records under ``protocol``):

* **Episodes.**  One episode is one round (the rule options in :data:`EPISODE_OPTIONS`:
  ``rounds=1`` in Minus Twenty and Progression, ``max_rounds=1`` in 100 Silver Bars); a
  match of Twenty (two rounds, 50 moves of the learner) is short enough to be played whole.
  The learner's seat is drawn at random in training.
* **Reward.**  The Gymnasium env's reward (the learner's score minus the others' mean, paid at
  the end), scaled by the env's own default ``reward_scale`` where the env has that option,
  else divided by :data:`FALLBACK_SCALE`.  Evaluation reads the unscaled scores.
* **Training.**  A fixed budget of environment steps (the learner's moves, ``--steps``) per
  agent, seeded with ``--seed``.  MaskablePPO (sb3-contrib) with its defaults and the env's
  ``action_masks()``.  DQN (stable-baselines3) with the illegal actions *masked at
  prediction*: both its ε-random exploration and its greedy move choose among the legal
  actions only (:class:`MaskedDQN`), so no illegal action ever reaches the env (which
  raises on one); the bootstrap target is SB3's own, a max over all actions of the next
  state, legal or not (a known overestimation that we leave as SB3 has it).
* **The vector env** (``--vector N``, needs ``parlour[fast]``): MaskablePPO trains on the
  compiled engine instead (:class:`parlour.batch.sb3.BatchVecEnv`): N matches side by side
  against uniformly random opponents, the learner in seat ``i % players`` of match ``i``, the
  same episodes, observations, masks and rewards; ``n_steps`` is 2048 / N a match, so that a
  rollout holds the library's default 2048 moves and the updates are the same.  Evaluation is
  unchanged (the rules engine's Gymnasium env, below).
* **Evaluation.**  Duplicate deals: deal ``d`` is dealt from ``deal_seed(seed, d)`` (as
  ``parlour arena`` does) and played once with the learner in every seat, the opponent bot
  in the others, the learner acting greedily (deterministic).  A match is won when the
  learner's score is the highest (a shared top counts half).  95% intervals: Wilson's over
  matches for the win rate; for the mean margin (learner's score minus the others' mean),
  the normal interval over deals (each deal's seatings averaged, so the deal's luck cancels).
"""

from __future__ import annotations

import argparse
import inspect
import json
import math
import platform
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from parlour.envs.gymnasium import ParlourEnv
from parlour.lab.arena import deal_seed
from parlour.lab.stats import mean_and_margin, wilson_interval

GAMES = ("minus-twenty", "progression", "twenty", "silver-bars")
ALGOS = ("ppo", "dqn")
TRAIN_OPPONENTS = ("random", "medium")
EVAL_OPPONENTS = ("random", "medium", "hard")
BOTS = ("random", "medium", "sparring", "hard")
"""The bots a learner may train or be evaluated against (``sparring``: the cheap training
opponent of :mod:`parlour.bots.sparring`); ``all`` means the defaults above."""

EPISODE_OPTIONS: dict[str, dict[str, Any]] = {
    "minus-twenty": {"rounds": 1},
    "progression": {"rounds": 1},
    "twenty": {},
    "silver-bars": {"max_rounds": 1},
}
"""Rule options of an episode: one round (a whole match of Twenty, two short rounds)."""

FALLBACK_SCALE = 50.0
"""Rewards are divided by this where the env has no ``reward_scale`` option of its own
(issue 21: raw point rewards learned nothing in minutes, divided by 50 they learned)."""

Policy = Callable[[np.ndarray, np.ndarray], int]
"""A trained agent as evaluation sees it: (observation, boolean mask) → action."""


# -- environments ------------------------------------------------------------------------

def env_has_reward_scale() -> bool:
    """Whether the Gymnasium env has its own ``reward_scale`` option (with a per-game default)."""
    return "reward_scale" in inspect.signature(ParlourEnv.__init__).parameters


def make_env(game_id: str, opponent: str, seat: int | None = None) -> Any:
    """The training or evaluation env: one episode a round (:data:`EPISODE_OPTIONS`),
    its rewards scaled as the protocol says."""
    env: Any = ParlourEnv(game_id, opponent=opponent, seat=seat, **EPISODE_OPTIONS[game_id])
    if not env_has_reward_scale():
        from gymnasium.wrappers import TransformReward

        env = TransformReward(env, lambda r: r / FALLBACK_SCALE)
    return env


# -- the algorithms ----------------------------------------------------------------------

def masked_dqn_class() -> type:
    """:class:`stable_baselines3.DQN` choosing among legal actions only (built lazily, so the
    module imports without SB3 for ``--help``)."""
    from stable_baselines3 import DQN

    class MaskedDQN(DQN):  # type: ignore[misc]
        """DQN whose random moves (before ``learning_starts``, then with chance ε) and greedy
        moves are all drawn from the legal actions of its env, read from ``action_masks()``."""

        def _sample_action(self, learning_starts: int, action_noise: Any = None,
                           n_envs: int = 1) -> tuple[np.ndarray, np.ndarray]:
            masks = np.stack(self.get_env().env_method("action_masks"))
            epsilon = 1.0 if self.num_timesteps < learning_starts else self.exploration_rate
            actions = masked_dqn_actions(self, self._last_obs, masks, epsilon)
            return actions, actions

    return MaskedDQN


def masked_dqn_actions(model: Any, observation: np.ndarray, masks: np.ndarray, epsilon: float) -> np.ndarray:
    """One action per row of ``masks``: with chance ``epsilon`` a uniformly random legal one,
    else the legal action of the highest Q-value (NumPy's global RNG, which SB3 seeds)."""
    import torch

    obs = np.asarray(observation, dtype=np.float32).reshape(len(masks), -1)
    with torch.no_grad():
        q = model.q_net(torch.as_tensor(obs, device=model.device)).cpu().numpy()
    q[~masks] = -np.inf
    actions = q.argmax(axis=1)
    for i, mask in enumerate(masks):
        if epsilon and np.random.random() < epsilon:
            actions[i] = np.random.choice(np.flatnonzero(mask))
    return actions


def make_vector_env(game_id: str, matches: int, seed: int) -> Any:
    """The training env on the compiled engine: ``matches`` episodes side by side against random
    opponents, one round each as :func:`make_env`'s, the env's default reward scale."""
    from parlour.batch.sb3 import BatchVecEnv

    return BatchVecEnv(game_id, matches, seed=seed, options=EPISODE_OPTIONS[game_id])


def rollout_steps(steps: int, envs: int) -> int:
    """MaskablePPO's ``n_steps`` (moves a rollout takes from each env): the library's default
    rollout of 2048 moves (or the whole budget if that is less), shared among ``envs`` envs."""
    return max(1, min(2048, steps) // envs)


def build(algo: str, env: Any, seed: int, steps: int, envs: int = 1) -> Any:
    """An untrained model of ``algo`` on ``env`` (a Gymnasium env, or an SB3 VecEnv of ``envs``
    environments), seeded."""
    if algo == "ppo":
        from sb3_contrib import MaskablePPO

        n_steps = rollout_steps(steps, envs)
        return MaskablePPO("MlpPolicy", env, seed=seed, device="cpu", verbose=0,
                           n_steps=n_steps, batch_size=min(64, n_steps))
    if algo == "dqn":
        return masked_dqn_class()(
            "MlpPolicy", env, seed=seed, device="cpu", verbose=0,
            buffer_size=min(50_000, max(steps, 1_000)), learning_starts=min(1_000, steps // 10),
            target_update_interval=min(1_000, max(steps // 20, 1)), exploration_fraction=0.2,
        )
    raise ValueError(f"unknown algorithm {algo!r} (known: {', '.join(ALGOS)})")


def policy_of(algo: str, model: Any) -> Policy:
    """The trained agent's greedy choice, among legal actions."""
    if algo == "ppo":
        return lambda obs, mask: int(model.predict(obs, action_masks=mask, deterministic=True)[0])
    return lambda obs, mask: int(masked_dqn_actions(model, obs[None], mask[None], 0.0)[0])


def train(game_id: str, algo: str, opponent: str, steps: int, seed: int,
          advance: Callable[[int], None] | None = None, vector: int = 0) -> tuple[Policy, float]:
    """Train ``algo`` on ``game_id`` against ``opponent`` for ``steps`` env steps; return the
    greedy policy and the seconds it took.  ``advance(n)`` is called as steps are done.  With
    ``vector``, on that many matches of the compiled vector env (MaskablePPO against random)."""
    from stable_baselines3.common.callbacks import BaseCallback

    class Progress(BaseCallback):  # type: ignore[misc]
        def _on_step(self) -> bool:
            if advance is not None:
                advance(self.training_env.num_envs)
            return True

    start = time.perf_counter()
    if vector:
        if (algo, opponent) != ("ppo", "random"):
            raise ValueError("the vector env trains MaskablePPO against random opponents only")
        model = build(algo, make_vector_env(game_id, vector, seed), seed, steps, envs=vector)
    else:
        model = build(algo, make_env(game_id, opponent), seed, steps)
    model.learn(total_timesteps=steps, callback=Progress())
    return policy_of(algo, model), time.perf_counter() - start


# -- evaluation --------------------------------------------------------------------------

@dataclass
class Evaluation:
    """The learner's results against one bot over duplicate deals."""

    opponent: str
    deals: int
    matches: int
    win_rate: float
    win_ci: tuple[float, float]
    margin: float
    margin_ci: tuple[float, float]
    seconds: float
    steps: int
    per_deal_margin: list[float] = field(repr=False)


def play(policy: Policy, env: ParlourEnv, seed: int, seat: int) -> tuple[float, float, int]:
    """One match (episode) from ``seed`` with the learner in ``seat``: (win, margin, steps)."""
    obs, _info = env.reset(seed=seed, options={"seat": seat})
    steps = 0
    terminated = False
    while not terminated:
        obs, _reward, terminated, _truncated, _info = env.step(policy(obs, env.action_masks()))
        steps += 1
    assert env.state is not None
    totals = env.state.totals
    mine, others = totals[seat], [t for s, t in enumerate(totals) if s != seat]
    win = 1.0 if mine > max(others) else 0.5 if mine == max(others) else 0.0
    return win, mine - sum(others) / len(others), steps


def evaluate(policy: Policy, game_id: str, opponent: str, deals: int, seed: int,
             advance: Callable[[int], None] | None = None) -> Evaluation:
    """``policy`` against ``opponent`` on ``deals`` duplicate deals, the learner in every seat."""
    env = ParlourEnv(game_id, opponent=opponent, **EPISODE_OPTIONS[game_id])
    players = env.game.players
    start = time.perf_counter()
    wins = 0.0
    per_deal: list[float] = []
    steps = 0
    for deal in range(deals):
        dseed = deal_seed(seed, deal)
        margins = []
        for seat in range(players):
            win, margin, n = play(policy, env, dseed, seat)
            wins += win
            margins.append(margin)
            steps += n
        per_deal.append(sum(margins) / players)
        if advance is not None:
            advance(1)
    matches = deals * players
    mean, half = mean_and_margin(per_deal)
    low, high = wilson_interval(wins, matches)
    return Evaluation(opponent, deals, matches, wins / matches, (low, high), mean,
                      (mean - half, mean + half), time.perf_counter() - start, steps, per_deal)


# -- the grid ----------------------------------------------------------------------------

def protocol(args: argparse.Namespace) -> dict[str, Any]:
    """What the run fixed, for the JSON."""
    import sb3_contrib
    import stable_baselines3
    import torch

    import parlour

    return {
        "seed": args.seed,
        "train_steps": args.steps,
        "eval_deals": {o: (args.hard_deals if o == "hard" else args.deals) for o in args.against},
        "hard_games": args.hard_games if "hard" in args.against else [],
        "duplicate": "each deal played once with the learner in every seat",
        "episode_options": {g: EPISODE_OPTIONS[g] for g in args.games},
        "reward_scale": "env default" if env_has_reward_scale() else f"1/{FALLBACK_SCALE:g} (fallback wrapper)",
        "win_ci": "Wilson 95% over matches (a shared top counts half)",
        "margin_ci": "normal 95% over deals (each deal's seatings averaged)",
        "dqn_masking": "masked at prediction (epsilon-random and greedy among legal actions); "
                       "bootstrap target unmasked (SB3's own)",
        "ppo": "sb3-contrib MaskablePPO, MlpPolicy, library defaults (n_steps 2048, batch 64, 10 epochs)",
        "dqn": "stable-baselines3 DQN, MlpPolicy, buffer min(50k, steps), learning_starts min(1000, steps/10), "
               "target_update_interval min(1000, steps/20), exploration_fraction 0.2",
        "threads": 1,
        **({"vector_env": f"parlour.batch.sb3.BatchVecEnv: {args.vector} matches side by side against uniformly "
                          f"random opponents (learner in seat i % players), n_steps "
                          f"{rollout_steps(args.steps, args.vector)} a match (rollouts of "
                          f"{min(2048, args.steps)} moves)"} if args.vector else {}),
        "versions": {"parlour": getattr(parlour, "__version__", "?"), "torch": torch.__version__,
                     "stable_baselines3": stable_baselines3.__version__, "sb3_contrib": sb3_contrib.__version__,
                     "python": platform.python_version()},
    }


def _split(text: str, known: Sequence[str], what: str, defaults: Sequence[str] | None = None) -> list[str]:
    items = [t.strip() for t in text.split(",") if t.strip()]
    if items == ["all"]:
        return list(defaults or known)
    unknown = [t for t in items if t not in known]
    if unknown or not items:
        named = ", ".join(unknown) or "(none)"
        raise argparse.ArgumentTypeError(f"unknown {what} {named}: choose from {', '.join(known)}")
    return items


def parse(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(
        description="Train MaskablePPO and DQN on parlour's games against a bot, then evaluate them against "
                    "random, medium and hard on seeded duplicate deals with 95% intervals; write JSON.")
    parser.add_argument("--games", default="all", help=f"comma-separated games, or all ({', '.join(GAMES)})")
    parser.add_argument("--algos", default="all", help=f"comma-separated algorithms, or all ({', '.join(ALGOS)})")
    parser.add_argument("--opponents", default="all",
                        help=f"training opponents, comma-separated ({', '.join(BOTS)}), "
                             f"or all ({', '.join(TRAIN_OPPONENTS)})")
    parser.add_argument("--against", default="all",
                        help=f"evaluation opponents, comma-separated ({', '.join(BOTS)}), "
                             f"or all ({', '.join(EVAL_OPPONENTS)})")
    parser.add_argument("--steps", type=int, default=50_000, help="training budget in env steps per agent (50000)")
    parser.add_argument("--deals", type=int, default=100,
                        help="evaluation deals against random and medium, each played from every seat (100)")
    parser.add_argument("--hard-deals", type=int, default=5, help="evaluation deals against hard (5: hard is slow)")
    parser.add_argument("--hard-games", default="all",
                        help="the games whose agents are evaluated against hard, comma-separated, or all "
                             "(hard takes 2-5 s a deal in Twenty, minutes in Progression)")
    parser.add_argument("--vector", type=int, default=0, metavar="N",
                        help="train on the compiled vector env (parlour[fast]), N matches side by side; "
                             "MaskablePPO against random only (--algos ppo --opponents random)")
    parser.add_argument("--seed", type=int, default=2026, help="seed of training and of the evaluation deals (2026)")
    parser.add_argument("--out", default="docs/baselines.json", help="output JSON (docs/baselines.json)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    args = parser.parse_args(argv)
    try:
        args.games = _split(args.games, GAMES, "game")
        args.algos = _split(args.algos, ALGOS, "algorithm")
        args.opponents = _split(args.opponents, BOTS, "training opponent", TRAIN_OPPONENTS)
        args.against = _split(args.against, BOTS, "evaluation opponent", EVAL_OPPONENTS)
        args.hard_games = _split(args.hard_games, GAMES, "game")
    except argparse.ArgumentTypeError as exc:
        parser.error(str(exc))
    if args.steps < 100 or args.deals < 1 or args.hard_deals < 0:
        parser.error("--steps must be at least 100, --deals at least 1, --hard-deals 0 or more")
    if args.vector:
        from parlour import batch

        if args.vector < 0 or 2048 % args.vector:
            parser.error("--vector takes a number of matches that divides 2048 (the rollout's moves)")
        if args.algos != ["ppo"] or args.opponents != ["random"]:
            parser.error("--vector trains MaskablePPO against random opponents: add --algos ppo --opponents random")
        if not batch.available():
            parser.error("--vector needs the compiled engines: pip install 'parlour[fast]'")
        unknown = [g for g in args.games if g not in batch.ids()]
        if unknown:
            parser.error(f"no compiled engine for {', '.join(unknown)} (there is one for {', '.join(batch.ids())})")
    return args


def run(args: argparse.Namespace) -> dict[str, Any]:
    """Train and evaluate every (game, algorithm, training opponent); write and return the JSON."""
    import torch
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    torch.set_num_threads(1)
    cells = [(g, a, o) for g in args.games for a in args.algos for o in args.opponents]
    deals = {o: (args.hard_deals if o == "hard" else args.deals) for o in args.against}
    result: dict[str, Any] = {"protocol": protocol(args), "command": " ".join(["python", *sys.argv]), "runs": []}
    out = Path(args.out)
    started = time.perf_counter()
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, disable=args.quiet or not sys.stderr.isatty(), console=Console(stderr=True)) as progress:
        overall = progress.add_task("agents", total=len(cells))
        for game_id, algo, opponent in cells:
            task = progress.add_task(f"{game_id} {algo} vs {opponent}: training", total=args.steps)
            policy, seconds = train(game_id, algo, opponent, args.steps, args.seed,
                                    lambda n, t=task: progress.advance(t, n), vector=args.vector)
            progress.remove_task(task)
            run_result: dict[str, Any] = {"game": game_id, "algo": algo, "train_opponent": opponent,
                                          "train_steps": args.steps, "train_seconds": round(seconds, 1),
                                          "eval": {}}
            if args.vector:
                run_result["train_env"] = f"vector {args.vector}"
            for against in args.against:
                if not deals[against] or (against == "hard" and game_id not in args.hard_games):
                    continue
                task = progress.add_task(f"{game_id} {algo}/{opponent} against {against}", total=deals[against])
                ev = evaluate(policy, game_id, against, deals[against], args.seed,
                              lambda n, t=task: progress.advance(t, n))
                progress.remove_task(task)
                record = asdict(ev)
                record["seconds"] = round(ev.seconds, 1)
                run_result["eval"][against] = record
                if args.quiet:
                    continue
                print(
                    f"{game_id:13} {algo:3} trained vs {opponent:6} against {against:6}: "
                    f"win {ev.win_rate:6.1%} ({ev.win_ci[0]:.1%}–{ev.win_ci[1]:.1%}), "
                    f"margin {ev.margin:+6.1f} ({ev.margin_ci[0]:+.1f} to {ev.margin_ci[1]:+.1f}), "
                    f"{ev.matches} matches, {ev.seconds:.0f} s", flush=True)
            result["runs"].append(run_result)
            result["seconds"] = round(time.perf_counter() - started, 1)
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(json.dumps(_finite(result), indent=1, allow_nan=False) + "\n")  # after every agent
            progress.advance(overall)
            if not args.quiet:
                print(f"{game_id} {algo} trained vs {opponent}: {seconds:.0f} s of training "
                      f"({args.steps / seconds:,.0f} steps/s); "
                      f"{result['seconds']:.0f} s so far", flush=True)
    return result


def _finite(value: Any) -> Any:
    """``value`` with every infinite or NaN float (an interval over one deal) as ``None``."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_finite(v) for v in value]
    return value


def _cell(ev: dict[str, Any] | None) -> list[str]:
    if ev is None:
        return ["not run", ""]
    low, high = ev["win_ci"]
    m_low, m_high = ev["margin_ci"] if ev["margin_ci"][0] is not None else (float("nan"), float("nan"))
    return [f"{ev['win_rate']:.1%} ({low:.1%}–{high:.1%}) of {ev['matches']}",
            f"{ev['margin']:+.1f} ({m_low:+.1f} to {m_high:+.1f})"]


def markdown(results: Sequence[dict[str, Any]]) -> str:
    """The results of one or more runs of this script (their JSON) as one Markdown table: each
    agent's win rate and mean margin against each evaluation opponent, with 95% intervals."""
    against = [o for o in BOTS if any(o in r["eval"] for res in results for r in res["runs"])]
    head = ["game", "algorithm", "trained against", "steps", "training s"]
    for opponent in against:
        head += [f"vs {opponent}: win (95% CI)", "margin (95% CI)"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * 5 + "---|---|" * len(against)]
    for res in results:
        for r in res["runs"]:
            algo = {"ppo": "MaskablePPO", "dqn": "DQN (masked)"}.get(r["algo"], r["algo"])
            if "train_env" in r:
                algo += f" ({r['train_env'].split()[1]} matches of the vector env)"
            row = [r["game"], algo,
                   r["train_opponent"], f"{r['train_steps']:,}", f"{r['train_seconds']:.0f}"]
            for opponent in against:
                row += _cell(r["eval"].get(opponent))
            lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    if argv is None:
        argv = sys.argv[1:]
    if argv and argv[0] == "table":
        if len(argv) < 2 or "-h" in argv or "--help" in argv:
            print("usage: baselines.py table RESULTS.json [MORE.json ...]: the results as a Markdown table")
            raise SystemExit(0 if len(argv) > 1 else 2)
        print(markdown([json.loads(Path(f).read_text()) for f in argv[1:]]))
        return
    args = parse(argv)
    random.seed(args.seed)
    run(args)


if __name__ == "__main__":
    main()

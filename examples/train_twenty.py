"""A small learning agent for Twenty, in numpy: policy gradient against the random bot.

The agent sees only what the Gymnasium environment gives it — the seat's
observation vector and ``info`` — and learns a softmax policy over the legal
actions (the others masked out) with one hidden layer of ``tanh`` units
(REINFORCE with a learned value baseline, Adam).  Every ``--eval-every``
seconds it plays the same ``--eval-matches`` matches against the random bot
(fixed seeds, its most likely move each turn) and prints its win rate::

    python examples/train_twenty.py               # three minutes on one core
    python examples/train_twenty.py --episodes 2000 --seed 3

Reward: the environment pays each round's score difference when the round
ends (``reward="round"``).  To tell which move earned it, the agent also
watches the running match margin in ``info`` (totals so far plus the
round's scores so far, its own minus the opponent's) and credits each step
with the change of that margin, discounted over the next few moves; summed
over a match, the credits are exactly the environment's rewards in points
(the environment pays them times its ``reward_scale``, 1/50 for Twenty).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt

import parlour.envs.gymnasium  # noqa: F401 (registers parlour/Twenty-v0)

ENV_ID = "parlour/Twenty-v0"
EVAL_SEED = 1_000_000
"""Evaluation matches use seeds from here on, never used in training."""

Array = npt.NDArray[np.float64]


@dataclass
class Policy:
    """A one-hidden-layer network: ``tanh`` units, a logit per action and a value."""

    w1: Array
    b1: Array
    w2: Array
    b2: Array
    wv: Array
    bv: Array

    @classmethod
    def new(cls, inputs: int, actions: int, hidden: int, rng: np.random.Generator) -> Policy:
        """Small random weights; the untrained policy is close to uniform over the legal moves."""
        return cls(
            w1=rng.normal(0.0, 1.0 / math.sqrt(inputs), (inputs, hidden)),
            b1=np.zeros(hidden),
            w2=rng.normal(0.0, 0.01, (hidden, actions)),
            b2=np.zeros(actions),
            wv=np.zeros(hidden),
            bv=np.zeros(1),
        )

    def params(self) -> list[Array]:
        """The parameters, in a fixed order (for the optimizer)."""
        return [self.w1, self.b1, self.w2, self.b2, self.wv, self.bv]

    def copy(self) -> Policy:
        """An independent copy."""
        return Policy(*(p.copy() for p in self.params()))

    def probabilities(self, x: Array, mask: npt.NDArray[np.int8]) -> tuple[Array, Array]:
        """The hidden layer and the action probabilities (0 for illegal actions)."""
        h = np.tanh(x @ self.w1 + self.b1)
        logits = h @ self.w2 + self.b2
        logits = np.where(mask > 0, logits, -np.inf)
        p = np.exp(logits - logits.max(axis=-1, keepdims=True))
        return h, p / p.sum(axis=-1, keepdims=True)

    def greedy(self, x: Array, mask: npt.NDArray[np.int8]) -> int:
        """The most likely legal action."""
        logits = np.tanh(x @ self.w1 + self.b1) @ self.w2 + self.b2
        return int(np.where(mask > 0, logits, -np.inf).argmax())


class Adam:
    """The Adam optimizer over a list of arrays, updated in place."""

    def __init__(self, params: list[Array], lr: float) -> None:
        self.params = params
        self.lr = lr
        self.m = [np.zeros_like(p) for p in params]
        self.v = [np.zeros_like(p) for p in params]
        self.t = 0

    def step(self, grads: list[Array]) -> None:
        """Move every parameter against its gradient."""
        self.t += 1
        b1, b2 = 0.9, 0.999
        for p, g, m, v in zip(self.params, grads, self.m, self.v):
            m *= b1
            m += (1 - b1) * g
            v *= b2
            v += (1 - b2) * g * g
            p -= self.lr * (m / (1 - b1**self.t)) / (np.sqrt(v / (1 - b2**self.t)) + 1e-8)


def margin(info: dict[str, Any], terminated: bool) -> float:
    """The running match margin: the learner's points so far minus the opponent's."""
    seat = info["seat"]
    totals, scores = info["totals"], info["scores"]
    points = [t if terminated else t + s for t, s in zip(totals, scores)]
    return float(points[seat] - points[1 - seat])


@dataclass
class Episode:
    """One match's inputs, masks, actions and per-step credits."""

    xs: list[Array] = field(default_factory=list)
    masks: list[npt.NDArray[np.int8]] = field(default_factory=list)
    actions: list[int] = field(default_factory=list)
    credits: list[float] = field(default_factory=list)
    reward: float = 0.0


def play_episode(env: gymnasium.Env[Any, Any], policy: Policy, rng: np.random.Generator, seed: int) -> Episode:
    """Play one match, sampling the policy's moves."""
    episode = Episode()
    obs, info = env.reset(seed=seed)
    before = margin(info, False)
    terminated = False
    while not terminated:
        x = obs.astype(np.float64)
        mask = info["action_mask"]
        _, p = policy.probabilities(x, mask)
        action = int(rng.choice(len(p), p=p))
        obs, reward, terminated, _, info = env.step(action)
        after = margin(info, terminated)
        episode.xs.append(x)
        episode.masks.append(mask)
        episode.actions.append(action)
        episode.credits.append(after - before)
        episode.reward += reward
        before = after
    return episode


def gradients(policy: Policy, batch: list[Episode], gamma: float, value_weight: float = 0.5) -> list[Array]:
    """The policy-gradient loss's gradients over a batch (with the value baseline's)."""
    xs, masks, actions, returns = [], [], [], []
    for episode in batch:
        running = 0.0
        back = []
        for credit in reversed(episode.credits):
            running = credit + gamma * running
            back.append(running)
        returns += back[::-1]
        xs += episode.xs
        masks += episode.masks
        actions += episode.actions
    x = np.array(xs)
    g = np.array(returns) / 10.0  # points are in tens
    a = np.array(actions)
    h, p = policy.probabilities(x, np.array(masks))
    value = h @ policy.wv + policy.bv[0]
    advantage = g - value
    n = len(a)
    dlogits = p.copy()
    dlogits[np.arange(n), a] -= 1.0
    dlogits *= advantage[:, None] / n
    dvalue = value_weight * (value - g) / n
    dh = dlogits @ policy.w2.T + np.outer(dvalue, policy.wv)
    dpre = dh * (1.0 - h * h)
    return [x.T @ dpre, dpre.sum(axis=0), h.T @ dlogits, dlogits.sum(axis=0), h.T @ dvalue,
            np.array([dvalue.sum()])]


def evaluate(policy: Policy, matches: int, env: gymnasium.Env[Any, Any] | None = None) -> tuple[float, float]:
    """The greedy policy's win rate (a draw counts half) over the fixed evaluation matches
    against the random bot, and its 95% interval's half-width."""
    env = env or gymnasium.make(ENV_ID, opponent="random")
    points = 0.0
    for k in range(matches):
        obs, info = env.reset(seed=EVAL_SEED + k)
        terminated = False
        total = 0.0
        while not terminated:
            obs, reward, terminated, _, info = env.step(policy.greedy(obs.astype(np.float64), info["action_mask"]))
            total += reward
        points += 1.0 if total > 0 else 0.5 if total == 0 else 0.0
    rate = points / matches
    return rate, 1.96 * math.sqrt(max(rate * (1 - rate), 1e-9) / matches)


@dataclass
class Result:
    """What training gives back."""

    policy: Policy
    initial: Policy
    episodes: int
    seconds: float
    win_rates: list[tuple[int, float]]
    """(episodes trained, win rate) at each evaluation, the untrained policy first."""


def train(
    minutes: float = 3.0,
    episodes: int | None = None,
    seed: int = 0,
    hidden: int = 64,
    lr: float = 0.003,
    batch: int = 16,
    gamma: float = 0.6,
    eval_every: float = 20.0,
    eval_matches: int = 200,
    out: Callable[[str], Any] = print,
) -> Result:
    """Train against the random bot for ``minutes`` (or ``episodes`` matches), evaluating
    every ``eval_every`` seconds (or every ``eval_every`` batches when ``episodes`` is given)."""
    rng = np.random.default_rng(seed)
    env = gymnasium.make(ENV_ID, opponent="random", reward="round")
    eval_env = gymnasium.make(ENV_ID, opponent="random")
    space = env.unwrapped.space  # type: ignore[attr-defined]
    policy = Policy.new(space.obs_shape[0], space.num_actions, hidden, rng)
    initial = policy.copy()
    optimizer = Adam(policy.params(), lr)

    def report(done: int) -> None:
        rate, half = evaluate(policy, eval_matches, eval_env)
        win_rates.append((done, rate))
        out(f"episode {done}: win rate {rate:.0%} (±{half:.0%}) vs random  [{time.perf_counter() - start:.0f} s]")

    start = time.perf_counter()
    deadline = start + minutes * 60.0
    win_rates: list[tuple[int, float]] = []
    report(0)
    done = 0
    batches = 0
    next_eval = start + eval_every
    while (done < episodes) if episodes is not None else (time.perf_counter() < deadline):
        played = [play_episode(env, policy, rng, seed * 10_000_000 + done + k) for k in range(batch)]
        optimizer.step(gradients(policy, played, gamma))
        done += batch
        batches += 1
        due = batches % max(1, int(eval_every)) == 0 if episodes is not None else time.perf_counter() >= next_eval
        if due:
            report(done)
            next_eval = time.perf_counter() + eval_every
    if not win_rates or win_rates[-1][0] != done:
        report(done)
    return Result(policy, initial, done, time.perf_counter() - start, win_rates)


def main(argv: list[str] | None = None) -> int:
    """Parse the command line and train."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=3.0, help="how long to train (default 3)")
    parser.add_argument("--episodes", type=int, default=None, help="train for this many matches instead")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--eval-every", type=float, default=20.0,
                        help="seconds between evaluations (batches, with --episodes)")
    parser.add_argument("--eval-matches", type=int, default=200)
    args = parser.parse_args(argv)
    result = train(minutes=args.minutes, episodes=args.episodes, seed=args.seed, eval_every=args.eval_every,
                   eval_matches=args.eval_matches)
    print(f"trained {result.episodes} matches in {result.seconds:.0f} s; "
          f"win rate {result.win_rates[0][1]:.0%} untrained → {result.win_rates[-1][1]:.0%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

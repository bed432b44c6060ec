"""sb3-contrib's MaskablePPO learns on the Gymnasium env as it is (no wrapper, the default reward
scale) and beats the random bot on Twenty's micro variant."""

from __future__ import annotations

import pytest

pytest.importorskip("gymnasium")
torch = pytest.importorskip("torch")
sb3_contrib = pytest.importorskip("sb3_contrib")

from stable_baselines3.common.utils import set_random_seed  # noqa: E402

from parlour import games  # noqa: E402
from parlour.envs.gymnasium import ParlourEnv  # noqa: E402

SEED = 0
STEPS = 12_288
"""Learner moves of training (24 updates of 512): 11 s on one core (the whole test 15 s; 60 s on a busy machine)."""
DEALS = range(10_000, 10_300)
"""The evaluation deals, each played from both seats (duplicate), the same before and after training."""


def win_rate(model: sb3_contrib.MaskablePPO, options: dict[str, object]) -> float:
    """The model's share of the evaluation matches it wins against random (a draw counts half),
    playing its most likely legal action."""
    env = ParlourEnv("twenty", opponent="random", **options)
    points = 0.0
    for deal in DEALS:
        for seat in (0, 1):
            observation, _ = env.reset(seed=deal, options={"seat": seat})
            terminated, total = False, 0.0
            while not terminated:
                action, _ = model.predict(observation, action_masks=env.action_masks(), deterministic=True)
                observation, reward, terminated, _, _ = env.step(int(action))
                total += reward
            points += 1.0 if total > 0 else 0.5 if total == 0 else 0.0
    return points / (2 * len(DEALS))


@pytest.mark.slow
def test_maskable_ppo_beats_random_on_the_micro_variant() -> None:
    options = dict(games.get("twenty").micro_options)
    assert options, "Twenty names its micro variant"
    torch.set_num_threads(1)
    set_random_seed(SEED)
    env = ParlourEnv("twenty", opponent="random", **options)
    env.reset(seed=SEED)
    model = sb3_contrib.MaskablePPO("MlpPolicy", env, seed=SEED, n_steps=512, batch_size=64, n_epochs=4,
                                    learning_rate=1e-3, gamma=1.0, policy_kwargs={"net_arch": [64, 64]},
                                    device="cpu", verbose=0)
    before = win_rate(model, options)
    model.learn(STEPS)
    after = win_rate(model, options)
    # Measured with these seeds: 52.3% untrained, 68.2% trained (seed 1 also reaches 68.2%, from 56.0%).
    # With 600 matches a rate of 60% is about four standard errors above an even game.
    assert after >= 0.6, (before, after)
    assert after >= before + 0.08, (before, after)

"""The ``baselines`` extra (torch with ``parlour[rl]``'s dm-tree) runs OpenSpiel's PyTorch algorithms
on parlour's OpenSpiel games."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pyspiel")
torch = pytest.importorskip("torch")

import pyspiel  # noqa: E402
from open_spiel.python import rl_environment  # noqa: E402
from open_spiel.python.pytorch import dqn, nfsp, policy_gradient  # noqa: E402  (each imports tree: dm-tree)

import parlour.envs.openspiel  # noqa: E402, F401  registers python_parlour_*


def _train(seed: int, episodes: int) -> tuple[list[tuple[float, float]], list[np.ndarray]]:
    """A2C (OpenSpiel's PyTorch policy gradient) for both seats of one round of Twenty:
    each episode's returns and the first seat's network weights afterwards."""
    torch.manual_seed(seed)
    np.random.seed(seed)  # OpenSpiel's agents sample their actions with numpy's global generator
    game = pyspiel.load_game("python_parlour_twenty", {"rounds_only": True})
    env = rl_environment.Environment(game)
    env.seed(seed)  # the deals (chance outcomes)
    size = env.observation_spec()["info_state"][0]
    actions = env.action_spec()["num_actions"]
    agents = [policy_gradient.PolicyGradient(player_id=p, info_state_size=size, num_actions=actions,
                                             loss_str="a2c", hidden_layers_sizes=[16], batch_size=4)
              for p in range(2)]
    returns = []
    for _ in range(episodes):
        time_step = env.reset()
        while not time_step.last():
            player = time_step.observations["current_player"]
            output = agents[player].step(time_step)
            assert output.action in time_step.observations["legal_actions"][player]
            time_step = env.step([output.action])
        for agent in agents:
            agent.step(time_step)
        first, second = time_step.rewards
        returns.append((float(first), float(second)))
    weights = [p.detach().numpy().copy() for p in agents[0]._net_torso.parameters()]
    return returns, weights


def test_policy_gradient_trains_on_twenty_and_is_seeded() -> None:
    torch.set_num_threads(1)
    _, initial = _train(seed=5, episodes=0)
    returns, weights = _train(seed=5, episodes=12)
    assert len(returns) == 12 and all(a == -b for a, b in returns)  # zero-sum
    assert any(a != 0 for a, _ in returns)
    # Twelve episodes with a batch of four: three updates changed the network.
    assert any(not np.array_equal(a, b) for a, b in zip(initial, weights))
    again_returns, again = _train(seed=5, episodes=12)
    assert again_returns == returns
    assert all(np.array_equal(a, b) for a, b in zip(again, weights))


def test_dqn_and_nfsp_import_with_the_extra() -> None:
    # dm-tree (module tree) is what these need besides torch; importing them above proves it is there.
    assert dqn.DQN is not None and nfsp.NFSP is not None

"""Measure the bot levels' fixed ratings (the anchors of people's ratings) with ``parlour lab ladder``
and store them in ``src/parlour/data/bot_ratings.json``, with the command that made each game's and the date.

    python scripts/bot_ratings.py [--db ladder.sqlite] [--games twenty,silver-bars]

The games named are measured again (by default all); the others in the file are kept.
Each game's ladder runs as the ``parlour lab ladder`` command the file names (seeded: the same command
gives the same ratings on any machine; one stopped half-way goes on from its stored matches).  Its
printed table is kept beside the numbers (``printed``), so that a test can check the file's numbers are
the ladder's.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import subprocess
import sys
from pathlib import Path

from parlour import games
from parlour.store import Store

LEVELS = {"progression": "easy,medium,hard"}
"""The levels rated: all four unless given here.  Progression's expert (19,200 rollouts a decision, some
140 decisions a seat, three seats) is not rated yet, and rated tables refuse it; since its levels search in
batches on the compiled engine its ladder would take some tens of minutes, as Minus Twenty's did.
(Minus Twenty's expert is rated since its levels search in batches.)"""
MATCHES = {"twenty": 6, "minus-twenty": 6, "progression": 6}
"""Matches per pairing (or triple): 4 unless given here.  Each game's ladder takes a few minutes on one core."""
SEED = 34
OUT = Path(__file__).resolve().parent.parent / "src" / "parlour" / "data" / "bot_ratings.json"


def ladder_command(game_id: str, db: str) -> list[str]:
    """The ladder of one game, one process (the same numbers whatever the machine)."""
    return ["parlour", "lab", "ladder", game_id, "--levels", LEVELS.get(game_id, "easy,medium,hard,expert"),
            "--matches", str(MATCHES.get(game_id, 4)), "--seed", str(SEED), "--jobs", "1", "--db", db]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", default="ladder.sqlite", help="the lab database the ladders are played into")
    parser.add_argument("--games", default=",".join(games.ids()), help="the games, comma-separated (default: all)")
    args = parser.parse_args()
    out = json.loads(OUT.read_text("utf-8")) if OUT.exists() else {}
    out["scale"] = "openskill Plackett-Luce (mu 25, sigma 25/3 to start); shown as mu - 3 sigma"
    measured = out.setdefault("games", {})
    for game_id in args.games.split(","):
        done = subprocess.run([sys.executable, "-m", *ladder_command(game_id, args.db)], capture_output=True,
                              text=True, check=True, env=dict(os.environ, COLUMNS="120"))
        measured[game_id] = {
            "command": " ".join(ladder_command(game_id, "ladder.sqlite")),
            "made": dt.date.today().isoformat(),
            "printed": [line.rstrip() for line in done.stdout.splitlines() if line.strip()],
            "levels": {r.player: {"mu": r.mu, "sigma": r.sigma, "matches": r.matches}
                       for r in Store(args.db).ratings(game_id)},
        }
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()

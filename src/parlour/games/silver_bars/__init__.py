"""100 Silver Bars: two small silver mines racing to ship 100 bars.

The rules, in the order silver-bars.source.txt gives them and as RULINGS.md
settles them:

* Two 54-card packs with jokers make a 95-card draw pile:
  silver bars A 2 3 4 6 (40, worth their pips, A = 1); miners 7 8 9 T (32);
  rubble K♣ K♦ K♥ (6); shovels Q♣ Q♦ Q♥ (6); the worker's strike Q♠ (2);
  lo thieves J (6: two J♠ are left out); hi thieves, the jokers (3: one is
  left out).  The eight 5s and both K♠ are the ten locks, five to each
  player, kept apart from hand and deck.  Options change how many of each
  special card the draw pile holds, how many packs the bars and miners
  come from, from how many suits and of how many ranks (the lowest), and
  how many cards a hand holds (``hand_size``): the micro variant
  (``SilverBars.micro_options``) plays one round with A 2 3 7 J of clubs and
  a hand of one.
* Each player has five vaults, numbered 1–5 from their left.  The dealer
  deals 7 to each; the non-dealer (seat ``first`` in round 1) plays first
  and the deal alternates.
* A turn is exactly one of:
  1. play a card from hand, then draw the top of the draw pile:
     - a silver bar into an own unlocked vault that is empty, or whose top
       card is a miner — higher than the bar under that miner;
     - a miner onto an own unlocked vault whose top card is a silver bar;
     - rubble onto an empty vault of the opponent: it takes nothing until
       shovelled off;
     - a shovel clears the rubble off an own vault (both go to the discard
       pile);
     - a lo / hi thief takes the lowest / highest silver bar on top of the
       opponent's unlocked vaults (the thief picks among tied vaults) and
       puts it at once into one of the thief's own vaults by the silver-bar
       rule; a value that fits none of them cannot be stolen.  The thief
       goes to the discard pile;
     - the worker's strike sends every miner on top of the opponent's
       unlocked vaults to the discard pile; the opponent's next turn is
       spent resolving it (``resolve``: no play, no draw);
  2. discard any card, then draw (nobody draws from the discard pile);
  3. lock an own unlocked vault whose top card is a silver bar (no draw).
  A player's hand holds 7 cards at the end of each of their turns.
* The round ends at once when a player locks their fifth vault, or when the
  last card of the draw pile is drawn (a pending strike then stays
  unresolved).
* Each player scores every silver bar in their locked vaults
  (A M 3 M 4 M 6 L scores 14).  80, the most a round can give, is a Perfect
  Round: only bragging rights, but recorded as an event.
* The match goes on until, at the end of a round, a player has at least
  ``target_score`` (100) and the totals differ; the higher total wins.
  Safety ruling: after ``max_rounds`` rounds (default 50; 0 = no limit) the
  match ends anyway, the higher total winning and equal totals drawing.

The package, in reading order: ``cards`` (the kinds of card, the draw pile,
the locks, vaults and hand), ``rules`` (the state of a match and its turns,
as the rulebook gives them), ``tables`` (the bitmasks and precomputed moves
the rules run on, beside them), ``explain`` (the moves, illegal moves and
events in words) and ``game`` (metadata, options, deals, determinization).
"""

from parlour.games.silver_bars.cards import (
    BAR,
    BAR_VALUE,
    BAR_VALUES,
    DEFAULT_COUNTS,
    HAND,
    HI_THIEF,
    KIND,
    LO_THIEF,
    LOCK_CARD,
    LOCKS,
    MINER,
    RUBBLE,
    SHOVEL,
    SPECIALS,
    STRIKE,
    VAULTS,
    silver_bars_deck,
    vault_bars,
)
from parlour.games.silver_bars.explain import vault_takes
from parlour.games.silver_bars.game import GAME, SilverBars
from parlour.games.silver_bars.rules import PERFECT, SilverBarsObservation, SilverBarsState
from parlour.games.silver_bars.tables import (
    BAR_TOP,
    DISCARD,
    EMPTY,
    LOCK,
    LOCKED,
    MINER_TOP,
    PLAY_ALONE,
    PLAY_AT,
    RESOLVE,
    RUBBLED,
    STATES,
    VAULT_STATES,
    bar_fits,
    play_targets,
    vault_state,
)

__all__ = [
    "BAR",
    "BAR_TOP",
    "BAR_VALUE",
    "BAR_VALUES",
    "DEFAULT_COUNTS",
    "DISCARD",
    "EMPTY",
    "GAME",
    "HAND",
    "HI_THIEF",
    "KIND",
    "LOCK",
    "LOCKED",
    "LOCKS",
    "LOCK_CARD",
    "LO_THIEF",
    "MINER",
    "MINER_TOP",
    "PERFECT",
    "PLAY_ALONE",
    "PLAY_AT",
    "RESOLVE",
    "RUBBLE",
    "RUBBLED",
    "SHOVEL",
    "SPECIALS",
    "STATES",
    "STRIKE",
    "VAULTS",
    "VAULT_STATES",
    "SilverBars",
    "SilverBarsObservation",
    "SilverBarsState",
    "bar_fits",
    "play_targets",
    "silver_bars_deck",
    "vault_bars",
    "vault_state",
    "vault_takes",
]

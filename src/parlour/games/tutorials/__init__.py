"""The tutorials of parlour's own games: one JSON file a game (a fixed deal and the steps of a
guided first match), named by the game's registry entry and walked by :mod:`parlour.learn`."""

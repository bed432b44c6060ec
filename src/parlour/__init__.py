"""parlour: four card games of the Lost Cities family, with exact rules,
computer opponents, a lab for game designers, and terminal and web play."""

__version__ = "0.1.0"

"""The lab: many matches between bots — tournaments, statistics and reports."""

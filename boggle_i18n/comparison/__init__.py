"""The comparison across languages: compare.py (N random boards per language on one basis),
rolls.py (many random boards at once), frequency.py (wordfreq: everyday-word coverage,
common tiers) and plot.py (the comparison plot, matplotlib only when drawing).

Nothing is imported here, so `import boggle_i18n.comparison.rolls` does not load the rest.
"""

"""The letter policies a language record may name, apart from the stages that apply them.

The language records check a record's `case` against these on every load; keeping them
here spares every `solve` the import of the stage table (about 4 ms of a cold start).
"""

from __future__ import annotations

CASE_POLICIES = ("lower", "drop-capitalised", "nouns")

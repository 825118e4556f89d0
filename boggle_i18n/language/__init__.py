"""Everything about languages, in one place, importing only from below it.

- `records`: the language records (`lexicons/languages/*.toml`): alphabet, letter policy,
  dice or letter distribution, rules for sizes without dice. The pipeline and the lexicon
  builder read them, so this module imports nothing above the board and the pipeline stages.
- `overview`: what `boggle-i18n languages` shows (recipes, build state, boards, alphabet).
- `selection`: `select()`, which turns a caller's options into language, dice set, lexicon
  and rules: the one place every front end (CLI, web, API) makes that choice.

The package itself imports nothing, so `lexicon.build` can import `language.records`
without pulling in `selection` (which sits above the lexicon store).
"""

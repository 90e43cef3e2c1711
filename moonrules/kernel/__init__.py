"""The kernel: bit-mask forms and lookup tables computed from the rulebook's pure functions.

This is the only place speed tricks live. Every table is derived from ``moonrules.rules`` and
checked equal to it exhaustively by the tests; nothing here states a rule of its own.
"""

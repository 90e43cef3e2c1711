"""The proof catalogue: which property checks each clause of ``spec/rules.md``, how, and the runner.

Every property names the clauses it covers, states what it checks in one sentence, and says how:
*exhaustive* (every element of a finite domain), *smt* (proved for all values with z3, here by
CrossHair's symbolic execution of the real function), *bounded-model-check* (every reachable state
of the game from stated roots to a stated depth) or *tested* (sampled, with the reason no proof is
given). ``moonrules verify`` runs them; ``spec/proofs.md`` and the documentation are generated from
the same catalogue. The catalogue is itself checked under mutation
(:mod:`moonrules.verification.mutation`): ``verify --quick`` must catch every one-line mutant of
the rules, the kernel and the game listed in ``tests/rule_mutants.toml``.
"""

from __future__ import annotations

from moonrules.verification.catalogue import CATALOGUE, by_id, coverage, spec_clauses
from moonrules.verification.core import Method, Outcome, Property
from moonrules.verification.runner import Result, run

__all__ = [
    "CATALOGUE",
    "Method",
    "Outcome",
    "Property",
    "Result",
    "by_id",
    "coverage",
    "run",
    "spec_clauses",
]

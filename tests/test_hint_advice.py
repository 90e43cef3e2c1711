"""The table's hint: its bidding advice weighs the trumps the bot weighs.

The hint once showed, for each bid, the trump under which the bid was likeliest made out
of every trump the rules offer, on 24 sample deals: nine noisy chances, the best of them
picked, ties to the first trump in the rules' order (blanks). A hand holding 0-0 and four
sixes was told "6: 42% in blanks" (blanks and no-trump play alike for it, and blanks come
first). The advice now weighs the trumps the bot weighs (the best by the basic estimate,
as many as the bot's ``candidates``), best first, so a tie goes to the better trump.
"""

from __future__ import annotations

import moonrules as m
from moonrules.bots import BasicBot, knowledge
from moonrules.bots.basic import best_trumps
from moonrules.game import view
from moonrules.rules.suits import Trump
from moonrules.rules.tiles import mask_of
from moonrules.table.assist import HINT_TRUMPS, advice_seed, hint


def _opening(seed: int) -> m.PlayerView:
    s = m.new_game("standard", seed)
    assert s.to_act is not None
    return view(s, s.to_act)


def test_the_advice_names_a_trump_the_hand_is_long_in() -> None:
    v = _opening(6)
    assert " ".join(map(str, v.hand)) == "0-0 2-1 5-3 6-1 6-3 6-5 6-6"
    _, advice = hint(BasicBot, v, "room/hint/1")
    assert isinstance(advice, dict)
    named = {b["trump"] for b in advice["bids"]}
    assert named and Trump.ZERO.to_json() not in named
    assert Trump.SIX.to_json() in named


def test_the_advice_weighs_the_bots_trumps() -> None:
    for seed in (0, 1, 3):
        v = _opening(seed)
        ranked = best_trumps(mask_of(v.hand), v.rules, knowledge(v).unseen)
        weighed = {t.to_json() for _, t in ranked[:HINT_TRUMPS]}
        _, advice = hint(BasicBot, v, f"room/hint/{seed}")
        assert isinstance(advice, dict)
        for b in advice["bids"]:
            assert b["trump"] in weighed
        best = advice["best"]["trump"]
        assert best is None or best in weighed


def test_each_hint_draws_its_own_deals() -> None:
    # the seed was the first six bytes of "<room's bot seed>/hint/<seq>": every hint of a
    # room drew the same deals
    assert advice_seed("abcdefgh/hint/1") != advice_seed("abcdefgh/hint/2")
    assert advice_seed("abcdefgh/hint/1") == advice_seed("abcdefgh/hint/1")
    assert 0 <= advice_seed("x") < 2**48

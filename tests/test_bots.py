"""Bots: the view-only interface, the sampler of hidden tiles, and the three levels.

Deeper runs (more games, more positions) with ``MOONRULES_DEEP=1``.
"""

from __future__ import annotations

import itertools
import os
import random
from collections import Counter

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import moonrules as m
from moonrules.analysis.solver import play_values
from moonrules.bots import BasicBot, RandomBot, knowledge, view_legal_actions
from moonrules.bots.base import Knowledge
from moonrules.bots.match import bot_by_name, play_game
from moonrules.bots.sampling import Sampler
from moonrules.bots.strong import StrongBot, contract_points
from moonrules.bots.worlds import world
from moonrules.game import Deal, GameState, Hand, Phase, Play, PlayerView, view
from moonrules.records.record import to_record
from moonrules.rules.tiles import TILES, mask_of, tiles

DEEP = os.environ.get("MOONRULES_DEEP") == "1"
PRESETS = ("standard", "partnership", "pagat", "lead-trump", "partnership-forced", "marks")
FAST_STRONG = StrongBot(samples=3, bid_samples=2, node_budget=3000)
TINY_STRONG = StrongBot(samples=2, bid_samples=1, candidates=1, discards=1, node_budget=1)


def _walk(preset: str, seed: int, steps: int) -> list[GameState]:
    """The states of a game between basic and random bots, up to ``steps`` actions."""
    s = m.new_game(preset, seed)
    rng = random.Random(seed)
    bots = [BasicBot(), RandomBot()]
    out = []
    for k in range(steps):
        if s.is_over:
            break
        out.append(s)
        seat = s.to_act
        assert seat is not None
        s = m.apply(s, bots[(seat + k) % 2].act(view(s, seat), rng))
    return out


@pytest.mark.parametrize("preset", PRESETS)
def test_legal_actions_come_from_the_view_alone(preset: str) -> None:
    for seed in range(6 if DEEP else 2):
        for s in _walk(preset, seed, 400 if DEEP else 120):
            assert view_legal_actions(view(s, s.to_act)) == m.legal_actions(s)  # type: ignore[arg-type]


def test_legal_actions_of_a_view_not_to_act_are_refused() -> None:
    s = m.new_game(seed=1, first_bidder=0)
    with pytest.raises(ValueError, match="turn"):
        view_legal_actions(view(s, 1))


def _public_types(value: object) -> None:
    """Every value reachable from a view is public data: no state, hand or deal objects."""
    assert not isinstance(value, GameState | Hand | m.Game | m.Contract | Deal), value
    if isinstance(value, tuple):
        for v in value:
            _public_types(v)
    elif attrs.has(type(value)) and not isinstance(value, m.RuleSet):
        for f in attrs.fields(type(value)):
            _public_types(getattr(value, f.name))


def _swap_hidden(state: GameState, a: int, b: int) -> GameState:
    """The same game with one unplayed tile of seat ``a`` and one of seat ``b`` exchanged, and
    (three players) the widow exchanged with another of seat ``a``'s tiles, at the first call."""
    hands = [list(h) for h in state.hands]
    hands[a][0], hands[b][0] = hands[b][0], hands[a][0]
    widow = state.widow
    if widow is not None:
        hands[a][1], widow = widow, hands[a][1]
    return m.with_deal(state, Deal.of(hands, widow))


@pytest.mark.parametrize("preset", ["standard", "partnership"])
def test_a_bot_cannot_see_hidden_tiles(preset: str) -> None:
    """Two deals that differ only in tiles seat 0 cannot see give seat 0 equal views, and each
    bot, given the same seed, makes the same choice in both; no view holds the state."""
    for seed in range(3 if preset == "standard" else 2):
        s = m.new_game(preset, seed, first_bidder=0)
        t = _swap_hidden(s, 1, 2)
        assert s.hands != t.hands
        v, w = view(s, 0), view(t, 0)
        assert v == w
        _public_types(v)
        for bot in (RandomBot(), BasicBot(), TINY_STRONG):
            assert bot.act(v, random.Random(seed)) == bot.act(w, random.Random(seed))


def test_bots_are_deterministic_for_a_seed() -> None:
    def game(seed: int) -> GameState:
        bots = [FAST_STRONG, BasicBot(), RandomBot()]
        rngs = [random.Random(f"{seed}/{s}") for s in range(3)]
        state, _ = play_game("standard", 11, bots, rngs, max_hands=3)
        return state

    first = game(1)
    assert to_record(first) == to_record(game(1))
    assert first != game(2)  # the bots' choices do come from their generators


def test_random_bot_never_bids_absurdly() -> None:
    bot = RandomBot()
    rng = random.Random(0)
    seen: Counter[object] = Counter()
    for seed in range(200):
        s = m.new_game("standard", seed)
        while s.phase is Phase.BIDDING and s.hand_number == 1:
            v = view(s, s.to_act)  # type: ignore[arg-type]
            a = bot.act(v, rng)
            legal_bids = [x.amount for x in view_legal_actions(v) if isinstance(x, m.Bid)]
            if isinstance(a, m.Bid):
                assert a.amount != 21 and a.amount in sorted(legal_bids)[:2]
            seen[type(a).__name__] += 1
            s = m.apply(s, a)
    assert seen["Pass"] and seen["Bid"]


# ---------------------------------------------------------------------------
# The sampler


def _consistent(know: Knowledge, hands: tuple[int, ...], extra: int) -> bool:
    union = extra
    for s, h in enumerate(hands):
        if h.bit_count() != know.counts[s] or h & know.void[s] or union & h:
            return False
        union |= h
    return union == know.unseen and extra.bit_count() == know.extra


def test_sampler_is_uniform_over_consistent_deals() -> None:
    """A small case counted by brute force: every consistent deal is drawn, about equally."""
    unseen = mask_of(tiles("6-6 6-5 6-4 5-5 5-4 4-4 3-3"))
    six = mask_of(tiles("6-6 6-5 6-4"))
    know = Knowledge(0, unseen, (0, 3, 3), 1, (0, six, 0), (0, 0, 0))
    idx = [i for i in range(28) if unseen >> i & 1]
    every = set()
    for a in itertools.combinations(idx, 3):
        for b in itertools.combinations([i for i in idx if i not in a], 3):
            hands = (0, sum(1 << i for i in a), sum(1 << i for i in b))
            extra = unseen & ~hands[1] & ~hands[2]
            if _consistent(know, hands, extra):
                every.add((hands, extra))
    sampler = Sampler(know)
    assert sampler.count == len(every) > 1
    rng = random.Random(5)
    n = 300 * len(every)
    draws = Counter(sampler.draw(rng) for _ in range(n))
    assert set(draws) == every
    expected = n / len(every)
    chi2 = sum((c - expected) ** 2 / expected for c in draws.values())
    # chi-square with len(every)-1 degrees of freedom: far below this bound if uniform
    assert chi2 < 2 * len(every) + 30


@given(preset=st.sampled_from(PRESETS), seed=st.integers(0, 10**6), steps=st.integers(0, 120))
def test_samples_respect_what_the_seat_knows_and_rebuild_its_position(
    preset: str, seed: int, steps: int
) -> None:
    states = _walk(preset, seed, steps + 1)
    s = states[-1]
    seat = s.to_act
    assert seat is not None
    v = view(s, seat)
    know = knowledge(v)
    # the true deal is one of the consistent ones
    truth = tuple(0 if k == seat else mask_of(h) for k, h in enumerate(s.hands))
    assert all(not (h & know.void[k]) for k, h in enumerate(truth))
    rng = random.Random(seed)
    sampler = Sampler(know)
    for _ in range(3):
        hands, extra = sampler.draw(rng)
        assert _consistent(know, hands, extra)
        w = world(v, know, hands, extra)
        wv = view(w, seat)
        assert (wv.hand, wv.calls, wv.trick, wv.tricks, wv.trump, wv.bidder, wv.phase) == (
            v.hand,
            v.calls,
            v.trick,
            v.tricks,
            v.trump,
            v.bidder,
            v.phase,
        )
        assert (wv.widow, wv.discard) == (v.widow, v.discard)
        assert m.legal_actions(w) == m.legal_actions(s)


def test_a_seat_that_shows_out_is_never_dealt_that_suit() -> None:
    """Seat 1 plays off on a 6 lead: no sample gives it a 6 (FOLLOW-2)."""
    deal = Deal.of(
        [
            tiles("6-6 6-5 6-4 6-3 6-2 6-1 1-1"),
            tiles("5-5 5-4 5-3 5-2 5-1 4-4 4-3"),
            tiles("4-2 4-1 3-3 3-2 3-1 2-2 2-1"),
        ],
        "0-0",
    )
    s = m.new_game("standard", 1, first_bidder=0, deal=deal)
    for a in (m.Bid(4), m.Pass(), m.Pass(), m.Discard(TILES[0]), m.NameTrump(m.Trump.NONE)):
        s = m.apply(s, a)
    s = m.apply(s, Play(m.tile("6-5")))
    s = m.apply(s, Play(m.tile("5-2")))  # seat 1 shows out of sixes
    v = view(s, 2)
    know = knowledge(v)
    sixes = mask_of(t for t in TILES if t.high == 6 or t.low == 6)
    assert know.void[1] & sixes == sixes & ~mask_of(tiles("5-5 4-4 3-3 2-2 1-1 0-0"))
    rng = random.Random(0)
    sampler = Sampler(know)
    for _ in range(50):
        hands, _ = sampler.draw(rng)
        assert not hands[1] & mask_of(tiles("6-6 6-4 6-3 6-2 6-1"))


# ---------------------------------------------------------------------------
# The levels


def test_basic_beats_random() -> None:
    wins = 0
    games = 12
    for g in range(games):
        seats = [RandomBot(), RandomBot(), RandomBot()]
        seats[g % 3] = BasicBot()  # type: ignore[call-overload]
        rngs = [random.Random(f"{g}/{s}") for s in range(3)]
        state, _ = play_game("standard", g, seats, rngs)  # type: ignore[arg-type]
        wins += state.winner == g % 3
    assert wins >= games * 0.7


def test_strong_takes_a_trick_it_needs_when_last_to_play() -> None:
    """Everything is known once the widow and every hand are accounted for: with two tiles
    left in the last seat, the strong bot wins the trick that makes its bid."""
    for seed in range(40):
        s = m.new_game("standard", seed)
        rng = random.Random(seed)
        bots = [BasicBot(), BasicBot(), BasicBot()]
        while not s.is_over and s.hand_number == 1:
            seat = s.to_act
            assert seat is not None
            v = view(s, seat)
            if (
                v.phase is Phase.PLAY
                and len(v.tricks) >= 5
                and len(v.trick) == 2
                and seat == v.bidder
            ):
                legal = [a for a in view_legal_actions(v) if isinstance(a, Play)]
                values = play_values(s)
                best = max(values.values())
                choice = StrongBot(samples=8).act(v, random.Random(1))
                assert isinstance(choice, Play) and choice in legal
                assert values[choice.tile] == best
                return
            s = m.apply(s, bots[seat].act(v, rng))
    pytest.skip("no such position in these deals")  # pragma: no cover


def test_contract_points() -> None:
    r = m.RuleSet()
    assert contract_points(r, 5, 5) > 0 > contract_points(r, 5, 4)
    assert contract_points(r, 21, 7) > 21 - 1 and contract_points(r, 21, 6) < -20
    marks = m.rules_by_name("marks")
    assert round(contract_points(marks, 6, 6)) == 1


@pytest.mark.parametrize("preset", ["standard", "partnership", "pagat", "lead-trump"])
def test_every_bot_plays_a_legal_game(preset: str) -> None:
    """play_game refuses any illegal action, so a finished game means every choice was legal."""
    names = ["strong", "basic", "random", "basic"]
    rules = m.rules_by_name(preset)
    bots = [FAST_STRONG if n == "strong" else bot_by_name(n) for n in names[: rules.players]]
    rngs = [random.Random(s) for s in range(rules.players)]
    state, _ = play_game(rules, 3, bots, rngs, max_hands=2 if not DEEP else 1000)
    assert state.hand_number >= 2 or state.is_over


def test_unknown_bot() -> None:
    with pytest.raises(m.MoonError, match="no bot is called 'clever'"):
        bot_by_name("clever")


def test_view_is_what_the_bot_gets() -> None:
    seen: list[object] = []

    class Spy:
        name = "spy"

        def act(self, v: PlayerView, rng: random.Random) -> m.Action:
            seen.append(v)
            return view_legal_actions(v)[0]

    play_game("standard", 2, [Spy(), Spy(), Spy()], [random.Random(0)] * 3, max_hands=1)
    assert seen and all(type(v) is PlayerView for v in seen)

"""Bots: the view-only interface, the sampler of hidden tiles, and the three levels.

Deeper runs (more games, more positions) with ``MOONRULES_DEEP=1``.
"""

from __future__ import annotations

import hashlib
import itertools
import math
import random
from collections import Counter

import attrs
import pytest
from depth import DEEP
from hypothesis import given
from hypothesis import strategies as st

import moonrules as m
from moonrules.analysis.solver import play_values
from moonrules.bots import BasicBot, RandomBot, knowledge, view_legal_actions
from moonrules.bots.base import Knowledge
from moonrules.bots.inference import (
    PLAY_NOISE,
    inferred_deals,
    informative,
    likelihood,
    open_calls,
    play_likelihood,
)
from moonrules.bots.learned import LearnedBot
from moonrules.bots.match import bot_by_name, play_game
from moonrules.bots.model import call_chances, strength, trump_chances
from moonrules.bots.pimc import PimcBot
from moonrules.bots.sampling import Sampler
from moonrules.bots.strong import StrongBot, contract_points
from moonrules.bots.value import HandValue, win_chance
from moonrules.bots.worlds import world
from moonrules.game import Deal, GameState, Hand, Phase, Play, PlayerView, view
from moonrules.records.record import to_record
from moonrules.rules.tiles import TILES, mask_of, tiles

PRESETS = ("standard", "partnership", "pagat", "lead-trump", "partnership-forced", "marks")
FAST_STRONG = StrongBot(samples=3, bid_samples=2, node_budget=3000)
TINY_STRONG = StrongBot(samples=2, bid_samples=1, candidates=1, discards=1, node_budget=1)
FAST_PIMC = PimcBot(samples=3, bid_samples=2, node_budget=3000)
TINY_PIMC = PimcBot(samples=2, bid_samples=1, candidates=1, discards=1, node_budget=1)
TINY_LEARNED = LearnedBot(strong=TINY_STRONG)


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
        for bot in (RandomBot(), BasicBot(), TINY_PIMC, TINY_STRONG, TINY_LEARNED):
            assert bot.act(v, random.Random(seed)) == bot.act(w, random.Random(seed))
        # a hand that may end the game: learned calls by the chance to win it
        late = (19, 2, 2) if preset == "standard" else (19, 2)
        v, w = attrs.evolve(v, scores=late), attrs.evolve(w, scores=late)
        assert TINY_LEARNED.act(v, random.Random(seed)) == TINY_LEARNED.act(w, random.Random(seed))


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


@pytest.mark.parametrize("kind", [StrongBot, PimcBot])
def test_strong_takes_a_trick_it_needs_when_last_to_play(kind: type[StrongBot | PimcBot]) -> None:
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
                choice = kind(samples=8).act(v, random.Random(1))
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
    names = ["strong", "pimc", "random", "basic"]
    rules = m.rules_by_name(preset)
    fast = {"strong": FAST_STRONG, "pimc": FAST_PIMC}
    bots = [fast.get(n) or bot_by_name(n) for n in names[: rules.players]]
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


# ---------------------------------------------------------------------------
# pimc, the baseline


def test_pimc_is_the_baseline_unchanged() -> None:
    """Every measurement of the strong bot is against ``pimc``: its choices in a seeded
    game are pinned, so that a change to it (or to what it builds on) is seen."""
    bots = [FAST_PIMC, FAST_PIMC, FAST_PIMC]
    rngs = [random.Random(f"pin/{s}") for s in range(3)]
    played: list[str] = []
    play_game(
        "standard", 5, bots, rngs, max_hands=2, on_action=lambda s, k, a: played.append(str(a))
    )
    assert len(played) > 40
    assert hashlib.sha256(" ".join(played).encode()).hexdigest()[:16] == PIMC_PIN
    assert PimcBot.name == "pimc" and bot_by_name("pimc") == PimcBot()


# ---------------------------------------------------------------------------
# The strong bot's parts: values, the model of the other seats, inference


STANDARD = m.RuleSet()


def test_relative_points_value_overtricks_and_defence() -> None:
    v = HandValue.for_hand(STANDARD, 0, (0, 0, 0), (0, 0, 0), 0)
    assert not v.by_game
    # bidder on 5: made with 5 tricks, the defenders share 2: 5 - 1; each overtrick +0.5
    assert v(0, 5, 5) == 4.0 and v(0, 5, 6) == 4.5 and v(0, 5, 4) == -5 - 1.5
    # defender against seat 1's 5: set by 4 tricks: 0.75 * 3 / 2 ... computed from the
    # deltas (-5, defenders 1.5 each): 1.5 - (-5 + 1.5) / 2
    assert v(1, 5, 4) == 1.5 - (-5 + 1.5) / 2
    assert v(1, 5, 4) > v(1, 5, 5)  # a set is worth more to a defender than a trick
    p = HandValue.for_hand(m.PARTNERSHIP, 0, (0, 0), (0, 0, 0, 0), 0)
    assert p(2, 5, 5) == 5 - 2 and p(1, 5, 4) == 3 - (-5)  # partner's bid; the other team's


def test_the_game_is_valued_when_it_may_end() -> None:
    late = HandValue.for_hand(STANDARD, 0, (18, 3, 2), (0, 0, 0), 0)
    assert late.by_game
    assert late(0, 4, 4) == 1.0  # 22: the game is won
    assert late(1, 4, 3) > late(1, 4, 5) > late(1, 5, 7)
    assert 0 < late(0, 21, 6) < late(0, 4, 3) < late.thrown_in() < late(0, 4, 4)
    plain = HandValue.for_hand(STANDARD, 0, (18, 3, 2), (0, 0, 0), 0, score_aware=False)
    assert not plain.by_game


def test_a_made_21_is_worth_a_game_won() -> None:
    early = HandValue.for_hand(STANDARD, 0, (0, 0, 0), (0, 0, 0), 0)
    assert not early.by_game and early.moon_points > 25  # more than its 21 points
    assert early(0, 21, 7) == early.moon_points and early(0, 21, 6) == -21 - 0.5
    assert early(1, 21, 7) == -10.5  # another seat's made 21: its 21 points against us
    plain = HandValue.for_hand(STANDARD, 0, (0, 0, 0), (0, 0, 0), 0, score_aware=False)
    assert plain(0, 21, 7) == 21
    scores21 = m.RuleSet(moon_made="scores-21")
    assert HandValue.for_hand(scores21, 0, (0, 0, 0), (0, 0, 0), 0).moon_points == 21


def test_win_chance_shares_the_game_between_the_sides() -> None:
    for scores in [(0, 0, 0), (15, 10, 5), (-21, 1, 1), (20, 20, 0)]:
        total = sum(win_chance(STANDARD, scores, 0, s) for s in range(3))
        assert math.isclose(total, 1.0)
    even = [win_chance(STANDARD, (0, 0, 0), 0, s) for s in range(3)]
    assert all(0.25 < w < 0.42 for w in even)
    assert win_chance(STANDARD, (20, -5, -5), 1, 0) > 0.8
    assert win_chance(STANDARD, (10, 0, 0), 1, 0) > win_chance(STANDARD, (5, 0, 0), 1, 0)
    assert math.isclose(sum(win_chance(m.PARTNERSHIP, (12, 3), 0, s) for s in range(2)), 1.0)


def test_the_call_model_reads_strength() -> None:
    legal = open_calls(STANDARD, ())
    weak, strong_hand = (call_chances(STANDARD, x, 0, legal) for x in (1.5, 6.0))
    for chances in (weak, strong_hand):
        assert set(chances) == set(legal) and math.isclose(sum(chances.values()), 1.0)
    assert weak[0] > 0.8 > strong_hand[0]
    over = call_chances(STANDARD, 3.5, 5, open_calls(STANDARD, (5,)))
    assert over[0] > call_chances(STANDARD, 3.5, 0, legal)[0]  # beating a 5 asks for more
    assert call_chances(STANDARD, 1.0, 0, (4, 5, 6, 7, 21))[4] > 0.5  # forced: the lowest
    sixes = mask_of(tiles("6-6 6-5 6-4 6-3 6-2 1-0 2-0"))
    chances = dict(trump_chances(sixes, STANDARD))
    assert max(chances, key=chances.__getitem__) is m.Trump.SIX
    assert math.isclose(sum(chances.values()), 1.0)
    assert strength(sixes, STANDARD) > strength(
        mask_of(tiles("5-0 4-1 3-2 6-1 5-2 4-0 3-1")), STANDARD
    )


def _defending_view() -> PlayerView:
    """Seat 0's view after seat 1 bid 6 and named sixes trump, seat 0 and 2 passed."""
    for seed in range(200):
        s = m.new_game("standard", seed, first_bidder=0)
        s = m.apply(s, m.Pass())
        s = m.apply(s, m.Bid(6))
        s = m.apply(s, m.Pass())
        held = s.hand.hands[1] | (1 << s.hand.widow)
        if m.Trump.SIX not in dict(trump_chances(held & ~(held & -held), STANDARD)):
            continue
        s = m.apply(s, m.Discard(BasicBot().act(view(s, 1), random.Random(0)).tile))  # type: ignore[attr-defined]
        s = m.apply(s, m.NameTrump(m.Trump.SIX))
        if mask_of(view(s, 0).hand) & mask_of(t for t in TILES if 6 in (t.high, t.low)):
            return view(s, 0)
    raise AssertionError("no such deal")  # pragma: no cover


def test_inference_gives_the_bidder_its_trumps() -> None:
    v = _defending_view()
    assert informative(v)
    know = knowledge(v)
    sampler = Sampler(know)
    sixes = mask_of(t for t in TILES if 6 in (t.high, t.low))
    rng = random.Random(3)
    uniform = [sampler.draw(rng) for _ in range(200)]
    inferred = inferred_deals(v, know, sampler, random.Random(3), 200, pool=4)
    flat = inferred_deals(v, know, sampler, random.Random(3), 200, pool=4, weight=0)

    def mean_sixes(deals: list[tuple[tuple[int, ...], int]]) -> float:
        return sum((h[1] & sixes).bit_count() for h, _ in deals) / len(deals)

    assert mean_sixes(inferred) > mean_sixes(uniform) + 0.5
    assert abs(mean_sixes(flat) - mean_sixes(uniform)) < 0.4
    for hands, extra in inferred:
        assert _consistent(know, hands, extra)
    by_sixes = sorted(uniform, key=lambda d: (d[0][1] & sixes).bit_count())
    assert likelihood(v, know, by_sixes[-1][0]) > likelihood(v, know, by_sixes[0][0])
    first = view(m.new_game("standard", 1, first_bidder=0), 0)
    assert not informative(first)  # nothing seen yet: the deals are drawn uniformly


def _basic_hand_views(preset: str, seed: int) -> list[tuple[GameState, int]]:
    """Every play-phase state of the first hand of a game between basic bots, each with the
    number of plays made before it by other seats than the one to act that had a choice."""
    s = m.new_game(preset, seed)
    bot = BasicBot()
    out: list[tuple[GameState, int]] = []
    rng = random.Random(0)
    chosen: list[int] = []  # the seat of each play with more than one legal tile
    while not s.is_over and s.hand_number == 1:
        seat = s.to_act
        assert seat is not None
        if s.phase is Phase.PLAY:
            out.append((s, sum(1 for c in chosen if c != seat)))
            if len(m.legal_actions(s)) > 1:
                chosen.append(seat)
        s = m.apply(s, bot.act(view(s, seat), rng))
    return out


@pytest.mark.parametrize("preset", ["standard", "partnership", "pagat"])
def test_play_likelihood_knows_what_basic_bots_played(preset: str) -> None:
    """Where the other seats are basic bots, the true deal has the model's top likelihood:
    every play with a choice was the basic bot's, read with what that seat could see then
    (its tiles, the tiles played, the bidder's own discard)."""
    seen = 0
    for seed in range(1, 12):
        for s, choices in _basic_hand_views(preset, seed):
            seat = s.to_act
            assert seat is not None
            v = view(s, seat)
            know = knowledge(v)
            hands = tuple(0 if i == seat else h for i, h in enumerate(s.hand.hands))
            extra = 0 if s.hand.discard < 0 or seat == s.hand.bidder else 1 << s.hand.discard
            p = play_likelihood(v, know, hands, extra)
            assert math.isclose(p, (1 - PLAY_NOISE) ** choices), (seed, v.trick, v.tricks)
            seen += choices
    assert seen > 100


def test_play_inference_weighs_the_deals_by_the_plays() -> None:
    """Late in a hand between basic bots, deals that follow the plays are kept far more
    often than the uniform share of the true holdings; a seat's own plays and a view with
    no plays weigh nothing."""
    s, _ = _basic_hand_views("standard", 1)[-4]
    seat = s.to_act
    assert seat is not None
    v = view(s, seat)
    know = knowledge(v)
    sampler = Sampler(know)
    true = tuple(0 if i == seat else h for i, h in enumerate(s.hand.hands))
    uniform = [sampler.draw(random.Random(5)) for _ in range(300)]
    weighed = inferred_deals(v, know, sampler, random.Random(5), 300, weight=0, play_weight=1)

    def hits(deals: list[tuple[tuple[int, ...], int]]) -> int:
        return sum(h == true for h, _ in deals)

    assert hits(weighed) > hits(uniform)
    for hands, extra in weighed:
        assert _consistent(know, hands, extra)
        assert play_likelihood(v, know, hands, extra) > 0
    first = m.new_game("standard", 1, first_bidder=0)
    assert play_likelihood(view(first, 0), knowledge(view(first, 0)), (0, 0, 0), 0) == 1.0


def test_strong_reads_the_auction_to_come() -> None:
    """The rest of the auction after each call sums to one, and a pass by the last seat
    after passes throws the hand in."""
    from moonrules.bots.strong import _Auction

    s = m.new_game("standard", 8, first_bidder=0)
    v = view(s, 0)
    know = knowledge(v)
    hands, extra = Sampler(know).draw(random.Random(1))
    a = _Auction(STANDARD, 0, (), 0, world(v, know, hands, extra), hands, extra)
    for call in (0, 4, 5, 21):
        ends = a.endings(call)
        assert math.isclose(sum(p for p, _, _ in ends), 1.0)
        assert all(seat == 0 for _, seat, b in ends if b == call and call)
    assert [e for e in a.endings(21)] == [(1.0, 0, 21)]  # 21 closes the auction (BID-5)
    last = _Auction(STANDARD, 2, (0, 0), 0, s, hands, extra)
    assert last.endings(0) == [(1.0, -1, 0)]


def test_strong_variants_play_legal_games() -> None:
    """Each of the strong bot's parts can be switched off (for measuring what it gains)."""
    for bot in (
        StrongBot(samples=3, bid_samples=2, node_budget=3000, inference=0),
        StrongBot(samples=3, bid_samples=2, node_budget=3000, rollout=False, score_aware=False),
        StrongBot(samples=3, bid_samples=2, node_budget=3000, play_inference=1.0),
    ):
        rngs = [random.Random(s) for s in range(3)]
        state, _ = play_game("standard", 9, [bot, BasicBot(), bot], rngs, max_hands=2)
        assert state.hand_number >= 2 or state.is_over


PIMC_PIN = "b52e0037624683a5"

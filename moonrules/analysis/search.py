"""The double-dummy search: the part of the solver that runs hot, and may run compiled.

:mod:`moonrules.analysis.solver` checks a position and asks this module how many
tricks the bidder's side takes from it. The search works on bit masks of tiles
(:mod:`moonrules.rules.tiles`) and the rule tables (:mod:`moonrules.kernel.tables`):
a null-window alpha-beta over trick counts (each probe asks "can the bidder's side
take at least *k* more tricks?", and a binary search over *k* finds the value), a
transposition table of bounds at trick boundaries keyed by the hands and the
leader, cheap bounds (trumps the other side holds no higher trump to match with,
one to one; tiles the leader can cash), move ordering (the lead that settled the
last probe; leads the other side can least beat, counting a partner's tiles of
the suit and the players who could trump it; a history of good leads; the
cheapest tile that wins the trick), and merging of equivalent tiles (two tiles of
one player that no tile of another player separates, see ``Search.seat_reps``)
before the last three tricks.

Only legal plays are searched (FOLLOW-1 … FOLLOW-3, LEAD-2 at the first lead); a
renege, which under ``renege = penalty`` (RENEGE-2) ends the hand, is not.

The module is plain, strictly typed Python, and the same source compiles with
mypyc into a C extension three times as fast (``MOONRULES_COMPILE=1`` at install,
see ``docs/guides/solver-speed.md``); :data:`moonrules.analysis.solver.COMPILED` says
which form is running, and :mod:`moonrules.kernel.compiled` runs this source instead
of a stale compiled form.
"""

from __future__ import annotations

from typing import Final, SupportsIndex

from moonrules.game import GameState, legal_play_mask
from moonrules.kernel.masks import NO_LEAD, legal_mask
from moonrules.kernel.tables import LED_SUIT, STRENGTH, SUIT_MASK, winner_index
from moonrules.rules.errors import ArgumentError, wrong_type
from moonrules.rules.suits import TRUMP_SUIT

__all__ = ["TABLES", "Search", "SolverCache", "TrumpTables", "solve_remaining"]


# ---------------------------------------------------------------------------
# Per-trump tables for the solver, derived from moonrules.kernel.tables at import.


class TrumpTables:
    """What the search needs to know about one trump, from :mod:`moonrules.kernel.tables`."""

    __slots__ = (
        "above",
        "above_led",
        "groups",
        "lead_key",
        "leads",
        "led",
        "other_suits",
        "strength",
        "suit_leads",
        "suit_mask",
        "trump_order",
        "trumps",
    )

    def __init__(self, trump: int) -> None:
        suit_mask = SUIT_MASK[trump]
        self.led: tuple[int, ...] = LED_SUIT[trump]
        # strength[s][i]: STRENGTH[trump][s][i] (higher wins the trick, TRICK-2) times 64,
        # plus the tile's rank in the suit its own lead calls, so that tiles that
        # cannot win sort weakest first. Only the order matters to the search: a
        # tile that neither follows nor trumps stays below every tile that does.
        own = [STRENGTH[trump][self.led[i]][i] for i in range(28)]
        self.strength: tuple[tuple[int, ...], ...] = tuple(
            tuple(STRENGTH[trump][s][i] * 64 + own[i] for i in range(28)) for s in range(8)
        )
        self.trumps: int = suit_mask[TRUMP_SUIT]
        self.suit_mask: tuple[int, ...] = tuple(suit_mask)
        # trump_order: the trumps as bits, highest first (SUIT-3, SUIT-4).
        self.trump_order: tuple[int, ...] = tuple(
            1 << i
            for i in sorted(
                (i for i in range(28) if self.trumps >> i & 1),
                key=lambda i: -STRENGTH[trump][TRUMP_SUIT][i],
            )
        )
        # leads[s]: the tiles whose lead calls suit s (LEAD-3).
        self.leads: tuple[int, ...] = tuple(
            sum(1 << i for i in range(28) if self.led[i] == s) for s in range(8)
        )
        # above[s][i]: the tiles of suit s that outrank tile i in suit s (SUIT-3, SUIT-4).
        above: list[tuple[int, ...]] = []
        for s in range(8):
            st = STRENGTH[trump][s]
            row = []
            for i in range(28):
                if not suit_mask[s] >> i & 1:
                    row.append(0)
                    continue
                row.append(
                    sum(1 << j for j in range(28) if suit_mask[s] >> j & 1 and st[j] > st[i])
                )
            above.append(tuple(row))
        self.above: tuple[tuple[int, ...], ...] = tuple(above)
        # other_suits[i]: the suits tile i belongs to besides the suit its lead calls,
        # as a bit set over suits 0-7.
        self.other_suits: tuple[int, ...] = tuple(
            sum(1 << s for s in range(8) if suit_mask[s] >> i & 1 and s != self.led[i])
            for i in range(28)
        )
        # groups: (suit, tiles highest first) — the tiles whose lead calls that suit,
        # ranked within it. Only tiles of one group can ever be equivalent.
        groups = []
        for s in range(8):
            members = [i for i in range(28) if self.led[i] == s]
            members.sort(key=lambda i: -STRENGTH[trump][s][i])
            if members:
                groups.append((s, sum(1 << i for i in members), tuple(members)))
        self.above_led: tuple[int, ...] = tuple(self.above[self.led[i]][i] for i in range(28))
        self.lead_key: tuple[int, ...] = tuple(self.led[i] << 28 for i in range(28))
        self.suit_leads: tuple[tuple[int, int], ...] = tuple(
            (1 << s, self.leads[s]) for s in range(8) if self.leads[s]
        )
        self.groups: tuple[tuple[int, int, tuple[int, ...]], ...] = tuple(groups)


TABLES: Final[tuple[TrumpTables, ...]] = tuple(TrumpTables(trump) for trump in range(9))
"""The solver's tables for each ``Trump.value`` (built at import: about 2 ms)."""

# ---------------------------------------------------------------------------
# The cache


class SolverCache:
    """A bounded transposition table, with a count of the nodes searched.

    One cache may serve many calls about positions of one hand (same players,
    trump and bidding side); it empties itself when asked about another, and
    when it would grow past ``max_entries``.
    """

    __slots__ = ("_context", "classes", "entries", "max_entries", "nodes")

    def __init__(self, max_entries: SupportsIndex = 1 << 18) -> None:
        # (annotated so that the compiled form, too, lets this check name the argument: a
        # parameter of type int would be checked by the compiled code first, unnamed)
        if type(max_entries) is not int:
            raise wrong_type("max_entries", "a whole number of entries", max_entries)
        if max_entries < 1:
            raise ArgumentError(f"max_entries: at least 1 entry, not {max_entries}")
        self.max_entries = max_entries
        self.entries: dict[int, Entry] = {}
        self.classes: dict[int, int] = {}
        self.nodes = 0
        self._context: tuple[int, int, tuple[bool, ...]] | None = None

    def _use(self, context: tuple[int, int, tuple[bool, ...]]) -> None:
        if context != self._context:
            self.entries.clear()
            self.classes.clear()
            self._context = context

    def __len__(self) -> int:
        return len(self.entries)


# ---------------------------------------------------------------------------
# The search


class Entry:
    """A transposition-table entry: bounds on the bidder's side's remaining tricks,
    the lead that last settled a probe, and each seat's class representatives."""

    __slots__ = ("best", "hi", "lo", "reps")

    def __init__(self, lo: int, hi: int) -> None:
        self.lo = lo
        self.hi = hi
        self.best = -1
        self.reps: list[int] = []


class Search:
    """One search context: the hands (mutated in place and restored), the trump, the sides."""

    __slots__ = (
        "hands",
        "hist",
        "max_entries",
        "n",
        "nodes",
        "reps_cache",
        "rules",
        "side",
        "t",
        "total",
        "trump",
        "tt",
    )

    def __init__(self, state: GameState, side: tuple[bool, ...], cache: SolverCache) -> None:
        h = state.hand
        cache._use((state.rules.players, h.trump, side))
        self.hands = list(h.hands)
        self.n = len(h.hands)
        self.t = TABLES[h.trump]
        self.trump = h.trump
        self.rules = state.rules
        # The tricks of the whole hand: those done and those the leader has tiles for.
        self.total = len(h.tricks) + h.hands[h.leader].bit_count() + (1 if h.trick else 0)
        self.side = side
        self.tt = cache.entries
        self.reps_cache = cache.classes
        self.max_entries = cache.max_entries
        self.nodes = 0
        self.hist = [0] * (28 * self.n)

    # -- equivalent tiles --------------------------------------------------

    def seat_reps(self, seat: int, played: int) -> int:
        """The mask of ``seat``'s tiles that stand for their equivalence class.

        Two tiles of one seat are equivalent when swapping them changes nothing
        in the rest of the hand: their leads call the same suit (LEAD-3), so
        they are both trumps or both not; neither belongs to a further suit
        that another seat could lead; and no tile held by another seat ranks
        between them in the suit their leads call. Then they follow the same
        leads (FOLLOW-1, FOLLOW-2), and each beats or loses to every other tile
        just as the other does (TRICK-2).

        The classes are those at the start of the trick: ``played``, the tiles
        the other seats have played to it so far, count as theirs. Later in the
        trick fewer tiles are outside the seat's hand, which could only merge
        more tiles, so the classes stay valid through the trick.
        """
        t = self.t
        hands = self.hands
        hand = hands[seat]
        if hand.bit_count() < 4:
            # Merging in the last three tricks saves fewer nodes than it costs.
            return hand
        outside = played
        for hnd in hands:
            outside |= hnd
        outside &= ~hand
        key = outside << 28 | hand
        known = self.reps_cache.get(key)
        if known is not None:
            return known
        led_suits = 0
        for bit, lm in t.suit_leads:
            if outside & lm:
                led_suits |= bit
        above_led = t.above_led
        lead_key = t.lead_key
        other_suits = t.other_suits
        reps = hand
        seen: set[int] = set()
        m = hand
        while m:
            low = m & -m
            m ^= low
            i = low.bit_length() - 1
            if other_suits[i] & led_suits:
                continue
            k = above_led[i] & outside | lead_key[i]
            if k in seen:
                reps ^= low
            else:
                seen.add(k)
        if len(self.reps_cache) >= self.max_entries:
            self.reps_cache.clear()
        self.reps_cache[key] = reps
        return reps

    # -- bounds ------------------------------------------------------------

    def bounds(self, leader: int, remaining: int) -> tuple[int, int]:
        """Cheap bounds on the bidder's side's tricks from a trick boundary.

        A trump that outranks every trump of the other side wins whatever
        trick it is played to (TRICK-2), and one player's tiles go to different
        tricks: so each side takes at least as many tricks as any one of its
        players holds such trumps. The leader can also cash every tile that no
        tile of another seat can beat when it is led (a top trump; a top tile
        of its suit once no other seat holds a trump), keeping the lead.
        """
        t = self.t
        hands = self.hands
        side = self.side
        trumps = t.trumps
        bid_tr = 0
        def_tr = 0
        live = 0
        for p, hnd in enumerate(hands):
            live |= hnd
            if side[p]:
                bid_tr |= hnd & trumps
            else:
                def_tr |= hnd & trumps
        bid_lo = 0
        def_lo = 0
        if bid_tr and def_tr:
            order = t.trump_order
            for p, hnd in enumerate(hands):
                mine = hnd & trumps
                if not mine:
                    continue
                other = def_tr if side[p] else bid_tr
                # Every trump of p is played to some trick before the hand ends, and
                # that trick goes to the other side only if it plays a higher trump to
                # it: so p's side takes at least as many tricks as p's trumps that no
                # higher trump of the other side can be matched with, one to one.
                # Scanning from the top, matching each with any higher one seen so
                # far gives the largest matching.
                free = 0
                c = 0
                for b in order:
                    if b & other:
                        free += 1
                    elif b & mine:
                        if free:
                            free -= 1
                        else:
                            c += 1
                if side[p]:
                    bid_lo = max(bid_lo, c)
                else:
                    def_lo = max(def_lo, c)
        elif bid_tr or def_tr:
            # Only one side holds trumps: each of them wins its trick.
            for p, hnd in enumerate(hands):
                c = (hnd & trumps).bit_count()
                if side[p]:
                    bid_lo = max(bid_lo, c)
                else:
                    def_lo = max(def_lo, c)
        hand = hands[leader]
        outside = live & ~hand
        out_tr = outside & trumps
        above_led = t.above_led
        sure = 0
        m = hand if not out_tr else hand & trumps
        while m:
            low = m & -m
            m ^= low
            if not above_led[low.bit_length() - 1] & outside:
                sure += 1
        if side[leader]:
            bid_lo = max(bid_lo, sure)
        else:
            def_lo = max(def_lo, sure)
        return bid_lo, remaining - def_lo

    # -- probes ------------------------------------------------------------

    def win(self, leader: int, need: int) -> bool:
        """At a trick boundary: can the bidder's side take ``need`` of the remaining tricks?"""
        if need <= 0:
            return True
        hands = self.hands
        remaining = hands[leader].bit_count()
        if need > remaining:
            return False
        if remaining == 1:
            return self._last_trick(leader)
        key = leader
        for hnd in hands:
            key = key << 28 | hnd
        tt = self.tt
        entry = tt.get(key)
        if remaining == 2:
            # Two tricks: a plain search, its bounds kept in the table.
            if entry is None:
                if len(tt) >= self.max_entries:
                    tt.clear()
                entry = tt[key] = Entry(0, 2)
            elif entry.lo >= need:
                return True
            elif entry.hi < need:
                return False
            result = self._two_tricks(leader, need)
            if result:
                entry.lo = need
            else:
                entry.hi = need - 1
            return result
        if entry is None:
            if len(tt) >= self.max_entries:
                tt.clear()
            lo, hi = self.bounds(leader, remaining)
            entry = Entry(lo, hi)
            tt[key] = entry
            if lo >= need:
                return True
            if hi < need:
                return False
            entry.reps = [-1] * self.n
        else:
            if entry.lo >= need:
                return True
            if entry.hi < need:
                return False
            if not entry.reps:
                entry.reps = [-1] * self.n
        leads = legal_mask(hands[leader], NO_LEAD, self.trump, self.rules, self.total - remaining)
        result = self._lead(leader, need, entry.reps, leads, entry)
        if result:
            if need > entry.lo:
                entry.lo = need
        elif need - 1 < entry.hi:
            entry.hi = need - 1
        return result

    def _last_trick(self, leader: int) -> bool:
        """One tile each: the bidder's side wins the last trick or not."""
        self.nodes += 1
        hands = self.hands
        n = self.n
        t = self.t
        led = hands[leader].bit_length() - 1
        st = t.strength[t.led[led]]
        best, best_s = leader, st[led]
        for k in range(1, n):
            seat = (leader + k) % n
            s = st[hands[seat].bit_length() - 1]
            if s > best_s:
                best, best_s = seat, s
        return self.side[best]

    def _two_tricks(self, leader: int, need: int) -> bool:
        """Two tiles each: a plain search of the two tricks, no table, no merging."""
        self.nodes += 1
        hands = self.hands
        t = self.t
        hand = hands[leader]
        maximizing = self.side[leader]
        m = hand
        while m:
            low = m & -m
            m ^= low
            i = low.bit_length() - 1
            hands[leader] = hand ^ low
            st = t.strength[t.led[i]]
            r = self._two_follow(1, leader, need, i, st, leader, st[i])
            if r == maximizing:
                hands[leader] = hand
                return r
        hands[leader] = hand
        return not maximizing

    def _two_follow(
        self,
        pos: int,
        leader: int,
        need: int,
        led: int,
        st: tuple[int, ...],
        best: int,
        best_s: int,
    ) -> bool:
        self.nodes += 1
        n = self.n
        seat = (leader + pos) % n
        hands = self.hands
        hand = hands[seat]
        m = legal_mask(hand, led, self.trump, self.rules, 0)  # 0: read only for a lead
        side = self.side
        maximizing = side[seat]
        last = pos == n - 1
        while m:
            low = m & -m
            m ^= low
            i = low.bit_length() - 1
            hands[seat] = hand ^ low
            s = st[i]
            if s > best_s:
                b, bs = seat, s
            else:
                b, bs = best, best_s
            if last:
                rest = need - side[b]
                r = rest <= 0 or (rest == 1 and self._last_trick(b))
            else:
                r = self._two_follow(pos + 1, leader, need, led, st, b, bs)
            if r == maximizing:
                hands[seat] = hand
                return r
        hands[seat] = hand
        return not maximizing

    def _lead(
        self, leader: int, need: int, reps: list[int], lead_mask: int, entry: Entry | None
    ) -> bool:
        """The leader's choice of lead; ``entry`` remembers the lead that settled the probe."""
        self.nodes += 1
        t = self.t
        hands = self.hands
        maximizing = self.side[leader]
        r = reps[leader]
        if r < 0:
            r = reps[leader] = self.seat_reps(leader, 0)
        moves = lead_mask & r
        hand = hands[leader]
        if moves & (moves - 1):
            # Lead first the tiles that fewest tiles of the other side can beat (over
            # the best tile a partner holds in the suit led, plus one for each player
            # of the other side who holds trumps and none of that suit, so could
            # trump it), then the leads that settled most probes so far (history).
            outside = 0
            partner = 0
            side = self.side
            for seat, hnd in enumerate(hands):
                if side[seat] != maximizing:
                    outside |= hnd
                elif seat != leader:
                    partner |= hnd
            trumps = t.trumps
            opp = [h for sd, h in zip(side, hands, strict=True) if sd != maximizing and h & trumps]
            above = t.above
            led_of = t.led
            suit_mask = t.suit_mask
            hist = self.hist
            base = leader * 28
            keyed = []
            m = moves
            while m:
                low = m & -m
                m ^= low
                i = low.bit_length() - 1
                s = led_of[i]
                ab = above[s]
                beaten = (ab[i] & outside).bit_count()
                mate = partner & suit_mask[s] & ab[i]
                while mate and beaten:
                    lj = mate & -mate
                    mate ^= lj
                    c = (ab[lj.bit_length() - 1] & outside).bit_count()
                    if c < beaten:
                        beaten = c
                if s != TRUMP_SUIT:
                    for o in opp:
                        if not o & suit_mask[s]:
                            beaten += 1
                keyed.append((beaten, -hist[base + i], i))
            keyed.sort()
            order = [i for _, _, i in keyed]
            if entry is not None and entry.best >= 0 and moves >> entry.best & 1:
                order.remove(entry.best)
                order.insert(0, entry.best)
        else:
            order = [moves.bit_length() - 1]
        strength = t.strength
        led = t.led
        for i in order:
            hands[leader] = hand & ~(1 << i)
            st = strength[led[i]]
            res = self._follow(1, leader, need, reps, i, st, leader, st[i], 1 << i)
            if res == maximizing:
                hands[leader] = hand
                if entry is not None:
                    entry.best = i
                self.hist[leader * 28 + i] += 1 << (2 * hand.bit_count())
                return res
        hands[leader] = hand
        return not maximizing

    def _follow(
        self,
        pos: int,
        leader: int,
        need: int,
        reps: list[int],
        led: int,
        st: tuple[int, ...],
        best: int,
        best_s: int,
        played: int,
    ) -> bool:
        """The player at position ``pos`` of the trick plays; ``played``: the trick's tiles."""
        self.nodes += 1
        n = self.n
        seat = (leader + pos) % n
        hands = self.hands
        hand = hands[seat]
        moves = legal_mask(hand, led, self.trump, self.rules, 0)  # 0: read only for a lead
        side = self.side
        maximizing = side[seat]
        last = pos == n - 1
        if moves & (moves - 1):
            rep = reps[seat]
            if rep < 0:
                rep = reps[seat] = self.seat_reps(seat, played)
            moves &= rep
        if moves & (moves - 1) == 0:
            i = moves.bit_length() - 1
            hands[seat] = hand & ~moves
            s = st[i]
            if s > best_s:
                best, best_s = seat, s
            if last:
                r = self.win(best, need - 1 if side[best] else need)
            else:
                r = self._follow(pos + 1, leader, need, reps, led, st, best, best_s, played | moves)
            hands[seat] = hand
            return r
        low = moves & -moves
        rest = moves ^ low
        if rest & (rest - 1) == 0:
            # Two tiles (the most common case): no list to sort.
            a = low.bit_length() - 1
            b = rest.bit_length() - 1
            if st[a] > st[b]:
                a, b = b, a
            if side[best] != maximizing and st[b] > best_s >= st[a]:
                a, b = b, a
            order = [a, b]
        else:
            order = []
            m = moves
            while m:
                low = m & -m
                m ^= low
                order.append(low.bit_length() - 1)
            order.sort(key=st.__getitem__)
            if side[best] != maximizing:
                # The other side is winning the trick: try the cheapest tile that beats it first.
                for k, i in enumerate(order):
                    if st[i] > best_s:
                        if k:
                            order = order[k:] + order[:k]
                        break
        for i in order:
            hands[seat] = hand & ~(1 << i)
            s = st[i]
            if s > best_s:
                b, bs = seat, s
            else:
                b, bs = best, best_s
            if last:
                r = self.win(b, need - 1 if side[b] else need)
            else:
                r = self._follow(pos + 1, leader, need, reps, led, st, b, bs, played | 1 << i)
            if r == maximizing:
                hands[seat] = hand
                return r
        hands[seat] = hand
        return not maximizing


def root_probe(search: Search, state: GameState, need: int) -> bool:
    """Can the bidder's side take ``need`` of the tricks left from ``state``?"""
    h = state.hand
    n = search.n
    if not h.trick:
        lead_mask = legal_play_mask(state)
        if lead_mask == h.hands[h.leader]:
            return search.win(h.leader, need)
        if need <= 0:
            return True
        if need > h.hands[h.leader].bit_count():
            return False
        return search._lead(h.leader, need, [-1] * n, lead_mask, None)
    if need <= 0:
        return True
    if need > h.hands[h.leader].bit_count() + 1:
        return False
    t = search.t
    trick = h.trick
    played = 0
    for i in trick:
        played |= 1 << i
    st = t.strength[t.led[trick[0]]]
    best = winner_index(trick, h.trump)
    return search._follow(
        len(trick),
        h.leader,
        need,
        [-1] * n,
        trick[0],
        st,
        (h.leader + best) % n,
        st[trick[best]],
        played,
    )


def solve_remaining(search: Search, state: GameState) -> int:
    """Tricks the bidder's side takes from here on (MTD-style search over the count)."""
    h = state.hand
    n = search.n
    lo = 0
    hi = h.hands[(h.leader + len(h.trick)) % n].bit_count()
    if not h.trick and legal_play_mask(state) == h.hands[h.leader]:
        # The cheap bounds hold at the root too (not when LEAD-2 limits the lead).
        lo, hi = search.bounds(h.leader, hi)
    while lo < hi:
        need = max(lo + 1, (lo + hi) // 2)
        if root_probe(search, state, need):
            lo = need
        else:
            hi = need - 1
    return lo

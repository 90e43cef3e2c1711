"""Game-AI speed: random playouts through the public API against a plain bit-mask loop,
and the steps per second of the environments (raw API, OpenSpiel, PettingZoo).

1. **Playouts**: hands played out per second (deal, auction, widow, trump, every play,
   scoring) by uniformly random players, through ``new_game``, ``legal_actions`` and
   ``apply`` only; thrown-in hands are not counted, and their time is included.
2. **Bit-mask loop**: the same random hands played by a plain loop over ints written
   in this file (no state values, no actions: masks, the kernel's ``legal_mask`` and
   ``winner_index``, and the memoised scoring). It is the reference the API is compared
   with; the ratio API / loop is printed for the same run. The loop shuffles with one
   generator; the *seeded loop* beside it deals each hand as the API must, by DEAL-1's
   shuffle (``moonrules.game.deal.shuffled``: a byte stream drawn afresh from the game's
   seed and the hand's number), so that the two ratios tell the cost of the game's state
   values apart from the cost of its reproducible deals.
3. **Environments**: steps per second of random play in the raw API (one
   ``legal_actions`` + ``apply`` a step), OpenSpiel's ``moonrules_hand`` (chance
   steps counted with the players'), and PettingZoo's environment (one ``step``),
   each with its observation where the framework hands one out; and the cost of one
   OpenSpiel ``clone`` beside ``copy.deepcopy`` of a ``GameState``.

4. **Fixed costs**: what any engine called from Python pays in this bench, beside the
   microseconds a hand of the API and of both loops: DEAL-1's deal of a hand (its
   shuffle, ``moonrules.game.deal.shuffled``) and the caller's own loop (the loop of
   ``api_playouts`` around functions that do nothing), a step and a hand.

The figures are the best of ``--repeat`` runs of ``--seconds`` each (the one least
disturbed by other work); the API and the loop run in turn, and their ratio is the
median of the ratios of those pairs of runs, so that a change in the machine's load
between runs weighs on both. The forms of the engine installed are each measured: this
process runs what the install compiled (``moonrules.kernel.compiled``), and when any
module is compiled, a child process with ``MOONRULES_PURE_PYTHON=1`` gives the
pure-Python figures beside them.

    python bench/gameai.py [--seconds 2] [--repeat 3] [--presets standard,partnership]
                           [--form both|this]
"""

from __future__ import annotations

import argparse
import copy
import importlib
import os
import random
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import moonrules
from moonrules import apply, legal_actions, new_game
from moonrules.game.deal import shuffled
from moonrules.kernel.compiled import COMPILED_MODULES, is_compiled
from moonrules.kernel.masks import NO_LEAD, legal_mask
from moonrules.kernel.memo import scored
from moonrules.kernel.tables import winner_index
from moonrules.rules.ruleset import AllPass, RuleSet, rules_by_name
from moonrules.rules.tiles import indices_of

Measure = Callable[[str, float], tuple[int, int, float]]
"""(preset, seconds) -> (units done, other units, seconds taken)."""


def api_playouts(preset: str, seconds: float) -> tuple[int, int, float]:
    """(hands played out, actions, seconds) through the public API."""
    draw = random.Random(12345).random
    played = actions = seed = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        seed += 1
        state = new_game(preset, seed=seed)
        game = state.game
        for _ in range(50):  # hands of one game, so each run samples many deals
            while state.game is game:
                legal = legal_actions(state)
                state = apply(state, legal[int(draw() * len(legal))])
                actions += 1
            game = state.game
            done = state.hand if game.winner is not None else game.history[-1]
            played += not done.thrown_in
            if game.winner is not None:
                break
    return played, actions, time.perf_counter() - start


def _loop_hand(rules: RuleSet, tiles: list[int], first: int, rng: random.Random) -> bool:
    """One random hand on bit masks, dealt from ``tiles`` as they are; whether it was
    played out (not thrown in)."""
    n = rules.players
    draw = rng.random
    hands = [sum(1 << i for i in tiles[7 * s : 7 * s + 7]) for s in range(n)]
    bids = rules.bids
    high = 0
    bidder = -1
    for k in range(n):  # the auction: pass, or any bid above the highest (BID-2 … BID-8)
        seat = (first + k) % n
        calls = [b for b in bids if b > high]
        forced = rules.all_pass is AllPass.FORCE and k == n - 1 and high == 0
        if not forced:
            calls.append(0)
        call = calls[int(draw() * len(calls))]
        if call:
            high, bidder = call, seat
            if call == 21:
                break
    if bidder < 0:
        return False
    if rules.has_widow:  # take the widow, discard one of the eight (before or after trump:
        # the order does not change the work)
        held = hands[bidder] | 1 << tiles[-1]
        eight = indices_of(held)
        hands[bidder] = held & ~(1 << eight[int(draw() * 8)])
    trumps = rules.trumps
    trump = trumps[int(draw() * len(trumps))].value
    won = [0] * n
    leader = bidder
    for done in range(7):
        trick: list[int] = []
        led = NO_LEAD
        for k in range(n):
            seat = (leader + k) % n
            legal = indices_of(legal_mask(hands[seat], led, trump, rules, done))
            i = legal[int(draw() * len(legal))]
            hands[seat] ^= 1 << i
            trick.append(i)
            led = trick[0]
        leader = (leader + winner_index(tuple(trick), trump)) % n
        won[leader] += 1
    scored(rules, bidder, high, tuple(won))
    return True


def loop_playouts(preset: str, seconds: float, *, seeded: bool = False) -> tuple[int, int, float]:
    """(hands played out, hands thrown in, seconds) by the bit-mask loop; with ``seeded``,
    each hand dealt by DEAL-1's shuffle of game 12345, hand 1, 2, … (as the API deals)."""
    rules = rules_by_name(preset)
    tiles = [t.index for t in rules.tile_set.tiles]
    rng = random.Random(12345)
    played = thrown = first = number = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        number += 1
        if seeded:
            tiles = shuffled(rules, 12345, number)
        else:
            rng.shuffle(tiles)
        if _loop_hand(rules, tiles, first, rng):
            played += 1
        else:
            thrown += 1
        first = (first + 1) % rules.players
    return played, thrown, time.perf_counter() - start


def openspiel_steps(preset: str, seconds: float) -> tuple[int, int, float]:
    """(steps, hands, seconds) of random play in OpenSpiel's ``moonrules_hand``, with one
    observation tensor of the player to act per decision."""
    import pyspiel

    import moonrules.openspiel  # noqa: F401  # registers the games

    game = pyspiel.load_game(f"moonrules_hand(rules={preset})")
    rng = random.Random(1)
    steps = hands = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(rng.random() * len(outcomes))][0])
            else:
                state.observation_tensor(state.current_player())
                legal = state.legal_actions()
                state.apply_action(legal[int(rng.random() * len(legal))])
            steps += 1
        hands += 1
    return steps, hands, time.perf_counter() - start


def pettingzoo_steps(preset: str, seconds: float) -> tuple[int, int, float]:
    """(steps, hands, seconds) of random play in the PettingZoo environment (hand mode),
    reading each observation as an agent would (``last()``)."""
    import numpy as np

    from moonrules.pettingzoo import env as make_env

    e = make_env(rules=preset, mode="hand")
    rng = np.random.default_rng(1)
    steps = hands = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        e.reset(seed=hands)
        for _agent in e.agent_iter():
            obs, _, terminated, truncated, _ = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            e.step(int(legal[int(rng.random() * len(legal))]))
            steps += 1
        hands += 1
    return steps, hands, time.perf_counter() - start


def clone_costs(preset: str) -> tuple[float, float]:
    """(µs of an OpenSpiel clone of a mid-hand state, µs of deepcopy of its GameState)."""
    import pyspiel

    import moonrules.openspiel  # noqa: F401

    game = pyspiel.load_game(f"moonrules_hand(rules={preset})")
    state = game.new_initial_state()
    rng = random.Random(3)
    while state.is_chance_node() or len(state.history()) < 40:
        state.apply_action(rng.choice(state.legal_actions()))

    def per_call(f: Callable[[], object], k: int) -> float:
        """Seconds a call, the best of five batches of ``k`` calls."""
        times = []
        for _ in range(5):
            t = time.perf_counter()
            for _ in range(k):
                f()
            times.append((time.perf_counter() - t) / k)
        return min(times)

    g = state.moon_state
    cloned = per_call(state.clone, 1000)
    deep = per_call(lambda: copy.deepcopy(g), 50)
    return cloned * 1e6, deep * 1e6


def _null_legal(state: object) -> tuple[int, ...]:
    return (1, 2, 3, 4)


def _null_apply(state: object, action: int) -> object:
    return state


def caller_cost(seconds: float) -> float:
    """µs a step of the caller's loop of :func:`api_playouts` around functions that do
    nothing (the same calls, draw and indexing; no engine)."""
    draw = random.Random(12345).random
    legal_actions_, apply_ = _null_legal, _null_apply
    state: object = object()
    steps = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for _ in range(1000):
            legal = legal_actions_(state)
            state = apply_(state, legal[int(draw() * len(legal))])
        steps += 1000
    return (time.perf_counter() - start) / steps * 1e6


def deal_cost(preset: str, seconds: float) -> float:
    """µs a hand of DEAL-1's shuffle (hands 1, 2, … of game 12345)."""
    rules = rules_by_name(preset)
    number = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for _ in range(100):
            number += 1
            shuffled(rules, 12345, number)
    return (time.perf_counter() - start) / number * 1e6


def best(measure: Measure, preset: str, seconds: float, repeat: int) -> tuple[int, int, float]:
    """The run with the most units per second."""
    runs = [measure(preset, seconds) for _ in range(repeat)]
    return max(runs, key=lambda r: r[0] / r[2])


def _median(values: list[float]) -> float:
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def paired(
    preset: str, seconds: float, repeat: int
) -> tuple[float, float, float, float, float, float]:
    """(API hands/s, loop hands/s, API/loop, API/seeded loop, API steps/s, seeded loop
    hands/s): the API, the
    loop and the seeded loop run in turn, ``repeat`` rounds, so that the load of the machine
    weighs on all alike. The rates are the best of their runs; each ratio is the median of
    the rounds' ratios."""
    rounds = []
    for _ in range(repeat):
        api = api_playouts(preset, seconds)
        loop = loop_playouts(preset, seconds)
        seeded = loop_playouts(preset, seconds, seeded=True)
        rate = api[0] / api[2]
        rounds.append((rate, loop[0] / loop[2], seeded[0] / seeded[2], api[1] / api[2]))
    return (
        max(r[0] for r in rounds),
        max(r[1] for r in rounds),
        _median([r[0] / r[1] for r in rounds]),
        _median([r[0] / r[2] for r in rounds]),
        max(r[3] for r in rounds),
        max(r[2] for r in rounds),
    )


def _available(module: str) -> bool:
    try:
        importlib.import_module(module)
    except ImportError:
        return False
    return True


def forms() -> str:
    """Which modules of the engine this process runs compiled."""
    done = [m for m in COMPILED_MODULES if is_compiled(importlib.import_module(m))]
    return "compiled: " + ", ".join(done) if done else "pure Python (nothing compiled)"


def run(args: argparse.Namespace) -> None:
    print(f"\nengine: {forms()}")
    print(
        f"{'preset':<14} {'API hands/s':>11} {'loop hands/s':>12} {'API/loop':>8} "
        f"{'API/seeded':>10} {'API steps/s':>11} {'OpenSpiel':>10} {'PettingZoo':>10} "
        f"{'clone µs':>8} {'deepcopy µs':>11}"
    )
    has_spiel = _available("pyspiel")
    has_zoo = _available("pettingzoo")
    costs = []
    for preset in args.presets.split(","):
        api_rate, loop_rate, ratio, seeded_ratio, api_steps, seeded_rate = paired(
            preset, args.seconds, args.repeat
        )
        costs.append((preset, api_rate, loop_rate, seeded_rate, api_steps / api_rate))
        spiel = zoo = "-"
        clone = deep = "-"
        if has_spiel:
            r = best(openspiel_steps, preset, args.seconds, args.repeat)
            spiel = f"{r[0] / r[2]:.0f}"
            c, d = clone_costs(preset)
            clone, deep = f"{c:.1f}", f"{d:.0f}"
        if has_zoo:
            r = best(pettingzoo_steps, preset, args.seconds, args.repeat)
            zoo = f"{r[0] / r[2]:.0f}"
        print(
            f"{preset:<14} {api_rate:>11.0f} {loop_rate:>12.0f} {ratio:>7.2f}x "
            f"{seeded_ratio:>9.2f}x {api_steps:>11.0f} {spiel:>10} {zoo:>10} {clone:>8} {deep:>11}",
            flush=True,
        )
    step = min(caller_cost(args.seconds / 4) for _ in range(args.repeat))
    print(
        f"\n{'µs a hand':<14} {'API':>8} {'loop':>8} {'seeded':>8} {'DEAL-1':>8} "
        f"{'caller':>8} {'steps':>6}   (caller: {step:.2f} µs a step)"
    )
    for preset, api_rate, loop_rate, seeded_rate, steps in costs:
        deal = min(deal_cost(preset, args.seconds / 4) for _ in range(args.repeat))
        print(
            f"{preset:<14} {1e6 / api_rate:>8.1f} {1e6 / loop_rate:>8.1f} "
            f"{1e6 / seeded_rate:>8.1f} {deal:>8.1f} {step * steps:>8.1f} {steps:>6.1f}",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds a run (default 2)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure (default 3)")
    parser.add_argument("--presets", default="standard,partnership")
    parser.add_argument(
        "--form",
        choices=("both", "this"),
        default="both",
        help="both: every form installed (default); this: the one this process runs",
    )
    args = parser.parse_args()
    if args.form == "both":
        print(f"python {sys.version.split()[0]}, moonrules {moonrules.__version__}")
        print(
            "random play; best of "
            f"{args.repeat} runs of {args.seconds:g} s. hands/s: hands played out; steps/s: "
            "actions (OpenSpiel: and chance deals) a second"
        )
    run(args)
    if args.form == "both" and any(
        is_compiled(importlib.import_module(m)) for m in COMPILED_MODULES
    ):
        env = {**os.environ, "MOONRULES_PURE_PYTHON": "1"}
        argv = [sys.executable, __file__, "--seconds", str(args.seconds), "--repeat"]
        argv += [str(args.repeat), "--presets", args.presets, "--form", "this"]
        subprocess.run(argv, env=env, check=True)


if __name__ == "__main__":
    main()

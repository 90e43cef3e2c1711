"""The encoder's output pinned: observation vectors, information states and masks, byte for byte.

A fixed, seeded sweep of positions (:func:`sweep`: every preset, each seat of each
position) is encoded, and the bytes are hashed. The digests below were computed by running
this file with the moonrules of commit fd831b9, before the encoder and the adapters were
rewritten for speed: in a checkout of that commit with this file and
``encoding_reference.py`` copied into its ``tests/``, ``PYTHONPATH=. python
tests/test_encoding_pinned.py`` prints them all (``PYTHONPATH``, so that the checkout's
moonrules is the one imported, not an installed one). ``--reference`` prints the digests of
the reference encoder instead: the same ones. An encoder that changes a single float (or
its type) anywhere in the sweep changes them.

The sweep follows the game (deals by seed, random legal actions), so a change of the game
itself would move it too: :data:`POSITIONS` pins the positions apart (a digest of their
:func:`~moonrules.game.encoding.state_string`). Beside the digests, the encoder is compared
directly with the plain encoder it replaced (``tests/encoding_reference.py``) on the sweep
and on random positions, so that a failure shows which position and which float differ; if
the game moves, the digests are made again from that reference (``--reference``).

The adapters' per-step outputs (PettingZoo's ``observe``, OpenSpiel's tensors and legal
actions) are pinned the same way, when their extras are installed.
"""

from __future__ import annotations

import functools
import hashlib
import random
import struct
import sys
from collections.abc import Callable, Iterator
from typing import Any

import attrs
import pytest
from encoding_reference import reference_encode
from hypothesis import given
from hypothesis import strategies as st

from moonrules import PRESETS, GameState, apply, legal_actions, new_game, view
from moonrules.game.encoding import (
    encode_information_state,
    encode_observation,
    legal_action_ids,
    legal_action_mask,
    state_string,
)

PRESET_NAMES = sorted(PRESETS)


def _line(state: GameState, rng: random.Random, steps: int) -> Iterator[GameState]:
    """``state`` and the states of at most ``steps`` random legal actions after it; after each
    hand that ends, also that hand as it ends (phase done), as the adapters show it."""
    yield state
    for _ in range(steps):
        if state.is_over:
            return
        after = apply(state, rng.choice(legal_actions(state)))
        if after.game is not state.game and not after.is_over:
            yield GameState(after.game, after.history[-1])
        state = after
        yield state


def sweep() -> Iterator[GameState]:
    """The pinned positions: for each preset and seeds 0-2, 90 random actions from a new
    game, and a game started near its end (scores close to the target, one far below it,
    so that the scores are clipped) played on to its end (or 150 actions)."""
    for preset in PRESET_NAMES:
        for seed in range(3):
            yield from _line(new_game(preset, seed=seed), random.Random(seed), 90)
            start = new_game(preset, seed=100 + seed)
            target = start.rules.target
            scores = (target - 1, -(target + 5), target - 2)[: start.rules.sides]
            late = GameState(attrs.evolve(start.game, scores=scores), start.hand)
            yield from _line(late, random.Random(100 + seed), 150)


def _floats(vector: tuple[float, ...]) -> bytes:
    return struct.pack(f"<I{len(vector)}d", len(vector), *vector)


def _ints(values: tuple[int, ...]) -> bytes:
    return struct.pack(f"<I{len(values)}q", len(values), *values)


def digests(
    observe: Callable[[Any], tuple[float, ...]] = encode_observation,
    inform: Callable[[Any], tuple[float, ...]] = encode_information_state,
) -> dict[str, str]:
    """The sha256 digests of the sweep: ``positions`` (each position's state string);
    ``observation`` and ``information_state`` (each seat's vector, 8-byte little-endian
    floats, each vector after its length); ``masks`` (the legal-action mask of each seat's
    view, then of the state, and the state's legal ids, as 8-byte ints)."""
    h = {k: hashlib.sha256() for k in ("positions", "observation", "information_state", "masks")}
    count = 0
    for s in sweep():
        count += 1
        h["positions"].update(state_string(s).encode() + b"\n")
        for seat in range(s.rules.players):
            v = view(s, seat)
            h["observation"].update(_floats(observe(v)))
            h["information_state"].update(_floats(inform(v)))
            h["masks"].update(_ints(legal_action_mask(v)))
        h["masks"].update(_ints(legal_action_mask(s)) + _ints(legal_action_ids(s)))
    return {"count": str(count), **{k: x.hexdigest() for k, x in h.items()}}


POSITIONS = "3c128e6448888981f07c5ea07a913c10ff738975525d30fe6a9515c99d90570b"
"""The digest of the sweep's positions (see :func:`digests`), made once ``state_string``
said ``hand over`` of a finished hand (it had named a seat to act). With that line as it was
(``done, pN to act``), the digest is the one made at commit fd831b9,
``b49d4edd28ad747c08b9806b7e6cc9ee9241542ea693900edf833857eaf66e9e``. Made again when the seeded
deals changed (DEAL-1's SHA-512 streams): the digests of fd831b9 are of the deals before."""

PINNED = {
    "count": "5389",
    "observation": "7ee5d508716788f9b84d5a78663fe4514247268ff5c16040cfa67a3a62770dca",
    "information_state": "efc80e17c4135056321dcf059ce1deddd86b5aeb58e6abfe15a456ec323bd962",
    "masks": "a13111801e0e6fd613916e50250b174197d58bd69651b6278d9c911840a1fcdd",
}
"""The digests of the sweep, made at commit fd831b9 (see the module's docstring), and made
again from the reference encoder (``--reference``) when seeded games came to be dealt from
SHA-512 streams (DEAL-1): the game moved, the encoder did not."""


def test_the_sweep_covers_every_phase_and_the_end_of_a_game() -> None:
    seen = {(s.phase.value, s.is_over) for s in sweep()}
    assert {phase for phase, _ in seen} == {"bidding", "discard", "trump", "play", "done"}
    assert ("done", False) in seen  # a hand over, the game going on
    assert any(over for _, over in seen)


@functools.cache
def _found() -> dict[str, str]:
    """:func:`digests` of the library's encoder, computed once per test process."""
    return digests()


def test_the_sweep_is_the_pinned_one() -> None:
    """The positions themselves: if this fails, the game moved, not the encoder."""
    assert _found()["positions"] == POSITIONS


def test_the_encoder_gives_the_pinned_bytes() -> None:
    assert _found() == {**PINNED, "positions": POSITIONS}


def test_the_encoder_gives_the_reference_vectors_on_the_sweep() -> None:
    for s in sweep():
        for seat in range(s.rules.players):
            v = view(s, seat)
            assert encode_observation(v) == reference_encode(v, False), (state_string(s), seat)
            assert encode_information_state(v) == reference_encode(v, True), (
                state_string(s),
                seat,
            )


@given(st.sampled_from(PRESET_NAMES), st.integers(0, 2**32), st.integers(0, 120))
def test_the_encoder_gives_the_reference_vectors_anywhere(
    preset: str, seed: int, steps: int
) -> None:
    rng = random.Random(seed)
    for s in _line(new_game(preset, seed=seed), rng, steps):
        for seat in range(s.rules.players):
            v = view(s, seat)
            for history in (False, True):
                got = (encode_information_state if history else encode_observation)(v)
                want = reference_encode(v, history)
                assert [type(x) for x in got] == [float] * len(want)
                assert got == want


# -- the adapters ----------------------------------------------------------------

ADAPTER_PRESETS = ("standard", "partnership", "no-double-blank", "marks")


def _array(h: Any, a: Any) -> None:
    """Hash a numpy array: its dtype, its shape and its bytes."""
    h.update(f"{a.dtype.str}{a.shape}".encode() + a.tobytes())


def pettingzoo_digest() -> str:
    """The sha256 of PettingZoo random play (``env``: hand mode, with and without history,
    and game mode to 3 hands; two episodes of each on each of :data:`ADAPTER_PRESETS`):
    before each step every agent's ``observe`` (both arrays), then ``last()``'s reward,
    termination and truncation."""
    from moonrules.pettingzoo import env

    h = hashlib.sha256()
    for preset in ADAPTER_PRESETS:
        for mode, history in (("hand", False), ("hand", True), ("game", False)):
            e = env(rules=preset, mode=mode, history=history, max_hands=3)
            rng = random.Random(7)
            for episode in range(2):
                e.reset(seed=episode)
                for _agent in e.agent_iter():
                    for a in e.possible_agents:
                        obs = e.observe(a)
                        _array(h, obs["observation"])
                        _array(h, obs["action_mask"])
                    obs, reward, terminated, truncated, _ = e.last()
                    h.update(struct.pack("<d??", reward, terminated, truncated))
                    if terminated or truncated:
                        e.step(None)
                    else:
                        legal = [i for i, bit in enumerate(obs["action_mask"]) if bit]
                        e.step(rng.choice(legal))
    return h.hexdigest()


def openspiel_digest() -> str:
    """The sha256 of OpenSpiel random play (``moonrules_hand``, and ``moonrules_game`` to 2
    hands; two episodes of each on each of :data:`ADAPTER_PRESETS`), chance nodes
    included: at each state every player's observation and information-state tensors
    (4-byte floats), the state serialized, the observation and information-state strings
    of the player to act, then the legal actions (or, at the end, the returns); and the
    names and shapes of both observers' sections."""
    import pyspiel

    import moonrules.openspiel  # noqa: F401  # registers the games

    h = hashlib.sha256()
    for preset in ADAPTER_PRESETS:
        for name in (
            f"moonrules_hand(rules={preset})",
            f"moonrules_game(rules={preset},max_hands=2)",
        ):
            game = pyspiel.load_game(name)
            for recall in (False, True):
                observer = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=recall))
                h.update(repr([(k, v.shape) for k, v in observer.dict.items()]).encode())
            rng = random.Random(11)
            for _episode in range(2):
                state = game.new_initial_state()
                while True:
                    for p in range(game.num_players()):
                        for tensor in (
                            state.observation_tensor(p),
                            state.information_state_tensor(p),
                        ):
                            h.update(struct.pack(f"<I{len(tensor)}f", len(tensor), *tensor))
                    h.update(state.serialize().encode())
                    if not state.is_chance_node() and not state.is_terminal():
                        p = state.current_player()
                        text = state.observation_string(p) + state.information_state_string(p)
                        h.update(text.encode())
                    if state.is_terminal():
                        returns = state.returns()
                        h.update(struct.pack(f"<{len(returns)}d", *returns))
                        break
                    legal = state.legal_actions()
                    h.update(_ints(tuple(legal)))
                    state.apply_action(rng.choice(legal))
    return h.hexdigest()


PETTINGZOO = "ac7fbf2594cdcc23f0b2143f816bba962c5a1502470ab8c4fa7a11289be16fb2"
""":func:`pettingzoo_digest`, made at commit fd831b9 and again when the seeded deals changed."""

OPENSPIEL = "b5e5be4963b45df155f776ed3dd64e8f91518fde3f855d8a64eda788be39dbf6"
""":func:`openspiel_digest`, made once ``moonrules_game``'s tensors gained the ``hands``
float (the hands finished over ``max_hands``). Without that float (the observer built with
no ``max_hands``), the digest is the one made at commit fd831b9,
``17dfa34af837c4ea1f79f994668a21e6e09ad1fdce33d2cd4010e964d9d795d5``. Made again when the seeded
deals changed (DEAL-1's SHA-512 streams), and when a hand gained its ``claim`` field (the
serialized states, pickles of the reference values, differ; every tensor, string, legal
action and return is as before: the digest without ``serialize`` is unchanged,
``231d9bc219a386f19e2c539bbb44da81ba701d2bc658f6ba94c85195575c1bc2``)."""


def test_pettingzoo_gives_the_pinned_observations() -> None:
    pytest.importorskip("pettingzoo", reason="the [pettingzoo] extra is not installed")
    assert pettingzoo_digest() == PETTINGZOO


def test_openspiel_gives_the_pinned_tensors() -> None:
    pytest.importorskip("pyspiel", reason="the [openspiel] extra is not installed")
    assert openspiel_digest() == OPENSPIEL


if __name__ == "__main__":
    if "--reference" in sys.argv:
        found = digests(lambda v: reference_encode(v, False), lambda v: reference_encode(v, True))
    else:
        found = digests()
    for key, value in found.items():
        print(f"{key}: {value}")
    print(f"pettingzoo: {pettingzoo_digest()}")
    print(f"openspiel: {openspiel_digest()}")

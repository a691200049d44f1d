"""The shuffle argument: complete, sound, bound to its transcript, and grind-proof.

Every refusal must be a :class:`BadMix` naming the mixer, whatever the proof holds.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Callable, Sequence
from typing import Any

import nacl.bindings
import pytest

from cakeparty.protocol import steps as st
from cakeparty.protocol.elgamal import (
    CardTable,
    Ciphertext,
    Deck,
    deck_bytes,
    decrypt,
    initial_deck,
    mix,
    random_mix,
    reencrypt,
    unmix,
)
from cakeparty.protocol.errors import BadMix
from cakeparty.protocol.group import (
    BASE,
    IDENTITY,
    ZERO,
    L,
    Point,
    RandomBytes,
    Scalar,
    add,
    card_point,
    framed,
    mul_base,
    random_permutation,
    random_scalar,
    random_scalars,
    seeded_random_bytes,
    u64,
)
from cakeparty.protocol.mental import MentalMatch
from cakeparty.protocol.peer import Peer
from cakeparty.protocol.shuffle import (
    CHAIN_START,
    ShuffleProof,
    generator,
    generators,
    prove_shuffle,
    shuffle,
    verify_shuffle,
)
from cakeparty.protocol.wire import deck_to_data, shuffle_proof_to_data

from .conftest import CARDS, ROOM, Room, make_room
from .test_group import SMALL_ORDER

CONTEXT = b"mix/" + u64(7)
SEAT = 1
NOT_ON_CURVE = Point(bytes.fromhex("02" + "00" * 31))  # y = 2 has no x on the curve


def cards_of(room: Room, deck: Sequence[Ciphertext]) -> list[str]:
    """Every card of ``deck``, opened with every seat's key."""
    return [room.table.card_of(decrypt(ct, [k.share(ct.c1) for k in room.keys])) for ct in deck]


def expect_bad_mix(setup: Room, out: Sequence[Ciphertext], proof: Any, **change: Any) -> BadMix:
    """Seat 1's mix ``out`` of the initial deck must be refused, naming the mixer."""
    args: dict[str, Any] = {
        "room": ROOM,
        "seat": SEAT,
        "joint": setup.joint,
        "inp": setup.deck,
        "context": CONTEXT,
    }
    args.update(change)
    with pytest.raises(BadMix) as info:
        verify_shuffle(out=out, proof=proof, **args)
    assert info.value.peer == args["seat"]
    return info.value


@pytest.fixture
def mixed(room: Room, rb: RandomBytes) -> tuple[Deck, ShuffleProof]:
    """Seat 1's honest mix of the initial deck, with its proof."""
    return shuffle(ROOM, SEAT, room.joint, room.deck, context=CONTEXT, random_bytes=rb)


# -- completeness ---------------------------------------------------------------------------


@pytest.mark.parametrize("n", [0, 1, 2, 22, 130])
def test_an_honest_mix_verifies_and_keeps_the_cards(n: int) -> None:
    rb = seeded_random_bytes(b"complete/" + u64(n))
    cards = tuple(f"card-{i}" for i in range(n))
    room = make_room(2, rb, ("x",))
    table = CardTable.for_game("cake-duel", cards) if n else room.table
    deck = initial_deck([table.point(c) for c in cards], room.joint)
    for seat in (0, 1):  # the first mix (all c1 = B) and a mix of mixed cards
        out, proof = shuffle(ROOM, seat, room.joint, deck, context=CONTEXT, random_bytes=rb)
        verify_shuffle(ROOM, seat, room.joint, deck, out, proof, context=CONTEXT)
        assert len(proof.commitments) == len(proof.chain) == len(proof.perm_responses) == n
        deck = out
    opened = [table.card_of(decrypt(ct, [k.share(ct.c1) for k in room.keys])) for ct in deck]
    assert sorted(opened) == sorted(cards)


def test_copies_of_a_card_type_mix_and_verify(rb: RandomBytes) -> None:
    # copies share their point, so the verifier merges their terms: still sound and complete
    room = make_room(2, rb, ("a", "a", "a", "b"))
    out, proof = shuffle(ROOM, 0, room.joint, room.deck, context=CONTEXT, random_bytes=rb)
    verify_shuffle(ROOM, 0, room.joint, room.deck, out, proof, context=CONTEXT)
    assert sorted(cards_of(room, out)) == ["a", "a", "a", "b"]


def test_every_seat_of_a_larger_room_mixes_in_turn() -> None:
    rb = seeded_random_bytes(b"four seats")
    cards = tuple(f"card-{i}" for i in range(9))
    room = make_room(4, rb, cards)
    deck = room.deck
    for seat in range(4):
        out, proof = shuffle(ROOM, seat, room.joint, deck, context=CONTEXT, random_bytes=rb)
        verify_shuffle(ROOM, seat, room.joint, deck, out, proof, context=CONTEXT)
        assert deck_bytes(out) != deck_bytes(deck)
        deck = out
    assert sorted(cards_of(room, deck)) == sorted(cards)


def test_the_generators_are_fixed_distinct_valid_points() -> None:
    hs = generators(200)
    assert len({*hs, CHAIN_START, BASE}) == 202
    assert hs[5] == generator(5)
    digest = hashlib.sha512(b"cakeparty/v1/shuffle/generator/" + u64(5)).digest()[:32]
    assert hs[5] == nacl.bindings.crypto_core_ed25519_from_uniform(digest)
    assert all(nacl.bindings.crypto_core_ed25519_is_valid_point(h) for h in hs)


# -- soundness: a mix that is not a permutation of re-encryptions ---------------------------


def _cheat(
    room: Room,
    rb: RandomBytes,
    perm: tuple[int, ...],
    edit: Callable[[Deck], Deck],
    scalars: list[Scalar] | None = None,
) -> tuple[Deck, ShuffleProof]:
    """The honest prover's algorithm run over a dishonest output."""
    claimed = scalars or random_scalars(len(perm), rb)
    out = edit(mix(room.deck, room.joint, perm, claimed))
    proof = prove_shuffle(
        ROOM, SEAT, room.joint, room.deck, out, perm, claimed, context=CONTEXT, random_bytes=rb
    )
    return out, proof


def test_a_substituted_card_is_refused(room: Room, rb: RandomBytes) -> None:
    def substitute(deck: Deck) -> Deck:
        m = card_point("cake-duel", "wedding-cake")  # no card of this deck
        fake = reencrypt(Ciphertext(BASE, add(m, room.joint)), random_scalar(rb), room.joint)
        return (*deck[:3], fake, *deck[4:])

    out, proof = _cheat(room, rb, random_permutation(6, rb), substitute)
    expect_bad_mix(room, out, proof)


def test_a_stacked_deck_of_fresh_encryptions_is_refused(room: Room, rb: RandomBytes) -> None:
    # the right cards, in an order the mixer chose and knows: no re-encryption of its input
    def stack(deck: Deck) -> Deck:
        return tuple(
            reencrypt(Ciphertext(BASE, add(room.table.point(c), room.joint)), s, room.joint)
            for c, s in zip(sorted(CARDS), random_scalars(6, rb), strict=True)
        )

    out, proof = _cheat(room, rb, random_permutation(6, rb), stack)
    assert sorted(cards_of(room, out)) == sorted(CARDS)
    expect_bad_mix(room, out, proof)


def test_two_cards_swapped_after_proving_are_refused(
    room: Room, mixed: tuple[Deck, ShuffleProof]
) -> None:
    out, proof = mixed
    expect_bad_mix(room, (out[1], out[0], *out[2:]), proof)
    expect_bad_mix(room, (*out[:4], out[5], out[4]), proof)


def test_a_wrong_reencryption_is_refused(room: Room, rb: RandomBytes) -> None:
    # one card re-encrypted under a key that is not the joint key: it opens to no card
    other = mul_base(random_scalar(rb))

    def wrong_key(deck: Deck) -> Deck:
        ct = room.deck[2]
        s = random_scalar(rb)
        bad = reencrypt(Ciphertext(ct.c1, ct.c2), s, other)
        return (*deck[:1], bad, *deck[2:])

    out, proof = _cheat(room, rb, (0, 2, 1, 3, 4, 5), wrong_key)
    expect_bad_mix(room, out, proof)


def test_a_proof_with_the_wrong_scalars_is_refused(room: Room, rb: RandomBytes) -> None:
    perm = random_permutation(6, rb)
    scalars = random_scalars(6, rb)
    out = mix(room.deck, room.joint, perm, scalars)
    claimed = [*scalars[:5], random_scalar(rb)]
    proof = prove_shuffle(
        ROOM, SEAT, room.joint, room.deck, out, perm, claimed, context=CONTEXT, random_bytes=rb
    )
    expect_bad_mix(room, out, proof)


def test_a_duplicated_card_is_refused(room: Room, rb: RandomBytes) -> None:
    out, proof = _cheat(room, rb, (0, 0, 2, 3, 4, 5), lambda d: d)
    assert cards_of(room, out).count(CARDS[0]) == 2
    expect_bad_mix(room, out, proof)


def test_a_deck_of_the_wrong_length_is_refused(
    room: Room, mixed: tuple[Deck, ShuffleProof]
) -> None:
    out, proof = mixed
    expect_bad_mix(room, out[:-1], proof)
    expect_bad_mix(room, (*out, out[0]), proof)
    expect_bad_mix(room, (), proof)


# -- binding: the proof stands for one mix, by one seat, at one step -------------------------


def test_the_proof_is_bound_to_room_step_seat_key_and_input(
    room: Room, mixed: tuple[Deck, ShuffleProof], rb: RandomBytes
) -> None:
    out, proof = mixed
    verify_shuffle(ROOM, SEAT, room.joint, room.deck, out, proof, context=CONTEXT)
    expect_bad_mix(room, out, proof, room="other-room")
    expect_bad_mix(room, out, proof, context=b"mix/" + u64(8))
    expect_bad_mix(room, out, proof, seat=0)
    expect_bad_mix(room, out, proof, seat=2)
    expect_bad_mix(room, out, proof, joint=mul_base(random_scalar(rb)))
    other_input, _, _ = random_mix(room.deck, room.joint, rb)
    expect_bad_mix(room, out, proof, inp=other_input)


@pytest.mark.parametrize(
    "field", ["commitments", "chain", "responses", "chain_responses", "perm_responses"]
)
@pytest.mark.parametrize("index", [0, -1])
def test_every_value_of_the_proof_is_bound(
    room: Room, mixed: tuple[Deck, ShuffleProof], rb: RandomBytes, field: str, index: int
) -> None:
    out, proof = mixed
    values = list(getattr(proof, field))
    fresh = mul_base(random_scalar(rb)) if field in ("commitments", "chain") else random_scalar(rb)
    values[index] = fresh
    expect_bad_mix(room, out, dataclasses.replace(proof, **{field: tuple(values)}))


# -- malformed proofs: named, never a crash --------------------------------------------------


def plus_order(s: Scalar) -> Scalar:
    """The same scalar mod L, written non-canonically."""
    return Scalar((int.from_bytes(s, "little") + L).to_bytes(32, "little"))


BAD_POINTS = {
    "identity": IDENTITY,
    "small order": SMALL_ORDER,
    "not on the curve": NOT_ON_CURVE,
    "not canonical": Point(b"\xff" * 32),
    "short": Point(b"\x01" * 31),
    "text": "point",
}


@pytest.mark.parametrize("where", ["commitments", "chain", "c1", "c2"])
@pytest.mark.parametrize("bad", BAD_POINTS, ids=str)
def test_a_bad_point_is_refused_naming_the_mixer(
    room: Room, mixed: tuple[Deck, ShuffleProof], where: str, bad: str
) -> None:
    out, proof = mixed
    point: Any = BAD_POINTS[bad]
    if where in ("c1", "c2"):
        card = dataclasses.replace(out[3], **{where: point})
        out = (*out[:3], card, *out[4:])
    else:
        values = list(getattr(proof, where))
        values[3] = point
        proof = dataclasses.replace(proof, **{where: tuple(values)})
    expect_bad_mix(room, out, proof)


def test_a_mixed_order_point_is_refused(room: Room, mixed: tuple[Deck, ShuffleProof]) -> None:
    out, proof = mixed
    card = dataclasses.replace(out[0], c2=add(out[0].c2, SMALL_ORDER))
    expect_bad_mix(room, (card, *out[1:]), proof)


def test_a_zero_response_does_not_let_a_bad_point_through(
    room: Room, mixed: tuple[Deck, ShuffleProof]
) -> None:
    # with s'_0 = 0 the verifier multiplies out[0] by zero; it must still check the point
    out, proof = mixed
    proof = dataclasses.replace(proof, perm_responses=(ZERO, *proof.perm_responses[1:]))
    for bad in (SMALL_ORDER, NOT_ON_CURVE, IDENTITY):
        card = dataclasses.replace(out[0], c1=bad)
        error = expect_bad_mix(room, (card, *out[1:]), proof)
        assert "invalid point" in error.reason


@pytest.mark.parametrize("field", ["challenge", "responses", "chain_responses", "perm_responses"])
def test_a_non_canonical_scalar_is_refused(
    room: Room, mixed: tuple[Deck, ShuffleProof], field: str
) -> None:
    out, proof = mixed
    value = getattr(proof, field)
    if field == "challenge":
        changed: Any = plus_order(value)
    else:
        changed = (plus_order(value[0]), *value[1:])
    error = expect_bad_mix(room, out, dataclasses.replace(proof, **{field: changed}))
    assert "non-canonical" in error.reason


@pytest.mark.parametrize(
    "field", ["commitments", "chain", "responses", "chain_responses", "perm_responses"]
)
@pytest.mark.parametrize("change", ["short", "long"])
def test_wrong_lengths_are_refused(
    room: Room, mixed: tuple[Deck, ShuffleProof], field: str, change: str
) -> None:
    out, proof = mixed
    value = getattr(proof, field)
    changed = value[:-1] if change == "short" else (*value, value[0])
    expect_bad_mix(room, out, dataclasses.replace(proof, **{field: changed}))


@pytest.mark.parametrize("proof", [None, b"proof", ("a", "b")], ids=repr)
def test_a_proof_that_is_no_proof_is_refused(
    room: Room, mixed: tuple[Deck, ShuffleProof], proof: Any
) -> None:
    expect_bad_mix(room, mixed[0], proof)


def test_a_card_that_is_no_ciphertext_is_refused(
    room: Room, mixed: tuple[Deck, ShuffleProof]
) -> None:
    out, proof = mixed
    expect_bad_mix(room, (*out[:5], "card"), proof)


# -- grinding: the mixer cannot choose its challenge -----------------------------------------


def grind(tries: int, attempt: Callable[[int], bool]) -> int | None:
    """The first try for which ``attempt`` forges a proof that verifies, if any."""
    for k in range(tries):
        if attempt(k):
            return k
    return None


def stacked_outputs(room: Room, rb: RandomBytes) -> Callable[[int], Deck]:
    """A forger's stacked deck — the right cards, in an order it knows, freshly encrypted,
    so it holds no witness — whose last card it re-randomizes at each try to steer the hash
    (the strategy that forged the cut-and-choose: commitments fixed, output cards varied)."""
    order = sorted(CARDS)
    base = tuple(
        reencrypt(Ciphertext(BASE, add(room.table.point(c), room.joint)), s, room.joint)
        for c, s in zip(order, random_scalars(6, rb), strict=True)
    )
    return lambda k: (*base[:-1], reencrypt(base[-1], random_scalar(rb), room.joint))


def test_grinding_the_output_cannot_steer_the_challenge(room: Room) -> None:
    rb = seeded_random_bytes(b"grinder")
    stacked = stacked_outputs(room, rb)
    # the forger fixes everything but the output — commitments, chain, the challenge it
    # wants, and responses made for it — and hopes the hash comes out as that challenge
    _, honest = shuffle(ROOM, SEAT, room.joint, room.deck, context=CONTEXT, random_bytes=rb)
    wanted = random_scalar(rb)
    forged = dataclasses.replace(honest, challenge=wanted)
    challenges = set()

    def attempt(k: int) -> bool:
        out = stacked(k)
        challenges.add(recomputed_challenge(room, out, forged))
        try:
            verify_shuffle(ROOM, SEAT, room.joint, room.deck, out, forged, context=CONTEXT)
        except BadMix:
            return False
        return True

    assert grind(300, attempt) is None
    # every try met a fresh, full-size challenge: nothing repeats, nothing is small
    assert len(challenges) == 300
    assert all(c.bit_length() > 128 for c in challenges)


def recomputed_challenge(room: Room, out: Deck, proof: ShuffleProof) -> int:
    """The challenge the verifier derives for ``proof`` over ``out`` (through its own code)."""
    import cakeparty.protocol.shuffle as sh

    seen: list[int] = []
    real = sh._challenge

    def spy(*args: Any) -> int:
        seen.append(real(*args))
        return seen[-1]

    sh._challenge = spy  # type: ignore[assignment]
    try:
        sh._verify(ROOM, SEAT, room.joint, room.deck, out, proof, CONTEXT)
    finally:
        sh._challenge = real  # type: ignore[assignment]
    return seen[0]


def test_the_challenge_changes_with_every_committed_value(
    room: Room, mixed: tuple[Deck, ShuffleProof], rb: RandomBytes
) -> None:
    out, proof = mixed
    first = recomputed_challenge(room, out, proof)
    assert first == int.from_bytes(proof.challenge, "little")
    changed_out = (*out[:-1], reencrypt(out[-1], random_scalar(rb), room.joint))
    assert recomputed_challenge(room, changed_out, proof) != first
    for field in ("commitments", "chain"):
        values = list(getattr(proof, field))
        values[2] = mul_base(random_scalar(rb))
        changed = dataclasses.replace(proof, **{field: tuple(values)})
        assert recomputed_challenge(room, out, changed) != first


# The cut-and-choose this module replaced, kept here in a few lines as the control of the
# grinding test: the same loop must forge it, or the test above would prove nothing.


def _old_digest(out: Deck, inp: Deck, joint: Point, shadows: list[Deck]) -> bytes:
    parts = [u64(SEAT), u64(len(shadows)), joint, deck_bytes(inp), deck_bytes(out)]
    parts += [deck_bytes(s) for s in shadows]
    return hashlib.sha256(framed(b"cakeparty/v1/proof/shuffle", ROOM.encode(), *parts)).digest()


def _old_bits(digest: bytes, lam: int) -> list[int]:
    return [(digest[j >> 3] >> (j & 7)) & 1 for j in range(lam)]


def _old_verify(
    room: Room, out: Deck, proof: tuple[bytes, list[tuple[tuple[int, ...], list[Scalar]]]]
) -> bool:
    digest, openings = proof
    shadows = [
        mix(room.deck, room.joint, p, s) if b == 0 else unmix(out, room.joint, p, s)
        for (p, s), b in zip(openings, _old_bits(digest, len(openings)), strict=True)
    ]
    return _old_digest(out, room.deck, room.joint, shadows) == digest


def test_the_same_grinding_loop_forges_the_old_cut_and_choose(room: Room) -> None:
    lam = 6
    rb = seeded_random_bytes(b"grinder")
    stacked = stacked_outputs(room, rb)
    guesses = [1, 0, 1, 1, 0, 0]
    secrets = [(random_permutation(6, rb), random_scalars(6, rb)) for _ in range(lam)]

    def attempt(k: int) -> bool:
        out = stacked(k)
        # each shadow openable one way only, the way the forger guessed
        shadows = [
            mix(room.deck, room.joint, p, s) if g == 0 else unmix(out, room.joint, p, s)
            for (p, s), g in zip(secrets, guesses, strict=True)
        ]
        digest = _old_digest(out, room.deck, room.joint, shadows)
        return _old_verify(room, out, (digest, secrets))

    won = grind(300, attempt)
    assert won is not None  # 2^-6 a try: found well within 300 tries
    assert sorted(cards_of(room, stacked(won))) == sorted(CARDS)
    # and it is the grinding that wins, not a verifier that takes anything: about one try
    # in 64 passes
    wins = sum(attempt(k) for k in range(320))
    assert 0 < wins < 32


def test_zero_is_no_scalar_the_forger_can_hide_behind(
    room: Room, mixed: tuple[Deck, ShuffleProof]
) -> None:
    out, proof = mixed
    zeros = dataclasses.replace(
        proof,
        challenge=ZERO,
        responses=(ZERO,) * 4,
        chain_responses=(ZERO,) * 6,
        perm_responses=(ZERO,) * 6,
    )
    expect_bad_mix(room, out, zeros)


# -- in a room: a forged mix is named, and the room goes on waiting for a good one ----------


class _ForgedMix(Peer):
    """Seat 1 mixes honestly, then sends its proof with one value made malformed."""

    part = 0  # which list of the wire proof to spoil
    value = b"\xff" * 32

    def _contribution(self, step: st.Step) -> Any:
        body = super()._contribution(step)
        if step.kind == st.MIX:
            body["proof"][self.part] = self.value + body["proof"][self.part][32:]
        return body


class _StaleProof(Peer):
    """Seat 1 sends a proof made for another step of the log (a replay of its own)."""

    def _contribution(self, step: st.Step) -> Any:
        if step.kind != st.MIX:
            return super()._contribution(step)
        out, proof = self.deck.my_mix(self._stream(b"mix", step.seq), step=step.seq + 1)
        return {"deck": deck_to_data(out), "proof": shuffle_proof_to_data(proof)}


@pytest.mark.parametrize(
    ("part", "value"),
    [(0, b"\xff" * 32), (1, IDENTITY), (1, SMALL_ORDER), (2, plus_order(Scalar(bytes(32))))],
    ids=["commitment not canonical", "chain identity", "chain small order", "challenge = L"],
)
def test_a_room_names_a_mixer_whose_proof_is_malformed(part: int, value: bytes) -> None:
    cheat = type("Cheat", (_ForgedMix,), {"part": part, "value": value})
    room = MentalMatch("cake-duel", 2, 1, peer_types={1: cheat})
    for peer in room.peers:
        assert peer.seat == 1 or any(i.kind == "BadMix" and i.peer == 1 for i in peer.incidents), (
            peer.incidents
        )
    assert room.peers[0].step.kind == st.MIX  # the deck was never accepted


def test_a_room_refuses_a_proof_made_for_another_step() -> None:
    room = MentalMatch("cake-duel", 2, 1, peer_types={1: _StaleProof})
    assert any(i.kind == "BadMix" and i.peer == 1 for i in room.peers[0].incidents)
    assert room.peers[0].step.kind == st.MIX

"""Key, share and shuffle proofs: they verify when honest and name the seat otherwise."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import pytest

from cakeparty.protocol.elgamal import (
    Ciphertext,
    Deck,
    GameKey,
    decrypt,
    mix,
    random_mix,
    reencrypt,
    unmix,
)
from cakeparty.protocol.errors import BadMix, BadProof, BadShare, ProtocolError
from cakeparty.protocol.group import (
    IDENTITY,
    ZERO,
    L,
    Point,
    RandomBytes,
    Scalar,
    add,
    card_point,
    mul_base,
    random_permutation,
    random_scalar,
    random_scalars,
    seeded_random_bytes,
    sub,
)
from cakeparty.protocol.proofs import (
    DEFAULT_LAMBDA,
    DleqProof,
    Opening,
    SchnorrProof,
    Share,
    ShuffleProof,
    _shuffle_digest,
    challenge_bits,
    make_share,
    prove_key,
    prove_shuffle,
    shuffle,
    verify_key,
    verify_share,
    verify_shuffle,
)

from .conftest import CARDS, ROOM, Room, make_room
from .test_group import SMALL_ORDER

BITS = (0, 9, 130, 255)  # low, middle and top bits of a 32-byte field
LAM = 8


def flip(data: bytes, bit: int) -> bytes:
    """``data`` with one bit flipped."""
    i = bit // 8
    return data[:i] + bytes([data[i] ^ (1 << (bit % 8))]) + data[i + 1 :]


def plus_order(s: Scalar) -> Scalar:
    """The same scalar mod L, written non-canonically (libsodium would take it)."""
    return Scalar((int.from_bytes(s, "little") + L).to_bytes(32, "little"))


# -- Schnorr ---------------------------------------------------------------------------------


def test_key_proof_round_trip(rb: RandomBytes) -> None:
    key = GameKey.generate(rb)
    assert verify_key(ROOM, 4, key.public, prove_key(ROOM, 4, key, rb)) == key.public


@pytest.mark.parametrize("bit", BITS)
@pytest.mark.parametrize("part", ["public", "challenge", "response"])
def test_key_proof_rejects_a_flipped_bit(rb: RandomBytes, part: str, bit: int) -> None:
    key = GameKey.generate(rb)
    proof = prove_key(ROOM, 2, key, rb)
    public = key.public
    if part == "public":
        public = Point(flip(public, bit))
    else:
        proof = dataclasses.replace(proof, **{part: Scalar(flip(getattr(proof, part), bit))})
    with pytest.raises(BadProof) as info:
        verify_key(ROOM, 2, public, proof)
    assert info.value.peer == 2


@pytest.mark.parametrize(
    "room, seat", [("other-room", 2), (ROOM, 3)], ids=["wrong room", "wrong prover"]
)
def test_key_proof_is_bound_to_room_and_seat(rb: RandomBytes, room: str, seat: int) -> None:
    key = GameKey.generate(rb)
    proof = prove_key(ROOM, 2, key, rb)
    with pytest.raises(BadProof) as info:
        verify_key(room, seat, key.public, proof)
    assert info.value.peer == seat


def test_key_proof_for_another_key_fails(rb: RandomBytes) -> None:
    a, b = GameKey.generate(rb), GameKey.generate(rb)
    with pytest.raises(BadProof):
        verify_key(ROOM, 0, b.public, prove_key(ROOM, 0, a, rb))


@pytest.mark.parametrize("public", [IDENTITY, SMALL_ORDER, b"\x00" * 31], ids=repr)
def test_key_proof_rejects_bad_points(rb: RandomBytes, public: bytes) -> None:
    proof = prove_key(ROOM, 0, GameKey.generate(rb), rb)
    with pytest.raises(BadProof):
        verify_key(ROOM, 0, public, proof)


def test_key_proof_with_zero_scalars_is_rejected_not_crashed(rb: RandomBytes) -> None:
    key = GameKey.generate(rb)
    with pytest.raises(BadProof):
        verify_key(ROOM, 0, key.public, SchnorrProof(ZERO, ZERO))


def test_rogue_key_cannot_be_proved(rb: RandomBytes) -> None:
    # seat 1 wants Y = x·B for an x it knows, so it publishes x·B − PK_0: it knows no
    # discrete log of that key, and any proof it tries (here, with x) fails
    honest = GameKey.generate(rb)
    x = random_scalar(rb)
    rogue = GameKey(x, sub(mul_base(x), honest.public))
    with pytest.raises(BadProof) as info:
        verify_key(ROOM, 1, rogue.public, prove_key(ROOM, 1, rogue, rb))
    assert info.value.peer == 1


# -- Chaum–Pedersen shares ---------------------------------------------------------------------


def test_share_round_trip_decrypts(room: Room, rb: RandomBytes) -> None:
    ct = room.deck[3]
    shares = [
        verify_share(ROOM, s, room.publics[s], ct.c1, make_share(ROOM, s, k, ct.c1, rb))
        for s, k in enumerate(room.keys)
    ]
    assert room.table.card_of(decrypt(ct, shares)) == CARDS[3]


def _mixed_card(room: Room, rb: RandomBytes) -> Ciphertext:
    out, _ = shuffle(ROOM, 0, room.joint, room.deck, lam=LAM, random_bytes=rb)
    return out[0]


@pytest.mark.parametrize("bit", BITS)
@pytest.mark.parametrize("part", ["point", "challenge", "response"])
def test_share_rejects_a_flipped_bit(room: Room, rb: RandomBytes, part: str, bit: int) -> None:
    c1 = _mixed_card(room, rb).c1
    share = make_share(ROOM, 1, room.keys[1], c1, rb)
    if part == "point":
        share = dataclasses.replace(share, point=Point(flip(share.point, bit)))
    else:
        proof = dataclasses.replace(
            share.proof, **{part: Scalar(flip(getattr(share.proof, part), bit))}
        )
        share = dataclasses.replace(share, proof=proof)
    with pytest.raises(BadShare) as info:
        verify_share(ROOM, 1, room.publics[1], c1, share)
    assert info.value.peer == 1


@pytest.mark.parametrize("change", ["room", "seat", "public", "c1"])
def test_share_is_bound_to_its_statement(room: Room, rb: RandomBytes, change: str) -> None:
    c1 = _mixed_card(room, rb).c1
    share = make_share(ROOM, 1, room.keys[1], c1, rb)
    args: dict[str, Any] = {"room": ROOM, "seat": 1, "public": room.publics[1], "c1": c1}
    args[change] = {
        "room": "other-room",
        "seat": 2,
        "public": room.publics[2],
        "c1": room.deck[0].c1,
    }[change]
    with pytest.raises(BadShare) as info:
        verify_share(share=share, **args)
    assert info.value.peer == args["seat"]


@pytest.mark.parametrize("point", [IDENTITY, SMALL_ORDER], ids=["identity", "small order"])
def test_share_rejects_bad_points(room: Room, rb: RandomBytes, point: bytes) -> None:
    c1 = _mixed_card(room, rb).c1
    share = Share(Point(point), DleqProof(ZERO, ZERO))
    with pytest.raises(BadShare):
        verify_share(ROOM, 0, room.publics[0], c1, share)


def test_bad_share_is_detected_and_names_its_seat(room: Room, rb: RandomBytes) -> None:
    # seat 2 answers with a share under a key of its own making, with a proof that is
    # valid for that key: the proof does not hold for the key seat 2 published
    ct = _mixed_card(room, rb)
    liar = GameKey.generate(rb)
    shares = {s: make_share(ROOM, s, k, ct.c1, rb) for s, k in enumerate(room.keys)}
    shares[2] = make_share(ROOM, 2, liar, ct.c1, rb)
    blamed = []
    for seat, share in shares.items():
        try:
            verify_share(ROOM, seat, room.publics[seat], ct.c1, share)
        except BadShare as exc:
            blamed.append(exc.peer)
            assert "seat 2" in str(exc)
    assert blamed == [2]


def test_share_with_non_canonical_response_is_rejected(room: Room, rb: RandomBytes) -> None:
    c1 = _mixed_card(room, rb).c1
    share = make_share(ROOM, 0, room.keys[0], c1, rb)
    bad = dataclasses.replace(share.proof, response=plus_order(share.proof.response))
    with pytest.raises(BadShare):
        verify_share(ROOM, 0, room.publics[0], c1, dataclasses.replace(share, proof=bad))


# -- cut-and-choose shuffle -----------------------------------------------------------------------


def cards_of(room: Room, deck: Deck) -> list[str]:
    return [room.table.card_of(decrypt(ct, [k.share(ct.c1) for k in room.keys])) for ct in deck]


def test_every_seat_mixes_in_turn(room: Room, rb: RandomBytes) -> None:
    deck = room.deck
    for seat in range(len(room.keys)):
        out, proof = shuffle(ROOM, seat, room.joint, deck, lam=LAM, random_bytes=rb)
        verify_shuffle(ROOM, seat, room.joint, deck, out, proof, lam=LAM)
        assert len(proof.openings) == LAM
        deck = out
    assert sorted(cards_of(room, deck)) == sorted(CARDS)


def test_default_lambda_round_trip_and_tamper(room: Room, rb: RandomBytes) -> None:
    out, proof = shuffle(ROOM, 1, room.joint, room.deck, random_bytes=rb)
    assert len(proof.openings) == DEFAULT_LAMBDA == 32
    assert set(challenge_bits(proof.challenge, 32)) == {0, 1}  # both openings exercised
    verify_shuffle(ROOM, 1, room.joint, room.deck, out, proof)
    bad = dataclasses.replace(proof, challenge=flip(proof.challenge, 31))
    with pytest.raises(BadMix):
        verify_shuffle(ROOM, 1, room.joint, room.deck, out, bad)


@pytest.fixture
def mixed(room: Room, rb: RandomBytes) -> tuple[Deck, ShuffleProof]:
    """Seat 1's honest mix of the initial deck, with its proof."""
    return shuffle(ROOM, 1, room.joint, room.deck, lam=LAM, random_bytes=rb)


def _expect_bad_mix(setup: Room, out: Deck, proof: ShuffleProof, **change: Any) -> None:
    """Seat 1's mix ``out`` of the initial deck must be refused, naming the prover."""
    args: dict[str, Any] = {"room": ROOM, "seat": 1, "joint": setup.joint, "inp": setup.deck}
    args.update(change)
    lam = args.pop("lam", LAM)
    with pytest.raises(BadMix) as info:
        verify_shuffle(out=out, proof=proof, lam=lam, **args)
    assert info.value.peer == args["seat"]
    assert isinstance(info.value, ProtocolError)


@pytest.mark.parametrize("bit", [0, 3, 7, 100, 255])
def test_shuffle_rejects_a_flipped_challenge_bit(
    room: Room, mixed: tuple[Deck, ShuffleProof], bit: int
) -> None:
    out, proof = mixed
    _expect_bad_mix(room, out, dataclasses.replace(proof, challenge=flip(proof.challenge, bit)))


Tamper = Callable[[Opening], Opening]
OPENING_TAMPERS: dict[str, Tamper] = {
    "swap two": lambda o: Opening((o.perm[1], o.perm[0], *o.perm[2:]), o.scalars),
    "repeat one": lambda o: Opening((o.perm[0], o.perm[0], *o.perm[2:]), o.scalars),
    "out of range": lambda o: Opening((*o.perm[:-1], len(o.perm)), o.scalars),
    "scalar low bit": lambda o: Opening(o.perm, (Scalar(flip(o.scalars[0], 0)), *o.scalars[1:])),
    "scalar high bit": lambda o: Opening(
        o.perm, (*o.scalars[:-1], Scalar(flip(o.scalars[-1], 250)))
    ),
    "scalar plus L": lambda o: Opening(o.perm, (plus_order(o.scalars[0]), *o.scalars[1:])),
    "short": lambda o: Opening(o.perm[:-1], o.scalars[:-1]),
}


@pytest.mark.parametrize("index", [0, LAM - 1])
@pytest.mark.parametrize("tamper", OPENING_TAMPERS, ids=str)
def test_shuffle_rejects_a_tampered_opening(
    room: Room, mixed: tuple[Deck, ShuffleProof], tamper: str, index: int
) -> None:
    out, proof = mixed
    openings = list(proof.openings)
    openings[index] = OPENING_TAMPERS[tamper](openings[index])
    _expect_bad_mix(room, out, dataclasses.replace(proof, openings=tuple(openings)))


@pytest.mark.parametrize("part", ["c1", "c2"])
@pytest.mark.parametrize("bit", [0, 200])
def test_shuffle_rejects_a_flipped_bit_in_the_output(
    room: Room, mixed: tuple[Deck, ShuffleProof], part: str, bit: int
) -> None:
    out, proof = mixed
    card = out[2]
    changed = dataclasses.replace(card, **{part: Point(flip(getattr(card, part), bit))})
    _expect_bad_mix(room, (*out[:2], changed, *out[3:]), proof)


def test_shuffle_rejects_reordered_output(room: Room, mixed: tuple[Deck, ShuffleProof]) -> None:
    out, proof = mixed
    _expect_bad_mix(room, (out[1], out[0], *out[2:]), proof)


@pytest.mark.parametrize(
    "change",
    [
        {"room": "other-room"},
        {"seat": 2},
        {"seat": 0},
        {"lam": LAM + 1},
        {"lam": LAM - 1},
    ],
    ids=["wrong room", "wrong prover", "another prover", "more shadows", "fewer shadows"],
)
def test_shuffle_is_bound_to_room_seat_and_lambda(
    room: Room, mixed: tuple[Deck, ShuffleProof], change: dict[str, object]
) -> None:
    out, proof = mixed
    _expect_bad_mix(room, out, proof, **change)


def test_shuffle_is_bound_to_joint_key_and_input(
    room: Room, mixed: tuple[Deck, ShuffleProof], rb: RandomBytes
) -> None:
    out, proof = mixed
    _expect_bad_mix(room, out, proof, joint=mul_base(random_scalar(rb)))
    other_input, _, _ = random_mix(room.deck, room.joint, rb)
    _expect_bad_mix(room, out, proof, inp=other_input)


def test_shuffle_cannot_drop_a_card(room: Room, mixed: tuple[Deck, ShuffleProof]) -> None:
    out, proof = mixed
    _expect_bad_mix(room, out[:-1], proof)


def _cheat(
    room: Room, rb: RandomBytes, perm: tuple[int, ...], edit: Callable[[Deck], Deck]
) -> tuple[Deck, ShuffleProof]:
    """An honest-looking proof run over a dishonest output."""
    scalars = random_scalars(len(perm), rb)
    out = edit(mix(room.deck, room.joint, perm, scalars))
    proof = prove_shuffle(
        ROOM, 1, room.joint, room.deck, out, perm, scalars, lam=LAM, random_bytes=rb
    )
    return out, proof


def test_shuffle_cannot_duplicate_a_card(room: Room, rb: RandomBytes) -> None:
    out, proof = _cheat(room, rb, (0, 0, 2, 3, 4, 5), lambda d: d)
    assert cards_of(room, out).count(CARDS[0]) == 2
    _expect_bad_mix(room, out, proof)


def test_shuffle_cannot_substitute_a_card(room: Room, rb: RandomBytes) -> None:
    def substitute(deck: Deck) -> Deck:
        # a fresh encryption of some point that was no card of the deck
        extra = Ciphertext(room.deck[0].c1, mul_base(random_scalar(rb)))
        return (*deck[:3], reencrypt(extra, random_scalar(rb), room.joint), *deck[4:])

    out, proof = _cheat(room, rb, tuple(range(6)), substitute)
    _expect_bad_mix(room, out, proof)


def test_shuffle_cannot_swap_in_a_card_of_its_choice(room: Room, rb: RandomBytes) -> None:
    def swap_in(deck: Deck) -> Deck:
        m = card_point("cake-duel", "wedding-cake")
        fake = Ciphertext(room.deck[0].c1, add(m, room.joint))
        return (reencrypt(fake, random_scalar(rb), room.joint), *deck[1:])

    out, proof = _cheat(room, rb, random_permutation(6, rb), swap_in)
    _expect_bad_mix(room, out, proof)


def test_a_prover_guessing_the_challenge_fails(room: Room) -> None:
    # the best a cheater can do: make each shadow openable one way, guessed in advance;
    # it passes only if all λ guesses match the hash (probability 2^-λ per attempt)
    rb = seeded_random_bytes(b"guessing cheater")
    n = len(CARDS)
    honest = random_mix(room.deck, room.joint, rb)[0]
    out = (honest[1], honest[1], *honest[2:])  # a duplicated card: no honest proof exists
    guesses = [int(b) for b in format(rb(1)[0], "08b")]
    secrets = [(random_permutation(n, rb), tuple(random_scalars(n, rb))) for _ in range(LAM)]
    shadows = [
        mix(room.deck, room.joint, p, s) if g == 0 else unmix(out, room.joint, p, s)
        for (p, s), g in zip(secrets, guesses, strict=True)
    ]
    digest = _shuffle_digest(ROOM, 1, room.joint, room.deck, out, shadows)
    assert challenge_bits(digest, LAM) != guesses
    proof = ShuffleProof(digest, tuple(Opening(p, s) for p, s in secrets))
    _expect_bad_mix(room, out, proof)


def test_lambda_out_of_range_is_refused(room: Room, rb: RandomBytes) -> None:
    with pytest.raises(ValueError):
        shuffle(ROOM, 0, room.joint, room.deck, lam=0, random_bytes=rb)
    with pytest.raises(ValueError):
        shuffle(ROOM, 0, room.joint, room.deck, lam=257, random_bytes=rb)


def test_mix_of_a_larger_room() -> None:
    rb = seeded_random_bytes(b"four seats")
    cards = tuple(f"card-{i}" for i in range(8))
    room = make_room(4, rb, cards)
    deck = room.deck
    for seat in range(4):
        out, proof = shuffle(ROOM, seat, room.joint, deck, lam=LAM, random_bytes=rb)
        verify_shuffle(ROOM, seat, room.joint, deck, out, proof, lam=LAM)
        deck = out
    assert sorted(cards_of(room, deck)) == sorted(cards)

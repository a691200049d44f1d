"""One peer's side of the mental deck: every slot's ciphertext, the shares seen, its key.

Every peer holds the same ciphertexts and the same public shares; each holds its own game
key and the shares sent to it privately. Who must send which share for a reveal follows
from public facts alone (:func:`share_plan`), so every peer expects the same envelopes.

The security argument for reveals: a card is readable by whoever holds every seat's
share. For each slot, shares are made public only by seats *outside* the set of seats
allowed to know it, and members of the set pass theirs to each other in private boxes; a
seat outside the set therefore always lacks at least one member's share.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from cakeparty.core.i18n import N_
from cakeparty.core.knowledge import PUBLIC
from cakeparty.protocol.elgamal import (
    CardTable,
    Ciphertext,
    Deck,
    GameKey,
    decrypt,
    initial_deck,
    joint_key,
    mix,
    random_mix,
)
from cakeparty.protocol.errors import BadMix, BadShare, ProtocolError, UnknownCard
from cakeparty.protocol.group import (
    BASE,
    Point,
    RandomBytes,
    Scalar,
    add,
    is_canonical_scalar,
    mul_base,
    u64,
)
from cakeparty.protocol.proofs import (
    SchnorrProof,
    Share,
    make_share,
    prove_key,
    verify_key,
    verify_share,
)
from cakeparty.protocol.shuffle import (
    Opening,
    ShuffleProof,
    prove_shuffle,
    shuffle,
    verify_shuffle,
)


@dataclass(frozen=True)
class SharePlan:
    """What one seat sends for a reveal: public shares, and private ones per recipient."""

    public: tuple[int, ...]  # slots
    private: dict[int, tuple[int, ...]] = field(default_factory=dict)  # recipient -> slots

    @property
    def empty(self) -> bool:
        return not self.public and not any(self.private.values())


def _seats(mask: int, seats: int) -> set[int]:
    return {s for s in range(seats) if mask >> s & 1}


def share_plan(
    slots: Sequence[int],
    to: Sequence[int] | None,
    masks: Sequence[int],
    public: Sequence[dict[int, Point]],
    seats: int,
) -> dict[int, SharePlan]:
    """Who sends which share so that exactly the seats allowed can read ``slots``.

    ``masks[slot]`` says who may know the slot before this reveal; ``public[slot]`` holds
    the shares already published for its current ciphertext.
    """
    plans: dict[int, tuple[list[int], dict[int, list[int]]]] = {s: ([], {}) for s in range(seats)}
    for slot in slots:
        before = _seats(masks[slot], seats) if not masks[slot] & PUBLIC else set(range(seats))
        after = set(range(seats)) if to is None else before | set(to)
        newcomers = after - before if to is not None else set(range(seats))
        for seat in range(seats):
            if seat not in after or to is None:
                if seat not in public[slot]:
                    plans[seat][0].append(slot)
                continue
            for reader in sorted(newcomers - {seat}):
                plans[seat][1].setdefault(reader, []).append(slot)
    return {
        seat: SharePlan(tuple(pub), {r: tuple(v) for r, v in priv.items()})
        for seat, (pub, priv) in plans.items()
        if pub or priv
    }


def mix_context(step: int) -> bytes:
    """What binds a mix's proof to its step of the room log, so that a proof made for one
    shuffle cannot stand for the same deck at another."""
    return b"mix/" + u64(step)


class MentalDeck:
    """Ciphertexts and shares for every slot of one game, as one peer knows them."""

    def __init__(
        self,
        *,
        room: str,
        seat: int | None,
        seats: int,
        game: str,
        box: Sequence[str],
        key: GameKey | None,
    ) -> None:
        """``seat`` and ``key`` are ``None`` for a spectator's deck: it can check every
        proof and read what is public, and decrypt nothing else."""
        self.room = room
        self._seat = seat
        self.seats = seats
        self.box = tuple(box)
        self.table = CardTable.for_game(game, set(box))
        self._key = key
        self.publics: list[Point | None] = [None] * seats
        self.joint: Point | None = None
        self.cards: list[Ciphertext] = []
        self.public: list[dict[int, Point]] = [{} for _ in box]
        self.private: list[dict[int, Point]] = [{} for _ in box]
        # the private shares sent to this seat, with their proofs: the evidence a witness
        # publishes to open a hand to everyone when its holder lied about it
        self.proven: list[dict[int, Share]] = [{} for _ in box]
        self.mixing: Deck = ()
        self.secrets: list[bytes | None] = [None] * seats

    @property
    def seat(self) -> int:
        if self._seat is None:
            raise ValueError("a spectator's deck has no seat")
        return self._seat

    @property
    def key(self) -> GameKey:
        if self._key is None:
            raise ValueError("a spectator's deck has no game key")
        return self._key

    # -- keys ---------------------------------------------------------------------------

    def key_proof(self, random_bytes: RandomBytes) -> SchnorrProof:
        return prove_key(self.room, self.seat, self.key, random_bytes)

    def accept_key(self, seat: int, public: bytes, proof: SchnorrProof) -> None:
        """A seat's game key, with its proof of knowledge (a rogue key fails here)."""
        self.publics[seat] = verify_key(self.room, seat, public, proof)

    def start(self) -> None:
        """Every key is in: the joint key, and every card face up as it comes out of the box."""
        publics = [p for p in self.publics if p is not None]
        assert len(publics) == self.seats
        self.joint = joint_key(publics)
        self.cards = list(initial_deck([self.table.point(c) for c in self.box], self.joint))

    # -- mixing -------------------------------------------------------------------------

    def restore(self, slot: int, card: str) -> None:
        """A card whose identity is public: encrypt it afresh, face up, as out of the box."""
        assert self.joint is not None
        self.cards[slot] = Ciphertext(BASE, add(self.table.point(card), self.joint))
        self.public[slot] = {}
        self.private[slot] = {}
        self.proven[slot] = {}

    def begin_shuffle(self, slots: Sequence[int]) -> None:
        self.mixing = tuple(self.cards[s] for s in slots)

    def my_mix(self, random_bytes: RandomBytes, *, step: int) -> tuple[Deck, ShuffleProof]:
        """This seat's mix of the deck being shuffled, proved for the log's step ``step``."""
        assert self.joint is not None
        return shuffle(
            self.room,
            self.seat,
            self.joint,
            self.mixing,
            context=mix_context(step),
            random_bytes=random_bytes,
        )

    def accept_mix(self, seat: int, out: Deck, proof: ShuffleProof, *, step: int) -> None:
        """Check a seat's mix, at the log's step ``step``, of the deck being shuffled
        (:class:`BadMix` names it)."""
        assert self.joint is not None
        verify_shuffle(
            self.room, seat, self.joint, self.mixing, out, proof, context=mix_context(step)
        )
        self.mixing = out

    def my_remix(
        self, random_bytes: RandomBytes, *, step: int
    ) -> tuple[Deck, Opening, ShuffleProof]:
        """This seat's re-mix of its own hand (the slots being mixed): the new ciphertexts,
        the secret opening (permutation and scalars: it tells this seat, and the seats it
        shares the hand with, which slot now holds which card) and the shuffle proof."""
        assert self.joint is not None
        out, perm, scalars = random_mix(self.mixing, self.joint, random_bytes)
        proof = prove_shuffle(
            self.room,
            self.seat,
            self.joint,
            self.mixing,
            out,
            perm,
            scalars,
            context=mix_context(step),
            random_bytes=random_bytes,
        )
        return out, Opening(tuple(perm), tuple(scalars)), proof

    def check_opening(self, seat: int, out: Deck, opening: Opening) -> None:
        """A re-mix's opening, boxed to a seat sharing the hand, must rebuild ``out``
        from the slots being mixed: else the holder lied to its teammate."""
        assert self.joint is not None
        n = len(self.mixing)
        if sorted(opening.perm) != list(range(n)) or len(opening.scalars) != n:
            raise BadMix(N_("the re-mix opening is no permutation"), peer=seat)
        if mix(self.mixing, self.joint, opening.perm, opening.scalars) != tuple(out):
            raise BadMix(N_("the re-mix opening does not match the re-mixed hand"), peer=seat)

    def end_shuffle(self, slots: Sequence[int]) -> None:
        """The last mix is done: the slots hold the mixed ciphertexts; old shares are void."""
        for slot, ct in zip(slots, self.mixing, strict=True):
            self.cards[slot] = ct
            self.public[slot] = {}
            self.private[slot] = {}
            self.proven[slot] = {}
        self.mixing = ()

    # -- shares -------------------------------------------------------------------------

    def make_shares(self, slots: Sequence[int], random_bytes: RandomBytes) -> list[Share]:
        return [
            make_share(self.room, self.seat, self.key, self.cards[s].c1, random_bytes)
            for s in slots
        ]

    def check_share(self, seat: int, slot: int, share: Share) -> Point:
        """A seat's share of a slot, checked against its key (:class:`BadShare` names it)."""
        public = self.publics[seat]
        assert public is not None
        try:
            return verify_share(self.room, seat, public, self.cards[slot].c1, share)
        except ProtocolError as exc:
            raise BadShare(f"bad decryption share for card {slot}", peer=seat) from exc

    def accept_public(self, seat: int, slot: int, point: Point) -> None:
        self.public[slot][seat] = point

    def accept_private(self, seat: int, slot: int, point: Point, share: Share) -> None:
        self.private[slot][seat] = point
        self.proven[slot][seat] = share

    def open_with(self, slot: int, shares: dict[int, Share]) -> str | None:
        """The card in ``slot`` from the public shares and ``shares`` (each checked; a bad
        one raises :class:`BadShare` naming its seat), or ``None`` if some are missing."""
        points = dict(self.public[slot])
        for seat, share in shares.items():
            if not 0 <= seat < self.seats:
                raise BadShare(f"no seat {seat}", peer=None)
            points[seat] = self.check_share(seat, slot, share)
        if len(points) < self.seats:
            return None
        return self.table.card_of(decrypt(self.cards[slot], points.values()))

    def card(self, slot: int) -> str | None:
        """The card in ``slot`` if this peer holds every share of it."""
        shares = dict(self.public[slot])
        shares.update(self.private[slot])
        if self._seat is not None and self._key is not None:
            shares[self._seat] = self._key.share(self.cards[slot].c1)
        if len(shares) < self.seats:
            return None
        point = decrypt(self.cards[slot], shares.values())
        try:
            return self.table.card_of(point)
        except UnknownCard as exc:
            raise UnknownCard(f"card {slot} decrypts to no card", peer=None) from exc

    # -- the audit ----------------------------------------------------------------------

    def accept_secret(self, seat: int, secret: bytes) -> None:
        """A seat's game secret, published at the end; it must match its public key."""
        public = self.publics[seat]
        if not is_canonical_scalar(secret) or public is None or mul_base(Scalar(secret)) != public:
            raise BadShare(N_("the game key published does not match"), peer=seat)
        self.secrets[seat] = secret

    def open_all(self, deck: Sequence[Ciphertext]) -> list[str]:
        """Every card of ``deck``, once every seat's secret is known."""
        keys = [GameKey(s, p) for s, p in zip(self.secrets, self.publics, strict=True)]  # type: ignore[arg-type]
        return [self.table.card_of(decrypt(ct, [k.share(ct.c1) for k in keys])) for ct in deck]

    def open_each(self, deck: Sequence[Ciphertext]) -> list[str | None]:
        """Like :meth:`open_all`, with ``None`` for a ciphertext that opens to no card."""
        keys = [GameKey(s, p) for s, p in zip(self.secrets, self.publics, strict=True)]  # type: ignore[arg-type]
        opened: list[str | None] = []
        for ct in deck:
            try:
                opened.append(self.table.card_of(decrypt(ct, [k.share(ct.c1) for k in keys])))
            except UnknownCard:
                opened.append(None)
        return opened

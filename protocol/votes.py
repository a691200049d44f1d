"""The votes that end a game as abandoned: reading them, and counting them.

A vote is an ``abandon`` message on the log topic, signed by its voter: "seat s keeps
step n (which follows ``step``) waiting past the room's timeout", and optionally "seats
``away`` are gone too". Each voter has one stand per step: its first vote there, to
which a later vote about the same seat and log may only add seats gone. The game ends
when every seat but the absent one has voted the same about the same step, but the seats
that every voter signed gone (they cannot vote). Whether an ending agreed on here stands
is the log's to say (:class:`~cakeparty.protocol.session.GameSession`): no voter may
have signed anything after that step.

Pure functions of the votes: the session counts them as they come, and a host's records
(:mod:`cakeparty.protocol.hosting`) count those kept in a journal to tell a game that
ended.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

from cakeparty.protocol.codec import Envelope, decode, expect_bytes, expect_int, expect_list
from cakeparty.protocol.errors import ProtocolError
from cakeparty.protocol.lobby import ABANDON
from cakeparty.protocol.table import Table


@dataclass(frozen=True)
class Vote:
    """One voter's stand on one step: the seat it signed absent, the seats it signed gone
    too (the union of its votes about that step), and those signed votes."""

    seat: int  # the seat said to be absent
    seq: int
    prev: bytes
    away: frozenset[int]
    data: tuple[bytes, ...]


@dataclass(frozen=True)
class Agreed:
    """An ending the votes held agree on (whether it stands is the log's to say)."""

    seq: int
    prev: bytes
    seat: int
    voters: frozenset[int]
    away: frozenset[int]


def take_vote(
    held: Vote | None, envelope: Envelope, voter: int, seats: int, data: bytes
) -> Vote | None:
    """``voter``'s stand once its ``abandon`` envelope is taken in (``held``: its stand
    so far), or ``None`` if the envelope changes nothing: not a vote, about the voter
    itself, an older step, or another story about the step it voted on."""
    body = envelope.body
    try:
        if not isinstance(body, dict) or set(body) - {"away"} != {"seat", "step"}:
            return None
        absent = expect_int(body["seat"], "seat", 0, seats - 1)
        prev = expect_bytes(body["step"], "step", 32)
        listed = expect_list(body.get("away", []), "away")
        away = frozenset(expect_int(s, "away", 0, seats - 1) for s in listed)
    except ProtocolError:
        return None
    if absent == voter or len(away) != len(listed) or away & {absent, voter}:
        return None
    if held is not None and envelope.seq == held.seq:
        # one vote per voter and step, the first: a later one only signs more seats
        # gone, about the same absent seat and the same log
        if (absent, prev) != (held.seat, held.prev) or away <= held.away:
            return None
        return Vote(absent, held.seq, prev, held.away | away, (*held.data, data))
    if held is not None and envelope.seq < held.seq:
        return None  # never an older one
    return Vote(absent, envelope.seq, prev, away, (data,))


def agreed(votes: Mapping[int, Vote], seats: int) -> Iterator[Agreed]:
    """The endings ``votes`` (each voter's stand) agree on, the earliest step first: every
    seat but the absent one voted the same, but those every voter signed gone."""
    everyone = frozenset(range(seats))
    for seq, prev, absent in sorted({(v.seq, v.prev, v.seat) for v in votes.values()}):
        same = [s for s, v in votes.items() if (v.seq, v.prev, v.seat) == (seq, prev, absent)]
        voters = frozenset(same)
        # the seats whose vote is missing: gone, if every voter signed them so
        away = everyone - {absent} - voters
        if all(away <= votes[s].away for s in same):
            yield Agreed(seq, prev, absent, voters, away)


def abandoned_in(table: Table, envelopes: Iterable[bytes]) -> bool:
    """Whether the votes among a journal's ``envelopes`` end its game (they are kept
    there once this peer's log reached their step, so the log agrees)."""
    votes: dict[int, Vote] = {}
    for data in envelopes:
        try:
            envelope = decode(data, verify=False)  # our own journal: checked when kept
        except (ProtocolError, ValueError):
            continue
        voter = table.seat_of(envelope.sender)
        if envelope.kind != ABANDON or voter is None:
            continue
        vote = take_vote(votes.get(voter), envelope, voter, table.seats, data)
        if vote is not None:
            votes[voter] = vote
    return any(True for _ in agreed(votes, table.seats))

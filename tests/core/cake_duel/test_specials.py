"""Every special's effect, blocked or not, and the order in which effects resolve."""

from __future__ import annotations

import pytest

from cakeparty.core import IllegalActionError, Match, apply, view
from cakeparty.core.actions import forfeit_words
from cakeparty.core.games.cake_duel import (
    CHALLENGE,
    NO_ACTION,
    NO_TRADE,
    PASS,
    Block,
    Claim,
    Declare,
    Lead,
    Phase,
    Summon,
    Take,
)
from cakeparty.core.games.cake_duel.cards import CARDS
from cakeparty.core.games.cake_duel.events import (
    Accepted,
    BoutWon,
    Declared,
    Drew,
    ExtraTurn,
    HandSizeUp,
    Looked,
    Stole,
    Summoned,
    Took,
)
from tests.core.cake_duel.play import accept, block, burn, claim, events, pass_turn, settle
from tests.core.cake_duel.stacking import stacked
from tests.i18n_catalogs import language

BOB = ["soldier", "soldier", "scientist", "defender"]


def _duel(alice: list[str], bob: list[str], specials: list[str]) -> Match:
    return stacked([alice, bob], specials=specials)


def _since(m: Match, event: object) -> tuple[object, ...]:
    """The bout's events after the last one equal to ``event``."""
    evs = m.view(None).events
    return evs[len(evs) - evs[::-1].index(event) :]


# -- Assassin -----------------------------------------------------------------------------


def test_assassin_steals_five() -> None:
    m = _duel(["assassin", "archer", "wizard", "defender"], BOB, ["assassin", "angel"])
    pass_turn(m)
    claim(m, 1, ["soldier", "soldier"], "soldier")
    accept(m)
    assert m.state.cakes == (1, 6)
    claim(m, 0, ["assassin"], "assassin")
    accept(m)
    assert m.state.cakes == (6, 1)
    assert events(m, Stole)[-1] == Stole(0, 1, 5)


def test_one_defender_blocks_the_assassin() -> None:
    m = _duel(["assassin", "archer", "wizard", "defender"], BOB, ["assassin", "angel"])
    claim(m, 0, ["assassin"], "assassin")
    assert {len(a.slots) for a in m.legal_actions(1) if isinstance(a, Block)} == {1}
    block(m, 1, ["defender"], "defender")
    accept(m)
    assert m.state.cakes == (3, 4)
    assert events(m, Stole) == []


def test_assassin_takes_no_more_than_the_opponent_has() -> None:
    m = _duel(["assassin", "archer", "wizard", "defender"], BOB, ["assassin", "angel"])
    claim(m, 0, ["assassin"], "assassin")
    accept(m)
    assert events(m, Stole) == [Stole(0, 1, 4)]
    assert events(m, BoutWon) == [BoutWon(0, "cakes", (1, 0))]


# -- Scout --------------------------------------------------------------------------------


def test_scout_steals_one_and_takes_another_turn() -> None:
    m = _duel(["scout", "archer", "wizard", "defender"], BOB, ["scout", "angel"])
    claim(m, 0, ["scout"], "scout")
    accept(m)
    assert m.state.cakes == (4, 3)
    assert _since(m, Accepted(1)) == (Stole(0, 1, 1), Drew(0, 1), ExtraTurn(0))
    assert m.to_act == (0,) and m.state.phase is Phase.ATTACK


def test_example_scout_blocked_by_a_defender_still_attacks_again() -> None:
    # Alice claims one Scout; Bob claims one Defender; Alice takes no cake but attacks again
    # after both resupply
    m = _duel(["scout", "archer", "wizard", "defender"], BOB, ["scout", "angel"])
    claim(m, 0, ["scout"], "scout")
    block(m, 1, ["defender"], "defender")
    m.apply(NO_ACTION, 0)
    settle(m)
    assert m.state.cakes == (3, 4)
    assert _since(m, Accepted(0)) == (Drew(0, 1), Drew(1, 1), ExtraTurn(0))
    assert m.to_act == (0,) and m.state.phase is Phase.ATTACK
    assert [len(h) for h in m.state.hands] == [4, 4]


@pytest.mark.parametrize("blocker", ["priest", "angel"])
def test_scout_cancelled_by_priest_or_angel_gives_no_extra_turn(blocker: str) -> None:
    m = _duel(["scout", "archer", "wizard", "defender"], [blocker, *BOB[1:]], ["scout", blocker])
    claim(m, 0, ["scout"], "scout")
    block(m, 1, [blocker], blocker)
    accept(m)
    assert m.state.cakes == (3, 4)
    assert events(m, ExtraTurn) == []
    assert m.to_act == (1,)


# -- Summoner -----------------------------------------------------------------------------

SUMMONER_HAND = ["summoner", "archer", "wizard", "defender"]
TARGET = ["wizard", "soldier", "scientist", "defender"]


def test_summoner_names_a_card_looks_and_steals_two_per_copy() -> None:
    m = _duel(SUMMONER_HAND, TARGET, ["summoner", "angel"])
    claim(m, 0, ["summoner"], "summoner")
    accept(m)
    # the name is chosen after the challenge window closed: any name, unclaimables too
    assert m.state.phase is Phase.SUMMON and m.to_act == (0,)
    assert m.legal_actions(0) == [Summon(name) for name in CARDS]
    bob_hand = m.state.hands[1]
    m.apply(Summon("wizard"), 0)
    settle(m)
    # only the attacker sees the hand
    assert all(m.view(0).known[s] == m.dealer.card(s) for s in bob_hand)
    assert not set(bob_hand) & set(m.view(None).known)
    # the target's count is forced
    assert m.state.phase is Phase.DECLARE and m.to_act == (1,)
    assert m.legal_actions(1) == [Declare(1)]
    m.apply(Declare(1), 1)
    settle(m)
    assert m.state.cakes == (5, 2)
    assert _since(m, Accepted(1))[:4] == (
        Summoned(0, "wizard"),
        Looked(0, 1),
        Declared(1, "wizard", 1),
        Stole(0, 1, 2),
    )


def test_summoner_two_copies_steal_four() -> None:
    m = _duel(
        SUMMONER_HAND, ["scientist", "soldier", "scientist", "defender"], ["summoner", "angel"]
    )
    claim(m, 0, ["summoner"], "summoner")
    accept(m)
    m.apply(Summon("scientist"), 0)
    settle(m)
    m.apply(Declare(2), 1)
    settle(m)
    assert events(m, Stole) == [Stole(0, 1, 4)]
    assert events(m, BoutWon) == [BoutWon(0, "cakes", (1, 0))]


def test_summoner_naming_an_unclaimable_card() -> None:
    m = _duel(
        SUMMONER_HAND, ["sir-wolfy", "soldier", "scientist", "defender"], ["summoner", "angel"]
    )
    claim(m, 0, ["summoner"], "summoner")
    accept(m)
    m.apply(Summon("sir-wolfy"), 0)
    settle(m)
    assert m.legal_actions(1) == [Declare(1)]
    m.apply(Declare(1), 1)
    settle(m)
    assert m.state.cakes == (5, 2)


def test_summoner_naming_a_card_not_in_the_hand_steals_nothing() -> None:
    m = _duel(SUMMONER_HAND, TARGET, ["summoner", "angel"])
    claim(m, 0, ["summoner"], "summoner")
    accept(m)
    m.apply(Summon("archer"), 0)
    settle(m)
    m.apply(Declare(0), 1)
    settle(m)
    assert m.state.cakes == (3, 4)
    assert events(m, Stole) == []
    assert m.to_act == (1,) and m.state.phase is Phase.ATTACK


def test_a_false_declare_is_refused_by_the_local_dealer() -> None:
    m = _duel(SUMMONER_HAND, TARGET, ["summoner", "angel"])
    claim(m, 0, ["summoner"], "summoner")
    accept(m)
    m.apply(Summon("wizard"), 0)
    settle(m)
    assert m.legal_actions(1) == [Declare(1)]  # the honest count is the only choice offered
    state = m.state
    with pytest.raises(IllegalActionError) as err:
        m.apply(Declare(0), 1)
    assert (err.value.seat, err.value.reason) == (1, "declared 0 × Wizard, the hand holds 1")
    assert m.state is state


def test_a_false_declare_seen_by_a_peer_is_a_rule_breach_naming_the_seat() -> None:
    # a peer's state cannot refuse what the other peers accept: it records the breach
    m = _duel(SUMMONER_HAND, TARGET, ["summoner", "angel"])
    claim(m, 0, ["summoner"], "summoner")
    accept(m)
    m.apply(Summon("wizard"), 0)
    settle(m)
    with language("es"):  # the move applied in one language...
        state = apply(m.state, Declare(0), 1)
    (breach,) = state.breaches
    assert (breach.seat, breach.action) == (1, "declare 0")
    # ...keeps its reason untranslated, with what fills it, and reads in the reader's
    assert breach.reason == "declared {claimed} × {card}, the hand holds {n}"
    assert breach.params == (("claimed", 0), ("card", "Wizard"), ("n", 1))
    assert forfeit_words(breach.reason, breach.params) == "declared 0 × Wizard, the hand holds 1"
    with language("pl"):
        words = forfeit_words(breach.reason, breach.params)
        assert words == "podano 0 × Czarodziej, a ręka ma 1"
    # the cakes move as declared, so every peer stays in step; both witnesses see it
    assert state.cakes == (3, 4)
    assert view(state, 0).breaches == (breach,) and view(state, 1).breaches == (breach,)


def test_summoner_blocked_by_a_scientist_shows_the_hand_and_asks_no_count() -> None:
    m = _duel(SUMMONER_HAND, TARGET, ["summoner", "angel"])
    claim(m, 0, ["summoner"], "summoner")
    block(m, 1, ["scientist"], "scientist")
    accept(m)
    assert m.state.phase is Phase.SUMMON
    real = sorted(m.dealer.card(s) for s in m.state.hands[1])
    m.apply(Summon("wizard"), 0)
    settle(m)
    # Alice saw the hand; Bob re-mixed it: she knows what it holds, not which slot is which
    assert sorted(m.view(0).glimpses[1]) == real
    assert not set(m.state.hands[1]) & set(m.view(0).known)
    # the blocked Summoner steals nothing, so Bob's count of Wizards is never asked nor logged
    assert m.state.phase is Phase.ATTACK
    assert m.state.cakes == (3, 4)
    assert events(m, Stole) == []
    assert events(m, Declared) == []
    assert not any(isinstance(a, Declare) for _, a in m.history)


@pytest.mark.parametrize("blocker", ["priest", "angel"])
def test_summoner_cancelled_by_priest_or_angel_does_nothing(blocker: str) -> None:
    m = _duel(SUMMONER_HAND, [blocker, *TARGET[1:]], ["summoner", blocker])
    (summoner,) = claim(m, 0, ["summoner"], "summoner")
    block(m, 1, [blocker], blocker)
    accept(m)
    assert m.state.phase is Phase.ATTACK and m.to_act == (1,)
    assert events(m, Summoned) == [] and events(m, Looked) == []
    hidden = set(m.state.hands[1]) - {summoner}  # the Summoner itself was Alice's card
    assert not hidden & set(m.view(0).known)
    assert m.state.cakes == (3, 4)


# -- Quartermaster ------------------------------------------------------------------------

QM_HAND = ["quartermaster", "archer", "wizard", "defender"]


def test_quartermaster_raises_the_hand_size_and_resupplies_to_it() -> None:
    m = _duel(QM_HAND, BOB, ["quartermaster", "angel"])
    claim(m, 0, ["quartermaster"], "quartermaster")
    accept(m)
    assert m.state.hand_sizes == (5, 4)
    assert _since(m, Accepted(1)) == (HandSizeUp(0, 5), Drew(0, 2))
    assert len(m.state.hands[0]) == 5
    assert m.state.cakes == (3, 4)


def test_quartermaster_stacks_for_the_rest_of_the_bout_only() -> None:
    m = _duel(QM_HAND, BOB, ["quartermaster", "angel"])
    claim(m, 0, ["quartermaster"], "quartermaster")
    accept(m)
    pass_turn(m)  # Bob
    claim(m, 0, ["archer"], "quartermaster")  # a bluff resolves like the truth
    accept(m)
    assert m.state.hand_sizes == (6, 4)
    assert len(m.state.hands[0]) == 6
    # a new bout resets hand sizes
    m.apply(Claim(m.state.hands[1][:1], "wizard", 0), 1)
    m.apply(CHALLENGE, 0)
    assert m.state.bout == 2
    assert m.state.hand_sizes == (4, 4)
    assert [len(h) for h in m.state.hands] == [4, 4]


@pytest.mark.parametrize("blocker", ["priest", "angel"])
def test_quartermaster_cancelled(blocker: str) -> None:
    m = _duel(QM_HAND, [blocker, *BOB[1:]], ["quartermaster", blocker])
    claim(m, 0, ["quartermaster"], "quartermaster")
    block(m, 1, [blocker], blocker)
    accept(m)
    assert m.state.hand_sizes == (4, 4)
    assert events(m, HandSizeUp) == []


def test_quartermaster_is_blocked_by_priest_and_angel_only() -> None:
    m = _duel(QM_HAND, BOB, ["quartermaster", "angel"])
    claim(m, 0, ["quartermaster"], "quartermaster")
    names = {a.name for a in m.legal_actions(1) if isinstance(a, Block)}
    assert names == {"priest", "angel"}


# -- Oracle -------------------------------------------------------------------------------

ORACLE_HAND = ["oracle", "archer", "wizard", "defender"]


def test_oracle_looks_at_the_hand_and_takes_another_turn() -> None:
    m = _duel(ORACLE_HAND, BOB, ["oracle", "angel"])
    claim(m, 0, ["oracle"], "oracle")
    accept(m)
    bob_hand = m.state.hands[1]
    # Alice saw Bob's hand, then Bob re-mixed it: she knows its cards, not their slots
    assert sorted(m.view(0).glimpses[1]) == sorted(m.dealer.card(s) for s in bob_hand)
    assert not set(bob_hand) & set(m.view(0).known)
    assert all(m.view(1).known[s] == m.dealer.card(s) for s in bob_hand)
    assert not set(bob_hand) & set(m.view(None).known)
    assert _since(m, Accepted(1)) == (Looked(0, 1), Drew(0, 1), ExtraTurn(0))
    assert m.to_act == (0,)
    assert m.state.cakes == (3, 4)


@pytest.mark.parametrize("blocker", ["priest", "angel"])
def test_oracle_cancelled(blocker: str) -> None:
    m = _duel(ORACLE_HAND, [blocker, *BOB[1:]], ["oracle", blocker])
    (oracle,) = claim(m, 0, ["oracle"], "oracle")
    block(m, 1, [blocker], blocker)
    accept(m)
    assert events(m, Looked) == [] and events(m, ExtraTurn) == []
    assert not (set(m.state.hands[1]) - {oracle}) & set(m.view(0).known)
    assert m.to_act == (1,)


# -- Priest -------------------------------------------------------------------------------

PRIEST_HAND = ["priest", "scientist", "defender", "wizard"]


def test_priest_takes_the_attack_card_into_hand_seen_by_the_new_holder() -> None:
    m = _duel(["archer", "soldier", "wizard", "defender"], PRIEST_HAND, ["priest", "angel"])
    (card,) = claim(m, 0, ["archer"], "wizard")  # a bluff: the Priest learns it
    (priest,) = block(m, 1, ["priest"], "priest")
    accept(m)
    assert events(m, Took) == [Took(1, 0, (card,))]
    assert card in m.state.hands[1]
    assert m.state.discard == (priest,)
    hand = m.state.hands[1]
    assert sorted(m.view(1).known[s] for s in hand) == sorted(m.dealer.card(s) for s in hand)
    assert "archer" in [m.view(1).known[s] for s in hand]
    assert card not in m.view(None).known
    # the new holder re-mixed its hand: Alice knows the Archer is in it, not in which slot
    assert not set(hand) & set(m.view(0).known)
    assert m.view(0).glimpses[1] == ("archer",)
    assert all(m.state.knowledge.known_by[s] == 0b10 for s in hand)
    assert m.state.cakes == (3, 4)
    # the holder is at hand size again and draws nothing; the attacker draws one
    assert _since(m, Took(1, 0, (card,))) == (Drew(0, 1),)
    assert [len(h) for h in m.state.hands] == [4, 4]


def test_fewer_priests_than_attackers_the_blocker_chooses_which() -> None:
    m = _duel(["soldier", "soldier", "wizard", "defender"], PRIEST_HAND, ["priest", "angel"])
    a, b = claim(m, 0, ["soldier", "soldier"], "soldier")
    block(m, 1, ["priest"], "priest")
    accept(m)
    assert m.state.phase is Phase.PRIEST and m.to_act == (1,)
    assert m.legal_actions(1) == [Take((a,)), Take((b,))]
    m.apply(Take((b,)), 1)
    assert b in m.state.hands[1] and a not in m.state.hands[1]
    assert a in m.state.discard
    # the other Soldier steals
    assert m.state.cakes == (4, 3)
    assert "soldier" in [m.view(1).known[s] for s in m.state.hands[1]]


def test_two_priests_take_both_attackers() -> None:
    m = _duel(
        ["soldier", "soldier", "wizard", "defender"],
        ["priest", "priest", "defender", "wizard"],
        ["priest", "priest"],
    )
    attack = claim(m, 0, ["soldier", "soldier"], "soldier")
    block(m, 1, ["priest", "priest"], "priest")
    accept(m)
    assert events(m, Took) == [Took(1, 0, attack)]
    assert m.state.cakes == (3, 4)
    assert set(attack) <= set(m.state.hands[1])


def test_priest_cancels_a_wizard() -> None:
    m = _duel(
        ["wizard", "soldier", "wizard", "defender"],
        [*PRIEST_HAND[:3], "soldier"],
        ["priest", "angel"],
    )
    claim(m, 0, ["wizard"], "wizard")
    block(m, 1, ["priest"], "priest")
    accept(m)
    assert m.state.cakes == (3, 4)


# -- Angel --------------------------------------------------------------------------------


def test_angel_blocks_every_attacker_of_the_claim() -> None:
    m = _duel(
        ["wizard"] * 3 + ["defender"],
        ["angel", "soldier", "scientist", "defender"],
        ["angel", "scout"],
    )
    attack = claim(m, 0, ["wizard"] * 3, "wizard")
    (angel,) = block(m, 1, ["angel"], "angel")
    accept(m)
    assert m.state.cakes == (3, 4)
    assert events(m, Took) == []
    assert m.state.discard == (*attack, angel)


# -- several of a kind, and the order of effects --------------------------------------------


def test_the_theft_comes_before_the_extra_turn() -> None:
    # a Scout taking the last cake ends the bout: no extra turn follows
    m = _duel(
        ["scout", "soldier", "soldier", "soldier"],
        ["wizard", "archer", "scientist", "defender"],
        ["scout", "angel"],
    )
    claim(m, 0, ["soldier"] * 3, "soldier")
    accept(m)
    assert m.state.cakes == (6, 1)
    pass_turn(m)
    claim(m, 0, ["scout"], "scout")
    accept(m)
    assert events(m, Stole)[-1] == Stole(0, 1, 1)
    assert events(m, BoutWon) == [BoutWon(0, "cakes", (1, 0))]
    assert events(m, ExtraTurn) == []
    assert m.state.bout == 2 and m.to_act == (1,)


def _team(hands: list[list[str]], specials: list[str]) -> Match:
    m = stacked(hands, specials=specials)
    m.apply(Lead(0), 0)
    return m


TEAM_FILLER = [["archer", "archer", "wizard", "defender"], ["soldier"] * 4, ["wizard"] * 4]


def test_several_scouts_give_one_extra_turn() -> None:
    m = _team(
        [["scout", "scout", "soldier", "defender"], *TEAM_FILLER], ["scout", "scout", "angel"]
    )
    claim(m, 0, ["scout", "scout"], "scout", target=1)
    accept(m)
    assert m.state.cakes == (6, 3)
    m.apply(NO_TRADE, 0)
    settle(m)
    assert events(m, ExtraTurn) == [ExtraTurn(0)]
    assert m.to_act == (0,)
    m.apply(PASS, 0)
    assert m.to_act == (1,)  # the extra turn was one turn, then the order goes on


def test_several_oracles_give_one_extra_turn_and_one_look() -> None:
    m = _team(
        [["oracle", "oracle", "soldier", "defender"], *TEAM_FILLER], ["oracle", "oracle", "angel"]
    )
    claim(m, 0, ["oracle", "oracle"], "oracle", target=3)
    accept(m)
    m.apply(NO_TRADE, 0)
    settle(m)
    assert events(m, Looked) == [Looked(0, 3)]
    assert events(m, ExtraTurn) == [ExtraTurn(0)]
    hand = m.state.hands[3]
    assert sorted(m.view(0).glimpses[3]) == sorted(m.dealer.card(s) for s in hand)
    assert not set(hand) & set(m.view(0).known)  # re-mixed since: which slot is unknown
    assert 3 not in m.view(2).glimpses  # not even the teammate saw it
    assert not set(hand) & set(m.view(2).known)
    m.apply(PASS, 0)
    assert m.to_act == (1,)


def test_two_quartermasters_add_two() -> None:
    m = _team(
        [["quartermaster", "quartermaster", "soldier", "defender"], *TEAM_FILLER],
        ["quartermaster", "quartermaster", "angel"],
    )
    claim(m, 0, ["quartermaster", "quartermaster"], "quartermaster", target=1)
    accept(m)
    m.apply(NO_TRADE, 0)
    settle(m)
    assert m.state.hand_sizes == (6, 4, 4, 4)
    assert len(m.state.hands[0]) == 6


def test_two_summoners_name_twice() -> None:
    m = _team(
        [["summoner", "summoner", "soldier", "defender"], *TEAM_FILLER],
        ["summoner", "summoner", "angel"],
    )
    claim(m, 0, ["summoner", "summoner"], "summoner", target=3)
    accept(m)
    m.apply(Summon("soldier"), 0)
    settle(m)
    m.apply(Declare(0), 3)
    settle(m)
    assert m.state.phase is Phase.SUMMON and m.to_act == (0,)
    m.apply(Summon("wizard"), 0)
    settle(m)
    m.apply(Declare(4), 3)  # 8 cakes, but the other team has 5
    settle(m)
    assert events(m, Declared) == [Declared(3, "soldier", 0), Declared(3, "wizard", 4)]
    assert events(m, Stole) == [Stole(0, 3, 5)]
    assert events(m, BoutWon) == [BoutWon(0, "cakes", (1, 0))]


def test_one_scientist_against_two_summoners_leaves_one_theft() -> None:
    target = ["scientist", "wizard", "archer", "archer"]
    m = _team(
        [["summoner", "summoner", "soldier", "defender"], *TEAM_FILLER[:2], target],
        ["summoner", "summoner", "angel"],
    )
    claim(m, 0, ["summoner", "summoner"], "summoner", target=3)
    block(m, 3, ["scientist"], "scientist")
    accept(m)
    m.apply(Summon("wizard"), 0)
    settle(m)
    m.apply(Declare(1), 3)
    settle(m)
    assert m.state.cakes == (6, 3)
    m.apply(Summon("wizard"), 0)
    settle(m)
    # the second Summoner is blocked: it steals nothing, so no count is asked for
    assert m.state.cakes == (6, 3)
    assert events(m, Stole) == [Stole(0, 3, 2)]
    assert events(m, Declared) == [Declared(3, "wizard", 1)]
    assert m.state.phase is Phase.TRADE


def test_summoner_against_an_empty_hand_declares_nothing_by_itself() -> None:
    m = _duel(["summoner", "soldier", "wizard", "archer"], BOB, ["summoner", "angel"])
    burn(m, 7)  # the deck is empty; the Summoner, dealt first, is still in Alice's hand
    pass_turn(m)  # Bob
    assert m.state.deck == () and m.to_act == (0,)
    m.apply(Claim(m.state.hands[0][1:3], "soldier", 1), 0)
    m.apply(Block(m.state.hands[1][:2], "defender"), 1)
    accept(m)
    m.apply(Claim(m.state.hands[1], "soldier", 0), 1)
    accept(m)
    assert m.state.hands[1] == () and m.state.cakes == (1, 6)
    claim(m, 0, ["summoner"], "summoner")
    accept(m)
    m.apply(Summon("wizard"), 0)
    settle(m)
    assert events(m, Declared) == [Declared(1, "wizard", 0)]
    assert m.state.cakes == (1, 6)
    assert len(m.state.hands[0]) == 1
    # Bob has no cards and passes at once: Alice attacks again
    assert m.to_act == (0,)

"""B-Grade's drama deck: a standard 52-card deck per fight, 4-card hands, extra dice per card.

Rules (RULES.md ``bgrade``; the seed is cut off after "a hand of 4 cards"): each character
holds 4 cards and may play one on a roll: 2-10 give +1d, J/Q/K +2d, A +3d; a played card is
replaced from the deck.

Cards are ints 0..51: rank ``card // 4 + 2`` (11 J, 12 Q, 13 K, 14 A), suit ``card % 4``.
Suits change nothing; they only make the solo log read like a real deck.
"""

from __future__ import annotations

import random

from sim.core.draws import shuffle

HAND_SIZE = 4
RANK_NAMES = {11: "J", 12: "Q", 13: "K", 14: "A"}
SUITS = ("\u2663", "\u2666", "\u2665", "\u2660")  # clubs, diamonds, hearts, spades


def card_rank(card: int) -> int:
    """2..14 (14 = ace)."""
    return card // 4 + 2


def card_dice(card: int) -> int:
    """Extra dice a card gives: 2-10 +1d, J/Q/K +2d, A +3d."""
    rank = card // 4 + 2
    return 1 if rank <= 10 else 3 if rank == 14 else 2


# card_dice by card, for the hot paths (a card played, a card chosen)
_DICE_OF = tuple(card_dice(card) for card in range(52))


def card_name(card: int) -> str:
    """``Q♠``, ``10♦``."""
    rank = card // 4 + 2
    return RANK_NAMES.get(rank, str(rank)) + SUITS[card % 4]


class DramaDeck:
    """One fight's deck: the draw pile and the discards, shuffled with the encounter's RNG.

    Ruling "a deck for any number of fighters" (the seed is cut off after "a hand of 4
    cards"; 52 cards hold 13 hands): hands are dealt one card at a time around the table
    (``deal_round``), so with 14 fighters ten hold 4 cards and four hold 3, none 0; when
    the draw pile is empty, the discards are shuffled (with the same RNG) into a new draw
    pile; a played card is discarded after its replacement is drawn (never drawn straight
    back); with both empty a hand stays short until cards come back.
    """

    __slots__ = ("rng", "pile", "discards")

    def __init__(self, rng: random.Random, held: frozenset[int] = frozenset()):
        self.rng = rng
        self.pile = list(range(52))
        shuffle(rng, self.pile)
        if held:  # cards still in hands from the last fight of a campaign stay there
            self.pile = [card for card in self.pile if card not in held]
        self.discards: list[int] = []

    def draw(self) -> int | None:
        """The top card, reshuffling the discards first when the pile is empty."""
        if not self.pile:
            if not self.discards:
                return None
            self.pile, self.discards = self.discards, []
            shuffle(self.rng, self.pile)
        return self.pile.pop()

    def deal(self, hand: list[int]) -> None:
        """Fill ``hand`` up to ``HAND_SIZE`` cards (as far as cards last)."""
        need = HAND_SIZE - len(hand)
        pile = self.pile
        if 0 < need <= len(pile):  # the usual case: the top cards, one by one (as ``draw``)
            hand.extend(pile[:-need - 1:-1])
            del pile[-need:]
            return
        while len(hand) < HAND_SIZE:
            card = self.draw()
            if card is None:
                return
            hand.append(card)

    def deal_round(self, hands: list[list[int]]) -> None:
        """Fill every hand up to ``HAND_SIZE``, one card to each in turn (``DramaDeck``)."""
        if len(self.pile) >= sum(HAND_SIZE - len(h) for h in hands):  # enough for all
            for hand in hands:
                self.deal(hand)
            return
        short = [h for h in hands if len(h) < HAND_SIZE]
        while short:
            for hand in short:
                card = self.draw()
                if card is None:
                    return
                hand.append(card)
            short = [h for h in short if len(h) < HAND_SIZE]

    def play(self, hand: list[int], card: int) -> int:
        """Play ``card`` from ``hand``: draw its replacement, discard it; returns its dice."""
        hand.remove(card)
        self.deal(hand)
        self.discards.append(card)
        return _DICE_OF[card]


def choose_card(hand: list[int], dice: int, small_pool: int) -> int | None:
    """The card a spending AI plays on an attack roll of ``dice`` dice, or None.

    Ruling (AI): a played card is replaced at once, so playing one always adds dice; the only
    choice is which. With fewer than ``small_pool`` dice, where an extra die raises the
    chance of any set most, it plays its best card; with a bigger pool, its lowest, keeping
    aces and faces for the rolls that need them.
    """
    if not hand:
        return None
    if dice < small_pool:
        return max(hand, key=_DICE_OF.__getitem__)
    return min(hand, key=_DICE_OF.__getitem__)

"""The ledger of one hand: every payment, and the deltas they add up to."""

from __future__ import annotations

from typing import Any

from rules.hands import Outcome, Payment, PaymentReason, Settlement, WinOutcome
from rules.state import GameState


class Ledger:
    """Collects payments and the deltas they make, so that every point moved is listed."""

    def __init__(self, players: int) -> None:
        self.deltas = [0] * players
        self.payments: list[Payment] = []

    def pay(self, payer: int | None, payee: int | None, amount: int, reason: PaymentReason) -> None:
        if amount == 0:
            return
        if payer is not None:
            self.deltas[payer] -= amount
        if payee is not None:
            self.deltas[payee] += amount
        self.payments.append(Payment(payer=payer, payee=payee, amount=amount, reason=reason))

    def settlement(
        self, *, kind: Outcome, deposits_after: int, dealer_stays: bool, honba_after: int, **details: Any
    ) -> Settlement:
        return Settlement(
            kind=kind,
            deltas=tuple(self.deltas),
            payments=tuple(self.payments),
            deposits_after=deposits_after,
            dealer_stays=dealer_stays,
            honba_after=honba_after,
            **details,
        )

    def win_settlement(
        self, *, kind: Outcome, state: GameState, dealer_stays: bool, wins: tuple[WinOutcome, ...]
    ) -> Settlement:
        """After a win the sticks are taken and honba counts on only if the dealer stays."""
        return self.settlement(
            kind=kind,
            deposits_after=0,
            dealer_stays=dealer_stays,
            honba_after=state.honba + 1 if dealer_stays else 0,
            wins=wins,
        )

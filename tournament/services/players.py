"""One person, several records: merging two records of the same person, and undoing it.

A merge changes no game: every game stays with the record it was played, sealed and confirmed under (a
history names players by id). The merged record points to the kept one, and the person's career (their
events, games, statistics and rankings) is the kept record with every record merged into it
(``identity``). Each merge is kept (``PlayerMerge``) with who did it, and when it was undone.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from rules.errors import Problem, Refusal
from tournament.errors import Conflict
from tournament.models import Player, PlayerMerge, Registration
from tournament.selectors import findable_players
from tournament.users import RequestUser, account


def identity(player: Player) -> list[int]:
    """The ids of the records of ``player``'s person: the kept record first, then those merged into it. A merge
    is one level deep (``player_merge`` refuses to merge a record others were merged into, or into a merged
    one)."""
    root = Player.objects.filter(pk=player.pk).values_list("merged_into_id", flat=True).first() or player.pk
    return [root, *Player.objects.filter(merged_into_id=root).order_by("pk").values_list("pk", flat=True)]


def identity_q(player: Player, field: str = "player") -> Q:
    """Rows of ``field`` naming any record of the player's person, as one condition of the caller's query (no
    query of its own: the statistics stay at a constant number of queries)."""
    root = player.merged_into_id or player.pk
    return Q(**{f"{field}_id": root}) | Q(**{f"{field}__merged_into_id": root})


def player_merge(*, kept: Player, merged: Player, user: RequestUser | None) -> PlayerMerge:
    """Merge ``merged`` into ``kept``: refused (Refusal on ``into``) for the same record or records of
    different federation ids, and (Conflict) when both play in one event or either is merged already."""
    problems: list[Problem] = []
    if kept.pk == merged.pk:
        problems.append(Problem("into", "a record cannot be merged into itself"))
    if kept.federation_id and merged.federation_id and kept.federation_id != merged.federation_id:
        problems.append(
            Problem(
                "into",
                f"the records have different federation ids ({merged.federation_id} and "
                f"{kept.federation_id}): they are two people",
            )
        )
    if problems:
        raise Refusal(problems)
    with transaction.atomic():
        kept, merged = (Player.objects.select_for_update().get(pk=p.pk) for p in (kept, merged))
        if merged.merged_into_id is not None or kept.merged_into_id is not None:
            raise Conflict.one(
                "into",
                "one of the records is merged already: merge into the record it was "
                "merged into, or undo that merge first",
            )
        if Player.objects.filter(merged_into=merged).exists():
            raise Conflict.one("into", f"records were merged into {merged.name}: merge {kept.name} into it instead")
        both = (
            Registration.objects.filter(player=kept)
            .values("event")
            .intersection(Registration.objects.filter(player=merged).values("event"))
        )
        if both.exists():
            raise Conflict.one("into", "both records play in one event: they are two people there")
        merged.merged_into = kept
        merged.save(update_fields=["merged_into"])
        return PlayerMerge.objects.create(kept=kept, merged=merged, by=account(user))


def player_unmerge(*, merged: Player, user: RequestUser | None) -> PlayerMerge:
    """Undo the merge of ``merged``: its games are its own again (they never moved). Conflict if not merged."""
    with transaction.atomic():
        merged = Player.objects.select_for_update().get(pk=merged.pk)
        if merged.merged_into_id is None:
            raise Conflict.one("player", f"{merged.name} is not merged into another record")
        merge = PlayerMerge.objects.filter(merged=merged, undone_at__isnull=True).order_by("-at", "-id").first()
        if merge is None:  # merged before merges were kept: keep this one
            merge = PlayerMerge.objects.create(kept_id=merged.merged_into_id, merged=merged)
        merge.undone_at, merge.undone_by = timezone.now(), account(user)
        merge.save(update_fields=["undone_at", "undone_by"])
        merged.merged_into = None
        merged.save(update_fields=["merged_into"])
        return merge


def may_merge(user: RequestUser, *players: Player) -> bool:
    """Staff, or an organiser of an event one of the records plays in who may find both (findable_players)."""
    if not user.is_authenticated:
        return False
    if user.is_staff:
        return True
    findable = findable_players(user).filter(pk__in=[p.pk for p in players]).count() == len(set(players))
    organised = Registration.objects.filter(player__in=players, event__organisers=user).exists()
    return findable and organised


def same_person_candidates(player: Player, user: RequestUser, limit: int = 10) -> list[Player]:
    """Other records the user may see that look like the same person: the same name (case and spaces aside) or
    the same federation id, not playing in an event with this one and not merged already."""
    name = " ".join(player.name.split())
    alike = Q(name__iexact=name) | (Q(federation_id=player.federation_id) if player.federation_id else Q(pk__in=[]))
    together = Registration.objects.filter(player=player).values("event")
    return list(
        findable_players(user)
        .filter(alike, merged_into__isnull=True)
        .exclude(pk=player.pk)
        .exclude(registrations__event__in=together)
        .distinct()
        .order_by("pk")[:limit]
    )


def may_unmerge(user: RequestUser, merged: Player) -> bool:
    """Who may merge the two records (``may_merge``) may undo their merge."""
    kept = Player.objects.filter(pk=merged.merged_into_id).first() if merged.merged_into_id else None
    return may_merge(user, *([merged, kept] if kept is not None else [merged]))

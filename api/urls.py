"""The API's paths under /api/v1/."""

from django.urls import URLPattern, URLResolver, include, path
from rest_framework.routers import DefaultRouter

from api.views import auth, codes, events, games, online, players, rankings, seating, stages, stats, teams

router = DefaultRouter()
router.register("events", events.EventViewSet, basename="event")
router.register("rulesets", events.RulesetViewSet, basename="ruleset")

urlpatterns: list[URLPattern | URLResolver] = [
    path("auth/token/", auth.AuthTokenView.as_view(), name="auth-token"),
    path("events/<slug:slug>/players/", events.EventPlayersView.as_view(), name="event-players"),
    path("events/<slug:slug>/players/<id:player_id>/code", codes.PlayerCodeView.as_view(), name="player-code"),
    path("events/<slug:slug>/rounds/", events.EventRoundsView.as_view(), name="event-rounds"),
    path("events/<slug:slug>/rounds/<id:number>/seating", seating.RoundSeatingView.as_view(), name="round-seating"),
    path(
        "events/<slug:slug>/rounds/<id:number>/seating/preview",
        seating.RoundSeatingPreviewView.as_view(),
        name="round-seating-preview",
    ),
    path("events/<slug:slug>/games/import", online.GameImportView.as_view(), name="event-games-import"),
    path("events/<slug:slug>/schedule", seating.EventScheduleView.as_view(), name="event-schedule"),
    path("events/<slug:slug>/stages/", stages.StagesView.as_view(), name="event-stages"),
    path("events/<slug:slug>/stages/<id:number>/", stages.StageView.as_view(), name="event-stage"),
    path("events/<slug:slug>/stages/<id:number>/cut", stages.StageCutView.as_view(), name="event-stage-cut"),
    path("events/<slug:slug>/teams/", teams.TeamsView.as_view(), name="event-teams"),
    path("events/<slug:slug>/teams/<id:team_id>/", teams.TeamView.as_view(), name="event-team"),
    path("events/<slug:slug>/rounds/<id:number>/lineups", teams.RoundLineupsView.as_view(), name="round-lineups"),
    path("events/<slug:slug>/standings/", events.StandingsView.as_view(), name="event-standings"),
    path("players/<id:player_id>/merge", players.PlayerMergeView.as_view(), name="player-merge"),
    path("rankings/", rankings.RankingsView.as_view(), name="api-rankings"),
    path("rankings/<str:key>/", rankings.RankingView.as_view(), name="api-ranking"),
    path("events/<slug:slug>/leaderboards/", stats.EventLeaderboardsView.as_view(), name="event-leaderboards"),
    path("players/<id:player_id>/stats/", stats.PlayerStatsView.as_view(), name="player-stats"),
    path("games/", games.GamesView.as_view(), name="games"),
    path("games/<id:game_id>/", games.GameView.as_view(), name="api-game"),
    path("games/<id:game_id>/hands/", games.GameHandsView.as_view(), name="game-hands"),
    path("games/<id:game_id>/hands/<id:index>/", games.GameHandView.as_view(), name="game-hand"),
    path("games/<id:game_id>/sheet", games.GameSheetView.as_view(), name="game-sheet"),
    path("games/<id:game_id>/history/", games.GameHistoryView.as_view(), name="game-history"),
    path("", include(router.urls)),
]

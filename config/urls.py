"""URL wiring: the public pages and referee entry, the admin, the REST API under /api/v1/ and its OpenAPI docs."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import URLPattern, URLResolver, include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView
from rest_framework.routers import DefaultRouter

from scoring import api as scoring_api
from scoring import entry, views
from tournament import api as tournament_api

router = DefaultRouter()
router.register("events", tournament_api.EventViewSet, basename="event")
router.register("rulesets", tournament_api.RulesetViewSet, basename="ruleset")

api: list[URLPattern | URLResolver] = [
    path("events/<slug:slug>/players/", tournament_api.EventPlayersView.as_view(), name="event-players"),
    path("events/<slug:slug>/rounds/", tournament_api.EventRoundsView.as_view(), name="event-rounds"),
    path("events/<slug:slug>/rounds/<int:number>/seating", scoring_api.RoundSeatingView.as_view(),
         name="round-seating"),
    path("events/<slug:slug>/schedule", scoring_api.EventScheduleView.as_view(), name="event-schedule"),
    path("events/<slug:slug>/standings/", scoring_api.StandingsView.as_view(), name="event-standings"),
    path("games/", scoring_api.GamesView.as_view(), name="games"),
    path("games/<int:game_id>/", scoring_api.GameView.as_view(), name="api-game"),
    path("games/<int:game_id>/hands/", scoring_api.GameHandsView.as_view(), name="game-hands"),
    path("games/<int:game_id>/hands/<int:index>/", scoring_api.GameHandView.as_view(), name="game-hand"),
    path("games/<int:game_id>/sheet", scoring_api.GameSheetView.as_view(), name="game-sheet"),
    path("games/<int:game_id>/history/", scoring_api.GameHistoryView.as_view(), name="game-history"),
    path("", include(router.urls)),
]

pages: list[URLPattern | URLResolver] = [
    path("", views.home, name="home"),
    path("events/<slug:slug>/", views.event_page, name="event"),
    path("events/<slug:slug>/standings/", views.standings_page, name="standings"),
    path("events/<slug:slug>/standings.csv", views.standings_csv, name="standings-csv"),
    path("events/<slug:slug>/results.csv", views.results_csv, name="results-csv"),
    path("events/<slug:slug>/rounds/<int:number>/", views.round_page, name="round"),
    path("events/<slug:slug>/rounds/<int:number>/print/", views.round_print, name="round-print"),
    path("events/<slug:slug>/players/<int:player_id>/", views.player_page, name="player"),
    path("games/<int:game_id>/", views.game_page, name="game"),
    path("games/<int:game_id>/entry/", entry.entry_page, name="game-entry"),
]

urlpatterns = [
    *pages,
    path("i18n/", include("django.conf.urls.i18n")),
    # Referees sign in here (the admin's login takes staff only).
    path("accounts/login/", auth_views.LoginView.as_view(template_name="pages/login.html"), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("admin/", admin.site.urls),
    path("api/v1/", include(api)),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="docs"),
]

"""The pages' paths: public pages, CSV and print views, the referee's entry."""

from django.urls import URLPattern, URLResolver, path

from web.views import confirm, entry, pages

urlpatterns: list[URLPattern | URLResolver] = [
    path("", pages.home, name="home"),
    path("language/", pages.language, name="language"),
    path("sw.js", pages.service_worker, name="service-worker"),
    path("events/<slug:slug>/", pages.event_page, name="event"),
    path("events/<slug:slug>/standings/", pages.standings_page, name="standings"),
    path("events/<slug:slug>/standings.csv", pages.standings_csv, name="standings-csv"),
    path("events/<slug:slug>/results.csv", pages.results_csv, name="results-csv"),
    path("events/<slug:slug>/rounds/<int:number>/", pages.round_page, name="round"),
    path("events/<slug:slug>/rounds/<int:number>/print/", pages.round_print, name="round-print"),
    path("events/<slug:slug>/players/<int:player_id>/", pages.player_page, name="player"),
    path("games/<int:game_id>/", pages.game_page, name="game"),
    path("games/<int:game_id>/entry/", entry.entry_page, name="game-entry"),
    path("games/<int:game_id>/confirm/", confirm.confirm_page, name="game-confirm"),
    path("events/<slug:slug>/codes/", confirm.codes_page, name="event-codes"),
]

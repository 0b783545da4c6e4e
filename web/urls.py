"""The pages' paths: public pages, CSV and print views, the referee's entry."""

from django.urls import URLPattern, URLResolver, path

from web.views import confirm, console, console_games, console_players, console_rounds, entry, pages, table_code

urlpatterns: list[URLPattern | URLResolver] = [
    path("", pages.home, name="home"),
    path("language/", pages.language, name="language"),
    path("sw.js", pages.service_worker, name="service-worker"),
    path("events/new/", console.event_new, name="event-new"),  # before the event pages: "new" is a slug too
    path("events/<slug:slug>/", pages.event_page, name="event"),
    path("events/<slug:slug>/standings/", pages.standings_page, name="standings"),
    path("events/<slug:slug>/standings.csv", pages.standings_csv, name="standings-csv"),
    path("events/<slug:slug>/results.csv", pages.results_csv, name="results-csv"),
    path("events/<slug:slug>/rounds/<int:number>/", pages.round_page, name="round"),
    path("events/<slug:slug>/rounds/<int:number>/print/", pages.round_print, name="round-print"),
    path("events/<slug:slug>/players/<int:player_id>/", pages.player_page, name="player"),
    path("games/<int:game_id>/", pages.game_page, name="game"),
    path("games/<int:game_id>/entry/", entry.entry_page, name="game-entry"),
    path("games/<int:game_id>/code/", table_code.table_code_page, name="game-code"),
    path("games/<int:game_id>/scores/", console_games.game_scores, name="game-scores"),
    path("games/<int:game_id>/confirm/", confirm.confirm_page, name="game-confirm"),
    path("events/<slug:slug>/codes/", confirm.codes_page, name="event-codes"),
    # The organiser's console.
    path("me/", console.my_events, name="my-events"),
    path("events/<slug:slug>/manage/", console.console_home, name="console"),
    path("events/<slug:slug>/manage/settings/", console.event_settings, name="console-settings"),
    path("events/<slug:slug>/manage/publish/", console.event_publish, name="console-publish"),
    path("events/<slug:slug>/manage/referees/", console.referee_invite, name="console-invite"),
    path("events/<slug:slug>/referee/<str:invite>/", console.referee_join, name="referee-join"),
    path("events/<slug:slug>/manage/players/", console_players.players, name="console-players"),
    path("events/<slug:slug>/manage/players/<int:player_id>/", console_players.player_edit,
         name="console-player"),
    path("events/<slug:slug>/manage/players/<int:player_id>/withdraw/", console_players.player_withdraw,
         name="console-withdraw"),
    path("events/<slug:slug>/games/new/", console_games.game_by_scores, name="game-by-scores"),
    path("events/<slug:slug>/manage/rounds/", console_rounds.round_new, name="console-round-new"),
    path("events/<slug:slug>/manage/rounds/<int:number>/", console_rounds.round_page, name="console-round"),
    path("events/<slug:slug>/manage/rounds/<int:number>/unseat/", console_rounds.round_unseat,
         name="console-unseat"),
    path("events/<slug:slug>/manage/rounds/<int:number>/clock/", console_rounds.round_clock, name="console-clock"),
    path("events/<slug:slug>/manage/rounds/<int:number>/end/", console_rounds.round_end, name="console-end"),
    path("events/<slug:slug>/manage/rounds/<int:number>/reopen/", console_rounds.round_reopen,
         name="console-reopen"),
    path("events/<slug:slug>/manage/rounds/<int:number>/substitute/", console_rounds.round_substitute,
         name="console-substitute"),
    path("events/<slug:slug>/manage/rounds/<int:number>/codes/", console_rounds.round_codes, name="console-codes"),
    path("events/<slug:slug>/manage/rounds/<int:number>/cards/", console_rounds.round_cards, name="console-cards"),
]

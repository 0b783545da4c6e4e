"""The pages' paths: public pages, CSV and print views, the referee's entry."""

from django.urls import URLPattern, URLResolver, path

from web.views import (
    accounts,
    confirm,
    console,
    console_games,
    console_players,
    console_rounds,
    console_stages,
    entry,
    live,
    pages,
    rankings,
    stats_pages,
    table_code,
    teams,
)

urlpatterns: list[URLPattern | URLResolver] = [
    path("", pages.home, name="home"),
    path("language/", pages.language, name="language"),
    path("sw.js", pages.service_worker, name="service-worker"),
    path("events/new/", console.event_new, name="event-new"),  # before the event pages: "new" is a slug too
    path("events/<slug:slug>/", pages.event_page, name="event"),
    path("events/<slug:slug>/standings/", pages.standings_page, name="standings"),
    path("events/<slug:slug>/standings.csv", pages.standings_csv, name="standings-csv"),
    path("events/<slug:slug>/results.csv", pages.results_csv, name="results-csv"),
    path("events/<slug:slug>/rounds/<id:number>/", pages.round_page, name="round"),
    path("events/<slug:slug>/rounds/<id:number>/print/", pages.round_print, name="round-print"),
    path("events/<slug:slug>/players/<id:player_id>/", pages.player_page, name="player"),
    path("events/<slug:slug>/stages/", pages.stages_page, name="stages"),
    path("events/<slug:slug>/live/", live.live_state, name="live"),
    path("events/<slug:slug>/projector/", live.projector, name="projector"),
    path("rankings/", rankings.rankings_page, name="rankings"),
    path("rankings/<str:key>/", rankings.ranking_page, name="ranking"),
    path("events/<slug:slug>/leaderboards/", stats_pages.leaderboards_page, name="leaderboards"),
    path("events/<slug:slug>/leaderboards.csv", stats_pages.leaderboards_csv_view, name="leaderboards-csv"),
    path("players/<id:player_id>/", stats_pages.career_page, name="career"),
    path("games/<id:game_id>/", pages.game_page, name="game"),
    path("games/<id:game_id>/entry/", entry.entry_page, name="game-entry"),
    path("games/<id:game_id>/overlay/", live.overlay, name="game-overlay"),
    path("games/<id:game_id>/code/", table_code.table_code_page, name="game-code"),
    path("games/<id:game_id>/scores/", console_games.game_scores, name="game-scores"),
    path("games/<id:game_id>/confirm/", confirm.confirm_page, name="game-confirm"),
    path("events/<slug:slug>/codes/", confirm.codes_page, name="event-codes"),
    path("confirm/", confirm.confirm_open, name="confirm-open"),
    # The organiser's console.
    path("me/", console.my_events, name="my-events"),
    path("me/claim/", accounts.claim, name="claim"),
    path("events/<slug:slug>/manage/", console.console_home, name="console"),
    path("events/<slug:slug>/manage/settings/", console.event_settings, name="console-settings"),
    path("events/<slug:slug>/manage/publish/", console.event_publish, name="console-publish"),
    path("events/<slug:slug>/manage/referees/", console.referee_invite, name="console-invite"),
    path(
        "events/<slug:slug>/manage/referees/<id:user_id>/remove/", console.referee_remove, name="console-referee-remove"
    ),
    path("events/<slug:slug>/manage/organisers/", console.organiser_invite, name="console-organiser-invite"),
    path("events/<slug:slug>/referee/<str:invite>/", accounts.referee_join, name="referee-join"),
    path("events/<slug:slug>/organise/<str:invite>/", accounts.organiser_join, name="organiser-join"),
    path("events/<slug:slug>/manage/players/", console_players.players, name="console-players"),
    path("events/<slug:slug>/manage/players/<id:player_id>/", console_players.player_edit, name="console-player"),
    path(
        "events/<slug:slug>/manage/players/<id:player_id>/merge/",
        console_players.player_merge_view,
        name="console-player-merge",
    ),
    path(
        "events/<slug:slug>/manage/players/<id:player_id>/withdraw/",
        console_players.player_withdraw,
        name="console-withdraw",
    ),
    path(
        "events/<slug:slug>/manage/players/<id:player_id>/code/",
        console_players.player_code_new,
        name="console-player-code",
    ),
    path("events/<slug:slug>/games/new/", console_games.game_by_scores, name="game-by-scores"),
    path("events/<slug:slug>/manage/stages/", console_stages.stages, name="console-stages"),
    path("events/<slug:slug>/manage/stages/<id:number>/", console_stages.stage_edit, name="console-stage"),
    path(
        "events/<slug:slug>/manage/stages/<id:number>/delete/", console_stages.stage_delete, name="console-stage-delete"
    ),
    path("events/<slug:slug>/manage/stages/<id:number>/cut/", console_stages.stage_cut, name="console-cut"),
    path(
        "events/<slug:slug>/manage/stages/<id:number>/cut/undo/", console_stages.stage_cut_undo, name="console-cut-undo"
    ),
    path("events/<slug:slug>/manage/rounds/", console_rounds.round_new, name="console-round-new"),
    path("events/<slug:slug>/manage/rounds/<id:number>/", console_rounds.round_page, name="console-round"),
    path("events/<slug:slug>/manage/rounds/<id:number>/unseat/", console_rounds.round_unseat, name="console-unseat"),
    path("events/<slug:slug>/manage/rounds/<id:number>/clock/", console_rounds.round_clock, name="console-clock"),
    path("events/<slug:slug>/manage/rounds/<id:number>/end/", console_rounds.round_end, name="console-end"),
    path("events/<slug:slug>/manage/rounds/<id:number>/reopen/", console_rounds.round_reopen, name="console-reopen"),
    path(
        "events/<slug:slug>/manage/rounds/<id:number>/substitute/",
        console_rounds.round_substitute,
        name="console-substitute",
    ),
    path("events/<slug:slug>/manage/rounds/<id:number>/codes/", console_rounds.round_codes, name="console-codes"),
    path("events/<slug:slug>/manage/rounds/<id:number>/cards/", console_rounds.round_cards, name="console-cards"),
    # A team league's teams, their lineups and captains.
    path("events/<slug:slug>/teams/", teams.teams_page, name="teams"),
    path("events/<slug:slug>/teams/<id:team_id>/", teams.team_page, name="team"),
    path("events/<slug:slug>/rounds/<id:number>/lineup/", teams.round_lineup, name="round-lineup"),
    path("events/<slug:slug>/manage/teams/<id:team_id>/captain/", teams.team_captain, name="console-captain"),
]

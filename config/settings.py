"""Settings: everything that differs between machines comes from the environment.

The defaults run the product on a bare machine (SQLite file, Celery eager, local-memory cache);
DATABASE_URL, CELERY_BROKER_URL and CACHE_URL switch to the real PostgreSQL and Redis. The defaults are
also safe to serve: DEBUG is off unless DEBUG=1, and serving refuses the public development SECRET_KEY
(config.deploy). Every variable is read through the typed helpers of config.env, which fail on a value they
cannot read. docs/deployment.md lists them.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import django_stubs_ext

from config.deploy import DEVELOPMENT_SECRET_KEY
from config.env import (
    cache_apart_from_broker,
    cache_from_url,
    database_from_url,
    email_settings,
    env_bool,
    env_choice,
    env_int,
    env_list,
    env_rate,
    env_str,
)

# Lets the admin and DRF generics be subscripted at run time, as the type checker sees them.
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent

SECRET_KEY = env_str("SECRET_KEY", DEVELOPMENT_SECRET_KEY)
# Older SECRET_KEYs, newest first: sessions and links they signed stay valid, and history they sealed verifies.
SECRET_KEY_FALLBACKS = env_list("SECRET_KEY_FALLBACKS")
# The key that seals each history entry (scoring.services.history_keys); by default one derived from SECRET_KEY.
# A key of its own lets SECRET_KEY rotate without touching the history; retired ones go to HISTORY_OLD_KEYS.
HISTORY_KEY = env_str("HISTORY_KEY")
HISTORY_OLD_KEYS = env_list("HISTORY_OLD_KEYS")
# Off unless asked for: a traceback page for every visitor is the worst default. `make run` sets DEBUG=1.
DEBUG = env_bool("DEBUG")
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]")
# The https:// origins the forms are posted from when a proxy terminates TLS (https://mahjong.example.org).
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

# SECURE_HTTPS=1 only behind a proxy that terminates TLS and sets X-Forwarded-Proto itself: on plain HTTP a
# client could send that header and pass for HTTPS.
SECURE_HTTPS = env_bool("SECURE_HTTPS")
if SECURE_HTTPS:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = True
    # Health probes (the proxy's, compose's) speak plain HTTP to the application.
    SECURE_REDIRECT_EXEMPT = [r"^health/$"]
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 365 * 24 * 3600)
    # Opt-in, both: subdomains would bind every site under the host's domain to HTTPS for a year, and a
    # preload list entry outlives the deployment by months. Only the owner of the whole domain can say yes.
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS")
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD")
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True

INSTALLED_APPS = [
    # First, so that its runserver (which refuses the development SECRET_KEY with DEBUG off) is the one run.
    "config.apps.ProjectConfig",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    # Swagger UI's files served from here, not from a CDN: /api/docs/ works without internet.
    "drf_spectacular_sidecar",
    "axes",
    "tournament",
    "scoring",
    "web",
]

MIDDLEWARE = [
    # First: it times and logs every request, and tags each log line of it with the request id.
    "config.middleware.RequestIdMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "config.csp.ContentSecurityPolicyMiddleware",
    # Static files with DEBUG off, from STATIC_ROOT (collectstatic), before sessions and the rest.
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last: turns a login refused by axes into its lockout answer.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
            ],
        },
    },
]

WSGI_APPLICATION = "config.wsgi.application"

DATABASES = {
    "default": database_from_url(
        env_str("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"), conn_max_age=env_int("CONN_MAX_AGE", 60)
    )
}
# Redis when CACHE_URL is set, shared by every web process and worker; local memory otherwise.
# "pages": each process's own memory of the anonymous standings page (web/shared_pages.py), kept this many
# seconds (0: not at all) so that a burst of readers costs no database and no Redis.
PAGE_MICROCACHE_SECONDS = env_int("PAGE_MICROCACHE_SECONDS", 1)
CACHES = {
    "default": cache_from_url(env_str("CACHE_URL")),
    "pages": {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": "pages",
        "TIMEOUT": PAGE_MICROCACHE_SECONDS,
        "OPTIONS": {"MAX_ENTRIES": 200},  # a page per sort, stage and language of a few events
    },
}

# Login attempts (django-axes): the admin's and the referees' login forms and the API token endpoint all go
# through authenticate(), which axes' backend guards. Counted per username, in the database, so every
# process and machine sees the same count.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", 10)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("LOGIN_LOCKOUT_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = ["username"]
AXES_USERNAME_CALLABLE = "config.throttles.login_username"
# axes.W006 wants the address counted too. Not here: a venue's referees share one address (NAT, or the
# proxy's), and their typos together would lock everyone out; a username's count is not dodged by
# changing address or browser, which is what the warning is about.
SILENCED_SYSTEM_CHECKS = ["axes.W006"]
# Django's deploy check asks for HSTS subdomains (W005) and preload (W021); here they are the domain owner's
# choice (above), so their absence is not a finding.
if SECURE_HTTPS and not SECURE_HSTS_INCLUDE_SUBDOMAINS:
    SILENCED_SYSTEM_CHECKS.append("security.W005")
if SECURE_HTTPS and not SECURE_HSTS_PRELOAD:
    SILENCED_SYSTEM_CHECKS.append("security.W021")
# The lockout ends when the window has passed, however often the locked username is tried meanwhile.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_RESET_ON_SUCCESS = True

# Codes people type (table and confirmation codes, scoring.services.codes): wrong ones are rows in the database,
# counted against the browser (its session, else its address) that sent them and, over an hour, against the code.
# The right code is accepted whatever the counts say; docs/records.md "Codes" says why the codes are long enough.
CODE_FAILURE_LIMIT = env_int("CODE_FAILURE_LIMIT", 10)
CODE_FAILURE_WINDOW = timedelta(minutes=env_int("CODE_FAILURE_MINUTES", 15))
CODE_FAILURE_CEILING = env_int("CODE_FAILURE_CEILING", 60)  # wrong tries an hour at one code, from everyone

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
# The founding rule documents are Korean; riichi's home is Japan and MCR's is China: each reads its own.
LANGUAGES = [("en", "English"), ("ko", "한국어"), ("ja", "日本語"), ("zh-hans", "简体中文")]
LOCALE_PATHS = [BASE_DIR / "config" / "locale"]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "my-events"  # without a next page: my events and tables, not Django's /accounts/profile/
LOGOUT_REDIRECT_URL = "home"
TIME_ZONE = env_str("TIME_ZONE", "UTC")

# E-mail, for password resets: SMTP from the environment (config.env.email_settings), else the console.
_EMAIL = email_settings()
EMAIL_BACKEND = _EMAIL["EMAIL_BACKEND"]
EMAIL_HOST, EMAIL_PORT = _EMAIL["EMAIL_HOST"], _EMAIL["EMAIL_PORT"]
EMAIL_HOST_USER, EMAIL_HOST_PASSWORD = _EMAIL["EMAIL_HOST_USER"], _EMAIL["EMAIL_HOST_PASSWORD"]
EMAIL_USE_TLS, EMAIL_USE_SSL = _EMAIL["EMAIL_USE_TLS"], _EMAIL["EMAIL_USE_SSL"]
EMAIL_TIMEOUT = 10  # a dead mail server costs the reset page seconds, not minutes
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "webmaster@localhost")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(env_str("STATIC_ROOT", str(BASE_DIR / "staticfiles")))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # collectstatic writes compressed copies under names with the content's hash, which WhiteNoise serves as
    # immutable; before it has run (the tests, the quick start) pages name the plain files (config.storage).
    "staticfiles": {"BACKEND": "config.storage.HashedStaticFiles"},
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Celery: without a broker every task runs in-process, so the product works
# with nothing else installed; a broker URL turns on real workers.
_BROKER = env_str("CELERY_BROKER_URL")
cache_apart_from_broker(env_str("CACHE_URL"), _BROKER)
CELERY_TASK_ALWAYS_EAGER = not _BROKER
# Run eagerly, a task still takes a producer from Celery's pool: the in-memory transport (never used) spares
# it kombu's warning about a broker without a host.
CELERY_BROKER_URL = _BROKER or "memory://localhost/"
# None by default: the web side never reads a task's result, and a result backend makes every .delay()
# subscribe to it first (with a dead Redis, 20 retries: the 19 s hang of issue 11).
CELERY_RESULT_BACKEND = env_str("CELERY_RESULT_BACKEND") or None
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
# A dead broker fails a .delay() within about 2 s instead of hanging the request: short socket timeouts,
# one immediate publish retry (a pooled connection that Redis dropped), never kombu's default backoff.
BROKER_TIMEOUT = 2
CELERY_BROKER_CONNECTION_TIMEOUT = BROKER_TIMEOUT
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "socket_timeout": BROKER_TIMEOUT,
    "socket_connect_timeout": BROKER_TIMEOUT,
    "max_retries": 1,
}
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 1, "interval_start": 0, "interval_step": 0, "interval_max": 0}
# A result backend, when one is configured, is asked first (it connects twice): half the time each.
CELERY_REDIS_SOCKET_TIMEOUT = BROKER_TIMEOUT / 2
CELERY_REDIS_SOCKET_CONNECT_TIMEOUT = BROKER_TIMEOUT / 2
CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS = {"retry_policy": {"max_retries": 0}}
# A worker keeps trying to reach the broker when it starts (it may start before Redis).
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# The worker logs through LOGGING below (standard output, with the web's format), not its own setup.
CELERY_WORKER_HIJACK_ROOT_LOGGER = False

# Who may create events, in the console and the API: "anyone" signed in, or "organisers", the users holding the
# permission tournament.add_event (superusers, and whoever the admin gives it, directly or through a group).
EVENT_CREATORS = env_choice("EVENT_CREATORS", "anyone", ("anyone", "organisers"))

# The shared rule documents live beside the checkout; tests and tools read them.
SHARED_DIR = Path(env_str("SHARED_DIR", str(BASE_DIR.parent / "shared")))

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_PAGINATION_CLASS": "api.pagination.Pages",
    "EXCEPTION_HANDLER": "api.errors.exception_handler",
    # Anonymous reads only (writes need a login), per client address; generous, so a venue's spectators
    # behind one address are not refused. API_ANON_READ_RATE=off switches it off.
    "DEFAULT_THROTTLE_CLASSES": ["config.throttles.AnonReadThrottle"],
    "DEFAULT_THROTTLE_RATES": {"anon_read": env_rate("API_ANON_READ_RATE", "3000/minute")},
    # The client address is the last one a proxy added to X-Forwarded-For (NUM_PROXIES proxies in front);
    # with none, the connection's own address: a client's own X-Forwarded-For must not dodge the throttle.
    "NUM_PROXIES": env_int("NUM_PROXIES", 1 if SECURE_HTTPS else 0),
    # JSON only, within the document limits (nesting, NUL, surrogates, number sizes) and DATA_UPLOAD_MAX_MEMORY_SIZE.
    "DEFAULT_PARSER_CLASSES": ["api.parsers.StrictJSONParser"],
    "DEFAULT_METADATA_CLASS": "api.metadata.SchemaMetadata",
}
# The largest request body (API and forms): a 300-hand sheet is about 60 KB.
DATA_UPLOAD_MAX_MEMORY_SIZE = 2 * 1024 * 1024
SPECTACULAR_SETTINGS = {
    "TITLE": "Mahjong tournament manager API",
    "DESCRIPTION": "Events, players, games and hands (score-sheet records), standings, rulesets.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # config.converters.RowId: a row's number, as the schema declares it (and the fuzzer generates it).
    "PATH_CONVERTER_OVERRIDES": {"id": {"type": "integer", "minimum": 0, "maximum": 10**18 - 1}},
    # A ranking's kind (mers, tenhou, elo) is not an event's kind (tournament, league).
    "ENUM_NAME_OVERRIDES": {"RankingKindEnum": "api.serializers.rankings.KINDS"},
}

# Logs go to standard output, one line per record, for the process manager or the container runtime to keep:
# a line per request (config.middleware), every 5xx with its traceback (django.request), warnings of the
# rest. Each line carries the request id that the response's X-Request-ID header shows.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"request_id": {"()": "config.middleware.RequestIdFilter"}},
    "formatters": {"line": {"format": "%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s"}},
    "handlers": {
        "stdout": {
            "class": "logging.StreamHandler",
            "stream": "ext://sys.stdout",
            "formatter": "line",
            "filters": ["request_id"],
        },
    },
    "root": {"handlers": ["stdout"], "level": env_str("LOG_LEVEL", "INFO").upper()},
    "loggers": {
        # Through the root's handler only (Django's default adds a console handler under DEBUG: twice).
        "django": {"handlers": [], "level": "INFO"},
        # A 4xx is in the request line already; what stays here is the 5xx with its traceback.
        "django.request": {"handlers": [], "level": "ERROR"},
        # runserver's own request lines repeat the middleware's.
        "django.server": {"handlers": [], "level": "ERROR"},
        "axes": {"handlers": [], "level": "WARNING"},
        # A worker's line per task is worth keeping; run eagerly, inside each write, it is noise.
        "celery.app.trace": {"handlers": [], "level": "WARNING" if CELERY_TASK_ALWAYS_EAGER else "INFO"},
    },
}

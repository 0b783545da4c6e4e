"""The WSGI application, for gunicorn (``gunicorn config.wsgi``) and ``runserver``.

Serving refuses the public development SECRET_KEY unless DEBUG is on (config.deploy).
"""

import os

from django.core.wsgi import get_wsgi_application

from config.deploy import require_secret_key

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

require_secret_key()
application = get_wsgi_application()

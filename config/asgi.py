"""The ASGI application (``uvicorn config.asgi:application`` or any ASGI server).

Serving refuses the public development SECRET_KEY unless DEBUG is on (config.deploy).
"""

import os

from django.core.asgi import get_asgi_application

from config.deploy import require_secret_key

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

require_secret_key()
application = get_asgi_application()

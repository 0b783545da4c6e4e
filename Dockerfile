# The application's image, for compose.yaml's web, worker and migrate services (docs/deployment.md).
FROM python:3.11-slim

# g++ builds pymahjonggb (published as source only); gettext compiles the Korean catalogue.
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends g++ gettext \
    && rm -rf /var/lib/apt/lists/*

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /app
COPY requirements.txt .
RUN pip install --no-cache-dir -r requirements.txt
COPY . .

# Both are offline commands: they need neither a SECRET_KEY nor a database.
RUN python manage.py compilemessages --ignore=.venv --verbosity 0 \
    && python manage.py collectstatic --no-input --verbosity 0

# The processes run as a user of their own; the code and static files stay root's, read-only to them.
RUN useradd --system --no-create-home mahjong
USER mahjong
EXPOSE 8000
CMD ["gunicorn", "config.wsgi", "--bind", "0.0.0.0:8000", "--workers", "4"]

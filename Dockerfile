# sheets-sync's server for a host: the web app (and, with another command, its workers).
# compose.yaml runs it with PostgreSQL and Redis; on a club's own computer `pipx install
# sheets-sync` and `sheets-sync server --data DIR` need none of this.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    SHEETS_SYNC_DATA=/data

WORKDIR /app
COPY pyproject.toml README.md ./
COPY scoring ./scoring
COPY sheets_sync ./sheets_sync
COPY config ./config
COPY templates ./templates
COPY schemas ./schemas
RUN pip install --no-cache-dir '.[scale]' \
    && useradd --system --home-dir /data --shell /usr/sbin/nologin sheets \
    && mkdir -p /data && chown sheets /data

USER sheets
VOLUME /data
EXPOSE 8000
# the web app alone; the workers run `sheets-sync worker --data /data` (compose.yaml)
CMD ["sheets-sync", "server", "--data", "/data", "--host", "0.0.0.0", "--port", "8000", "--no-worker"]

# The service as deployed: it talks to the PostgreSQL named by DATABASE_URL. In
# docker-compose.yml the same image also runs the one-off migration step, as the database's
# owner, before the service starts as a login granted only gin_app.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app
COPY pyproject.toml README.md alembic.ini ./
COPY domain ./domain
COPY adapters ./adapters
COPY service ./service
COPY web ./web
COPY cli ./cli
COPY migrations ./migrations
RUN pip install . && useradd --create-home --uid 10001 gin \
    && install -d -o gin -m 700 /home/gin/keys
# The key that signs checkpoints and receipts: made on first start, kept off the database
# (mount a volume here, or a key of your own at this path).
ENV GIN_SIGNING_KEY_FILE=/home/gin/keys/signing-key.pem

USER gin
EXPOSE 8000
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
    CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/health/live', timeout=2)"]
CMD ["gin", "serve", "--host", "0.0.0.0"]

# The API and the webhook worker share this image; docker-compose.yml runs both.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_NO_CACHE_DIR=1

WORKDIR /srv/ticketing

# Dependencies first, pinned by constraints.txt, so that a code change reuses this layer.
COPY pyproject.toml constraints.txt README.md ./
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']))" > /tmp/requirements.txt \
    && pip install -c constraints.txt -r /tmp/requirements.txt \
    && rm /tmp/requirements.txt

COPY ticketing ./ticketing
COPY app ./app
COPY db ./db
COPY rest ./rest
COPY graphql_api ./graphql_api
COPY dashboard ./dashboard
COPY workers ./workers
# Editable, so the templates are read from the source tree as in development. The GraphQL
# documents (graphql/) are not needed at run time.
RUN pip install --no-deps -e . \
    && useradd --system --uid 10001 --home-dir /srv/ticketing ticketing

USER ticketing
EXPOSE 8000
# Ready = PostgreSQL answers, migrations are current, Redis answers (each checked within 1 s).
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
    CMD python -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/readyz', timeout=2)"
CMD ["sh", "-c", "ticketing migrate && exec ticketing serve --host 0.0.0.0 --port 8000"]

# Builds the web bundle, compiles one executable with everything embedded,
# and runs it on a slim base. The data directory is a volume.
FROM denoland/deno:2.9.6 AS build
WORKDIR /app
COPY . .
RUN deno install && deno task build:web && deno task compile dist/ip-enrich

FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends ca-certificates \
  && rm -rf /var/lib/apt/lists/* && useradd --system --home /data app \
  && mkdir -p /data && chown app /data
COPY --from=build /app/dist/ip-enrich /usr/local/bin/ip-enrich
USER app
ENV DATA_DIR=/data PORT=8080 MALLOC_TRIM_THRESHOLD_=16777216
VOLUME /data
EXPOSE 8080
CMD ["ip-enrich"]

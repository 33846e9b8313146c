# A small static image of mcpdecl: built with the Makefile's `build` target
# (CGO off, so the binary needs no libc), run as a non-root user on a base
# without a shell or package manager. Build and run:
#
#   docker build -t mcpdecl .
#   docker run --rm -p 8080:8080 -v "$PWD/examples:/etc/mcpdecl:ro" mcpdecl \
#     serve --http 0.0.0.0:8080 --allowed-host localhost /etc/mcpdecl/orders.hcl

FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION=devel
ARG COMMIT=unknown
RUN make build VERSION="$VERSION" COMMIT="$COMMIT"

# distroless/static: CA certificates and time zones, no shell; nonroot is
# uid 65532. The labels name the version and commit the binary is stamped
# with and where its source is. Dockerfile.release is this stage with a
# release's binary copied in instead.
FROM gcr.io/distroless/static-debian12:nonroot
ARG VERSION=devel
ARG COMMIT=unknown
LABEL org.opencontainers.image.title="mcpdecl" \
      org.opencontainers.image.source="https://github.com/mcpdecl/mcpdecl" \
      org.opencontainers.image.version="$VERSION" \
      org.opencontainers.image.revision="$COMMIT"
COPY --from=build /src/bin/mcpdecl /usr/local/bin/mcpdecl
USER 65532:65532
WORKDIR /home/nonroot
EXPOSE 8080
ENTRYPOINT ["/usr/local/bin/mcpdecl"]
CMD ["serve", "--http", "0.0.0.0:8080", "/etc/mcpdecl/config.hcl"]

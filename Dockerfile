# A minimal carbon-show image: a static (musl) binary on distroless, run as non-root.
#
#   docker build -t carbon-show .
#   docker run --rm -v "$PWD:/work" -w /work carbon-show plan.json
#   tofu show -json plan.tfplan | docker run --rm -i carbon-show --format markdown
#
# Stage 1 builds with the pinned toolchain and Cargo.lock (--locked), stage 2 holds only the
# binary (no shell, no package manager). docs/ci.md "Container image".

FROM rust:1.89-alpine AS build
# mimalloc is C: the compiler comes with the image, musl's headers and start files here
RUN apk add --no-cache musl-dev
WORKDIR /src
COPY . .
RUN cargo build --release --locked --bin carbon-show \
 && cp target/release/carbon-show /carbon-show \
 && /carbon-show --version

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /carbon-show /usr/local/bin/carbon-show
WORKDIR /work
ENTRYPOINT ["/usr/local/bin/carbon-show"]

#!/bin/bash -eu
# Builds every libFuzzer target of attest-harness into $OUT with its dictionary and seed corpus.
#
# OSS-Fuzz's `precompile_swift` SWIFTFLAGS add -parse-as-library, which breaks the entry points of a
# tools-version 6 package (SwiftPM renames each executable's main); the recipe below is the one verified in
# scripts/fuzz: SwiftPM's own --sanitize fuzzer plus -Xswiftc -sanitize=fuzzer,$SANITIZER, one product per build.
cd "$SRC/attest-harness"
for target in fuzz-cbor fuzz-der fuzz-x509 fuzz-keydescription fuzz-attestation fuzz-webauthn fuzz-certificates; do
    swift build -c release --scratch-path .build-fuzz --sanitize fuzzer \
        -Xswiftc -sanitize=fuzzer,"${SANITIZER:-address}" -Xswiftc -g --product "$target"
    cp ".build-fuzz/release/$target" "$OUT/$target"
    case "$target" in
        fuzz-cbor|fuzz-attestation|fuzz-webauthn) cp corpus/dictionaries/cbor.dict "$OUT/$target.dict" ;;
        *) cp corpus/dictionaries/der.dict "$OUT/$target.dict" ;;
    esac
    (cd "corpus/$target" && zip -q -r "$OUT/${target}_seed_corpus.zip" .)
done

#!/bin/bash -eu
# Builds every libFuzzer target of attest-harness into $OUT with its dictionary and seed corpus:
#   $OUT/<target>, $OUT/<target>.dict, $OUT/<target>_seed_corpus.zip (the files of corpus/<target>/).
#
# Each target is built by scripts/fuzz-build, the command scripts/fuzz builds with (debug, scratch path
# .build-fuzz, SwiftPM's --sanitize fuzzer plus -Xswiftc -sanitize=fuzzer,$SANITIZER, one product per build), so
# this recipe is the one fuzzed locally and in CI, and after scripts/fuzz in the same checkout its builds are
# no-ops. OSS-Fuzz's `precompile_swift` SWIFTFLAGS are not used: their -parse-as-library breaks the entry points
# of a tools-version 6 package (SwiftPM renames each executable's main).
# scripts/check-clusterfuzzlite runs this in a simulated OSS-Fuzz environment and checks $OUT (part of
# scripts/test). The target list below must match scripts/fuzz and README.md (that check compares them).
set -eu  # as the shebang says, also when run as `bash build.sh`
cd "$SRC/attest-harness"

targets=(fuzz-cbor fuzz-der fuzz-x509 fuzz-keydescription fuzz-attestation fuzz-webauthn fuzz-certificates fuzz-differential)

# Writes a zip of every file in folder $1 (flat, sorted names) to $2: zip when installed (OSS-Fuzz images have
# it), else python3's zipfile.
seed_zip() {
    rm -f "$2"
    if [ -z "$(find "$1" -type f | head -n 1)" ]; then
        echo "build.sh: $1 holds no seeds" >&2
        exit 1
    fi
    if command -v zip >/dev/null 2>&1; then
        (cd "$1" && find . -type f | LC_ALL=C sort | zip -q -X "$2" -@)
    else
        python3 - "$1" "$2" <<'PYTHON'
import os, sys, zipfile
folder, archive = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as out:
    for root, _, files in sorted(os.walk(folder)):
        for name in sorted(files):
            path = os.path.join(root, name)
            out.write(path, os.path.relpath(path, folder))
PYTHON
    fi
}

for target in "${targets[@]}"; do
    binary=$(scripts/fuzz-build "$target")
    cp "$binary" "$OUT/$target"
    cp "$(scripts/fuzz-build --dictionary "$target")" "$OUT/$target.dict"
    seed_zip "corpus/$target" "$OUT/${target}_seed_corpus.zip"
done

# The base-builder-swift image's symbolizer understands Swift symbols (what precompile_swift would copy).
if [ -x /usr/local/bin/llvm-symbolizer-swift ]; then
    cp /usr/local/bin/llvm-symbolizer-swift "$OUT/llvm-symbolizer"
fi

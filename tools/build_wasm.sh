#!/usr/bin/env sh
# Build the browser's solver: boggle_i18n/web/wasm/solver.c (the library's walk, solver/_walk.h) compiled to
# WebAssembly with Debian's clang and lld (apt-get install clang lld), no C library, nothing downloaded.
# Output: boggle_i18n/web/wasm/solver.wasm (git-ignored; `export-web` copies it into the site). The flags are
# boggle_i18n/web/wasmbuild.py's, which builds it the same way where an installed copy lacks it.
# Usage: tools/build_wasm.sh [OUT]
set -eu
cd "$(dirname "$0")/.."
exec "${PYTHON:-python3}" -m boggle_i18n.web.wasmbuild "$@"

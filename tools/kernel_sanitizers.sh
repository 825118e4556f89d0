#!/usr/bin/env bash
# The C modules under AddressSanitizer and UndefinedBehaviorSanitizer: build instrumented
# _kernel (fast engine) and _bound (prover) into a copy of the source tree and run every test
# that drives them there.
#   bash tools/kernel_sanitizers.sh        (from the repository, in its venv; needs gcc and ../shared)
# A bad read or write, an overflow or a misaligned access stops the run with a report.
set -euo pipefail
cd "$(dirname "$0")/.."
REPO="$PWD"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$WORK/repo" && (cd "$REPO" && git ls-files -z | xargs -0 cp --parents -t "$WORK/repo/")
ln -s "$(cd "$REPO/.." && pwd)/shared" "$WORK/shared"
INCLUDE="$(python -c 'import sysconfig; print(sysconfig.get_paths()["include"])')"
SUFFIX="$(python -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')"
# module:source:flags (the prover's int64 build, _bound_wide, is _bound.c with -DWIDE_VALUES)
for build in solver/_kernel:solver/_kernel: prove/_bound:prove/_bound: prove/_bound_wide:prove/_bound:-DWIDE_VALUES; do
  IFS=: read -r module source flags <<<"$build"
  # NO_HUGE_ARENA: the prover's arena grows by realloc, so a read past its end is caught.
  gcc -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer -std=c11 -DNO_HUGE_ARENA \
    $flags -fPIC -shared -I"$INCLUDE" "$WORK/repo/boggle_i18n/$source.c" -o "$WORK/repo/boggle_i18n/$module$SUFFIX"
done
cd "$WORK/repo"
export LD_PRELOAD="$(gcc -print-file-name=libasan.so) $(gcc -print-file-name=libubsan.so)"
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 PYTHONPATH="$WORK/repo"
python -c "import boggle_i18n.solver._kernel as k; assert k.__file__.startswith('$WORK'), k.__file__"  # this build
python -c "import boggle_i18n.prove._bound as b; assert b.__file__.startswith('$WORK'), b.__file__"
python -c "import boggle_i18n.prove._bound_wide as b; assert b.__file__.startswith('$WORK'), b.__file__"
python -m pytest -q -p no:cacheprovider tests/test_kernels.py tests/test_engines.py tests/test_solver.py tests/test_score_cmd.py tests/test_prove.py

#!/bin/sh
# pyopencl's own test suite (the test/ directory of the pyopencl sdist matching the installed
# pyopencl) run through the ICD loader against oxcl and against PoCL, one pytest per file and
# platform, then a table of pass/fail/skip counts and the list of tests PoCL passes that oxcl
# does not.
#
# Usage: scripts/pyopencl-suite.sh [test_file.py ...]      (default: every test_*.py)
#        scripts/pyopencl-suite.sh --fetch-only             (only unpack the sources; CI does this)
# Environment:
#   PYTHON          python with pyopencl + numpy + pytest (default /usr/bin/python3)
#   SUITE_DIR       where the sdist is unpacked and results go (default target/pyopencl-suite)
#   OXCL_LIB        liboxcl.so to test (default: built with `cargo build -p capi`)
#   PLATFORMS       "oxcl pocl" (default), or one of them
#   FILE_TIMEOUT    seconds per test file and platform (default 1800)
#   PYTEST_ARGS     extra pytest arguments (e.g. "-k 'not test_sort'")
set -eu

PYTHON=${PYTHON:-/usr/bin/python3}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SUITE_DIR=${SUITE_DIR:-$ROOT/target/pyopencl-suite}
PLATFORMS=${PLATFORMS:-"oxcl pocl"}
FILE_TIMEOUT=${FILE_TIMEOUT:-1800}
PYTEST_ARGS=${PYTEST_ARGS:-}
mkdir -p "$SUITE_DIR"

"$PYTHON" -c "import pyopencl, numpy, pytest" || {
    echo "need $PYTHON with pyopencl, numpy and pytest (apt-get install python3-pyopencl python3-pytest)" >&2
    exit 2
}
VERSION=$("$PYTHON" -c "import pyopencl.version as v; print(v.VERSION_TEXT)")
SRC="$SUITE_DIR/pyopencl-$VERSION"

# 1. The sdist of the installed version, from PyPI's simple index (JSON form, PEP 691);
#    `pip download --no-binary` would try to build the package's metadata first and fails.
if [ ! -d "$SRC/test" ]; then
    "$PYTHON" - "$VERSION" "$SUITE_DIR" <<'EOF'
import io, json, sys, tarfile, urllib.request
version, dest = sys.argv[1], sys.argv[2]
request = urllib.request.Request(
    "https://pypi.org/simple/pyopencl/",
    headers={"Accept": "application/vnd.pypi.simple.v1+json"})
files = json.load(urllib.request.urlopen(request))["files"]
wanted = f"pyopencl-{version}.tar.gz"
url = next(f["url"] for f in files if f["filename"] == wanted)
with tarfile.open(fileobj=io.BytesIO(urllib.request.urlopen(url).read())) as tar:
    tar.extractall(dest)
print("fetched", wanted)
EOF
fi

[ "${1:-}" = "--fetch-only" ] && exit 0

# 2. One vendors directory per platform, so each run sees exactly one platform.
if [ -z "${OXCL_LIB:-}" ]; then
    (cd "$ROOT" && cargo build -q -p capi)
    OXCL_LIB="${CARGO_TARGET_DIR:-$ROOT/target}/debug/liboxcl.so"
fi
mkdir -p "$SUITE_DIR/vendors/oxcl" "$SUITE_DIR/vendors/pocl"
echo "$OXCL_LIB" > "$SUITE_DIR/vendors/oxcl/oxcl.icd"
if [ -f /etc/OpenCL/vendors/pocl.icd ]; then
    cp /etc/OpenCL/vendors/pocl.icd "$SUITE_DIR/vendors/pocl/"
else
    echo "PoCL (/etc/OpenCL/vendors/pocl.icd) absent: only oxcl runs" >&2
    PLATFORMS=oxcl
fi

# 3. pytest per file and platform, results as JUnit XML.
if [ $# -eq 0 ]; then
    set -- $(cd "$SRC/test" && ls test_*.py)
fi
for platform in $PLATFORMS; do
    mkdir -p "$SUITE_DIR/results/$platform"
    for file in "$@"; do
        name=${file%.py}
        echo "== $platform $file"
        (cd "$SRC/test" && OCL_ICD_VENDORS="$SUITE_DIR/vendors/$platform" \
            timeout "$FILE_TIMEOUT" "$PYTHON" -m pytest -p no:cacheprovider -q -rfEs \
            --junitxml="$SUITE_DIR/results/$platform/$name.xml" $PYTEST_ARGS "$file" \
            > "$SUITE_DIR/results/$platform/$name.log" 2>&1) || true
        tail -n 1 "$SUITE_DIR/results/$platform/$name.log"
    done
done

# 4. The comparison table.
"$PYTHON" "$ROOT/scripts/pyopencl-suite-table.py" "$SUITE_DIR/results" "$@"

# Sourced by the command-line tests: expect CODE PATTERN... -- command...
# runs the command once, and sets fail=1 unless it exits CODE and its
# output (stdout and stderr) matches every extended regex PATTERN.
fail=0
expect() {
    local code=$1 patterns=() pattern out rc
    shift
    while [ $# -gt 0 ] && [ "$1" != -- ]; do
        patterns+=("$1")
        shift
    done
    shift
    out=$("$@" 2>&1)
    rc=$?
    if [ "$rc" != "$code" ]; then
        echo "FAIL: '$*' exited $rc, expected $code"; echo "$out" | grep -E "^(error|warning):" | head -10
        echo "$out" | tail -30; fail=1
        return
    fi
    for pattern in "${patterns[@]}"; do
        if ! grep -qE -- "$pattern" <<<"$out"; then
            echo "FAIL: '$*' output lacks /$pattern/"; echo "$out" | tail -30; fail=1
            return
        fi
    done
    echo "ok: $* -> $rc"
}

# Sourced by the command-line tests: expect CODE PATTERN -- command...
# runs the command, and sets fail=1 unless it exits CODE and its output
# (stdout and stderr) matches the extended regex PATTERN.
fail=0
expect() {
    local code=$1 pattern=$2
    shift 3
    local out rc
    out=$("$@" 2>&1)
    rc=$?
    if [ "$rc" != "$code" ]; then
        echo "FAIL: '$*' exited $rc, expected $code"; echo "$out" | grep -E "^(error|warning):" | head -10
        echo "$out" | tail -30; fail=1
    elif ! grep -qE -- "$pattern" <<<"$out"; then
        echo "FAIL: '$*' output lacks /$pattern/"; echo "$out" | tail -30; fail=1
    else
        echo "ok: $* -> $rc"
    fi
}

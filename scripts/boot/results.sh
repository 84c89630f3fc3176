# The boot tests' numbered PASS/FAIL lines, sourced by scripts/boot/checks (inside the booted system) and by
# scripts/boot-test and scripts/boot-test-arm64 (for what only the host can see). summary holds the lines without
# their evidence; number, passed and skipped count them. A SKIP line is a check this machine could not make, with
# the reason: neither passed nor failed, and said in the summary.
number=0 passed=0 skipped=0
summary=()
# result PASS|FAIL|SKIP TITLE EVIDENCE
result() {
    number=$((number + 1))
    printf '%2d %s  %s\n' "$number" "$1" "$2"
    [ -z "$3" ] || sed 's/^/        /' <<<"$3"
    summary+=("$(printf '%2d %s  %s' "$number" "$1" "$2")")
    if [ "$1" = PASS ]; then passed=$((passed + 1)); fi
    if [ "$1" = SKIP ]; then skipped=$((skipped + 1)); fi
}
# skip TITLE: a check that was not made, TITLE saying what and why ("skipped: ..." is added).
skip() { result SKIP "skipped: $1" ""; }
verdict() { if "$@"; then echo PASS; else echo FAIL; fi; }
# take_results FILE: carries on from the checks' output in FILE: their summary lines, how many, how many passed and
# how many were skipped.
take_results() {
    mapfile -t summary < <(sed -n '/checks: [0-9]* of [0-9]* passed/,$p' "$1" | grep -E '^ ?[0-9]+ (PASS|FAIL|SKIP)  ')
    number=${#summary[@]}
    passed="$(printf '%s\n' "${summary[@]}" | grep -cE '^ ?[0-9]+ PASS' || true)"
    skipped="$(printf '%s\n' "${summary[@]}" | grep -cE '^ ?[0-9]+ SKIP' || true)"
}
# all_passed: every check passed or was skipped, and none failed.
all_passed() { [ "$passed" = "$((number - skipped))" ]; }

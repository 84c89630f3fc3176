# The boot tests' numbered PASS/FAIL lines, sourced by scripts/boot/checks (inside the booted system) and by
# scripts/boot-test and scripts/boot-test-arm64 (for what only the host can see). summary holds the lines without
# their evidence; number and passed count them.
number=0 passed=0
summary=()
# result PASS|FAIL TITLE EVIDENCE
result() {
    number=$((number + 1))
    printf '%2d %s  %s\n' "$number" "$1" "$2"
    [ -z "$3" ] || sed 's/^/        /' <<<"$3"
    summary+=("$(printf '%2d %s  %s' "$number" "$1" "$2")")
    if [ "$1" = PASS ]; then passed=$((passed + 1)); fi
}
verdict() { if "$@"; then echo PASS; else echo FAIL; fi; }
# take_results FILE: carries on from the checks' output in FILE: their summary lines, how many, how many passed.
take_results() {
    mapfile -t summary < <(sed -n '/checks: [0-9]* of [0-9]* passed$/,$p' "$1" | grep -E '^ ?[0-9]+ (PASS|FAIL)  ')
    number=${#summary[@]}
    passed="$(printf '%s\n' "${summary[@]}" | grep -cE '^ ?[0-9]+ PASS' || true)"
}

# tests/select.sh: sourced by suites that can skip tests make test T=...
# did not ask for.  tools/runtests passes the patterns meant for a suite in
# LWK_TEST_ONLY (empty: run everything) and counts only matching results;
# skipping what cannot match just saves the time.
#
#   selected NAME    true if a test named NAME, or any test NAME.*, may
#                    match a pattern: run it.  Plain patterns are exact on
#                    dotted words; for a wildcard pattern the answer leans
#                    to yes (its literal start is compared), never skipping
#                    a test it could match.
selected() {
    local g=$1 p lit
    [ -z "${LWK_TEST_ONLY:-}" ] && return 0
    local -a pats
    read -ra pats <<<"$LWK_TEST_ONLY"
    for p in "${pats[@]}"; do
        # shellcheck disable=SC2053  # $p is a pattern
        [[ $g == $p || $g == $p.* || $p == "$g".* ]] && return 0
        lit=${p%%[*?[]*}
        [ "$lit" = "$p" ] && continue
        [[ "$g." == "$lit"* || $lit == "$g."* ]] && return 0
    done
    return 1
}

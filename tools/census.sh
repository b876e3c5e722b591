#!/bin/sh
# The census: surveys that take hours, run in the background on a branch of
# their own, committing their results every ten minutes as they come.
#
#     nice -n 19 sh tools/census.sh STREAM &
#
# STREAM: british-proof (every British deal's verdict, no line: the proof
# first), british-par (par again with the solver that restarts its line in
# several orders, then par for the deals that had none), british (the
# surveys of deals 1-5000 before them) or union-american.
#
# Resumable: a survey skips the deals its results file holds, so stopping
# this (kill it, or the machine) and starting it again loses at most the
# deal each worker was on. One stream is one process (one core) unless JOBS=K
# gives it K; or run two streams to use two. Only docs/survey/*.jsonl is committed.
# PYTHON=pypy3 (Debian's pypy3) runs the solver three times as fast; each
# record names its interpreter, whose processor seconds its budget counts.
set -u
cd "$(dirname "$0")/.."
python=${PYTHON:-.venv/bin/python}
export PYTHONPATH=lib  # this checkout's solver, whatever the venv points at

commit() {
    git add docs/survey/*.jsonl
    git diff --cached --quiet -- docs/survey || git commit -q -m "census: $1" -- docs/survey
}

survey() {  # RULES DEALS BUDGET FILE [SURVEY OPTION ...]
    # BUDGET: N positions (the same verdict on any machine), or Ns seconds
    # (what the streams before budgets counted positions used)
    rules=$1 deals=$2 budget=$3 file=$4
    shift 4
    case $budget in
    *s) budget_option="--budget ${budget%s}" ;;
    *) budget_option="--nodes $budget" ;;
    esac
    $python -m british_square survey --rules "$rules" --deals "$deals" $budget_option \
        --out "docs/survey/$file" --jobs "${JOBS:-1}" --quiet "$@" &
    running=$!
    ticks=0
    while kill -0 "$running" 2>/dev/null; do
        sleep 10
        ticks=$((ticks + 1))
        [ $ticks -lt 60 ] || { ticks=0; commit "$rules deals $deals at $budget, results so far"; }
    done
    wait "$running"; status=$?
    commit "$rules deals $deals at $budget"
    return $status
}

case ${1:-} in
british)
    survey british 1-1000 2s british-par.jsonl &&
    survey british 1001-5000 2s british-par.jsonl &&
    survey british 1001-5000 60s british.jsonl &&
    survey british 1001-5000 60s british.jsonl --redo-unknown ;;  # what older solvers left
british-proof)  # deals settled by the surveys before are not proved again
    settled="--settled-in docs/survey/british.jsonl --settled-in docs/survey/british-par.jsonl"
    survey british 1-31999 60s british-proof.jsonl --proof-only $settled &&
    survey british 1-31999 300s british-proof.jsonl --proof-only --redo-unknown $settled ;;
british-par)  # the deals with no par first (New game deals only deals with par),
    # then par again for those an older solver left
    survey british 5001-31999 100000 british-par.jsonl &&
    survey british 1-5000 100000 british-par.jsonl --redo-older ;;
union-american)
    survey union 1001-31999 10s union.jsonl &&
    survey american 1001-31999 10s american.jsonl ;;
*)
    echo "usage: tools/census.sh british-proof|british-par|british|union-american" >&2; exit 2 ;;
esac

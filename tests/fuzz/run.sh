#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# usage: tests/fuzz/run.sh SECONDS [NAME...]
# Runs each libFuzzer harness build/fuzz/fuzz_NAME (all that are built when no NAME is
# given) for SECONDS, one after the other, on a fresh copy of the tree's seeds
# (tests/fuzz/corpus/NAME/ copied into build/fuzz/corpus/NAME/, so that a run depends on
# nothing an earlier one found; FUZZ_KEEP_CORPUS=1 keeps and grows it instead), with
# tests/fuzz/NAME.dict as its dictionary where there is one. Each line says libFuzzer's
# random seed (FUZZ_SEED=N fixes it): the seeds and that number replay a run. A crash, a
# sanitizer report or a broken invariant stops that harness and leaves the input in
# build/fuzz/crashes/ (its reproducer: `build/fuzz/fuzz_NAME FILE` runs it again). Logs:
# build/fuzz/logs/NAME.log. Prints a line per harness and a table harness -> executions
# (libFuzzer's stat::number_of_executed_units); exits non-zero when any harness found
# something.
TOP=$(cd "$(dirname "$0")/../.." && pwd)
B=$TOP/build/fuzz
secs=${1:?usage: tests/fuzz/run.sh SECONDS [NAME...]}
shift
if [ $# = 0 ]; then
	for f in "$B"/fuzz_*; do
		[ -x "$f" ] && set -- "$@" "$(basename "$f" | sed 's/^fuzz_//')"
	done
fi
[ $# != 0 ] || { echo "fuzz: no harness built under build/fuzz (make fuzz builds them)" >&2; exit 1; }
mkdir -p "$B/logs" "$B/crashes"
table="" failed=0
for name in "$@"; do
	bin=$B/fuzz_$name
	log=$B/logs/$name.log
	corpus=$B/corpus/$name
	[ "${FUZZ_KEEP_CORPUS:-}" = 1 ] || rm -rf "$corpus"
	mkdir -p "$corpus"
	[ -d "$TOP/tests/fuzz/corpus/$name" ] && cp -p "$TOP/tests/fuzz/corpus/$name"/* "$corpus"/ 2>/dev/null
	dict=""
	[ -f "$TOP/tests/fuzz/$name.dict" ] && dict=-dict=$TOP/tests/fuzz/$name.dict
	"$bin" -max_total_time="$secs" -print_final_stats=1 -timeout=10 -rss_limit_mb=2048 \
		${FUZZ_SEED:+-seed="$FUZZ_SEED"} -artifact_prefix="$B/crashes/$name-" ${dict:+"$dict"} \
		"$corpus" > "$log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	seed=$(sed -n 's/^INFO: Seed: *//p' "$log" | head -n 1)
	if [ $rc = 0 ]; then
		echo "fuzz: $name: ${execs:-?} executions in ${secs}s (seed ${seed:-?}), nothing found"
	else
		failed=1
		repro=$(sed -n 's/.*Test unit written to //p' "$log" | tail -n 1)
		echo "fuzz: $name FAILED (exit $rc, seed ${seed:-?}; log: $log)"
		grep -m 3 "ERROR:\|FUZZ_CHECK failed\|runtime error" "$log" | sed 's/^/    /'
		[ -n "$repro" ] && echo "    reproducer: $repro (run it: $bin $repro)"
	fi
	table="$table$(printf '%-24s %14s  %s' "fuzz_$name" "${execs:--}" "$([ $rc = 0 ] && echo ok || echo FAILED)")
"
done
printf '%-24s %14s  %s\n' harness executions result
printf '%s' "$table"
exit $failed

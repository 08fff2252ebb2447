#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# make format-check: every source file names its license in an SPDX line near its top,
# the C sources are formatted as .clang-format says (clang-format from Debian's package),
# and no C line is wider than 100 columns (tabs of 8; clang-format leaves long string
# literals alone). Prints each offence as file:line and exits non-zero if there is one.
# With -i, reformats the C sources in place first.
set -u
cd "$(dirname "$0")/.." || exit 1
command -v clang-format >/dev/null || { echo "format-check: clang-format is missing (scripts/deps.sh installs it)" >&2; exit 1; }
bad=0
sources=$(git ls-files '*.c' '*.h' '*.S' '*.asm' '*.ld' '*.sh' '*.py' '*.mk' Makefile '*/Kbuild' \
	scripts/guest/init .ci/run)
c_sources=$(git ls-files '*.c' '*.h')
for f in $sources; do
	head -n 3 "$f" | grep -q 'SPDX-License-Identifier: ' ||
		{ echo "$f:1: no SPDX-License-Identifier line in the first 3 lines (see LICENSE)"; bad=1; }
done
[ "${1:-}" = -i ] && clang-format -i $c_sources
for f in $c_sources; do
	if ! clang-format --dry-run --Werror "$f" 2>/dev/null; then
		clang-format --dry-run "$f" 2>&1 | grep -m 3 'warning:' | sed 's/: warning: code should be clang-formatted.*/: not formatted as .clang-format says/'
		bad=1
	fi
	expand -t 8 "$f" | awk -v f="$f" 'length > 100 { print f ":" NR ": longer than 100 columns"; bad = 1 } END { exit bad }' || bad=1
done
[ $bad = 0 ] && echo "format-check: $(echo "$sources" | wc -w) files have SPDX lines, $(echo "$c_sources" | wc -w) C files formatted"
exit $bad

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# usage: scripts/apt-entry.sh TYPES SUITE WHAT
# Prints a deb822 apt entry (like Debian 12's debian.sources) of TYPES (deb, deb-src) for
# SUITE's main component, on the mirror the machine's bookworm main entry uses, with a
# comment saying which script wrote it and WHAT it is for.
set -e
# shellcheck disable=SC2016 # $(...) are apt's format fields
uri=$(apt-get indextargets --format '$(REPO_URI) $(RELEASE) $(COMPONENT)' 2>/dev/null |
	awk '$2 == "bookworm" && $3 == "main" { print $1; exit }')
[ -n "$uri" ] || { echo "apt-entry: apt has no bookworm main entry to take the mirror from" >&2; exit 1; }
printf '%s\n' "# Written by hv's scripts: $3" \
	"Types: $1" "URIs: $uri" "Suites: $2" "Components: main" \
	"Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg"

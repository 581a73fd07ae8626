# shellcheck shell=bash
# A run's results as tests, not lines; sourced after lib.sh by run-tests and
# check-harness.
#
# Every step reports one verdict line per test (details go on lines that
# start with '#' or with spaces):
#   ok - NAME
#   not ok - NAME # REASON
#   ok - NAME # SKIP REASON     (allowed only when scripts/allowed-skips has
#                                the line "NAME # SKIP REASON")
# The guest reports blocks instead (selftests/mlx5_diag/run.sh), which
# guest_verdicts judges. tap_summary then checks the verdicts against the
# tests the tree says must run.

# The KUnit suites the tree defines: the .name of each struct kunit_suite.
kunit_suites() {
	awk '/struct kunit_suite [A-Za-z0-9_]+ = \{/ { s = 1 }
	     s && match($0, /\.name = "[^"]+"/) {
		print substr($0, RSTART + 9, RLENGTH - 10); s = 0 }' \
		"$MLX5_DIAG_ROOT"/drivers/perf/mlx5_diag/kunit/*.c
}

# The guests of a full run (scripts/run-tests runs them side by side, one
# per core) and their names in the verdicts.
GUESTS="guest 1
guest 2"

# guest_items: what a full run of run.sh runs, one item a line, in order:
# "kunit" (every suite), each test_foo, and test_foo@debian for each test
# run again with Debian's perf.
guest_items() {
	local t dir=$MLX5_DIAG_ROOT/selftests/mlx5_diag
	echo kunit
	for t in "$dir"/test_*.sh; do
		basename "$t" .sh
	done
	for t in $(sed -n 's/^DEBIAN_PERF_TESTS="\(.*\)"$/\1/p' "$dir/run.sh"); do
		echo "$t@debian"
	done
}

# guest_shares N: the items split among N guests by their measured guest
# time (selftests/mlx5_diag/test-times; 60 s for one not listed there),
# longest first, each to the guest with the least so far. Prints "K ITEM"
# lines, K from 1 to N, in the order of guest_items within a guest.
guest_shares() {
	guest_items | awk -v n="$1" -v times="$MLX5_DIAG_ROOT/selftests/mlx5_diag/test-times" '
	BEGIN { while ((getline l < times) > 0) { split(l, f, " "); if (l !~ /^#/) s[f[1]] = f[2] } }
	{ item[NR] = $1; sec[NR] = ($1 in s) ? s[$1] : 60 }
	END {
		for (k = 1; k <= n; k++) load[k] = 0
		for (done = 0; done < NR; done++) {
			best = 0
			for (i = 1; i <= NR; i++)
				if (!(i in to) && (!best || sec[i] > sec[best])) best = i
			g = 1
			for (k = 2; k <= n; k++) if (load[k] < load[g]) g = k
			to[best] = g; load[g] += sec[best]
		}
		for (i = 1; i <= NR; i++) print to[i], item[i]
	}'
}

# guest_tests all|kunit: the tests a full guest run (all of run-tests'
# guests) or a guest of "run.sh kunit" must report.
guest_tests() {
	local t g
	kunit_suites | sed 's/^/kunit /'
	if [ "$1" = all ]; then
		for t in $(guest_items); do
			case "$t" in
			kunit) ;;
			*@debian) echo "selftest ${t%@debian} with Debian perf" ;;
			*) echo "selftest $t" ;;
			esac
		done
		while read -r g; do
			echo "$g kernel log"
			echo "$g kmemleak"
		done <<<"$GUESTS"
	else
		echo "guest kernel log"
		echo "guest kmemleak"
	fi
}

# guest_verdicts FILE: vm-run's output of run.sh with each block replaced by
# its lines (indented) and its verdict; other lines pass unchanged.
# A KUnit suite fails on a failing case, a failing suite line, no case,
# fewer results than its plan or no final suite line; a selftest on a
# failing check, a non-zero exit, no check at all or no end. A skipped case
# skips its suite.
guest_verdicts() {
	awk '
	function verdict(bad, why) {
		if (bad != "")
			print "not ok - " name " # " bad
		else if (why != "")
			print "ok - " name " # SKIP " why
		else
			print "ok - " name
		inb = 0
	}
	function kunit_verdict(status,  bad) {
		if (nfail)
			bad = "failed: " failed
		else if (suite == "")
			bad = "no suite result line"
		else if (suite != "ok")
			bad = "suite reported not ok without a failing case"
		else if (n == 0)
			bad = "no test case ran"
		else if (plan != n)
			bad = "ran " n " of " plan " cases"
		else if (status != 0)
			bad = "reading its results failed"
		verdict(bad, skip)
	}
	function selftest_verdict(status,  bad) {
		if (nfail)
			bad = "failed: " failed (nfail > 1 ? " and " nfail - 1 " more" : "")
		else if (status != 0)
			bad = "exited with status " status
		else if (n == 0 && skip == "")
			bad = "no check reported"
		verdict(bad, skip)
	}
	function finish(status) {
		if (name ~ /^kunit /)
			kunit_verdict(status)
		else
			selftest_verdict(status)
	}
	/^# ==== BEGIN / {
		if (inb) { print "    # (no end)"; verdict("did not finish", "") }
		name = substr($0, 14); inb = 1
		n = 0; nfail = 0; failed = ""; skip = ""; suite = ""; plan = -1
		print "# " name
		next
	}
	inb && /^# ==== END / {
		if (substr($0, 12, length(name) + 8) == name " status ") {
			finish($NF)
			next
		}
	}
	!inb { print; next }
	{ print "    " $0 }
	name ~ /^kunit / {
		if (plan < 0 && $0 ~ /^    1\.\.[0-9]+$/)
			plan = substr($0, 8) + 0
		else if ($0 ~ /^    (not )?ok [0-9]+ /) {
			n++
			c = $0; sub(/^    (not )?ok [0-9]+ /, "", c)
			r = c; sub(/ .*/, "", c)
			if ($1 == "not") {
				nfail++; failed = failed (nfail > 1 ? ", " : "") c
			} else if (sub(/^[^ ]* # SKIP */, "", r))
				skip = skip (skip != "" ? "; " : "") c ": " r
		} else if ($0 ~ /^(not )?ok 1 /)
			suite = $1 == "ok" ? "ok" : "not ok"
		next
	}
	/^ok - / { n++; next }
	/^not ok - / {
		n++; nfail++
		if (nfail == 1) failed = substr($0, 10)
		next
	}
	/^# SKIP / { skip = substr($0, 8) }
	END { if (inb) { print "    # (no end)"; verdict("did not finish", "") } }
	' "$1"
}

# tap_summary EXPECTED VERDICTS: one numbered TAP line per expected test, in
# order, then any unexpected one, each with its reason; then
# "N passed, N failed, N skipped" and, last, "N passed, N failed".
# A test fails when a verdict says so, when no verdict names it, or when
# it was skipped for a reason scripts/allowed-skips (or $ALLOWED_SKIPS) does
# not declare.
# Succeeds when nothing failed and something passed.
tap_summary() {
	awk -v skips="${ALLOWED_SKIPS:-$MLX5_DIAG_ROOT/scripts/allowed-skips}" '
	BEGIN {
		while ((getline l < skips) > 0)
			if (l !~ /^#/ && l != "") allowed[l] = 1
	}
	FILENAME == ARGV[1] { if ($0 != "" && !($0 in want)) { want[$0] = ++nw; order[nw] = $0 }; next }
	/^(not )?ok - / {
		bad = $1 == "not"
		v = substr($0, bad ? 10 : 6)
		name = v; why = ""
		if (i = index(v, " # ")) { name = substr(v, 1, i - 1); why = substr(v, i + 3) }
		if (!(name in want) && !(name in extra)) { extra[name] = 1; order[++nx + nw] = name }
		if (bad) {
			res[name] = "not ok"; reason[name] = why
		} else if (why ~ /^SKIP/ && res[name] != "not ok") {
			if ((name " # " why) in allowed) {
				res[name] = "skip"; reason[name] = why
			} else {
				res[name] = "not ok"
				reason[name] = "skipped for a reason scripts/allowed-skips does not declare: " substr(why, 6)
			}
		} else if (!(name in res))
			res[name] = "ok"
	}
	END {
		for (i = 1; i <= nw + nx; i++) {
			t = order[i]
			if (i > nw) {
				r = "not ok"
				why = (res[t] == "not ok" && reason[t] != "" ? reason[t] "; " : "") \
					"not among the tests the tree defines"
			} else if (!(t in res)) {
				r = "not ok"; why = "no result: it did not run"
			} else {
				r = res[t]; why = reason[t]
			}
			if (r == "ok") { pass++; print "ok " i " " t }
			else if (r == "skip") { skip++; print "ok " i " " t " # " why }
			else { fail++; print "not ok " i " " t (why != "" ? " # " why : "") }
		}
		printf "%d passed, %d failed, %d skipped\n", pass, fail, skip
		printf "%d passed, %d failed\n", pass, fail
		exit !(fail == 0 && pass > 0)
	}
	' "$1" "$2"
}

# The tests scripts/stock-test reports, one per part.
STOCK_TESTS="stock: install guide
stock: Debian 6.1 kernel
stock: Debian 6.12 kernel
stock: Debian 6.1 arm64 kernel
stock: Debian 6.12 arm64 kernel"

# stock_verdicts FILE STATUS: scripts/stock-test's output (exit STATUS) with
# its checks indented under the part they belong to and one verdict per
# part: a failing check fails its part, and so does a part with no check;
# a failed exit that no check explains fails the last part.
stock_verdicts() {
	awk -v status="$2" -v tests="$STOCK_TESTS" '
	BEGIN { n = split(tests, t, "\n") }
	function part(line) {
		if (line ~ /^(not )?ok - install/) return t[1]
		if (line ~ /^(not )?ok - stock 6\.12[^:]*arm64/) return t[5]
		if (line ~ /^(not )?ok - stock 6\.1[^:]*arm64/) return t[4]
		if (line ~ /^(not )?ok - stock 6\.12/) return t[3]
		if (line ~ /^(not )?ok - stock 6\.1/) return t[2]
		return ""
	}
	{ print "    " $0 }
	/^(not )?ok - / {
		p = part($0)
		if (p == "") { stray = stray (stray != "" ? "; " : "") substr($0, 1, 60); next }
		checks[p]++
		if ($1 == "not" && !(p in bad)) { bad[p] = substr($0, 10); nbad++ }
	}
	END {
		for (i = 1; i <= n; i++) {
			p = t[i]
			if (p in bad) print "not ok - " p " # failed: " bad[p]
			else if (!checks[p]) print "not ok - " p " # no check reported"
			else if (stray != "") print "not ok - " p " # checks of no known part: " stray
			else if (status != 0 && !nbad && i == n) print "not ok - " p " # stock-test exited with " status
			else print "ok - " p
		}
	}' "$1"
}

#!/bin/sh
# Firmware faults during a recording lose no sample silently: a query
# that fails in the middle of a drain (what the drain fetched before it is
# delivered: decoded samples + LOST = produced, exactly), RES_BUSY
# answers, which the driver tries again and which never end the run as
# another agent's takeover would (END taken), and a device clock that
# cannot be read after a drain.
. ./lib.sh
. ./engine_lib.sh
. ./record_lib.sh

P0=$(pmu_of_sim 0)
D0=$SIM/dev0
trap 'sim_running 0' EXIT

# lost FILE: the samples the LOST records of FILE count
lost() {
	dec_lines "$1" LOST | awk '{ gsub(/[():]/, "", $6); n += $6 } END { print n + 0 }'
}

# ---- a query fails in the middle of a drain ----
# 16 ids: 512 slots, one query reads 256 samples (a 128 KiB outbox), one
# drain takes up to 512. 400 samples fall due at once: the drain's first
# query (slot 0) takes 0..255, its second one (slots 256..) fails. Where a
# drain stopped sooner (on a slow guest), the query that reads slot 256
# fails, wherever it starts.
EVS16=$(max_ids_events)
# shellcheck disable=SC2086
record_stepped 0 /tmp/df1.data "
	echo '256 0x1' >$D0/fail_query_at
	step_samples 0 400" -p 100us $EVS16
expect_eq "record exits 0" "$?" 0
expect_eq "the query that reads slot 256 failed" "$(cat "$D0/fail_query_at")" "0 0x0"
produced=$(cat "$D0/stats/samples_produced")
n=$(dec_samples /tmp/df1.data | wc -l)
l=$(lost /tmp/df1.data)
diag "$n samples decoded, $l lost, $produced produced"
expect_eq "400 samples produced" "$produced" 400
expect_eq "decoded samples + lost = produced" $((n + l)) "$produced"
expect_eq "none lost: the failed drain's samples are delivered" "$l" 0
expect_eq "sequence numbers 0..399, contiguous" \
	"$(dec_samples /tmp/df1.data | awk '$1 != NR - 1 { bad++ } END { print NR, bad + 0 }')" "400 0"
# the failing query is the drain's second where one drain takes all 400:
# "after 256"; where a drain stopped sooner (on a slow guest: less room in
# the AUX area behind its reader), a later drain meets the failure after
# fewer, down to 0 (seen in CI); delivery is checked exactly above
check "the failed drain is logged with what it delivered" sh -c \
	"dmesg | grep -qE 'sampling drain failed \(-5\) after [0-9]+ sample\(s\), 0 lost'"

# ---- RES_BUSY during a recording: tried again, the run goes on ----
# one RES_BUSY (the command is tried again), then four, as many as the
# driver tries a command: the drain fails and the next one goes on
takeovers=$(eng "$P0" takeovers)
record_stepped 0 /tmp/df2.data "
	step_samples 0 10
	echo '1 0x6' >$D0/fail_next
	step_samples 0 10
	echo '4 0x6' >$D0/fail_next
	sim_wait_cmds 0 4
	step_samples 0 10" -p 100us -e icmc_hits -e icmc_accesses
expect_eq "record exits 0" "$?" 0
expect_eq "30 samples decoded" "$(dec_samples /tmp/df2.data | wc -l)" 30
expect_eq "none lost" "$(lost /tmp/df2.data)" 0
expect_eq "the run ends when recording stops, not as taken" \
	"$(dec_lines /tmp/df2.data END)" "END run 0 after 30 samples: stopped"
check "every value equals the model" \
	check_model 0 /tmp/df2.data cc 0x1180000200000000 0x1180000100000000
expect_eq "no takeover counted" "$(eng "$P0" takeovers)" "$takeovers"

# ---- the device clock cannot be read after a drain ----
# its samples go in without their TIME record, mapped from the ones before.
# Every read fails until that is logged: the read a drain sizes its query
# by too (the drain then reads a whole batch), so no count of failing
# reads could aim at the one after the drain.
logged=$(dmesg | grep -c 'device clock unreadable')
record_stepped 0 /tmp/df3.data "
	step_samples 0 10
	echo 1000 >$D0/fail_clock_reads
	step_samples 0 10
	wait_for sh -c '[ \$(dmesg | grep -c \"device clock unreadable\") -gt $logged ]'
	cat $D0/fail_clock_reads >/tmp/df3.left
	echo 0 >$D0/fail_clock_reads
	step_samples 0 10" -p 100us -e icmc_hits -e icmc_accesses
expect_eq "record exits 0" "$?" 0
check "the clock reads failed" [ "$(cat /tmp/df3.left)" -lt 1000 ]
expect_eq "30 samples decoded" "$(dec_samples /tmp/df3.data | wc -l)" 30
expect_eq "none lost" "$(lost /tmp/df3.data)" 0
check "every value equals the model" \
	check_model 0 /tmp/df3.data cc 0x1180000200000000 0x1180000100000000
check "the samples without a TIME record are logged" sh -c \
	"dmesg | grep -q 'device clock unreadable (-5): 10 sample(s) go in the stream without a TIME record'"

exit $T_FAILED

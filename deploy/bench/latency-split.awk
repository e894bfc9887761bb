# Where a load phase's send latency went inside message-service: awk -v phase=NAME -f latency-split.awk BEFORE AFTER,
# two scrapes of its /q/metrics (Prometheus text) taken around the phase. For each timer, what the phase added:
# count, mean, the share above 20 ms and the bucket holding the 99th percentile (LatencyBuckets gives the bounds);
# for the collector's pauses, their count, total and the largest in the second scrape (Micrometer's max covers the
# last ~2 minutes, so it may come from before the phase). Prints SPLIT|phase|part|... lines.
BEGIN { http = "HTTP /message/send, in message-service" }
function family(line) {
  if (line ~ /^http_server_requests_seconds_/ && line ~ /uri="\/message\/send"/) return http
  if (line ~ /^imcore_throttle_take_seconds_/) return "app quota take (filter, before the service)"
  if (line ~ /^imcore_messages_send_service_seconds_/) return "service: checks, committer wait and transaction"
  if (line ~ /^imcore_messages_commit_wait_seconds_/) return "committer: wait for its batch's transaction"
  if (line ~ /^imcore_messages_commit_transaction_seconds_/) return "committer: a batch's transaction (per batch)"
  if (line ~ /^jvm_gc_pause_seconds_/) return "gc pauses"
  if (line ~ /^bench_cpu_wait_seconds_total\{process="message-service"/) return "waited for a CPU: message-service threads"
  if (line ~ /^bench_cpu_wait_seconds_total\{process="postgres"/) return "waited for a CPU: PostgreSQL processes"
  return ""
}
function delta(f, part, le,    key) { key = f SUBSEP part SUBSEP le; return after[key] - before[key] }
# the phase's CPU wait of the threads alive at its end (one that ended during the phase is left out, else its wait
# before the phase would be taken off the sum)
function waited(f,    kk, kv, w) {
  w = 0
  for (kk in after) { split(kk, kv, SUBSEP); if (kv[1] == f) w += after[kk] - before[kk] }
  return w
}
/^#/ { next }
{
  f = family($0)
  if (f == "") next
  name = $1; sub(/\{.*/, "", name)
  part = name; sub(/.*_/, "", part) # count, sum, bucket, max; total for the CPU waits
  le = ""
  if (part == "bucket" && match($0, /le="[^"]*"/)) le = substr($0, RSTART + 4, RLENGTH - 5)
  # a CPU wait is kept per thread: only the threads of the second scrape count (see waited())
  if (part == "total" && match($0, /tid="[0-9]+"/)) le = substr($0, RSTART + 5, RLENGTH - 6)
  k = f SUBSEP part SUBSEP le
  if (FNR == NR) before[k] += $NF; else after[k] += $NF
  families[f] = 1
  if (part == "max" && FNR != NR && $NF > largest[f]) largest[f] = $NF
  if (le != "" && le != "+Inf") bounds[f, le] = 1
}
END {
  sends = delta(http, "count", "")
  for (f in families) {
    if (f ~ /^waited for a CPU/) {
      w = waited(f) * 1000
      printf "SPLIT|%s|%s|%.0f ms in all|%.2f ms per send||\n", phase, f, w, (sends > 0 ? w / sends : 0)
      continue
    }
    n = delta(f, "count", "")
    s = delta(f, "sum", "")
    if (f == "gc pauses") {
      printf "SPLIT|%s|%s|%d pauses|%.0f ms in all|largest of the last ~2 min %.0f ms\n", phase, f, n, s * 1000, largest[f] * 1000
      continue
    }
    if (n <= 0) { printf "SPLIT|%s|%s|0|||\n", phase, f; continue }
    # the bucket bounds in ascending order
    m = 0
    for (b in bounds) { split(b, kv, SUBSEP); if (kv[1] == f) list[++m] = kv[2] + 0 }
    for (i = 2; i <= m; i++) { v = list[i]; for (j = i - 1; j >= 1 && list[j] > v; j--) list[j + 1] = list[j]; list[j + 1] = v }
    over20 = n; p99 = ">" list[m] * 1000
    for (i = 1; i <= m; i++) {
      c = 0
      for (kk in after) { split(kk, kv, SUBSEP); if (kv[1] == f && kv[2] == "bucket" && kv[3] != "+Inf" && kv[3] + 0 == list[i]) c += after[kk] - before[kk] }
      if (list[i] == 0.02) over20 = n - c
      if (c >= 0.99 * n && p99 ~ /^>/) p99 = "<= " list[i] * 1000
    }
    printf "SPLIT|%s|%s|%d|%.2f ms|%.2f %%|%s ms\n", phase, f, n, s / n * 1000, over20 / n * 100, p99
    delete list
  }
}

# shellcheck shell=bash
# The services' JDK 25 AOT caches (docs/operations.md "AOT cache"), shared by up.sh, aot-train.sh and
# deploy/bench/push.sh (sourced after lib.sh, not run).
#
# A service's cache is <checkout>/<service>/target/quarkus-app/<service>.aot, written by deploy/local/aot-train.sh
# beside the build it was trained on, with <service>.aot.build: the fingerprint of that build (below). up.sh passes
# -XX:AOTCache only when the fingerprint still matches. The Quarkus build empties target/quarkus-app, so a rebuild
# deletes the cache with it.
#
# Why our own check and not only the JVM's: the JVM validates the class path it was started with, which for
# Quarkus' fast-jar is quarkus-run.jar and lib/boot/*.jar, the same files in every service and every build.
# Measured on Temurin 25.0.3: message-service's jar started with auth-service's cache passed the JVM's checks and
# ran auth-service's application, read from auth-service's directory (the archived entry point keeps the code
# source of the training run's path). A cache must only ever meet the exact build, at the exact path, it was
# trained on.

# aot_cache_file CHECKOUT SERVICE: where SERVICE's cache lives
aot_cache_file() {
  echo "$1/$2/target/quarkus-app/$2.aot"
}

# aot_build_fingerprint APP_DIR: a digest of the build's absolute path and of every file in it (relative path,
# size, modification time), the caches and their bookkeeping left out
aot_build_fingerprint() {
  local app
  app="$(realpath "$1")" || return 1
  {
    echo "$app"
    (cd "$app" && find . -type f ! -name '*.aot' ! -name '*.aot.*' -printf '%P %s %T@\n' | LC_ALL=C sort)
  } | sha256sum | cut -d ' ' -f 1
}

# aot_cache_state CHECKOUT SERVICE: prints "valid", "stale" (a cache whose build is gone or changed), or "none"
aot_cache_state() {
  local cache
  cache="$(aot_cache_file "$1" "$2")"
  if [[ ! -s "$cache" ]]; then
    echo none
  elif [[ -f "$cache.build" && "$(<"$cache.build")" == "$(aot_build_fingerprint "$(dirname "$cache")")" ]]; then
    echo valid
  else
    echo stale
  fi
}

# aot_log_state LOGS SERVICE PID: how the running process PID of SERVICE started: "mapped" (its cache is in
# use: the JVM's own log, -Xlog:aot, says so), "not mapped" (started with a cache that the JVM refused), or "off"
aot_log_state() {
  local cmdline
  cmdline="$(tr '\0' ' ' <"/proc/$3/cmdline" 2>/dev/null)" || { echo off; return; }
  if [[ "$cmdline" != *-XX:AOTCache=* ]]; then
    echo off
  elif grep -qF 'Using AOT-linked classes: true' "$1/$2.aot.log" 2>/dev/null; then
    echo mapped
  else
    echo "not mapped"
  fi
}

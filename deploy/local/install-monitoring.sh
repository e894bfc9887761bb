#!/usr/bin/env bash
# Installs Debian's Prometheus (with promtool) and the PostgreSQL and nginx exporters when a command is missing.
# up.sh runs them for the local stack's monitoring; the deploy module's tests run promtool (docs/operations.md).
# policy-rc.d keeps the packages from starting their own system services: only the stack's processes are wanted.
set -euo pipefail
packages=(prometheus prometheus-postgres-exporter prometheus-nginx-exporter)
missing=()
for package in "${packages[@]}"; do
  command -v "$package" >/dev/null 2>&1 || missing+=("$package") # each package's command has its name
done
((${#missing[@]} > 0)) || exit 0
((EUID == 0)) || { echo "install-monitoring: missing ${missing[*]}; run as root to install them (apt-get)" >&2; exit 1; }
echo "install-monitoring: installing ${missing[*]} (apt-get)" >&2
policy=/usr/sbin/policy-rc.d added="" rc=0
if [[ ! -e "$policy" ]]; then
  printf '#!/bin/sh\nexit 101\n' >"$policy"
  chmod 755 "$policy"
  added=1
fi
{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null; } || rc=$?
[[ -z "$added" ]] || rm -f "$policy"
((rc == 0)) || { echo "install-monitoring: apt-get install ${missing[*]} failed" >&2; exit 1; }
if [[ -d /run/systemd/system ]]; then
  systemctl disable --now "${missing[@]}" >/dev/null 2>&1 || true
fi

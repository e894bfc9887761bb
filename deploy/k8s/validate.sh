#!/usr/bin/env bash
# Offline check of the Kubernetes manifests (run by .ci/run): the Ingress is up to date with routes.tsv, the prod
# overlay's monitoring objects with deploy/monitoring, every
# overlay renders, every object is valid against its schema, and each service's Deployment matches its
# application.properties (validate/validate.mjs). Needs kubectl, node and npm; no cluster.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"

if ! "$here/render-ingress.sh" --stdout | diff -u "$here/base/ingress.yaml" - >&2; then
  echo "k8s: base/ingress.yaml differs from deploy/gateway/routes.tsv: run deploy/k8s/render-ingress.sh" >&2
  exit 1
fi

if ! "$repo/deploy/monitoring/render-k8s.sh" --stdout | diff -u "$here/overlays/prod/monitoring.yaml" - >&2; then
  echo "k8s: overlays/prod/monitoring.yaml differs from deploy/monitoring: run deploy/monitoring/render-k8s.sh" >&2
  exit 1
fi

# npm ci (exactly the lock file) unless node_modules was installed from the current lock file already
if [[ ! "$here/validate/node_modules/.package-lock.json" -nt "$here/validate/package-lock.json" ]]; then
  (cd "$here/validate" && npm ci --silent --no-audit --no-fund)
fi

rendered="$(mktemp -d)"
trap 'rm -rf "$rendered"' EXIT
args=()
for overlay in "$here"/overlays/*/; do
  name="$(basename "$overlay")"
  kubectl kustomize "$overlay" >"$rendered/$name.yaml"
  args+=("$name=$rendered/$name.yaml")
done

node "$here/validate/validate.mjs" "$repo" "${args[@]}"

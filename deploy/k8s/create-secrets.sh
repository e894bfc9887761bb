#!/usr/bin/env bash
# Generates the Secrets the manifests reference and creates them in NAMESPACE with kubectl (current context).
# Usage: [FILE_STORE_ACCESS_KEY=... FILE_STORE_SECRET_KEY=...] create-secrets.sh NAMESPACE [--dev]
#   --dev also creates the database credentials that CloudNativePG generates in prod: imcore-{auth,message,push}-db-app
#   and the dev PostgreSQL superuser password (imcore-dev-postgres).
# An existing Secret is left alone: regenerating the token keys would invalidate every token; they are rotated with
# deploy/jwt/jwt-keys.sh instead (docs/operations.md, "Rotate keys").
set -euo pipefail
namespace="${1:?usage: create-secrets.sh NAMESPACE [--dev]}"
dev="${2:-}"

# the overlays do not create their namespace (kubectl apply -k needs it too)
kubectl get namespace "$namespace" >/dev/null 2>&1 || kubectl create namespace "$namespace"

# values go through files in a private temporary directory, never on a command line
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
umask 077

exists() { kubectl --namespace "$namespace" get secret "$1" >/dev/null 2>&1; }

# create NAME ARGS...: kubectl create secret generic NAME ARGS, unless NAME exists.
create() {
  if exists "$1"; then
    echo "secret $1 exists: kept"
  else
    kubectl --namespace "$namespace" create secret generic "$@"
  fi
}

# Token keys: the signing key, PKCS#8 PEM (auth-service only), and the key set every service verifies with, a JWKS
# holding its public key. The two belong together: both are created, or both kept.
if exists imcore-jwt-private && exists imcore-jwt-public; then
  echo "secrets imcore-jwt-private and imcore-jwt-public exist: kept"
  if [[ -z "$(kubectl --namespace "$namespace" get secret imcore-jwt-public -o jsonpath='{.data.jwks\.json}')" ]]; then
    echo "WARNING: imcore-jwt-public has no jwks.json (a public.pem from before key sets): migrate it as" \
      "docs/operations.md says before deploying this release" >&2
  fi
elif exists imcore-jwt-private || exists imcore-jwt-public; then
  echo "only one of imcore-jwt-private and imcore-jwt-public exists: a new key would not match it." \
    "Create the other from the same key with deploy/jwt/jwt-keys.sh (docs/operations.md)" >&2
  exit 1
else
  "$(dirname "$0")/../jwt/jwt-keys.sh" new "$work/private.pem" >/dev/null
  "$(dirname "$0")/../jwt/jwt-keys.sh" jwks "$work/private.pem" >"$work/jwks.json"
  create imcore-jwt-private --from-file=private.pem="$work/private.pem"
  create imcore-jwt-public --from-file=jwks.json="$work/jwks.json"
fi
# Operator key of the operator endpoints (/app/create, /app/admin_token, the quotas); only the pods serving them
openssl rand -hex 32 | tr -d '\n' >"$work/platform-key"
create imcore-platform --from-file=platform-key="$work/platform-key"
# the services' key for each other's /internal/* endpoints; never the operator's
openssl rand -hex 32 | tr -d '\n' >"$work/internal-key"
create imcore-internal --from-file=internal-key="$work/internal-key"
# 32 random bytes, base64: encrypts push channel credentials at rest
openssl rand -base64 32 | tr -d '\n' >"$work/certificate-key"
create imcore-push-certificates --from-file=certificate-key="$work/certificate-key"
# 32 random bytes, base64: seals the apps' webhook signing secrets at rest (message-service)
openssl rand -base64 32 | tr -d '\n' >"$work/webhooks-secret-key"
create imcore-webhooks --from-file=secret-key="$work/webhooks-secret-key"
# The object store's credentials (docs/files.md): the operator's, from the store (an IAM user's key limited to the
# bucket, a MinIO or Ceph user), given as FILE_STORE_ACCESS_KEY and FILE_STORE_SECRET_KEY; the prod overlay reads them
if exists imcore-file-store; then
  echo "secret imcore-file-store exists: kept"
elif [[ -n "${FILE_STORE_ACCESS_KEY:-}" && -n "${FILE_STORE_SECRET_KEY:-}" ]]; then
  printf '%s' "$FILE_STORE_ACCESS_KEY" >"$work/file-store-access-key"
  printf '%s' "$FILE_STORE_SECRET_KEY" >"$work/file-store-secret-key"
  create imcore-file-store --from-file=access-key="$work/file-store-access-key" \
    --from-file=secret-key="$work/file-store-secret-key"
elif [[ "$dev" != --dev ]]; then
  echo "WARNING: secret imcore-file-store not created: set FILE_STORE_ACCESS_KEY and FILE_STORE_SECRET_KEY" \
    "(the object store's credentials) and run again; message-service will not start without it" >&2
fi

if [[ "$dev" == --dev ]]; then
  for db in auth message push postgres; do
    openssl rand -hex 24 | tr -d '\n' >"$work/$db-password"
  done
  for db in auth message push; do
    create "imcore-$db-db-app" --from-literal=username="$db" --from-file=password="$work/$db-password"
  done
  create imcore-dev-postgres --from-file=password="$work/postgres-password"
fi

#!/usr/bin/env bash
# Generates the Secrets the manifests reference and creates them in NAMESPACE with kubectl (current context).
# Usage: create-secrets.sh NAMESPACE [--dev]
#   --dev also creates the database credentials that CloudNativePG generates in prod: imcore-{auth,message,push}-db-app
#   and the dev PostgreSQL superuser password (imcore-dev-postgres).
# An existing Secret is left alone: regenerating the JWT key pair would invalidate every token (docs/operations.md).
set -euo pipefail
namespace="${1:?usage: create-secrets.sh NAMESPACE [--dev]}"
dev="${2:-}"

# the overlays do not create their namespace (kubectl apply -k needs it too)
kubectl get namespace "$namespace" >/dev/null 2>&1 || kubectl create namespace "$namespace"

# values go through files in a private temporary directory, never on a command line
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
umask 077

# create NAME ARGS...: kubectl create secret generic NAME ARGS, unless NAME exists.
create() {
  if kubectl --namespace "$namespace" get secret "$1" >/dev/null 2>&1; then
    echo "secret $1 exists: kept"
  else
    kubectl --namespace "$namespace" create secret generic "$@"
  fi
}

# JWT key pair: private key PKCS#8 PEM (auth-service signs), public key SPKI PEM (every service verifies).
openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$work/private.pem" 2>/dev/null
openssl pkey -in "$work/private.pem" -pubout -out "$work/public.pem"
create imcore-jwt-private --from-file=private.pem="$work/private.pem"
create imcore-jwt-public --from-file=public.pem="$work/public.pem"
# Operator key of /app/create and /app/admin_token
openssl rand -hex 32 | tr -d '\n' >"$work/platform-key"
create imcore-platform --from-file=platform-key="$work/platform-key"
# 32 random bytes, base64: encrypts push channel credentials at rest
openssl rand -base64 32 | tr -d '\n' >"$work/certificate-key"
create imcore-push-certificates --from-file=certificate-key="$work/certificate-key"
# the key in the receipt URL providers call back on (push-service /push/receipt/<channel>?key=...)
openssl rand -hex 24 | tr -d '\n' >"$work/receipt-key"
create imcore-push-receipts --from-file=receipt-key="$work/receipt-key"

if [[ "$dev" == --dev ]]; then
  for db in auth message push postgres; do
    openssl rand -hex 24 | tr -d '\n' >"$work/$db-password"
  done
  for db in auth message push; do
    create "imcore-$db-db-app" --from-literal=username="$db" --from-file=password="$work/$db-password"
  done
  create imcore-dev-postgres --from-file=password="$work/postgres-password"
fi

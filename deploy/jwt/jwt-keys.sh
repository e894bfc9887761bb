#!/usr/bin/env bash
# Token keys for the local stack, the Kubernetes Secrets and rotations (docs/operations.md, "Rotate keys").
# Needs bash and openssl only.
#   jwt-keys.sh new FILE      a new 2048-bit RSA signing key, PKCS#8 PEM, written to FILE (never overwritten);
#                             prints its kid
#   jwt-keys.sh kid PEM       the kid of a key: its RFC 7638 JWK thumbprint (SHA-256, base64url); PEM may hold the
#                             private key or the public key
#   jwt-keys.sh jwks PEM...   the verification key set every service reads (mp.jwt.verify.publickey.location):
#                             a JWK Set (RFC 7517) with the public key of each PEM, named by its kid, one key a line
# The set is always derived from PEM files, never edited: to add or retire a key, run jwks again with the keys
# that stay. A JWKS never holds private key material.
set -euo pipefail

die() { echo "jwt-keys.sh: $*" >&2; exit 1; }

# base64url without padding (RFC 7515 section 2) of stdin
base64url() { openssl base64 -A | tr '+/' '-_' | tr -d '='; }

# the SPKI PEM public key of a private or public key file
public_pem() {
  [[ -r "$1" ]] || die "cannot read $1"
  if grep -q "PRIVATE KEY" "$1"; then openssl pkey -in "$1" -pubout; else openssl pkey -pubin -in "$1"; fi
}

# the RSA members of a public key as base64url of their unsigned big-endian bytes (RFC 7518 section 6.3.1):
# sets N and E
rsa_members() {
  local pem modulus exponent
  pem="$(public_pem "$1")"
  modulus="$(openssl rsa -pubin -noout -modulus <<<"$pem" 2>/dev/null | sed -n 's/^Modulus=//p')"
  [[ -n "$modulus" ]] || die "$1 is not an RSA key"
  exponent="$(openssl rsa -pubin -noout -text <<<"$pem" | sed -n 's/^Exponent: \([0-9]*\).*/\1/p')"
  exponent="$(printf '%x' "$exponent")"
  ((${#exponent} % 2 == 0)) || exponent="0$exponent"
  N="$(hex_to_base64url "$modulus")"
  E="$(hex_to_base64url "$exponent")"
}

hex_to_base64url() { printf '%b' "$(sed 's/../\\x&/g' <<<"$1")" | base64url; }

# RFC 7638 section 3: SHA-256 of the required members in lexicographic order, no whitespace
thumbprint() { printf '{"e":"%s","kty":"RSA","n":"%s"}' "$E" "$N" | openssl dgst -sha256 -binary | base64url; }

command="${1:-}"
shift || true
case "$command" in
  new)
    file="${1:?usage: jwt-keys.sh new FILE}"
    [[ ! -e "$file" ]] || die "$file exists: a signing key is never overwritten"
    (umask 077 && openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$file.tmp" 2>/dev/null)
    mv "$file.tmp" "$file"
    rsa_members "$file"
    thumbprint
    echo
    ;;
  kid)
    rsa_members "${1:?usage: jwt-keys.sh kid PEM}"
    thumbprint
    echo
    ;;
  jwks)
    (($# > 0)) || die "usage: jwt-keys.sh jwks PEM..."
    declare -A seen=()
    lines=()
    for pem in "$@"; do
      rsa_members "$pem"
      kid="$(thumbprint)"
      [[ -z "${seen[$kid]:-}" ]] || die "$pem: the same key is given twice"
      seen[$kid]=1
      lines+=("$(printf '{"kty":"RSA","kid":"%s","use":"sig","alg":"RS256","n":"%s","e":"%s"}' "$kid" "$N" "$E")")
    done
    echo '{"keys":['
    for i in "${!lines[@]}"; do
      if ((i + 1 < ${#lines[@]})); then echo "${lines[$i]},"; else echo "${lines[$i]}"; fi
    done
    echo ']}'
    ;;
  *)
    sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
    ;;
esac

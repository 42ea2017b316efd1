#!/usr/bin/env bash
# Smoke check of how a running Changeflow serves the web app during releases (design 3.8): the page is
# never cached, hashed assets are cached for a year, a missing asset or API path is a 404 JSON answer
# (never the page), and an app route navigation gets the page. curl only; run it after every deployment.
#
#   scripts/smoke-static.sh <base-url>            e.g. scripts/smoke-static.sh https://changeflow.example.com
#   SMOKE_CURL_OPTS='-H "Cookie: x=y"' ...        extra curl options (a login proxy's cookie, --insecure, ...)
#   SMOKE_TIMEOUT=10                              seconds per request (default 10)
#
# Prints one line per check ("ok" or "FAIL" with what was expected and what came back) and exits 1 when
# any check failed, 2 on wrong usage.
set -u

if [ "$#" -ne 1 ] || [ -z "$1" ]; then
  echo "usage: $0 <base-url>   (e.g. http://localhost:8080)" >&2
  exit 2
fi
base="${1%/}"
timeout="${SMOKE_TIMEOUT:-10}"
work="$(mktemp -d "${TMPDIR:-/tmp}/smoke-static.XXXXXX")" || exit 2
trap 'rm -rf "$work"' EXIT
failures=0
checks=0

# Extra curl options, split like a shell would (quotes respected).
extra=()
if [ -n "${SMOKE_CURL_OPTS:-}" ]; then
  eval "extra=(${SMOKE_CURL_OPTS})"
fi

ok() { checks=$((checks + 1)); echo "ok    $1"; }
fail() { checks=$((checks + 1)); failures=$((failures + 1)); echo "FAIL  $1"; }

# fetch <name> <path> <accept>: body in $work/<name>.body, headers (lower-case names) in $work/<name>.headers,
# status in $status. A failed connection is status 000.
fetch() {
  local name="$1" path="$2" accept="$3"
  : >"$work/$name.body"; : >"$work/$name.raw"
  status="$(curl -sS --max-time "$timeout" ${extra[@]+"${extra[@]}"} -H "Accept: $accept" \
      -D "$work/$name.raw" -o "$work/$name.body" -w '%{http_code}' "$base$path" 2>"$work/$name.err")" || status="000"
  # Only the last response's headers (no redirects are followed), CR removed, names in lower case.
  tr -d '\r' <"$work/$name.raw" 2>/dev/null | awk -F': *' 'NF > 1 { printf "%s: %s\n", tolower($1), substr($0, index($0, ":") + 2) }' \
      >"$work/$name.headers"
}

header() { sed -n "s/^$2: //p" "$work/$1.headers" | tail -n 1; }

# expect_status <check> <name> <code>
expect_status() {
  if [ "$status" = "$3" ]; then ok "$1: HTTP $3"; else
    local why=""; [ "$status" = "000" ] && why=" ($(head -c 200 "$work/$2.err"))"
    fail "$1: expected HTTP $3, got $status$why"
  fi
}

# expect_header_has <check> <name> <header> <token>...: every token is in the header (case-insensitive).
expect_header_has() {
  local check="$1" name="$2" field="$3"; shift 3
  local value; value="$(header "$name" "$field")"
  local missing=""
  for token in "$@"; do
    printf '%s' "$value" | grep -qi -- "$token" || missing="$missing $token"
  done
  if [ -z "$missing" ]; then ok "$check: $field: $value"; else
    fail "$check: expected $field with$missing, got '${value:-<none>}'"
  fi
}

expect_no_store() { expect_header_has "$1" "$2" cache-control no-store; }

# expect_json_not_found <check> <name>: a 404 JSON NOT_FOUND envelope, not an HTML page.
expect_json_not_found() {
  expect_status "$1" "$2" 404
  expect_header_has "$1" "$2" content-type application/json
  expect_no_store "$1" "$2"
  if grep -q '"code" *: *"NOT_FOUND"' "$work/$2.body" && ! grep -qi '<html' "$work/$2.body"; then
    ok "$1: body is the NOT_FOUND envelope"
  else
    fail "$1: expected the JSON NOT_FOUND envelope, got: $(head -c 120 "$work/$2.body" | tr '\n' ' ')"
  fi
}

echo "Smoke check of static assets at $base"

# 1. The page: never cached, so a browser always gets the latest asset manifest.
fetch index / 'text/html,application/xhtml+xml'
if [ "$status" = "000" ]; then
  echo "FAIL  cannot reach $base: $(head -c 200 "$work/index.err")"
  exit 1
fi
expect_status "index.html (GET /)" index 200
expect_header_has "index.html (GET /)" index content-type text/html
expect_no_store "index.html (GET /)" index

# 2. A hashed asset named by the page: cached for a year, immutable.
asset="$(grep -oE '/assets/[A-Za-z0-9._-]+\.(js|css)' "$work/index.body" 2>/dev/null | head -n 1)"
if [ -z "$asset" ]; then
  fail "hashed asset: the page names no /assets/*.js or *.css"
else
  fetch asset "$asset" '*/*'
  expect_status "hashed asset ($asset)" asset 200
  expect_header_has "hashed asset ($asset)" asset cache-control max-age=31536000 public immutable
fi

# 3. A missing asset: 404 JSON with no-store, never the page (a browser would report a MIME error
#    instead of letting the app recover); also when the client says it accepts HTML.
missing="/assets/smoke-missing-$$.js"
fetch missing_asset "$missing" '*/*'
expect_json_not_found "missing asset ($missing)" missing_asset
fetch missing_asset_html "$missing" 'text/html,*/*'
expect_json_not_found "missing asset, Accept text/html ($missing)" missing_asset_html

# 4. A missing API path: 404 JSON.
fetch missing_api "/api/smoke-missing-$$" 'application/json'
expect_json_not_found "missing API path (/api/smoke-missing-$$)" missing_api

# 5. A navigation to an app route: the page, never cached.
fetch route "/requests/smoke-check-$$" 'text/html,application/xhtml+xml'
expect_status "app route navigation (/requests/...)" route 200
expect_header_has "app route navigation (/requests/...)" route content-type text/html
expect_no_store "app route navigation (/requests/...)" route
if [ -n "$asset" ] && grep -qF "$asset" "$work/route.body"; then
  ok "app route navigation (/requests/...): the SPA page (names $asset)"
else
  fail "app route navigation (/requests/...): expected the SPA page naming ${asset:-a hashed asset}"
fi

if [ "$failures" -gt 0 ]; then
  echo "$failures of $checks checks FAILED at $base"
  exit 1
fi
echo "all $checks checks passed at $base"

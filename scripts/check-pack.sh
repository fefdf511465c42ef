#!/usr/bin/env bash
# `npm pack` of a clean clone (committed files only, no dist/) must build dist/ itself through the
# prepack script and ship it with LICENSE and README. Run by .ci/run after the tests (it builds once,
# about a minute); test/package/install.test.ts checks the installed tarball itself.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
git clone -q --no-local . "$tmp/clone"
ln -s "$PWD/node_modules" "$tmp/clone/node_modules"
(cd "$tmp/clone" && test ! -e dist && npm pack --silent --pack-destination "$tmp" >/dev/null)
listing="$(tar -tzf "$tmp"/chatwire-*.tgz)"
missing=0
for f in dist/index.js dist/index.cjs dist/index.d.ts dist/core.js dist/core.cjs dist/server.js dist/cli/main.js LICENSE README.md templates/LICENSE-Apache-2.0.txt; do
  grep -qx "package/$f" <<<"$listing" || { echo "check-pack: the tarball lacks $f" >&2; missing=1; }
done
[ "$missing" = 0 ] && echo "check-pack: npm pack of a clean clone ships dist/, LICENSE and README ($(wc -l <<<"$listing") files)"
exit "$missing"

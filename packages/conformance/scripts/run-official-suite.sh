#!/bin/sh
# Runs the official client's own jest suite (a checkout of DeepLcom/deepl-node with its dev dependencies
# installed: `npm ci`) against a real Glossa server with every feature. Its code is not part of Glossa and is
# not committed here; the one change made to the checkout is the auth scheme word, set through the client's
# documented `headers` option in tests/core.ts. Each test file runs in its own jest process: the suite's nock
# interceptors (nock.disableNetConnect) otherwise leak from one file into the next one of the same worker.
# Usage: scripts/run-official-suite.sh /path/to/deepl-node [port]
set -eu
checkout=$1
port=${2:-18780}
here=$(cd "$(dirname "$0")/.." && pwd)
results=${RESULTS_DIR:-$(mktemp -d)}

if ! grep -q 'Service-Auth-Key' "$checkout/tests/core.ts"; then
  node -e '
    const fs = require("fs");
    const file = process.argv[1];
    const marker = "        sessionHeaders[\x27mock-server-session\x27] = makeSessionName();\n    }\n";
    const source = fs.readFileSync(file, "utf8");
    if (source.split(marker).length !== 3) throw new Error("tests/core.ts changed: cannot set the auth word");
    fs.writeFileSync(file, source.split(marker).join(marker +
      "    sessionHeaders.Authorization = `Service-Auth-Key ${authKey}`;\n"));
  ' "$checkout/tests/core.ts"
fi

cd "$here"
# tsx itself (not npx, which would not pass the signal on), so the trap below stops the server.
"$here/../../node_modules/.bin/tsx" --conditions @glossa/source scripts/serve.ts "$port" > "$results/server.json" &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 1 120); do
  [ -s "$results/server.json" ] && break
  sleep 0.5
done
key=$(node -e 'console.log(JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).key)' "$results/server.json")

cd "$checkout"
printf 'DEEPL_AUTH_KEY=%s\nDEEPL_SERVER_URL=http://localhost:%s\n' "$key" "$port" > .env
for file in tests/*.test.ts tests/*/*.test.ts; do
  name=$(echo "$file" | tr '/' '_')
  npx jest "$file" --json --outputFile="$results/$name.json" > "$results/$name.log" 2>&1 || true
done
node "$here/scripts/summarize-official-suite.mjs" "$results"

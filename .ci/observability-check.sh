#!/usr/bin/env bash
# The observability check (every dashboard panel must show data), run by .ci/run after `npm run build`:
#   1. promtool check rules / test rules on grafana/prometheus, check config on the example;
#   2. two service instances from dist/ (one on its in-process simulator, one in front of a
#      separate simulator whose faults open the HLR breaker) under traffic that includes
#      failures, and `promtool check metrics` on both /metrics;
#   3. a real Prometheus (Debian's package) scraping them every second with rules.yml loaded,
#      then every dashboard panel query evaluated through its HTTP API: each must return data.
# Everything runs on 127.0.0.1 on free ports and is stopped on exit, pass or fail.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
# The project's own Node 24 (node_modules/.bin, from npm ci) whatever the system Node is (CONTRACT §6).
export PATH="$ROOT/node_modules/.bin:$PATH"
PROM_DIR="$ROOT/grafana/prometheus"
HELPERS="$ROOT/.ci/observability"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/vc-observability.XXXXXX")"
PIDS=()

cleanup() {
  local status=$?
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
  if [ "$status" -ne 0 ]; then
    for log in "$WORK"/*.log; do
      [ -f "$log" ] || continue
      echo "---- last lines of $(basename "$log") ----" >&2
      tail -n 20 "$log" >&2 || true
    done
  fi
  rm -rf "$WORK"
  exit "$status"
}
trap cleanup EXIT

step() { printf '\n== %s\n' "$*"; }

ensure_prometheus() {
  if command -v prometheus >/dev/null && command -v promtool >/dev/null; then return; fi
  step "installing Prometheus (Debian package)"
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  # The package's own service is never started here (no init in CI, and we run our own).
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends prometheus >/dev/null
}

free_port() {
  node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"
}

wait_http() { # url, what
  for _ in $(seq 1 100); do
    if node -e "fetch(process.argv[1]).then(r=>process.exit(r.ok?0:1),()=>process.exit(1))" "$1"; then return; fi
    sleep 0.1
  done
  echo "$2 did not answer at $1" >&2
  return 1
}

check_metrics() { # url, what
  node -e "fetch(process.argv[1]).then(r=>r.text()).then(t=>process.stdout.write(t))" "$1" >"$WORK/metrics.txt"
  promtool check metrics <"$WORK/metrics.txt"
  echo "promtool check metrics: $2 OK ($(grep -c '^# TYPE' "$WORK/metrics.txt") metric families)"
}

ensure_prometheus
promtool --version | head -n 1

step "promtool check rules"
promtool check rules "$PROM_DIR/rules.yml"
step "promtool test rules"
promtool test rules "$PROM_DIR"/*.test.yml
step "promtool check config (example)"
promtool check config "$PROM_DIR/prometheus.example.yml"

if [ ! -f dist/src/main.js ] || [ ! -f dist/src/simulator/main.js ]; then
  echo "dist/ is missing: run npm run build first" >&2
  exit 1
fi

step "starting two service instances and a simulator"
# The demo partners plus one with a tiny rate limit, so 429s happen.
node -e "
const p = JSON.parse(require('fs').readFileSync('fixtures/demo-partners.json', 'utf8'));
p.partners.push({ name: 'ci-throttled', apiKey: 'ci-throttled-key', secret: 'ci-throttled-secret',
  operations: ['kyc', 'sim_swap'], enabled: true, rateLimit: { perSecond: 0.1, burst: 1 } });
require('fs').writeFileSync(process.argv[1], JSON.stringify(p));" "$WORK/partners.json"

PORT_A="$(free_port)"; ADMIN_A="$(free_port)"; PORT_B="$(free_port)"; PORT_SIM="$(free_port)"; PORT_PROM="$(free_port)"
SIM_URL_BASE="http://127.0.0.1:$PORT_SIM"

SIMULATOR_PORT="$PORT_SIM" node dist/src/simulator/main.js >"$WORK/simulator.log" 2>&1 &
PIDS+=($!)
# Instance A serves its probes and /metrics on an admin port (ADMIN_PORT), B on its one port:
# the rules and dashboards must work with both.
PORT="$PORT_A" ADMIN_PORT="$ADMIN_A" HOST=127.0.0.1 LOG_LEVEL=warn PARTNERS_FILE="$WORK/partners.json" HLR_URL= SIM_URL= CRM_URL= \
  EVENTS_TOKEN=ci-events-token-0123456789 SINK_ALLOW_HTTP=true SINK_ALLOW_PRIVATE=true WEBHOOK_BACKOFF_BASE_MS=200 WEBHOOK_BACKOFF_MAX_MS=1000 \
  node dist/src/main.js >"$WORK/instance-a.log" 2>&1 &
PIDS+=($!)
wait_http "$SIM_URL_BASE/sim/subscribers/255712000001/sim" simulator
# Instance B: few calls open its breaker, which then stays open for the whole check.
PORT="$PORT_B" HOST=127.0.0.1 LOG_LEVEL=warn PARTNERS_FILE="$WORK/partners.json" \
  HLR_URL="$SIM_URL_BASE/hlr" SIM_URL="$SIM_URL_BASE/sim" CRM_URL="$SIM_URL_BASE/crm" HLR_TIMEOUT_MS=200 CRM_TIMEOUT_MS=200 KYC_CACHE_TTL_S=0 \
  BREAKER_VOLUME_THRESHOLD=3 BREAKER_RESET_TIMEOUT_MS=600000 \
  node dist/src/main.js >"$WORK/instance-b.log" 2>&1 &
PIDS+=($!)
wait_http "http://127.0.0.1:$ADMIN_A/healthz" "instance A"
wait_http "http://127.0.0.1:$PORT_B/healthz" "instance B"

step "starting Prometheus on 127.0.0.1:$PORT_PROM (scrape and rule evaluation every 1s)"
cat >"$WORK/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
  scrape_timeout: 1s
  evaluation_interval: 1s
rule_files:
  - $PROM_DIR/rules.yml
scrape_configs:
  - job_name: verify-customer
    static_configs:
      - targets: ['127.0.0.1:$ADMIN_A', '127.0.0.1:$PORT_B']
EOF
prometheus --config.file="$WORK/prometheus.yml" --storage.tsdb.path="$WORK/tsdb" \
  --web.listen-address="127.0.0.1:$PORT_PROM" --log.level=warn >"$WORK/prometheus.log" 2>&1 &
PIDS+=($!)
PROM="http://127.0.0.1:$PORT_PROM"
wait_http "$PROM/-/ready" Prometheus
# Counters must be seen before the traffic, or rate() has no increase to measure.
for _ in $(seq 1 100); do
  up="$(node -e "fetch(process.argv[1]).then(r=>r.json()).then(b=>console.log(b.data.result.length))" \
    "$PROM/api/v1/query?query=up%3D%3D1")"
  [ "$up" = "2" ] && break
  sleep 0.2
done
[ "$up" = "2" ] || { echo "Prometheus did not scrape both instances" >&2; exit 1; }

step "driving traffic"
node "$HELPERS/drive-traffic.js" "http://127.0.0.1:$PORT_A" "http://127.0.0.1:$PORT_B" "$SIM_URL_BASE" \
  --healthy-admin-url "http://127.0.0.1:$ADMIN_A"

step "promtool check metrics"
check_metrics "http://127.0.0.1:$ADMIN_A/metrics" "instance A"
check_metrics "http://127.0.0.1:$PORT_B/metrics" "instance B"

step "evaluating every dashboard panel query"
sleep 3 # a few scrapes and rule evaluations after the last request
node "$HELPERS/check-panels.js" --prometheus "$PROM" --dashboards "$ROOT/grafana/provisioning/dashboards" \
  --expect-alert VerifyCircuitBreakerOpen --timeout-s 30
echo "observability check: OK"

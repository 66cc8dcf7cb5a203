#!/usr/bin/env bash
# Checks the "Take it to AWS" exports (issue 17) with the tools AWS users run:
#   1. cfn-lint on the CloudFormation template exported from every scenario file (no finding at all);
#   2. the hostile-strings template read back as YAML: every name, display name, filter policy and
#      alarm text is exactly the scenario's;
#   3. every boto3 export compiles (py_compile) and every AWS CLI export parses (bash -n);
#   4. moto (a local AWS, in server mode on a free loopback port): the boto3 export of each story
#      below is run against it and must print the engine's own per-queue counts
#      (`fanout export counts`), the AWS CLI export too for two of them, and for the hostile story
#      the bodies and attributes that arrive must be the engine's.
# Its tools are installed into .venv-export/ from requirements-export.txt (all pinned), only when
# missing or when that file changed. Ends with "export check: PASS" (exit 0) or
# "export check: FAIL, N problem(s)" (exit 1); exit 2 when a tool cannot be installed or built.
set -uo pipefail
cd "$(dirname "$0")/.."

VENV=.venv-export
REQUIREMENTS=requirements-export.txt
# Stories whose counts the scripts reproduce: nothing in them receives, deletes or consumes.
# (FIFO stories are linted but not run: moto 5.2.5 does not hand an SNS FIFO topic's
# content-based deduplication id on to its SQS FIFO subscribers, as AWS does.)
RUN_BOTO3=(public/scenarios/quilt-store.json public/scenarios/poison-dlq.json
  engine/tests/scenarios/quilt-store-orders.json engine/tests/scenarios/export-hostile.json)
RUN_AWSCLI=(engine/tests/scenarios/quilt-store-orders.json engine/tests/scenarios/export-hostile.json)
HOSTILE=engine/tests/scenarios/export-hostile.json

problems=0
fail() { echo "FAIL $*"; problems=$((problems + 1)); }
start=$SECONDS

# --- tools ---------------------------------------------------------------------------------
want=$(sha256sum "$REQUIREMENTS" | cut -d' ' -f1)
if [ "$(cat "$VENV/.installed" 2>/dev/null)" = "$want" ]; then
  echo "==> tools: already installed in $VENV"
else
  echo "==> tools: installing cfn-lint, moto, boto3 and the AWS CLI into $VENV (from $REQUIREMENTS)"
  rm -rf "$VENV"
  python3 -m venv "$VENV" || { echo "python3 -m venv failed: install it with apt-get install -y python3-venv"; exit 2; }
  "$VENV/bin/pip" install --quiet --disable-pip-version-check -r "$REQUIREMENTS" \
    || { echo "pip could not install $REQUIREMENTS"; exit 2; }
  echo "$want" > "$VENV/.installed"
fi
PY="$VENV/bin/python"
export AWS_ACCESS_KEY_ID=testing AWS_SECRET_ACCESS_KEY=testing AWS_DEFAULT_REGION=us-east-1
unset AWS_PROFILE AWS_SESSION_TOKEN

echo "==> building fanout"
cargo build --quiet --release --bin fanout || { echo "cargo could not build fanout"; exit 2; }
target=$(cargo metadata --format-version 1 --no-deps | "$PY" -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')
FANOUT="$target/release/fanout"

work=$(mktemp -d)
moto_pid=""
cleanup() {
  [ -n "$moto_pid" ] && kill "$moto_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

# --- 1. cfn-lint on every template -----------------------------------------------------------
echo "==> cfn-lint on the template of every scenario and lesson file"
# A lesson's template is its starting scenario's (public/lessons/index.json lists them: skipped).
for f in public/scenarios/*.json engine/tests/scenarios/*.json $(ls public/lessons/*.json | grep -v '/index.json$'); do
  name=$(basename "$(dirname "$f")")-$(basename "$f" .json)
  "$FANOUT" export cloudformation "$f" > "$work/$name.yaml" || fail "$f: export cloudformation"
  "$FANOUT" export boto3 "$f" > "$work/$name.py" || fail "$f: export boto3"
  "$FANOUT" export awscli "$f" > "$work/$name.sh" || fail "$f: export awscli"
done
templates=("$work"/*.yaml)
if "$VENV/bin/cfn-lint" --format parseable -- "${templates[@]}"; then
  echo "ok   ${#templates[@]} templates, no error, warning or informational finding"
else
  fail "cfn-lint found the problems above"
fi

# --- 2. the hostile strings read back --------------------------------------------------------
echo "==> the hostile-strings template read back as YAML"
"$FANOUT" export cloudformation "$HOSTILE" > "$work/hostile.yaml"
if "$PY" - "$HOSTILE" "$work/hostile.yaml" <<'PY'
import json, sys
from cfnlint.decode import cfn_yaml

scenario = json.load(open(sys.argv[1]))
template = cfn_yaml.load(sys.argv[2])
resources = template["Resources"].values()
def values(kind, prop):
    return sorted(str(r["Properties"][prop]) for r in resources if r["Type"] == kind and prop in r["Properties"])
def given(action, pick):
    return sorted(v for s in scenario["steps"] if s.get("action") == action for v in [pick(s["params"])] if v is not None)
checks = [
    ("topic DisplayName", values("AWS::SNS::Topic", "DisplayName"), given("CreateTopic", lambda p: p.get("Attributes", {}).get("DisplayName"))),
    ("FilterPolicy", values("AWS::SNS::Subscription", "FilterPolicy"), given("Subscribe", lambda p: p.get("Attributes", {}).get("FilterPolicy"))),
    ("AlarmName", values("AWS::CloudWatch::Alarm", "AlarmName"), given("PutMetricAlarm", lambda p: p.get("AlarmName"))),
    ("AlarmDescription", values("AWS::CloudWatch::Alarm", "AlarmDescription"), given("PutMetricAlarm", lambda p: p.get("AlarmDescription"))),
]
bad = [(what, got, want) for what, got, want in checks if got != want or not want]
for what, got, want in bad:
    print(f"FAIL {what}: the template has {got!r}, the scenario {want!r}")
if not bad:
    print(f"ok   {', '.join(c[0] for c in checks)}: exactly as given")
sys.exit(1 if bad else 0)
PY
then :; else fail "the hostile strings did not read back"; fi

# --- 3. the scripts parse --------------------------------------------------------------------
echo "==> every boto3 export compiles, every AWS CLI export parses"
scripts_ok=1
for s in "$work"/*.py; do "$PY" -m py_compile "$s" || { fail "$s does not compile"; scripts_ok=0; }; done
for s in "$work"/*.sh; do bash -n "$s" || { fail "$s does not parse"; scripts_ok=0; }; done
[ "$scripts_ok" = 1 ] && echo "ok   $(ls "$work"/*.py | wc -l) Python scripts, $(ls "$work"/*.sh | wc -l) bash scripts"

# --- 4. the scripts against moto -------------------------------------------------------------
echo "==> the scripts against moto"
port=$("$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
ENDPOINT="http://127.0.0.1:$port"
"$VENV/bin/moto_server" -H 127.0.0.1 -p "$port" > "$work/moto.log" 2>&1 &
moto_pid=$!
moto_up() { "$PY" -c 'import sys, urllib.request; urllib.request.urlopen(sys.argv[1] + "/moto-api/", timeout=2)' "$ENDPOINT" 2>/dev/null; }
reset_moto() {
  "$PY" -c 'import sys, urllib.request; urllib.request.urlopen(urllib.request.Request(sys.argv[1] + "/moto-api/reset", method="POST"), timeout=10)' "$ENDPOINT"
}
for _ in $(seq 1 150); do moto_up && break; sleep 0.2; done
moto_up || { fail "moto did not start on $ENDPOINT"; cat "$work/moto.log"; }

compare_counts() { # LABEL FILE GOT
  local want
  want=$("$FANOUT" export counts "$2")
  if [ "$3" = "$want" ]; then
    echo "ok   $1 $2: $(echo "$want" | paste -sd, -)"
  else
    fail "$1 $2: the engine counts"; echo "$want" | sed 's/^/       /'
    echo "     the script printed"; echo "$3" | sed 's/^/       /'
  fi
}

for f in "${RUN_BOTO3[@]}"; do
  reset_moto
  "$FANOUT" export boto3 "$f" > "$work/run.py"
  got=$("$PY" "$work/run.py" --endpoint-url "$ENDPOINT" --wait 0) || fail "boto3 $f: the script failed"
  compare_counts boto3 "$f" "$got"
  if [ "$f" = "$HOSTILE" ]; then
    "$FANOUT" run --json "$f" > "$work/engine.json"
    if "$PY" - "$ENDPOINT" "$work/engine.json" <<'PY'
import json, sys
import boto3
sqs = boto3.client("sqs", endpoint_url=sys.argv[1], region_name="us-east-1")
engine = json.load(open(sys.argv[2]))["snapshot"]["queues"]
bad = 0
for q in engine:
    want = sorted((m["body"], json.dumps(m["attributes"], sort_keys=True)) for m in q["messages"])
    url = sqs.get_queue_url(QueueName=q["name"])["QueueUrl"]
    got = sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10, MessageAttributeNames=["All"]).get("Messages", [])
    got = sorted((m["Body"], json.dumps(m.get("MessageAttributes", {}), sort_keys=True)) for m in got)
    if got != want:
        bad += 1
        print(f"FAIL {q['name']}: moto holds {got!r}, the engine {want!r}")
if not bad:
    print("ok   the hostile bodies and attributes arrived exactly as the engine holds them")
sys.exit(1 if bad else 0)
PY
    then :; else fail "the hostile messages differ"; fi
  fi
done

for f in "${RUN_AWSCLI[@]}"; do
  reset_moto
  "$FANOUT" export awscli "$f" > "$work/run.sh"
  got=$(PATH="$PWD/$VENV/bin:$PATH" bash "$work/run.sh" --endpoint-url "$ENDPOINT" --wait 0) || fail "awscli $f: the script failed"
  compare_counts awscli "$f" "$got"
done

echo "==> $((SECONDS - start)) s"
if [ "$problems" -eq 0 ]; then
  echo "export check: PASS"
else
  echo "export check: FAIL, $problems problem(s)"
  exit 1
fi

#!/usr/bin/env bash
# Make every file in sample_logs/ again, exactly: the same seeds give the same bytes.
#   ./sample_logs/regenerate.sh          (from anywhere; uses the project's .venv unless CRIBSTATS/PYTHON are set)
set -euo pipefail
cd "$(dirname "$0")/.."
CRIBSTATS=${CRIBSTATS:-.venv/bin/cribstats}
PYTHON=${PYTHON:-.venv/bin/python}
OUT=sample_logs

CLUB="Alice,Bob,Carol,Dave,Erin,Frank,Grace,Hank,Irene,Jack,Kate,Leo"
LEAGUE="$CLUB,Mona,Ned,Olga,Pete"

rm -rf "$OUT"/variants "$OUT"/mistakes "$OUT"/tally "$OUT"/club-night.jsonl "$OUT"/season-2026.jsonl
mkdir -p "$OUT"/variants "$OUT"/mistakes "$OUT"/tally

# A club night: 12 players, 40 six-card games in rounds of six tables.
$CRIBSTATS simulate --games 40 --players "$CLUB" --seed 101 --event "Elks Lodge Club Night" \
  --start-date 2026-11-03 --site "Elks Lodge" --out "$OUT"/club-night.jsonl

# A season: 2,000 six-card games, 16 players, two weekly events (Tuesday League, Wednesday Open),
# 40 games a night, March to August.
$CRIBSTATS simulate --games 2000 --players "$LEAGUE" --seed 2026 --event "Tuesday League" \
  --event "Wednesday Open" --start-date 2026-03-03 --site "Elks Lodge" --out "$OUT"/season-2026.jsonl

# One example of every other variant (four-player as a folder: one .json file a game).
$CRIBSTATS simulate --games 20 --variant five-card --players "Alice,Bob,Carol,Dave" --seed 5 \
  --event "Five-Card Friday" --start-date 2026-10-02 --out "$OUT"/variants/five-card.jsonl
$CRIBSTATS simulate --games 10 --variant seven-card --players "Erin,Frank" --seed 7 \
  --event "Seven-Card Social" --start-date 2026-10-05 --out "$OUT"/variants/seven-card.jsonl
$CRIBSTATS simulate --games 10 --variant three-player --players "Grace,Hank,Irene" --seed 3 \
  --event "Three-Hand Night" --start-date 2026-10-07 --out "$OUT"/variants/three-player.jsonl
$CRIBSTATS simulate --games 6 --variant four-player --players "Jack,Kate,Leo,Mona" --seed 4 \
  --event "Partners Cup" --start-date 2026-10-09 --out "$OUT"/variants/four-player

# Logs with mistakes, and the findings `cribstats audit --json` must print for them (not logs: .txt).
$CRIBSTATS simulate --games 25 --players "$CLUB" --seed 301 --mistakes 0.03 --event "Mistakes Night" \
  --start-date 2026-11-10 --out "$OUT"/mistakes/six-card.jsonl \
  --expected "$OUT"/mistakes/six-card.expected-findings.txt
$CRIBSTATS simulate --games 25 --players "$CLUB" --seed 302 --mistakes 0.03 --muggins \
  --event "Muggins Night" --start-date 2026-11-17 --out "$OUT"/mistakes/six-card-muggins.jsonl \
  --expected "$OUT"/mistakes/six-card-muggins.expected-findings.txt
for v in five-card seven-card three-player four-player; do
  $CRIBSTATS simulate --games 10 --variant "$v" --seed 303 --mistakes 0.03 --muggins \
    --event "Mistakes Night ($v)" --start-date 2026-11-24 --out "$OUT/mistakes/$v.jsonl" \
    --expected "$OUT/mistakes/$v.expected-findings.txt"
done

# A club tally sheet: the results of an autumn ladder (60 games, 12 players), results only, each
# winner at 121.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
$CRIBSTATS simulate --games 60 --players "$CLUB" --seed 404 --event "Autumn Ladder" --start-date 2026-09-08 \
  --games-per-night 12 --out "$tmp"/ladder.jsonl
"$PYTHON" - "$tmp"/ladder.jsonl "$OUT"/tally/autumn-ladder.csv <<'PY'
import csv, json, sys

with open(sys.argv[1]) as logs, open(sys.argv[2], "w", newline="") as out:
    sheet = csv.writer(out, lineterminator="\n")
    sheet.writerow(["date", "event", "round", "player1", "player2", "score1", "score2", "first_dealer"])
    for line in logs:
        game = json.loads(line)
        one, two = game["players"]
        # a sheet records the winner at the target: pegging out ends the game in the game hole
        target = game.get("target", 121)
        scores = {name: min(score, target) for name, score in game["result"]["scores"].items()}
        sheet.writerow([game["date"], game["event"], game["round"], one, two, scores[one], scores[two],
                        game["deals"][0]["dealer"]])
PY

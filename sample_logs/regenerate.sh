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

rm -rf "$OUT"/variants "$OUT"/mistakes "$OUT"/tally "$OUT"/club-night.jsonl "$OUT"/season-2026.jsonl "$OUT"/nights
rm -f "$OUT"/matches/playoffs-best-of-3.jsonl "$OUT"/options/giveaway.jsonl
mkdir -p "$OUT"/variants "$OUT"/mistakes "$OUT"/tally "$OUT"/nights "$OUT"/matches "$OUT"/options

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

# A Grass Roots club night kept on scorecards: 6 players, 9 games each, both players' cards of every game, one
# game's cards disagreeing (the loser's spread written 2 short). Only the cards are kept: they are the night.
$CRIBSTATS simulate-nights --nights 1 --players "Alice,Bob,Carol,Dave,Erin,Frank" --seed 505 \
  --event "Grass Roots Night" --start-date 2026-11-05 --site "Elks Lodge" --out "$tmp"/night.jsonl \
  --scorecards "$OUT"/nights/grass-roots-2026-11-05.csv --disagree 1
$CRIBSTATS audit --json "$OUT"/nights/grass-roots-2026-11-05.csv \
  > "$OUT"/nights/grass-roots-2026-11-05.expected-findings.txt || test $? -eq 1

# A season of club nights: 12 weekly nights of 8 players, 9 games each (36 games a night).
$CRIBSTATS simulate-nights --nights 12 --players "Grace,Hank,Irene,Jack,Kate,Leo,Mona,Ned" --seed 606 \
  --event "Grass Roots League" --start-date 2026-01-06 --site "Elks Lodge" \
  --out "$OUT"/nights/grass-roots-season.jsonl

# Playoff matches, best of three (ACC): the loser of each game deals first in the next.
$CRIBSTATS simulate-matches --matches 4 --players "Alice,Bob,Carol,Dave" --rules best-of-3 --seed 707 \
  --event "ACC Playoffs" --date 2026-11-21 --site "Elks Lodge" --out "$OUT"/matches/playoffs-best-of-3.jsonl

# A giveaway game: a simulated game played as giveaway, so the player who reached 121 lost it.
$CRIBSTATS simulate --games 1 --players "Erin,Frank" --seed 808 --event "Giveaway Social" \
  --start-date 2026-10-16 --out "$tmp"/giveaway.jsonl
"$PYTHON" - "$tmp"/giveaway.jsonl "$OUT"/options/giveaway.jsonl <<'PY'
import json, sys

with open(sys.argv[1]) as source:
    game = json.loads(source.readline())
game["id"] = "giveaway-2026-10-16"
game["giveaway"] = True
reached = game["result"]["winner"]
game["result"]["winner"] = next(p for p in game["players"] if p != reached)
with open(sys.argv[2], "w") as out:
    out.write(json.dumps(game, separators=(",", ":")) + "\n")
PY
# matches/points-to-7.jsonl and options/bidding.json are written by hand (see README.md).

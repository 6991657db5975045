#!/bin/sh
# The published ladders (docs/LADDERS.md): ISMCTS bounded by iterations against the
# heuristic bot, every preset at 4 seats in 2 teams, grown in rounds of games so that an
# interrupted run still leaves every preset with the same number of games.
# Usage (from the repository root): sh docs/ladders/run.sh [ITERATIONS] [ROUNDS...]
set -e
iterations=${1:-100}
shift || true
rounds=${*:-20 40 60 100}
bot="ismcts:iterations=$iterations"
for games in $rounds; do
    for preset in pegoo basic traditional havasu social-security arizona kilpatrick \
            north-carolina bluffing-joker; do
        pegs ladder --rules "$preset" --players 4 --teams 2 --bots "$bot,heuristic" \
            --games "$games" --seed 1 --jobs 2 --max-actions 3000 --quiet \
            --out "docs/ladders/$preset.jsonl" --records "docs/ladders/$preset-records.jsonl" \
            > "docs/ladders/$preset.txt"
    done
done

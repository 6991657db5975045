#!/bin/sh
# The published ladders (docs/LADDERS.md): ISMCTS bounded by iterations against the
# heuristic bot, every preset at 4 seats in 2 teams, grown in rounds of games so that an
# interrupted run still leaves every preset with the same number of games.  Each preset
# has its own ISMCTS budget (PRESET:ITERATIONS); the default is the published one.
# Usage (from the repository root): sh docs/ladders/run.sh [ROUNDS...]
set -e
budgets=${BUDGETS:-"pegoo:300 havasu:300 basic:300 traditional:300 social-security:300
arizona:300 north-carolina:300 bluffing-joker:100 kilpatrick:100"}
rounds=${*:-20 40 60 80 100}
for games in $rounds; do
    for budget in $budgets; do
        preset=${budget%%:*}
        pegs ladder --rules "$preset" --players 4 --teams 2 \
            --bots "ismcts:iterations=${budget#*:},heuristic" \
            --games "$games" --seed 1 --jobs 2 --max-actions 3000 --quiet \
            --out "docs/ladders/$preset.jsonl" --records "docs/ladders/$preset-records.jsonl" \
            > "docs/ladders/$preset.txt"
    done
done

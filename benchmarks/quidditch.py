"""Quidditch: whole simulated matches between two given teams.

Run from the project root: ``python -m benchmarks.quidditch [--matches N] [--seed S]
[--teams match.json]``. Without ``--teams`` it pits two sample rosters against each other;
with it, it reads a stored match state (``MatchState.to_dict()``, as the database keeps it).
The 2,000-match row is what ``/quidditch odds`` answers with.
"""

from __future__ import annotations

import argparse
import json
import time

from benchmarks._timing import print_table
from engine import quidditch as q
from engine.dice import SeededDice

SAMPLE = {
    "home": (
        "Gryffindor",
        [
            ("Johnson", "chaser", 5, 4, 3, 4),
            ("Spinnet", "chaser", 4, 5, 3, 4),
            ("Bell", "chaser", 4, 4, 3, 4),
            ("Fred", "beater", 5, 3, 4, 5),
            ("George", "beater", 5, 3, 4, 5),
            ("Wood", "keeper", 3, 4, 5, 5),
            ("Potter", "seeker", 2, 6, 2, 3),
        ],
    ),
    "away": (
        "Slytherin",
        [
            ("Flint", "chaser", 5, 3, 4, 5),
            ("Pucey", "chaser", 5, 3, 3, 4),
            ("Montague", "chaser", 4, 4, 3, 4),
            ("Crabbe", "beater", 6, 2, 4, 5),
            ("Goyle", "beater", 6, 2, 4, 5),
            ("Bletchley", "keeper", 3, 3, 5, 5),
            ("Higgs", "seeker", 2, 5, 2, 3),
        ],
    ),
}


def sample_match() -> q.MatchState:
    (home, home_players), (away, away_players) = SAMPLE["home"], SAMPLE["away"]
    state = q.new_match(home, away, home_house=home, away_house=away)
    return q.add_players(q.add_players(state, q.HOME, home_players), q.AWAY, away_players)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--matches", type=int, default=10_000)
    parser.add_argument("--seed", default="quidditch")
    parser.add_argument("--teams", help="a JSON file holding MatchState.to_dict()")
    args = parser.parse_args()
    if args.teams:
        with open(args.teams, encoding="utf-8") as file:
            state = q.MatchState.from_dict(json.load(file))
    else:
        state = sample_match()

    rows = []
    for matches in dict.fromkeys((2_000, args.matches)):
        start = time.perf_counter()
        summary = q.simulate_many(SeededDice(args.seed), state, matches=matches)
        elapsed = time.perf_counter() - start
        rows.append(
            (
                matches,
                f"{summary.home_win_rate:.1%}",
                f"{summary.away_win_rate:.1%}",
                f"{summary.draw_rate:.1%}",
                f"{summary.mean_home_score:.1f}",
                f"{summary.mean_away_score:.1f}",
                f"{summary.mean_turns:.1f}",
                summary.longest,
                summary.capped,
                f"{elapsed:.3f}",
                f"{elapsed / matches * 1e6:.0f}",
            )
        )
    print(f"{state.home.name} (home) vs {state.away.name} (away), seed {args.seed!r}")
    print_table(
        [
            "matches",
            "home wins",
            "away wins",
            "draws",
            "mean home",
            "mean away",
            "mean turns",
            "longest",
            f"capped at {q.DEFAULT_MAX_TURNS}",
            "seconds",
            "µs per match",
        ],
        rows,
    )

    start = time.perf_counter()
    for seed in range(1000):
        q.play_turn(SeededDice(seed), state)
    per_turn = (time.perf_counter() - start) / 1000 * 1e6
    print(f"\none reported turn (play_turn, the bot's /quidditch turn): {per_turn:.0f} µs")


if __name__ == "__main__":
    main()

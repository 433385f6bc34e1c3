"""Coverage of the uncertainty intervals, by simulation (prints a table; no timing).

A true classifier is fixed by its class shares and its per-class predicted-class
probabilities; its true measures are those of the population matrix. Each replication draws
a test set of ``n`` samples (class totals multinomial, predictions per row multinomial),
builds the 95 % interval of each measure from the posterior of the counts and from the
stratified bootstrap of the predictions, and checks whether the true value lies inside.

    python benchmarks/coverage_uncertainty.py [--reps 1000] [--draws 1000] [--seed 0]
"""

from __future__ import annotations

import argparse

import numpy as np

from pdmeasure import measures
from pdmeasure import uncertainty as unc

#: The measures whose coverage is checked, and pd at a fixed kappa (for 4 classes;
#: scenarios with more classes repeat it cyclically, see kappa_for).
MEASURES = ("accuracy", "f1_macro", "mcc")
KAPPA = (0.3, 0.1, 0.9, 0.5)

#: Class shares and per-row predicted-class probabilities of the true classifiers.
SCENARIOS = {
    "balanced-4": (
        [0.25, 0.25, 0.25, 0.25],
        [
            [0.8, 0.1, 0.05, 0.05],
            [0.1, 0.7, 0.1, 0.1],
            [0.05, 0.1, 0.75, 0.1],
            [0.1, 0.05, 0.15, 0.7],
        ],
    ),
    # Dermatology's class sizes (366 samples) and a classifier right 96 % of the time: many
    # classes, small rows, rates near 1, where a heavy prior shows.
    "dermatology-6": (
        [112 / 366, 61 / 366, 72 / 366, 49 / 366, 52 / 366, 20 / 366],
        [[0.96 if i == j else 0.008 for j in range(6)] for i in range(6)],
    ),
    "skewed-4": (
        [0.55, 0.25, 0.15, 0.05],
        [
            [0.9, 0.05, 0.03, 0.02],
            [0.1, 0.75, 0.1, 0.05],
            [0.05, 0.15, 0.7, 0.1],
            [0.1, 0.1, 0.2, 0.6],
        ],
    ),
}


def kappa_for(n_classes: int) -> tuple[float, ...]:
    """KAPPA repeated cyclically over ``n_classes`` classes."""
    return tuple(KAPPA[i % len(KAPPA)] for i in range(n_classes))


def true_values(shares, probs) -> dict[str, float]:
    population = np.asarray(shares)[:, None] * np.asarray(probs)
    kappa = kappa_for(len(shares))
    out = {m: float(measures.REGISTRY[m](population, zero_division=0.0)) for m in MEASURES}
    out["pd"] = float(measures.preference_driven(population, kappa, zero_division=0.0))
    return out


def _values(draws) -> dict[str, np.ndarray]:
    got = unc.measure_draws(draws, measures=MEASURES, kappas={"k": kappa_for(draws.shape[-1])})
    return {**{m: got[m] for m in MEASURES}, "pd": got[unc.pd_key("k")]}


def simulate(
    shares, probs, n: int, reps: int, draws: int, seed: int
) -> dict[str, dict[str, float]]:
    """Coverage per method and measure over ``reps`` test sets of ``n`` samples."""
    rng = np.random.default_rng(seed)
    truth = true_values(shares, probs)
    c = len(shares)
    hits = {method: dict.fromkeys(truth, 0) for method in ("posterior", "bootstrap")}
    done = 0
    while done < reps:
        totals = rng.multinomial(n, shares)
        if np.any(totals == 0):
            continue  # a test set without some class: no interval for its row
        y_true = np.repeat(np.arange(c), totals)
        y_pred = np.concatenate([rng.choice(c, size=t, p=probs[i]) for i, t in enumerate(totals)])
        cm = np.zeros((c, c), dtype=np.int64)
        np.add.at(cm, (y_true, y_pred), 1)
        sources = {
            "posterior": unc.posterior_draws(cm, draws, seed=rng),
            "bootstrap": unc.bootstrap_draws(
                y_true, y_pred, labels=range(c), draws=draws, seed=rng
            ),
        }
        for method, matrices in sources.items():
            for name, values in _values(matrices).items():
                lower, upper = unc.interval(values, 0.95)
                hits[method][name] += int(lower <= truth[name] <= upper)
        done += 1
    return {m: {k: v / reps for k, v in h.items()} for m, h in hits.items()}


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=1000)
    parser.add_argument("--draws", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--sizes", type=int, nargs="+", default=[300, 1000, 3000])
    args = parser.parse_args(argv)
    print("| scenario | n | method | " + " | ".join([*MEASURES, "pd"]) + " |")
    print("| --- | --- | --- | " + " | ".join(["---"] * (len(MEASURES) + 1)) + " |")
    for name, (shares, probs) in SCENARIOS.items():
        for n in args.sizes:
            result = simulate(shares, np.asarray(probs), n, args.reps, args.draws, args.seed)
            for method, cover in result.items():
                cells = " | ".join(f"{cover[m]:.3f}" for m in [*MEASURES, "pd"])
                print(f"| {name} | {n} | {method} | {cells} |", flush=True)


if __name__ == "__main__":
    main()

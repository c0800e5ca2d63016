//! The match result as a score and an Elo difference with a 95 % interval.
//!
//! With `n` games of which engine A won `w` (Hex has no draws), A's score is `p = w / n` and
//! the Elo difference A − B is `D(p) = 400 · log10(p / (1 − p))`. The 95 % interval is the
//! normal approximation on the score, mapped through `D`: `p ± 1.96 · sqrt(p (1 − p) / n)`,
//! each end clamped to [0, 1], then `D` of each end. A score of 0 or 1 (or an end at 0 or 1)
//! gives an infinite Elo: all the games went one way, and the normal approximation says
//! nothing more (reported as `-inf`/`+inf`, `null` in JSON).
//!
//! [`bayes_elo`] is a BayesElo-style estimate (Coulom's bayeselo, two players, no draws):
//! the posterior of the Elo difference under the logistic model with BayesElo's default
//! prior of two virtual draws between the players (here one virtual win and one virtual
//! loss), its maximum and its central 95 % interval, computed on a 1-Elo grid. It stays
//! finite when every game went one way. It does not model the first-move advantage (the
//! match alternates colours, so that advantage cancels out of the score).

/// Elo difference of a score `p` in [0, 1] (±∞ at the ends).
pub fn elo_of_score(p: f64) -> f64 {
    if p <= 0.0 {
        f64::NEG_INFINITY
    } else if p >= 1.0 {
        f64::INFINITY
    } else {
        400.0 * (p / (1.0 - p)).log10()
    }
}

/// A's score, Elo difference A − B and its 95 % interval (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// Games.
    pub games: usize,
    /// Games won by A.
    pub wins: usize,
    /// A's score `wins / games` (0 when there are no games).
    pub score: f64,
    /// Elo of A minus Elo of B.
    pub elo: f64,
    /// The 95 % interval of `elo`, low and high.
    pub interval: (f64, f64),
}

impl Rating {
    /// The rating of `wins` wins in `games` games.
    pub fn new(wins: usize, games: usize) -> Rating {
        if games == 0 {
            return Rating {
                games,
                wins,
                score: 0.0,
                elo: f64::NAN,
                interval: (f64::NAN, f64::NAN),
            };
        }
        let p = wins as f64 / games as f64;
        let half = 1.96 * (p * (1.0 - p) / games as f64).sqrt();
        Rating {
            games,
            wins,
            score: p,
            elo: elo_of_score(p),
            interval: (
                elo_of_score((p - half).max(0.0)),
                elo_of_score((p + half).min(1.0)),
            ),
        }
    }
}

/// The BayesElo-style estimate of A − B from `wins` of `games` (see the module docs): the
/// posterior's maximum and its central 95 % interval, in Elo. NaN with no games.
pub fn bayes_elo(wins: usize, games: usize) -> (f64, f64, f64) {
    if games == 0 {
        return (f64::NAN, f64::NAN, f64::NAN);
    }
    // Log posterior on a grid: (w + 1) ln P(d) + (n − w + 1) ln (1 − P(d)).
    let (w, l) = (wins as f64 + 1.0, (games - wins) as f64 + 1.0);
    let grid: Vec<f64> = (-2000..=2000).map(f64::from).collect();
    let logp: Vec<f64> = grid
        .iter()
        .map(|&d| {
            let p = 1.0 / (1.0 + 10f64.powf(-d / 400.0));
            w * p.ln() + l * (1.0 - p).ln()
        })
        .collect();
    let top = logp.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    let dens: Vec<f64> = logp.iter().map(|x| (x - top).exp()).collect();
    let total: f64 = dens.iter().sum();
    let quantile = |q: f64| {
        let mut acc = 0.0;
        for (d, x) in grid.iter().zip(&dens) {
            acc += x / total;
            if acc >= q {
                return *d;
            }
        }
        2000.0
    };
    // The maximum: the score (w)/(w + l) with the virtual games.
    let map = elo_of_score(w / (w + l));
    (map, quantile(0.025), quantile(0.975))
}

/// A number for text output: `+inf`, `-inf`, `n/a` or a whole number with its sign.
pub fn show_elo(x: f64) -> String {
    if x.is_nan() {
        "n/a".into()
    } else if x == f64::INFINITY {
        "+inf".into()
    } else if x == f64::NEG_INFINITY {
        "-inf".into()
    } else {
        format!("{x:+.0}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn score_to_elo() {
        assert_eq!(elo_of_score(0.5), 0.0);
        // 75 %: 400 log10 3 ≈ 190.8.
        assert!((elo_of_score(0.75) - 190.85).abs() < 0.01);
        let r = Rating::new(15, 20);
        assert!((r.elo - 190.85).abs() < 0.01);
        // p ± 1.96·sqrt(0.75·0.25/20) = 0.75 ± 0.190: 0.560 … 0.940.
        assert!((r.interval.0 - elo_of_score(0.75 - 0.18977)).abs() < 0.5);
        assert!(r.interval.0 > 30.0 && r.interval.1 < 500.0, "{r:?}");
        let none = Rating::new(0, 10);
        assert_eq!(none.elo, f64::NEG_INFINITY);
        assert_eq!(show_elo(none.interval.1), "-inf");
        assert_eq!(show_elo(r.elo), "+191");
        assert!(Rating::new(0, 0).elo.is_nan());
    }

    #[test]
    fn bayes_elo_is_finite_and_shrinks_towards_zero() {
        // 0 of 20: the score with one virtual win and loss is 1/22.
        let (m, lo, hi) = bayes_elo(0, 20);
        assert!((m - elo_of_score(1.0 / 22.0)).abs() < 1e-9);
        assert!(
            lo.is_finite() && lo < m && m < hi && hi < 0.0,
            "{lo} {m} {hi}"
        );
        // Even: centred on 0, symmetric.
        let (m, lo, hi) = bayes_elo(10, 20);
        assert_eq!(m, 0.0);
        assert!(
            (lo + hi).abs() <= 1.0 && hi > 100.0 && hi < 400.0,
            "{lo} {hi}"
        );
        // 15 of 20: below the plain +191 (shrunk), inside the plain interval's range.
        let (m, _, _) = bayes_elo(15, 20);
        assert!(m > 100.0 && m < 190.0, "{m}");
        assert!(bayes_elo(0, 0).0.is_nan());
    }
}

//! A player variant written as settings text, `player=alphabeta,depth=3,m=20` (the variants of
//! `hexproof selfplay` and the players of its `--log` files).

use super::{Config, Kind};
use crate::eval::VcLinks;
use crate::vc::Variant;

/// Why a variant's settings text was not understood.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    /// A setting without `=`.
    #[error("'{0}' is not key=value")]
    NotKeyValue(String),
    /// A numeric setting that is not a number.
    #[error("{key}: '{value}' is not a number")]
    NotANumber {
        /// The setting.
        key: String,
        /// The value given.
        value: String,
    },
    /// A flag setting other than 0/1/true/false/on/off.
    #[error("{key}: '{value}' is not 0 or 1")]
    NotAFlag {
        /// The setting.
        key: String,
        /// The value given.
        value: String,
    },
    /// `player=` naming no player.
    #[error("'{0}' is not a player")]
    Player(String),
    /// `variant=` naming no connection engine.
    #[error("'{0}' is not a variant")]
    Variant(String),
    /// `links=` naming no link mode.
    #[error("'{0}' is not a link mode")]
    Links(String),
    /// A key that is not a setting.
    #[error("unknown setting '{0}'")]
    UnknownSetting(String),
}

impl Config {
    /// The configuration described by `spec`: comma-separated `key=value` settings (keys:
    /// player, depth, m, k, width, vcplies, inc, semis, edgesemis, kept, flow, variant, templates,
    /// libseeds, links, solver, seed, priors, pb) over the
    /// defaults,
    /// with the solver thread off unless `solver=1`.
    pub fn from_spec(spec: &str) -> Result<Config, SpecError> {
        let mut c = Config {
            solver_thread: false,
            ..Config::default()
        };
        for kv in spec.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (k, v) = kv
                .split_once('=')
                .ok_or_else(|| SpecError::NotKeyValue(kv.into()))?;
            let num = |v: &str| {
                v.parse::<u64>().map_err(|_| SpecError::NotANumber {
                    key: k.into(),
                    value: v.into(),
                })
            };
            let flag = |v: &str| match v {
                "1" | "true" | "on" => Ok(true),
                "0" | "false" | "off" => Ok(false),
                _ => Err(SpecError::NotAFlag {
                    key: k.into(),
                    value: v.into(),
                }),
            };
            match k {
                "player" => c.kind = Kind::parse(v).ok_or_else(|| SpecError::Player(v.into()))?,
                "depth" => c.depth = num(v)?.clamp(1, 20) as u32,
                "m" => c.m = num(v)? as usize,
                "k" => c.k = num(v)?.max(1) as usize,
                "width" => c.width = num(v)?.max(1) as usize,
                "vcplies" => c.ab_vc_plies = num(v)?.min(20) as u32,
                "inc" => c.ab_incremental = flag(v)?,
                "semis" => c.ab_semi_limit = num(v)? as usize,
                "kept" => c.ab_kept_plies = num(v)?.min(20) as u32,
                "flow" => c.ab_order_flow = flag(v)?,
                "edgesemis" => c.ab_edge_semi_limit = num(v)? as usize,
                "libseeds" => c.library_seeds = flag(v)?,
                "variant" => {
                    c.variant = Variant::parse(v).ok_or_else(|| SpecError::Variant(v.into()))?
                }
                "templates" => c.templates = flag(v)?,
                "links" => c.links = VcLinks::parse(v).ok_or_else(|| SpecError::Links(v.into()))?,
                "solver" => c.solver_thread = flag(v)?,
                "seed" => c.seed = num(v)?,
                "priors" => c.priors = flag(v)?,
                "pb" => {
                    c.prior_weight = v
                        .parse::<f64>()
                        .ok()
                        .filter(|w| w.is_finite() && *w >= 0.0)
                        .ok_or_else(|| SpecError::NotANumber {
                            key: k.into(),
                            value: v.into(),
                        })?
                }
                _ => return Err(SpecError::UnknownSetting(k.into())),
            }
        }
        Ok(c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_alphabeta_path_knobs_are_spec_keys() {
        let c = Config::from_spec("player=alphabeta,vcplies=1,inc=1,semis=4").unwrap();
        assert_eq!(c.kind, Kind::AlphaBeta);
        assert_eq!(
            (c.ab_vc_plies, c.ab_incremental, c.ab_semi_limit),
            (1, true, 4)
        );
        let d = Config::from_spec("player=alphabeta").unwrap();
        assert_eq!((d.ab_incremental, d.ab_semi_limit), (false, 0));
        assert!(Config::from_spec("inc=2").is_err());
        assert!(Config::from_spec("semis=x").is_err());
    }
}

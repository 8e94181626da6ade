//! `--features` / `--exclude`: the feature selection of printing and
//! converting commands.

use clap::Args;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

/// `--features` / `--exclude`: which features are printed or counted.
#[derive(Args, Debug, Clone, Default)]
pub(crate) struct FeatureArgs {
    /// Only these features: names or globs, comma-separated
    /// (`--features 'image/*,label'`). For a SequenceExample, context
    /// features and feature lists alike.
    #[arg(long, value_name = "PATTERNS", value_delimiter = ',', value_parser = pattern)]
    pub(crate) features: Vec<String>,

    /// Leave out these features (names or globs, comma-separated).
    #[arg(long, value_name = "PATTERNS", value_delimiter = ',', value_parser = pattern)]
    pub(crate) exclude: Vec<String>,
}

/// A `--features` / `--exclude` pattern: not empty (`--features ''` is a
/// slip, not a request for the features with an empty name).
fn pattern(s: &str) -> Result<String, String> {
    if s.is_empty() {
        return Err("an empty pattern (write names or globs, comma-separated: 'image/*,label')".into());
    }
    Ok(s.to_owned())
}

/// The features kept by `--features` / `--exclude`, noting which patterns
/// matched anything (a pattern that never did is warned about).
#[derive(Debug)]
pub(crate) struct Projection {
    include: Vec<(String, AtomicBool)>,
    exclude: Vec<(String, AtomicBool)>,
}

impl FeatureArgs {
    /// The projection, `None` when every feature is kept.
    pub(crate) fn projection(&self) -> Option<Projection> {
        if self.features.is_empty() && self.exclude.is_empty() {
            return None;
        }
        let patterns = |v: &[String]| v.iter().map(|p| (p.clone(), AtomicBool::new(false))).collect();
        Some(Projection {
            include: patterns(&self.features),
            exclude: patterns(&self.exclude),
        })
    }
}

impl Projection {
    /// Whether the feature named `key` is kept.
    pub(crate) fn keeps(&self, key: &str) -> bool {
        let (included, excluded) = self.verdict(key);
        included && !excluded
    }

    /// Whether `key` is included (by a --features pattern, or none given)
    /// and whether an --exclude pattern matches it.
    pub(crate) fn verdict(&self, key: &str) -> (bool, bool) {
        let hit = |(pattern, seen): &(String, AtomicBool)| {
            let hit = crate::io::input::matches(pattern.as_bytes(), key.as_bytes());
            if hit && !seen.load(Relaxed) {
                seen.store(true, Relaxed);
            }
            hit
        };
        // Every pattern is tried, so each one that matches is noted.
        let included = self.include.is_empty() || self.include.iter().filter(|p| hit(p)).count() > 0;
        let excluded = self.exclude.iter().filter(|p| hit(p)).count() > 0;
        (included, excluded)
    }

    /// One warning per pattern that matched no feature of any record read.
    pub(crate) fn unmatched(&self) -> Vec<String> {
        let mut warnings = Vec::new();
        for (flag, patterns) in [("--features", &self.include), ("--exclude", &self.exclude)] {
            for (pattern, seen) in patterns {
                if !seen.load(Relaxed) {
                    warnings.push(format!(
                        "warning: {flag} {}: no feature of the records read matches it",
                        crate::io::input::escape_name(pattern.as_bytes())
                    ));
                }
            }
        }
        warnings
    }
}

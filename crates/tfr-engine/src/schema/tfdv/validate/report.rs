//! The report of `tfr validate`: what the records showed ([`Found`]),
//! turned into TFDV's anomalies per feature, then the sparse and weighted
//! features', new columns and the dataset's.

use super::found::*;
use super::*;

// ---------------------------------------------------------------------------
// The report
// ---------------------------------------------------------------------------

use super::sparse::Claim;

/// `unique_constraints` as TFDV's `UpdateUniqueConstraints` checks them
/// (an unset bound is 0: with only `min` set, any distinct value is above
/// the max).
fn unique_anomalies(name: &str, (min, max): (i64, i64), ff: &FeatureFound) -> Vec<Anomaly> {
    let feature = Some(name.to_string());
    let one = |kind, detail: String| Anomaly {
        feature: feature.clone(),
        kind,
        records: 0,
        first: None,
        detail,
    };
    if !ff.uniq_counted {
        return vec![one(
            AnomalyKind::NoUnique,
            "unique_constraints set, but TFDV counts distinct values only of strings and categorical \
             features"
                .into(),
        )];
    }
    let n = ff.uniq.len() as i64;
    let more = if ff.uniq_overflow { "more than " } else { "" };
    let mut out = Vec::new();
    // Past MAX_UNIQUE the count is a lower bound: a verdict it cannot settle
    // is not given (the note says so).
    if n < min && !ff.uniq_overflow {
        out.push(one(
            AnomalyKind::LowUnique,
            format!("{n} distinct values, unique_constraints min is {min}"),
        ));
    }
    if n > max {
        out.push(one(
            AnomalyKind::HighUnique,
            format!("{more}{n} distinct values, unique_constraints max is {max}"),
        ));
    }
    out
}

fn percent(part: u64, whole: u64) -> String {
    if whole == 0 {
        return "0%".into();
    }
    let p = part as f64 * 100.0 / whole as f64;
    let s = format!("{p:.2}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    format!("{s}%")
}

impl Checker {
    /// The report of everything found: the per-record anomalies and the
    /// dataset-wide checks.
    pub fn report(&self, found: &Found, ty: Option<MessageType>) -> Report {
        let records = found.records;
        let mut anomalies = Vec::new();
        let mut late_notes = Vec::new();
        let empty = FeatureFound::default();
        for (i, rule) in self.rules.iter().enumerate() {
            if !rule.active {
                continue;
            }
            let ff = found.features.get(i).unwrap_or(&empty);
            let name = Some(rule.name.to_string());
            let required = rule.required;
            let claim = self.components.claim(&rule.name);
            if claim.is_some_and(|c| c != Claim::Feature) {
                // Reported under the sparse or weighted feature of that name.
                continue;
            }
            // In TFDV's statistics (so checked by UpdateFeatureSelf).
            let in_stats = ff.present > 0 || ff.empty > 0 || claim.is_some();
            if in_stats {
                for (kind, detail) in &rule.self_anomalies {
                    anomalies.push(Anomaly {
                        feature: name.clone(),
                        kind: *kind,
                        records: 0,
                        first: None,
                        detail: detail.clone(),
                    });
                }
                if rule.nameless {
                    continue;
                }
            }
            if ff.present == 0 {
                // TFDV checks nothing else of a feature absent from the data;
                // one named only by empty Features (no kind set) is in its
                // statistics, but with no type.
                if required && in_stats {
                    anomalies.push(Anomaly {
                        feature: name,
                        kind: AnomalyKind::TypeNotPresent,
                        records: ff.empty,
                        first: ff.first_empty,
                        detail: format!(
                            "in {} of the {records} records, always as an empty Feature (no kind set); the schema's presence requires values",
                            ff.empty
                        ),
                    });
                } else if required {
                    anomalies.push(Anomaly {
                        feature: name,
                        kind: AnomalyKind::SchemaMissingColumn,
                        records: 0,
                        first: None,
                        detail: format!("in none of the {records} records; the schema's presence requires it"),
                    });
                }
                continue;
            }
            let missing = records - ff.present;
            let mut tallies: Vec<Tally> = ff.tallies.clone();
            if !rule.in_env {
                anomalies.push(Anomaly {
                    feature: name.clone(),
                    kind: AnomalyKind::NotInEnvironment,
                    records: ff.present,
                    first: ff.first_present,
                    detail: "in the data, but not in the environment validated (in_environment, \
                             not_in_environment, default_environment)"
                        .into(),
                });
            }
            if rule.nestedness_mismatch && rule.kind.is_some() {
                anomalies.push(Anomaly {
                    feature: name.clone(),
                    kind: AnomalyKind::ValueNestednessMismatch,
                    records: 0,
                    first: None,
                    detail: "value_counts gives other than 1 nesting level; an Example's values have 1 (value counts \
                             not checked)"
                        .into(),
                });
            }
            if rule.kind.is_none() {
                // No type: TFDV says so and checks nothing else.
                for t in tallies {
                    anomalies.push(Anomaly {
                        feature: name.clone(),
                        kind: t.kind,
                        records: t.records,
                        first: Some(t.first),
                        detail: t.detail,
                    });
                }
                continue;
            }
            if let Some(min) = rule.min_count {
                if (ff.present as i64) < min {
                    anomalies.push(Anomaly {
                        feature: name.clone(),
                        kind: AnomalyKind::LowNumberPresent,
                        records: missing,
                        first: ff.first_missing,
                        detail: format!("present in {} records, presence min_count is {min}", ff.present),
                    });
                }
            }
            if let Some(min) = rule.min_fraction {
                let fraction = ff.present as f64 / records.max(1) as f64;
                if fraction < min || (min >= 1.0 && missing > 0) {
                    anomalies.push(Anomaly {
                        feature: name.clone(),
                        kind: AnomalyKind::LowFractionPresent,
                        records: missing,
                        first: ff.first_missing,
                        detail: format!(
                            "present in {} of {records} records ({}), presence min_fraction is {}",
                            ff.present,
                            percent(ff.present, records),
                            super::super::pbtxt::python_repr(min)
                        ),
                    });
                }
            }
            if rule.shape.is_some() && missing > 0 {
                let at = ff.first_missing.unwrap_or((0, 0));
                let detail = format!("missing (shape {})", rule.shape_text);
                match tallies.iter_mut().find(|t| t.kind == AnomalyKind::InvalidFeatureShape) {
                    Some(t) => {
                        t.records += missing;
                        if at < t.first {
                            t.first = at;
                            t.detail = detail;
                        }
                    }
                    None => tallies.push(Tally {
                        kind: AnomalyKind::InvalidFeatureShape,
                        records: missing,
                        first: at,
                        detail,
                        stamp: 0,
                    }),
                }
            }
            tallies.sort_by_key(|t| t.kind);
            for t in tallies {
                let mut detail = t.detail;
                if t.kind == AnomalyKind::EnumUnexpectedString {
                    let max_off = rule.strings.as_ref().map_or(0.0, |s| s.2);
                    let share = ff.off_domain as f64 / ff.values.max(1) as f64;
                    if !(share > max_off || (max_off == 0.0 && ff.off_domain > 0)) {
                        continue;
                    }
                    detail = format!(
                        "{detail}; {} of {} values ({}) outside the domain",
                        ff.off_domain,
                        ff.values,
                        percent(ff.off_domain, ff.values)
                    );
                    if max_off > 0.0 {
                        detail.push_str(&format!(
                            ", min_domain_mass allows {}",
                            percent((max_off * 1e6).round() as u64, 1_000_000)
                        ));
                    }
                }
                if t.kind == AnomalyKind::MaxImageByteSizeExceeded {
                    detail = format!("{detail}; the largest has {} bytes", ff.max_bytes);
                }
                anomalies.push(Anomaly {
                    feature: name.clone(),
                    kind: t.kind,
                    records: t.records,
                    first: Some(t.first),
                    detail,
                });
            }
            if let Some(bounds) = rule.unique {
                anomalies.extend(unique_anomalies(&rule.name, bounds, ff));
                let past = |b: i64| b >= MAX_UNIQUE as i64;
                if ff.uniq_overflow && (past(bounds.0) || past(bounds.1)) {
                    late_notes.push(format!(
                        "unique_constraints of {} (more than {MAX_UNIQUE} distinct values: tfr keeps no more)",
                        quoted(&rule.name)
                    ));
                }
            }
        }
        for (claimed, claim) in &self.components.claims {
            let found1 = match *claim {
                Claim::Sparse(i) => super::sparse::sparse_anomalies(&self.components, &found.comps, i),
                Claim::Weighted(i) => super::sparse::weighted_anomalies(&found.comps, i),
                Claim::Collision(kind) => vec![(
                    kind,
                    0,
                    None,
                    "a feature and a sparse or weighted feature have this name (TFDV then checks neither)".into(),
                )],
                Claim::Skip | Claim::Feature => Vec::new(),
            };
            for (kind, n, first, detail) in found1 {
                anomalies.push(Anomaly {
                    feature: Some(claimed.clone()),
                    kind,
                    records: n,
                    first,
                    detail,
                });
            }
        }
        let claimed = |name: &str| self.components.claim(name).is_some();
        for n in found.new.iter().filter(|n| n.records > 0 && !claimed(&n.name)) {
            anomalies.push(Anomaly {
                feature: Some(n.name.to_string()),
                kind: AnomalyKind::SchemaNewColumn,
                records: n.records,
                first: Some(n.first),
                detail: "not in the schema".into(),
            });
        }
        if let Some(min) = self.min_examples {
            if (records as i64) < min {
                anomalies.push(Anomaly {
                    feature: None,
                    kind: AnomalyKind::DatasetLowNumExamples,
                    records: 0,
                    first: None,
                    detail: format!("{records} records, dataset_constraints min_examples_count is {min}"),
                });
            }
        }
        if let Some(max) = self.max_examples {
            if records as i64 > max {
                anomalies.push(Anomaly {
                    feature: None,
                    kind: AnomalyKind::DatasetHighNumExamples,
                    records: 0,
                    first: None,
                    detail: format!("{records} records, dataset_constraints max_examples_count is {max}"),
                });
            }
        }
        let mut not_checked = self.not_checked.clone();
        not_checked.extend(late_notes);
        let skipped: Vec<&Rule> = self.rules.iter().filter(|r| !r.active).collect();
        if !skipped.is_empty() {
            let list: Vec<String> = skipped.iter().take(5).map(|r| quoted(&r.name)).collect();
            let more = match skipped.len() {
                n if n > 5 => format!(" and {} more", n - 5),
                _ => String::new(),
            };
            not_checked.push(format!(
                "features TFDV does not validate either (lifecycle_stage, deprecated, STRUCT): {}{more}",
                list.join(", ")
            ));
        }
        if ty == Some(MessageType::SequenceExample) {
            not_checked.push(
                "feature lists of the SequenceExamples (their context features are checked, as TFDV reads them)".into(),
            );
        }
        Report {
            ty,
            per_input: found.per_input.clone(),
            records,
            anomalies,
            not_checked,
            checked: self.checked(),
            new_untracked: found.new_untracked,
            annotations: Default::default(),
            drift_skew: Vec::new(),
        }
    }
}

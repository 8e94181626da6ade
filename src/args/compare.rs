//! `--compare` of `tfr report` and `tfr stats`: the second dataset.

use super::InputArgs;
use clap::Args;

/// `--compare`: a second dataset, compared with the first (report, stats).
#[derive(Args, Debug, Clone, Default)]
pub(crate) struct CompareArgs {
    /// Compare with a second dataset B: its files, folders, quoted globs or
    /// URLs (every value up to the next option), or one statistics file
    /// (TFDV's binary or text DatasetFeatureStatisticsList, or what
    /// `tfr stats -f tfdv-stats[-text]` writes). The inputs before it are
    /// dataset A, and may be one statistics file too.
    #[arg(long, value_name = "B", num_args = 1.., help_heading = "Comparing two datasets")]
    pub(crate) compare: Vec<std::ffi::OsString>,

    /// The TFDS split of the --compare dataset (default: --split's).
    #[arg(
        long,
        value_name = "SPLIT",
        requires = "compare",
        help_heading = "Comparing two datasets"
    )]
    pub(crate) compare_split: Option<String>,
}

impl CompareArgs {
    /// Dataset B's inputs: the first dataset's input options with
    /// `--compare`'s files and split.
    pub(crate) fn input(&self, first: &InputArgs) -> InputArgs {
        InputArgs {
            files: self.compare.clone(),
            split: self.compare_split.clone().or_else(|| first.split.clone()),
            ..first.clone()
        }
    }
}

//! WebDataset tar shards both ways: [`write`] (records as samples, `tfr
//! to-wds`), [`read`] (samples back into records, `tfr from-wds`), and the
//! tar members both share (`archive`: the header walker, PAX records).

mod archive;
mod json;
pub mod read;
pub mod write;

/// The PAX keyword that names a member's feature: an extended attribute
/// (`user.tfr.feature`) in the form GNU tar and libarchive write (and read
/// without a warning, unlike a keyword of tfr's own); Python's tarfile
/// keeps it in `pax_headers`.
pub const PAX_FEATURE: &str = "SCHILY.xattr.user.tfr.feature";

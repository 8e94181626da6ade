//! The AWS CLI's shared files, `~/.aws/credentials` and `~/.aws/config`,
//! for the profile `AWS_PROFILE` names (`default` otherwise): object_store
//! reads only the environment, users expect these too.

use std::collections::HashMap;
use std::path::PathBuf;

/// What a profile gives (each value when set).
#[derive(Debug, Default, PartialEq, Eq)]
pub(super) struct Profile {
    pub(super) name: String,
    pub(super) access_key_id: Option<String>,
    pub(super) secret_access_key: Option<String>,
    pub(super) session_token: Option<String>,
    pub(super) region: Option<String>,
    pub(super) endpoint_url: Option<String>,
    /// The files looked in, for the "no credentials" message.
    pub(super) looked_in: Vec<String>,
}

/// The profile from the shared files (`AWS_SHARED_CREDENTIALS_FILE` and
/// `AWS_CONFIG_FILE` override their places); credentials in the
/// credentials file win over those in the config file. A file that is
/// missing or unreadable is skipped; one larger than
/// [`super::settings::FILE_LIMIT`] is refused (it is read with that bound:
/// `/dev/zero` costs 1 MiB, not all memory).
pub(super) fn load() -> crate::error::Result<Profile> {
    let name = std::env::var("AWS_PROFILE")
        .or_else(|_| std::env::var("AWS_DEFAULT_PROFILE"))
        .unwrap_or_else(|_| "default".to_string());
    let home = std::env::var_os("HOME").map(PathBuf::from);
    let file = |var: &str, rel: &str| {
        std::env::var_os(var)
            .map(PathBuf::from)
            .or_else(|| home.as_ref().map(|h| h.join(rel)))
    };
    let mut profile = Profile {
        name: name.clone(),
        ..Profile::default()
    };
    let config_section = if name == "default" {
        "default".to_string()
    } else {
        format!("profile {name}")
    };
    let sources = [
        ("AWS_SHARED_CREDENTIALS_FILE", ".aws/credentials", name.clone()),
        ("AWS_CONFIG_FILE", ".aws/config", config_section),
    ];
    for (var, rel, section) in sources {
        let path = file(var, rel);
        let Some(path) = path else { continue };
        profile.looked_in.push(path.display().to_string());
        if !path.exists() {
            continue;
        }
        let named = std::env::var_os(var).is_some_and(|v| !v.is_empty());
        let bytes = match super::settings::read_bounded(&path) {
            Ok(bytes) => bytes,
            // A file the variable names that cannot be read (a directory,
            // a FIFO, an I/O error) is an error, not "no credentials".
            Err(e) if named || matches!(e.root(), crate::Error::TooLarge(_)) => return Err(e.context(var)),
            // The default place unreadable (no permission): as if absent.
            Err(_) => continue,
        };
        let text = String::from_utf8_lossy(&bytes);
        let values = section_values(&text, &section);
        let take = |key: &str, slot: &mut Option<String>| {
            if slot.is_none() {
                *slot = values.get(key).cloned();
            }
        };
        take("aws_access_key_id", &mut profile.access_key_id);
        take("aws_secret_access_key", &mut profile.secret_access_key);
        take("aws_session_token", &mut profile.session_token);
        take("region", &mut profile.region);
        take("endpoint_url", &mut profile.endpoint_url);
    }
    Ok(profile)
}

/// The `key = value` lines of one `[section]` of an INI file (keys in
/// lower case; `#` and `;` start comments; indented lines, which belong to
/// a nested setting such as `s3 =`, are skipped).
pub(super) fn section_values(text: &str, section: &str) -> HashMap<String, String> {
    let mut out = HashMap::new();
    let mut inside = false;
    for line in text.lines() {
        if line.starts_with([' ', '\t']) {
            continue;
        }
        let line = line.trim();
        if line.is_empty() || line.starts_with(['#', ';']) {
            continue;
        }
        if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            inside = name.split_whitespace().collect::<Vec<_>>().join(" ") == section;
            continue;
        }
        if inside {
            if let Some((k, v)) = line.split_once('=') {
                let v = v.trim();
                if !v.is_empty() {
                    out.insert(k.trim().to_ascii_lowercase(), v.to_string());
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_one_section() {
        let text = "[default]\naws_access_key_id = A\n# c\n[profile  dev]\nregion=eu-west-1\ns3 =\n  max_concurrent_requests = 4\nAWS_SECRET_ACCESS_KEY = S ; x\n[other]\nregion = us-east-2\n";
        let dev = section_values(text, "profile dev");
        assert_eq!(dev.get("region").map(String::as_str), Some("eu-west-1"));
        assert_eq!(dev.get("aws_secret_access_key").map(String::as_str), Some("S ; x"));
        assert!(!dev.contains_key("max_concurrent_requests"));
        assert_eq!(section_values(text, "default").len(), 1);
        assert!(section_values(text, "missing").is_empty());
    }
}

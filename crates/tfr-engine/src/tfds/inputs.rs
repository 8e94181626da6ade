//! TFDS folders among a command's inputs: `--split` (its shards and
//! slices), every split in order without it (with a note), class names
//! and the feature tree for the commands that show or decode values.

use super::features::{FeatureTree, Kind};
use super::refuse;
use super::{split, Folder, Place};
use crate::error::Result;
use crate::io::Input;

/// The inputs of `--split SPEC` over the arguments, each a TFDS folder.
pub fn split_inputs(files: &[std::ffi::OsString], spec: &str) -> Result<Vec<Input>> {
    if files.is_empty() {
        refuse!(
            NotAFolder,
            "--split {spec}: name a TFDS dataset folder (the one holding dataset_info.json)"
        );
    }
    let mut inputs = Vec::new();
    for arg in files {
        let shown = crate::io::input::escape_name(arg.as_encoded_bytes());
        let Some(place) = Place::of_arg(arg) else {
            refuse!(
                NotAFolder,
                "--split {spec}: {shown} is not a directory (or a URL prefix ending with /) of a TFDS dataset"
            );
        };
        let Some(folder) = Folder::open(&place)? else {
            refuse!(
                NotAFolder,
                "--split {spec}: {shown} holds no dataset_info.json, so it is not a TFDS dataset folder"
            );
        };
        inputs.extend(split::pick(&folder, spec)?.inputs);
    }
    Ok(inputs)
}

/// The feature tree of the one TFDS folder among the arguments (`what`:
/// the option that needs it, for the error).
pub fn feature_tree(files: &[std::ffi::OsString], what: &str) -> Result<FeatureTree> {
    let mut found = None;
    for arg in files {
        let Some(place) = Place::of_arg(arg) else { continue };
        let Some(folder) = Folder::open(&place)? else { continue };
        let title = folder.title();
        match (folder.features, &found) {
            (Some(tree), None) => found = Some((tree, title)),
            (Some(tree), Some((first, t))) if *first != tree => {
                refuse!(Metadata, "{what}: {t} and {title} have different features.json")
            }
            (None, _) => refuse!(Metadata, "{what}: {} has no features.json to decode by", place.shown()),
            _ => {}
        }
    }
    match found {
        Some((tree, _)) => Ok(tree),
        None => refuse!(
            NotAFolder,
            "{what}: name a TFDS dataset folder (holding dataset_info.json and features.json)"
        ),
    }
}

/// The class names of the ClassLabel features of the TFDS folders among
/// the arguments, by feature name (`None` when there are none).
pub fn class_names(files: &[std::ffi::OsString]) -> Option<std::collections::HashMap<String, Vec<String>>> {
    let mut out = std::collections::HashMap::new();
    for arg in files {
        let Some(place) = Place::of_arg(arg) else { continue };
        let Ok(Some(folder)) = Folder::open(&place) else {
            continue;
        };
        for leaf in folder.features.iter().flat_map(|t| t.leaves()) {
            if let Kind::ClassLabel { names: Some(n), .. } = &leaf.node.kind {
                // Folders that name a feature's classes differently: no
                // names for it, rather than one folder's for all.
                match out.get(&leaf.name) {
                    None => {
                        out.insert(leaf.name, Some(n.clone()));
                    }
                    Some(Some(known)) if known != n => {
                        out.insert(leaf.name, None);
                    }
                    _ => {}
                }
            }
        }
    }
    let out: std::collections::HashMap<String, Vec<String>> =
        out.into_iter().filter_map(|(k, v)| Some((k, v?))).collect();
    (!out.is_empty()).then_some(out)
}

/// The `bboxFormat` of each BBoxFeature of the TFDS folders among the
/// arguments, by feature (`objects/bbox` → `REL_YXYX`); a feature the
/// folders give different formats is left out.
pub fn bbox_formats(files: &[std::ffi::OsString]) -> std::collections::HashMap<String, String> {
    let mut out: std::collections::HashMap<String, Option<String>> = std::collections::HashMap::new();
    for arg in files {
        let Some(place) = Place::of_arg(arg) else { continue };
        let Ok(Some(folder)) = Folder::open(&place) else {
            continue;
        };
        for leaf in folder.features.iter().flat_map(|t| t.leaves()) {
            if let Some(f) = &leaf.node.bbox_format {
                let same = out.get(&leaf.name).is_none_or(|known| known.as_ref() == Some(f));
                out.insert(leaf.name, same.then(|| f.clone()));
            }
        }
    }
    out.into_iter().filter_map(|(k, v)| Some((k, v?))).collect()
}

/// The inputs of the arguments without `--split`: a TFDS folder stands
/// for every split's shards in dataset_info.json's order (with a note
/// naming them); a folder whose metadata does not read is read as a plain
/// directory, silently.
pub fn expand_with_folders(files: &[std::ffi::OsString]) -> Result<Vec<Input>> {
    let folders: Vec<Option<Folder>> = files
        .iter()
        .map(|arg| {
            let place = Place::of_arg(arg)?;
            let folder = Folder::open(&place).ok().flatten()?;
            folder.check_format().is_ok().then_some(folder)
        })
        .collect();
    if folders.iter().all(Option::is_none) {
        return crate::io::input::expand(files).map_err(Into::into);
    }
    let mut inputs = Vec::new();
    for (arg, folder) in files.iter().zip(&folders) {
        match folder {
            Some(folder) => {
                note_splits(folder);
                inputs.extend(split::pick(folder, "all")?.inputs);
            }
            None => inputs.extend(crate::io::input::expand(std::slice::from_ref(arg))?),
        }
    }
    Ok(inputs)
}

/// The note naming the splits read of a TFDS folder.
fn note_splits(folder: &Folder) {
    let splits: Vec<String> = folder
        .info
        .splits
        .iter()
        .map(|s| format!("{} ({} records)", s.name, s.records()))
        .collect();
    crate::io::warn(format_args!(
        "note: {} is TFDS's {}: reading every split: {}; pick one with --split",
        folder.place.shown(),
        folder.title(),
        splits.join(", ")
    ));
}

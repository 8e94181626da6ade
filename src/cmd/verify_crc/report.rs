//! verify-crc's verdicts: one input's report ([`FileReport`], its
//! [`Status`]), and the summary line, table and JSON document.

use crate::exit::Exit;
use crate::io::Compression;
use crate::output;
use crate::record::{counted, Fault};
use anyhow::Result;
use comfy_table::CellAlignment;
use serde_json::json;
use std::io::Write;

/// How TensorFlow's parser reads a payload protobuf reads otherwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum PayloadVerdict {
    /// It refuses the record.
    Rejects,
    /// It reads other values.
    Differs,
    /// The payload is not the message for protobuf either.
    NotProtobuf,
}

impl PayloadVerdict {
    /// The name in `--json`.
    fn as_str(self) -> &'static str {
        match self {
            PayloadVerdict::Rejects => "rejects",
            PayloadVerdict::Differs => "differs",
            PayloadVerdict::NotProtobuf => "not_protobuf",
        }
    }
}

/// A record TensorFlow's parser rejects or reads differently.
pub(super) struct PayloadIssue {
    pub(super) record: u64,
    pub(super) offset: u64,
    pub(super) verdict: PayloadVerdict,
    pub(super) reason: String,
}

/// The verdict on one input.
#[derive(Default)]
pub(super) struct FileReport {
    pub(super) name: String,
    pub(super) compression: Option<Compression>,
    pub(super) intact: u64,
    pub(super) faults: Vec<Fault>,
    /// With `--payloads`: the records TensorFlow reads differently.
    pub(super) payload_issues: Vec<PayloadIssue>,
    /// With `--payloads`: why the payloads were not checked (not Examples).
    pub(super) unchecked: Option<String>,
    /// With `--payloads`: intact records over `--max-record-size`, streamed
    /// for their CRCs but whose payloads were not checked.
    pub(super) too_long_to_check: u64,
    /// Why the input could not be read at all (open or I/O failure, not a TFRecord).
    pub(super) error: Option<String>,
    /// Why TensorFlow's reader cannot read the file although it is intact
    /// (a SNAPPY block over 256 KiB).
    pub(super) tensorflow_unreadable: Option<String>,
}

/// An input's status, as the table and `--json` name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Status {
    /// It could not be read at all.
    Unreadable,
    /// Faults were found.
    Damaged,
    /// Intact, but TensorFlow's parser reads some payloads differently.
    PayloadsDiffer,
    /// Intact, but some payloads were too long to check.
    PayloadsNotChecked,
    /// Intact (and with `--payloads`, every payload as TensorFlow reads it).
    Ok,
}

impl Status {
    /// The status as printed.
    fn as_str(self) -> &'static str {
        match self {
            Status::Unreadable => "unreadable",
            Status::Damaged => "damaged",
            Status::PayloadsDiffer => "payloads differ",
            Status::PayloadsNotChecked => "payloads not checked",
            Status::Ok => "ok",
        }
    }
}

impl FileReport {
    /// An empty report on the input `name`.
    pub(super) fn new(name: String) -> FileReport {
        FileReport {
            name,
            ..FileReport::default()
        }
    }

    fn bytes_lost(&self) -> u64 {
        self.faults.iter().map(|f| f.skipped).sum()
    }

    fn status(&self) -> Status {
        match (&self.error, self.faults.is_empty(), self.payload_issues.is_empty()) {
            (Some(_), _, _) => Status::Unreadable,
            (None, false, _) => Status::Damaged,
            (None, true, false) => Status::PayloadsDiffer,
            (None, true, true) if self.too_long_to_check > 0 => Status::PayloadsNotChecked,
            (None, true, true) => Status::Ok,
        }
    }

    /// The exit code this input alone calls for.
    pub(super) fn exit(&self) -> Exit {
        match self.status() {
            Status::Unreadable => Exit::Error,
            Status::Damaged | Status::PayloadsDiffer | Status::PayloadsNotChecked => Exit::DamageFound,
            Status::Ok => Exit::Success,
        }
    }
}

/// The fault as printed: where, what, and how much the scan skipped.
pub(super) fn fault_message(fault: &Fault) -> String {
    let bytes = counted(fault.skipped, "byte");
    let skipped = if fault.resumed {
        format!(
            "{bytes} skipped to the next intact record at byte {}",
            fault.damage.offset + fault.skipped
        )
    } else if fault.skipped > 0 {
        format!("{bytes} lost to the end of input")
    } else {
        "nothing more could be read".to_string()
    };
    format!("{}; {skipped}", fault.damage)
}

/// The one-line summary of a single input.
pub(super) fn summary_line(r: &FileReport) -> String {
    let issues = r.payload_issues.len() as u64;
    let mut line = if r.faults.is_empty() && issues > 0 {
        format!(
            "{}: {}, all intact; {} TensorFlow's parser rejects or reads differently",
            r.name,
            counted(r.intact, "record"),
            counted(issues, "payload")
        )
    } else if r.faults.is_empty() {
        format!("{}: {}, all intact", r.name, counted(r.intact, "record"))
    } else {
        format!(
            "{}: {} intact, {}, {} lost",
            r.name,
            counted(r.intact, "record"),
            counted(r.faults.len() as u64, "fault"),
            counted(r.bytes_lost(), "byte")
        )
    };
    if r.too_long_to_check > 0 {
        line += &format!(
            "; {} not checked (over --max-record-size)",
            counted(r.too_long_to_check, "payload")
        );
    }
    line
}

pub(super) fn write_table(out: &mut dyn Write, reports: &[FileReport]) -> Result<()> {
    let mut table = output::table();
    table.set_header(vec![
        "file",
        "compression",
        "intact records",
        "faults",
        "bytes lost",
        "status",
    ]);
    for r in reports {
        table.add_row(vec![
            r.name.clone(),
            r.compression.map_or("-", |c| c.name()).to_string(),
            r.intact.to_string(),
            r.faults.len().to_string(),
            r.bytes_lost().to_string(),
            r.status().as_str().to_string(),
        ]);
    }
    let bad = reports.iter().filter(|r| r.status() != Status::Ok).count();
    table.add_row(vec![
        format!("total ({})", counted(reports.len() as u64, "file")),
        String::new(),
        reports.iter().map(|r| r.intact).sum::<u64>().to_string(),
        reports.iter().map(|r| r.faults.len()).sum::<usize>().to_string(),
        reports.iter().map(FileReport::bytes_lost).sum::<u64>().to_string(),
        if bad == 0 {
            "ok".to_string()
        } else {
            format!("{bad} not ok")
        },
    ]);
    for col in 2..5 {
        if let Some(c) = table.column_mut(col) {
            c.set_cell_alignment(CellAlignment::Right);
        }
    }
    writeln!(out, "{table}")?;
    Ok(())
}

pub(super) fn write_json(out: &mut dyn Write, reports: &[FileReport]) -> Result<()> {
    let files: Vec<serde_json::Value> = reports.iter().map(file_json).collect();
    let total = json!({
        "files": reports.len(),
        "intact_records": reports.iter().map(|r| r.intact).sum::<u64>(),
        "faults": reports.iter().map(|r| r.faults.len()).sum::<usize>(),
        "bytes_lost": reports.iter().map(FileReport::bytes_lost).sum::<u64>(),
        "damaged_files": reports.iter().filter(|r| r.status() == Status::Damaged).count(),
        "payload_issues": reports.iter().map(|r| r.payload_issues.len()).sum::<usize>(),
        "payloads_not_checked": reports.iter().map(|r| r.too_long_to_check).sum::<u64>(),
        "unreadable_files": reports.iter().filter(|r| r.status() == Status::Unreadable).count(),
    });
    let intact = reports.iter().all(|r| r.status() == Status::Ok);
    writeln!(out, "{}", json!({"files": files, "total": total, "intact": intact}))?;
    Ok(())
}

fn file_json(r: &FileReport) -> serde_json::Value {
    let faults: Vec<serde_json::Value> = r
        .faults
        .iter()
        .map(|f| {
            json!({
                "record": f.damage.record,
                "offset": f.damage.offset,
                "kind": f.damage.kind.code(),
                "message": f.damage.kind.to_string(),
                "bytes_skipped": f.skipped,
                "resumed": f.resumed,
            })
        })
        .collect();
    let mut v = json!({
        "file": r.name,
        "compression": r.compression.map(|c| c.name()),
        "intact_records": r.intact,
        "faults": faults,
        "bytes_lost": r.bytes_lost(),
        "status": r.status().as_str(),
    });
    if let Some(e) = &r.error {
        v["error"] = json!(output::escape_controls(e));
    }
    if !r.payload_issues.is_empty() {
        let issues: Vec<serde_json::Value> = r
            .payload_issues
            .iter()
            .map(|p| json!({"record": p.record, "offset": p.offset, "verdict": p.verdict.as_str(), "reason": p.reason}))
            .collect();
        v["payload_issues"] = json!(issues);
    }
    if r.too_long_to_check > 0 {
        v["payloads_not_checked"] = json!(r.too_long_to_check);
    }
    if let Some(why) = &r.unchecked {
        v["payloads_unchecked"] = json!(why);
    }
    if let Some(why) = &r.tensorflow_unreadable {
        v["tensorflow_unreadable"] = json!(why);
    }
    v
}

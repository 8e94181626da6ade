//! The layout and the rows of a message.

use super::build::{Cx, Rows};
use super::Layout;
use crate::proto::{Message, Msg, Sources};
use arrow_array::{Array, Int32Array, ListArray, StringArray, StructArray};
use arrow_schema::DataType;

const TREE: &str = r#"
syntax = "proto3";
package t;
import "google/protobuf/empty.proto";
message Tree {
  int32 v = 4;
  Tree child = 1;
  repeated Tree kids = 2;
  map<string, Tree> by = 3;
  Leaf leaf = 5;
  google.protobuf.Empty nothing = 6;
  Hollow hollow = 7;
}
message Leaf { Tree back = 1; string s = 2; }
message Hollow { google.protobuf.Empty e = 1; }
"#;

fn tree() -> Message {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tree.proto");
    std::fs::write(&path, TREE).unwrap();
    let sources = Sources {
        protos: vec![path],
        message: Some("t.Tree".into()),
        ..Sources::default()
    };
    Message::load(&sources).unwrap().unwrap()
}

#[test]
fn recursive_types_are_json_and_empty_ones_have_no_column() {
    let m = tree();
    let layout = Layout::new(&m.desc, &|_| true).unwrap();
    let schema = layout.schema();
    let names: Vec<&str> = schema.fields().iter().map(|f| f.name().as_str()).collect();
    // Declaration order; Empty, and a message of only an Empty, left out.
    assert_eq!(names, ["v", "child", "kids", "by", "leaf"]);
    assert_eq!(schema.field(1).data_type(), &DataType::Utf8);
    assert!(schema.field(1).is_nullable());
    let DataType::List(item) = schema.field(2).data_type() else {
        panic!("kids is not a list")
    };
    assert_eq!(item.data_type(), &DataType::Utf8);
    let DataType::Struct(leaf) = schema.field(4).data_type() else {
        panic!("leaf is not a struct")
    };
    // Leaf.back is a Tree, on the path from the root.
    assert_eq!(leaf[0].data_type(), &DataType::Utf8);
    assert!(!schema.field(0).is_nullable());
}

#[test]
fn rows_hold_values_defaults_and_nulls() {
    let m = tree();
    let layout = Layout::new(&m.desc, &|_| true).unwrap();
    // v = 7, child = {v: 1}, kids = [{}, {v: 2}], leaf = {s: "x"}.
    let payload = [
        0x20, 7, 0x0a, 2, 0x20, 1, 0x12, 0, 0x12, 2, 0x20, 2, 0x2a, 3, 0x12, 1, b'x',
    ];
    let one = Msg::decode(&m.desc, &payload).unwrap();
    let empty = Msg::decode(&m.desc, &[]).unwrap();
    let mut rows = Rows::new(&layout);
    let mut cx = Cx {
        pool: &m.pool,
        lossy: 0,
    };
    rows.append(&one, &mut cx).unwrap();
    rows.append(&empty, &mut cx).unwrap();
    let batch = rows.finish(&layout.schema()).unwrap().unwrap();
    let v = batch.column(0).as_any().downcast_ref::<Int32Array>().unwrap();
    assert_eq!((v.value(0), v.value(1), v.null_count()), (7, 0, 0));
    let child = batch.column(1).as_any().downcast_ref::<StringArray>().unwrap();
    assert_eq!(child.value(0), r#"{"v": 1}"#);
    assert!(child.is_null(1));
    let kids = batch.column(2).as_any().downcast_ref::<ListArray>().unwrap();
    assert_eq!(kids.value_offsets(), &[0, 2, 2]);
    let items = kids.values().as_any().downcast_ref::<StringArray>().unwrap();
    assert_eq!((items.value(0), items.value(1)), ("{}", r#"{"v": 2}"#));
    let leaf = batch.column(4).as_any().downcast_ref::<StructArray>().unwrap();
    assert!(leaf.is_valid(0) && leaf.is_null(1));
    let s = leaf.column(1).as_any().downcast_ref::<StringArray>().unwrap();
    assert_eq!(s.value(0), "x");
}

#[test]
fn no_rows_no_batch_and_a_selection_of_nothing_is_an_error() {
    let m = tree();
    let layout = Layout::new(&m.desc, &|_| true).unwrap();
    assert!(Rows::new(&layout).finish(&layout.schema()).unwrap().is_none());
    let e = Layout::new(&m.desc, &|_| false).unwrap_err().to_string();
    assert!(e.contains("t.Tree: no field to write as a column"), "{e}");
}

//! A field of a message or one of its extensions, alike.

use prost_reflect::{Cardinality, ExtensionDescriptor, FieldDescriptor, FileDescriptor, Kind, OneofDescriptor, Value};

/// A field or an extension.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Field {
    /// A field of the message.
    Plain(FieldDescriptor),
    /// An extension of it.
    Ext(ExtensionDescriptor),
}

macro_rules! both {
    ($self:ident, $f:ident => $e:expr) => {
        match $self {
            Field::Plain($f) => $e,
            Field::Ext($f) => $e,
        }
    };
}

impl Field {
    /// Its number.
    pub fn number(&self) -> u32 {
        both!(self, f => f.number())
    }
    /// Its type.
    pub fn kind(&self) -> Kind {
        both!(self, f => f.kind())
    }
    /// Singular or repeated.
    pub fn cardinality(&self) -> Cardinality {
        both!(self, f => f.cardinality())
    }
    /// Whether it is a map.
    pub fn is_map(&self) -> bool {
        both!(self, f => f.is_map())
    }
    /// Whether a repeated scalar is written packed.
    pub fn is_packed(&self) -> bool {
        both!(self, f => f.is_packed())
    }
    /// Whether it is a group.
    pub fn is_group(&self) -> bool {
        both!(self, f => f.is_group())
    }
    /// Whether it tracks presence (else a zero value is not listed).
    pub fn supports_presence(&self) -> bool {
        both!(self, f => f.supports_presence())
    }
    /// Its full name.
    pub fn full_name(&self) -> &str {
        both!(self, f => f.full_name())
    }
    /// The file that declares it.
    pub fn parent_file(&self) -> FileDescriptor {
        both!(self, f => f.parent_file())
    }
    /// Its default value.
    pub fn default_value(&self) -> Value {
        both!(self, f => f.default_value())
    }
    /// The oneof it belongs to (not for extensions).
    pub fn containing_oneof(&self) -> Option<OneofDescriptor> {
        match self {
            Field::Plain(f) => f.containing_oneof(),
            Field::Ext(_) => None,
        }
    }
    /// The name Python prints: the field's, `[full.name]` for an extension
    /// (a group's type name is chosen by the printer).
    pub fn printed_name(&self) -> String {
        match self {
            Field::Plain(f) => f.name().to_string(),
            Field::Ext(e) => format!("[{}]", e.full_name()),
        }
    }
}

impl From<FieldDescriptor> for Field {
    fn from(f: FieldDescriptor) -> Field {
        Field::Plain(f)
    }
}

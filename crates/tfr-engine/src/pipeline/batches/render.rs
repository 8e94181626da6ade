//! Rendering records to bytes on the workers (cat, to-jsonl, the report's gallery): Render and its outputs.

use super::*;

/// Rendering to bytes (cat, to-jsonl, the report's gallery): `F` appends
/// one record's rendering to an [`Out`] (a decode error already names the
/// record, see [`decode_error`]). A huge record is rendered as it is read,
/// its output handed on in pieces of about [`BATCH`] bytes, so neither the
/// payload nor its rendering is copied whole.
pub struct Render<'k, F> {
    render: F,
    window: usize,
    /// The natural JSON form's first kinds across records, if tracked.
    kinds: Option<&'k KindTable>,
}

/// What [`Render`] makes of a batch: its text, and the values whose form
/// the writer settles (`json::render::KindFix`; none unless kinds are tracked).
#[derive(Default)]
pub struct Rendered {
    /// The rendered text.
    pub bytes: Vec<u8>,
    /// Where the values of names not yet settled are, for the writer.
    pub notes: Vec<KindNote>,
}

impl Output for Rendered {
    fn is_empty(&self) -> bool {
        self.bytes.is_empty() && self.notes.is_empty()
    }

    fn clear(&mut self) {
        self.bytes.clear();
        // Notes are many in the first batches only (until the names are
        // published): the outputs kept for reuse do not hold on to them.
        if self.notes.capacity() > 1024 {
            self.notes = Vec::new();
        }
        self.notes.clear();
    }
}

impl<F> Render<'static, F> {
    /// Batches of the records starting in a [`BATCH`] window.
    pub fn new(render: F) -> Render<'static, F> {
        Render {
            render,
            window: BATCH,
            kinds: None,
        }
    }

    /// For a rendering several times the size of the records (`cat`'s
    /// text is 4 to 5 times an Example's bytes): batches of a quarter of
    /// the window, so that the outputs held between the workers and the
    /// writer (up to `--jobs` × 3 + 1 of them) stay about the size of the
    /// batches'.
    pub fn expanding(render: F) -> Render<'static, F> {
        Render {
            render,
            window: BATCH / 4,
            kinds: None,
        }
    }
}

impl<F> Render<'_, F> {
    /// The same, tracking the first kinds of feature names across records
    /// in `table` if given (the natural JSON form: the writer passes each
    /// batch through a `json::render::KindFix` of that table).
    pub fn tracking_kinds(self, table: Option<&KindTable>) -> Render<'_, F> {
        Render {
            render: self.render,
            window: self.window,
            kinds: table,
        }
    }

    /// Runs `f` on `out`'s buffer seen as an [`Out`] (tracking kinds if
    /// asked, the notes kept in `out`).
    fn out<T>(&self, out: &mut Rendered, spans: bool, f: impl FnOnce(&mut Out<'_>) -> T) -> T {
        match self.kinds {
            None => f(&mut Out::new(&mut out.bytes)),
            Some(table) => {
                let mut t = Tracking::new(table, std::mem::take(&mut out.notes), spans);
                let result = f(&mut Out::new(&mut out.bytes).tracking_kinds(&mut t));
                out.notes = t.notes;
                result
            }
        }
    }
}

impl<F> Work for Render<'_, F>
where
    F: Fn(&mut Decoder, &Record<'_>, &mut Out<'_>) -> Result<()> + Sync,
{
    type Out = Rendered;

    fn record(&self, decoder: &mut Decoder, record: &Record<'_>, out: &mut Rendered) -> Result<()> {
        self.out(out, true, |out| (self.render)(decoder, record, out))
    }

    fn window(&self) -> usize {
        self.window
    }

    fn batch(&self, batch: &Batch<Rendered>, out: &mut Rendered) -> Result<()> {
        // Called through a reference to the trait object: the renderer is
        // compiled once, as it was, not inlined into every batch loop (which
        // made text rendering measurably slower).
        let render: &RenderFn<'_> = &self.render;
        example::with_decoder(|decoder| {
            self.out(out, true, |out| {
                for record in batch.records() {
                    render(decoder, &record, out)?;
                }
                Ok(())
            })
        })
    }

    fn huge(&self, record: &Record<'_>, emit: &mut dyn FnMut(Rendered) -> Result<(), Stopped>) -> Result<()> {
        let mut stopped = false;
        let mut sink = |bytes: &[u8], notes: Vec<KindNote>| {
            emit(Rendered {
                bytes: bytes.to_vec(),
                notes,
            })
            .map_err(|_| {
                stopped = true;
                std::io::Error::other(Stopped)
            })
        };
        let mut buf = Vec::new();
        let mut t = self.kinds.map(|table| Tracking::new(table, Vec::new(), false));
        let (rendered, flushed) = {
            let mut pieces = |bytes: &[u8]| sink(bytes, Vec::new());
            // Long values are escaped in pieces of BATCH / 4 bytes (at most
            // BATCH once escaped), so no piece is much over 2 * BATCH.
            let mut out = Out::spilling_every(&mut buf, &mut pieces, BATCH, BATCH / 4);
            if let Some(t) = t.as_mut() {
                out = out.tracking_kinds(t);
            }
            let rendered = example::with_decoder(|decoder| (self.render)(decoder, record, &mut out));
            (rendered, out.finish())
        };
        rendered?;
        flushed?;
        // The notes (of values written typed) go with the last piece.
        let notes = t.map(|t| t.notes).unwrap_or_default();
        if !buf.is_empty() || !notes.is_empty() {
            sink(&buf, notes)?;
        }
        if stopped {
            return Err(Stopped.into());
        }
        Ok(())
    }
}

/// What [`Render`] renders with, as a trait object.
pub(super) type RenderFn<'r> = dyn Fn(&mut Decoder, &Record<'_>, &mut Out<'_>) -> Result<()> + Sync + 'r;

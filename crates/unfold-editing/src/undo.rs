//! The undo and redo history of a document open in the app, and whether it differs from its file.
//! A step is whatever takes the document back (or forth) one step: the inverse of a template edit,
//! or a whole earlier scenario. Both editors keep their history here, so grouping, dirty state and
//! saves behave the same for templates and scenarios.

use unfold_documents::error::Result;

/// One step: what takes the document back (or forth), and the revision it has once applied.
#[derive(Debug, Clone)]
struct HistoryStep<S> {
    step: S,
    restores: u64,
}

/// A document's history: undo and redo steps, its revision and the revision saved.
#[derive(Debug, Clone)]
pub struct UndoHistory<S> {
    undo: Vec<HistoryStep<S>>,
    redo: Vec<HistoryStep<S>>,
    revision: u64,
    next_revision: u64,
    saved_revision: Option<u64>,
    /// The group of the last change, while further changes of it may still join its step.
    open_group: Option<String>,
}

impl<S> UndoHistory<S> {
    /// The history of a document as it was read from its file (`saved`) or made new.
    pub fn new(saved: bool) -> UndoHistory<S> {
        UndoHistory {
            undo: Vec::new(),
            redo: Vec::new(),
            revision: 0,
            next_revision: 1,
            saved_revision: saved.then_some(0),
            open_group: None,
        }
    }

    /// Records a change just made, which `inverse` undoes. Changes of one `group` in a row
    /// (keystrokes in one field) undo as one step.
    pub fn record(&mut self, inverse: S, group: Option<String>) {
        self.redo.clear();
        let joins = group.is_some() && group == self.open_group && !self.undo.is_empty();
        if !joins {
            // When it joins, the group's first step already restores the state before the group.
            self.undo.push(HistoryStep { step: inverse, restores: self.revision });
        }
        self.open_group = group;
        self.next_revision += 1;
        self.revision = self.next_revision;
    }

    /// Undoes (`backwards`) or redoes one step: `apply` applies it and returns its inverse with
    /// what it changed. None when there is no step to take.
    pub fn take<T>(&mut self, backwards: bool, apply: impl FnOnce(S) -> Result<(S, T)>) -> Result<Option<T>> {
        let from = if backwards { &mut self.undo } else { &mut self.redo };
        let Some(HistoryStep { step, restores }) = from.pop() else { return Ok(None) };
        let (inverse, changed) = apply(step)?;
        let to = if backwards { &mut self.redo } else { &mut self.undo };
        to.push(HistoryStep { step: inverse, restores: self.revision });
        self.revision = restores;
        self.open_group = None;
        Ok(Some(changed))
    }

    /// The document's revision: the same number whenever it holds the same state.
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// The document was saved as it stands; the next change starts a new step.
    pub fn mark_saved(&mut self) {
        self.saved_revision = Some(self.revision);
        self.open_group = None;
    }

    /// Whether the document differs from its file (a never saved one always does).
    pub fn is_dirty(&self) -> bool {
        self.saved_revision != Some(self.revision)
    }

    /// Whether there is something to undo.
    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    /// Whether there is something to redo.
    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }
}

//! What o200k's pre-tokenizer pattern sees of a character: the class it falls in, from tables the
//! build script derived from the pattern's own class syntax.

/// The classes the pattern tells apart. The pattern's sets are unions of them: its "upper" set
/// (`[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]`) is `Upper`, `LetterBoth` and `Mark`; its "lower" set is
/// `Lower`, `LetterBoth` and `Mark`; `\p{L}` is the three letter classes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CharClass {
    /// `Lu`, `Lt`: in the upper set only.
    Upper,
    /// `Ll`: in the lower set only.
    Lower,
    /// `Lm`, `Lo`: a letter in both sets.
    LetterBoth,
    /// `M`: in both sets, but not a letter.
    Mark,
    /// `\p{N}`.
    Number,
    /// `\s` (Unicode `White_Space`).
    Space,
    /// Anything else.
    Other,
}

impl CharClass {
    #[inline]
    pub(crate) fn of(c: char) -> CharClass {
        if c.is_ascii() {
            ASCII_CLASSES[c as usize]
        } else {
            CharClass::of_non_ascii(c)
        }
    }

    fn of_non_ascii(c: char) -> CharClass {
        let code = c as u32;
        let after = CLASS_RANGES.partition_point(|&(start, _, _)| start <= code);
        match after.checked_sub(1).map(|index| CLASS_RANGES[index]) {
            Some((_, end, class)) if code <= end => class,
            _ => CharClass::Other,
        }
    }

    /// In `[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]`.
    pub(crate) fn is_upper_set(self) -> bool {
        matches!(self, CharClass::Upper | CharClass::LetterBoth | CharClass::Mark)
    }

    /// In `[\p{Ll}\p{Lm}\p{Lo}\p{M}]`.
    pub(crate) fn is_lower_set(self) -> bool {
        matches!(self, CharClass::Lower | CharClass::LetterBoth | CharClass::Mark)
    }

    /// In `[^\s\p{L}\p{N}]`: punctuation, symbols, marks, controls that are not white space.
    pub(crate) fn is_punctuation_set(self) -> bool {
        matches!(self, CharClass::Mark | CharClass::Other)
    }
}

/// In `[^\r\n\p{L}\p{N}]`, the optional character before a word.
pub(crate) fn is_word_prefix(c: char, class: CharClass) -> bool {
    c != '\r' && c != '\n' && matches!(class, CharClass::Mark | CharClass::Space | CharClass::Other)
}

// `ASCII_CLASSES`, `CLASS_RANGES` and `matches_letter` (for which `'ſ'` is an `s`).
include!(concat!(env!("OUT_DIR"), "/char_classes.rs"));

//! Display names: a seat's player, a club. They are shown to people (tables, scoreboards,
//! history, bundles), so a name must look like what it is.
//!
//! A name is normalized to Unicode NFC (so `e` + U+0301 and `é` are one name) with white
//! space around it trimmed, and refused when it is empty, too long, or holds a character
//! that is invisible or changes how the text around it is shown:
//!
//! * control characters (C0, DEL, C1) and line or paragraph separators;
//! * bidirectional controls: embeddings and overrides U+202A–U+202E, isolates
//!   U+2066–U+2069, the marks U+200E, U+200F and U+061C;
//! * zero-width characters: U+200B, U+200D (ZWJ), U+2060, U+FEFF;
//! * any other invisible format character (Unicode category Cf: soft hyphen, tags, …).
//!
//! The zero-width non-joiner U+200C is the exception. Persian writes it inside words and
//! names (نیم‌فاصله, the half-space: `علی‌رضا`, `می‌خواهم`): it keeps a letter from joining the
//! next one. It is accepted between two letters of the Arabic script (combining marks such
//! as harakat may stand between it and them), and refused anywhere else: at either end,
//! twice in a row, or beside a space, a digit or a letter of another script, where it is
//! invisible and would only make two names that look the same differ.

use unicode_general_category::{get_general_category, GeneralCategory};
use unicode_normalization::UnicodeNormalization;

/// The zero-width non-joiner, Persian's half-space.
pub const ZWNJ: char = '\u{200C}';

/// Why a name is refused. `at` is the 1-based position of the character in the name (after
/// normalization and trimming).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NameError {
    /// Nothing but white space, or nothing at all.
    #[error("is empty or only white space")]
    Empty,
    /// Longer than the field allows.
    #[error("is longer than {max} characters")]
    TooLong {
        /// The most characters the field takes.
        max: usize,
    },
    /// A control character, line or paragraph separator.
    #[error("contains a control character ({}) at character {at}", code_point(*.ch))]
    Control {
        /// The character.
        ch: char,
        /// Its position.
        at: usize,
    },
    /// A bidirectional embedding, override, isolate or mark.
    #[error(
        "contains a bidirectional control character ({}) at character {at}, which can reorder how text is shown",
        code_point(*.ch)
    )]
    Bidi {
        /// The character.
        ch: char,
        /// Its position.
        at: usize,
    },
    /// A zero-width space, joiner, word joiner or byte-order mark.
    #[error("contains a zero-width character ({}) at character {at}", code_point(*.ch))]
    ZeroWidth {
        /// The character.
        ch: char,
        /// Its position.
        at: usize,
    },
    /// A zero-width non-joiner that is not between two letters of the Arabic script.
    #[error(
        "contains a zero-width non-joiner (U+200C) at character {at} that is not between two letters of the Arabic script"
    )]
    StrayZwnj {
        /// Its position.
        at: usize,
    },
    /// Another invisible format character (category Cf).
    #[error("contains an invisible format character ({}) at character {at}", code_point(*.ch))]
    Format {
        /// The character.
        ch: char,
        /// Its position.
        at: usize,
    },
}

fn code_point(ch: char) -> String {
    format!("U+{:04X}", u32::from(ch))
}

/// Checks a display name of at most `max_chars` characters and returns it normalized
/// (NFC, trimmed).
///
/// ```
/// use services::names::{display_name, NameError};
///
/// assert_eq!(display_name(" Jose\u{301} ", 64).unwrap(), "Jos\u{e9}");
/// assert_eq!(display_name("علی\u{200C}رضا", 64).unwrap(), "علی\u{200C}رضا");
/// assert!(matches!(display_name("Ali\u{202E}", 64), Err(NameError::Bidi { .. })));
/// ```
pub fn display_name(raw: &str, max_chars: usize) -> Result<String, NameError> {
    let normalized = normalize(raw);
    let name = normalized.as_str();
    if name.is_empty() {
        return Err(NameError::Empty);
    }
    let chars: Vec<char> = name.chars().collect();
    if chars.len() > max_chars {
        return Err(NameError::TooLong { max: max_chars });
    }
    for (i, &ch) in chars.iter().enumerate() {
        let at = i + 1;
        match ch {
            '\u{202A}'..='\u{202E}'
            | '\u{2066}'..='\u{2069}'
            | '\u{200E}'
            | '\u{200F}'
            | '\u{061C}' => return Err(NameError::Bidi { ch, at }),
            '\u{200B}' | '\u{200D}' | '\u{2060}' | '\u{FEFF}' => {
                return Err(NameError::ZeroWidth { ch, at })
            }
            ZWNJ => {
                let before = chars[..i].iter().rev().find(|c| !is_mark(**c));
                let after = chars[i + 1..].iter().find(|c| !is_mark(**c));
                if !(before.is_some_and(|c| is_arabic_letter(*c))
                    && after.is_some_and(|c| is_arabic_letter(*c)))
                {
                    return Err(NameError::StrayZwnj { at });
                }
            }
            _ => match get_general_category(ch) {
                GeneralCategory::Control
                | GeneralCategory::LineSeparator
                | GeneralCategory::ParagraphSeparator => return Err(NameError::Control { ch, at }),
                GeneralCategory::Format => return Err(NameError::Format { ch, at }),
                _ => {}
            },
        }
    }
    Ok(name.to_string())
}

/// A name as it is stored, without the checks: NFC, white space around it trimmed. For
/// looking a name up.
pub fn normalize(raw: &str) -> String {
    let nfc: String = raw.nfc().collect();
    match nfc.trim() {
        t if t.len() == nfc.len() => nfc,
        t => t.to_string(),
    }
}

/// A combining mark (harakat and the like), which sits on the letter before it.
fn is_mark(ch: char) -> bool {
    matches!(
        get_general_category(ch),
        GeneralCategory::NonspacingMark | GeneralCategory::EnclosingMark
    )
}

/// A letter of the Arabic script (Persian's letters included): a letter in the Arabic
/// blocks.
fn is_arabic_letter(ch: char) -> bool {
    let arabic_block = matches!(
        ch,
        '\u{0600}'..='\u{06FF}'
            | '\u{0750}'..='\u{077F}'
            | '\u{0870}'..='\u{08FF}'
            | '\u{FB50}'..='\u{FDFF}'
            | '\u{FE70}'..='\u{FEFE}'
    );
    arabic_block
        && matches!(
            get_general_category(ch),
            GeneralCategory::OtherLetter | GeneralCategory::ModifierLetter
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(raw: &str) -> String {
        display_name(raw, 64).unwrap_or_else(|e| panic!("{raw:?}: {e}"))
    }

    #[test]
    fn nfc_and_trimmed() {
        assert_eq!(ok("Jose\u{301}"), "Jos\u{e9}");
        assert_eq!(ok("  Shirin\t"), "Shirin");
        assert_eq!(ok("Dariush Kh."), "Dariush Kh.");
        // Persian with a kasra on a letter: NFC keeps it (no composed form).
        assert_eq!(ok("مِهر"), "مِهر");
    }

    #[test]
    fn empty_and_long() {
        for raw in ["", "   ", "\t\n", "\u{3000}"] {
            assert_eq!(display_name(raw, 64), Err(NameError::Empty), "{raw:?}");
        }
        assert_eq!(
            display_name(&"a".repeat(65), 64),
            Err(NameError::TooLong { max: 64 })
        );
        // Counted after NFC: 64 decomposed é are 64 characters, not 128.
        assert!(display_name(&"e\u{301}".repeat(64), 64).is_ok());
    }

    #[test]
    fn invisible_and_reordering_characters_are_refused() {
        for ch in [
            '\u{202A}', '\u{202B}', '\u{202C}', '\u{202D}', '\u{202E}', '\u{2066}', '\u{2067}',
            '\u{2068}', '\u{2069}', '\u{200E}', '\u{200F}', '\u{061C}',
        ] {
            let e = display_name(&format!("Ali{ch}Reza"), 64).unwrap_err();
            assert_eq!(e, NameError::Bidi { ch, at: 4 });
            assert!(e.to_string().contains(&code_point(ch)), "{e}");
        }
        for ch in ['\u{200B}', '\u{200D}', '\u{2060}', '\u{FEFF}'] {
            assert_eq!(
                display_name(&format!("Ali{ch}Reza"), 64),
                Err(NameError::ZeroWidth { ch, at: 4 })
            );
        }
        for ch in [
            '\u{0}', '\u{7}', '\u{1B}', '\u{7F}', '\u{85}', '\u{2028}', '\u{2029}',
        ] {
            assert_eq!(
                display_name(&format!("Ali{ch}Reza"), 64),
                Err(NameError::Control { ch, at: 4 })
            );
        }
        for ch in ['\u{AD}', '\u{2062}', '\u{E0041}', '\u{FFF9}'] {
            assert_eq!(
                display_name(&format!("Ali{ch}Reza"), 64),
                Err(NameError::Format { ch, at: 4 })
            );
        }
        // A zero-width space alone is not white space: refused as what it is.
        assert!(matches!(
            display_name(" \u{200B} ", 64),
            Err(NameError::ZeroWidth { .. })
        ));
    }

    #[test]
    fn zwnj_between_arabic_script_letters_only() {
        for name in [
            "علی\u{200C}رضا",
            "می\u{200C}خواهم",
            "خانه\u{200C}ها",
            "کتاب\u{200C}ها",
            // A kasra between the letter and the half-space.
            "خانهِ\u{200C}ما",
            "Babak نیک\u{200C}نام",
            // After a letter that does not join forward it shows nothing, but Persian
            // typists put it there: accepted (docs/API.md, Names).
            "دیوار\u{200C}ها",
        ] {
            assert_eq!(ok(name), name);
        }
        for (name, at) in [
            ("\u{200C}علی", 1),
            ("علی\u{200C}", 4),
            ("علی\u{200C}\u{200C}رضا", 4),
            ("علی \u{200C}رضا", 5),
            ("علی\u{200C} رضا", 4),
            ("Ali\u{200C}Reza", 4),
            ("علی\u{200C}Reza", 4),
            ("۱۲\u{200C}۳", 3),
        ] {
            assert_eq!(
                display_name(name, 64),
                Err(NameError::StrayZwnj { at }),
                "{name:?}"
            );
        }
    }
}

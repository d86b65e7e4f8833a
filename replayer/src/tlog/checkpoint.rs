//! Checkpoints (C2SP tlog-checkpoint): the signed head of a club's log.
//!
//! ```text
//! cards.example.org/v1/clubs/tehran-club/log
//! 20852163
//! CsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=
//!
//! — cards.example.org/v1/clubs/tehran-club/log Az3grlgt…
//! ```
//!
//! The text is the origin, the tree size in decimal, the root hash in base64 and optional
//! extension lines, each ending in a newline; the log signs it as a signed note under a key
//! named by the origin.

use std::fmt;

use base64::engine::general_purpose::STANDARD;
use base64::Engine;

use crate::log::Hash;

use super::note::{check_key_name, decode_base64, open_note, NoteError, NoteSigner, NoteVerifier};

/// The most extension lines a checkpoint may carry here.
pub const MAX_EXTENSIONS: usize = 16;

/// Why a checkpoint was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CheckpointError {
    /// The signed note around it was refused.
    #[error(transparent)]
    Note(#[from] NoteError),
    /// The text is not a checkpoint.
    #[error("malformed checkpoint: {0}")]
    Malformed(&'static str),
    /// The origin is not the one expected.
    #[error("checkpoint is for origin {found:?}, not {expected:?}")]
    WrongOrigin {
        /// The origin expected.
        expected: String,
        /// The origin found.
        found: String,
    },
    /// An origin that cannot name a club's log.
    #[error("invalid origin {0:?}: {1}")]
    BadOrigin(String, &'static str),
}

/// The origin of a club's log, `<base>/clubs/<club id>/log`: the scheme-less URL prefix the
/// log is served at (C2SP tlog-tiles), where `<base>` is the service's scheme-less API root
/// (e.g. `cards.example.org/v1`). It is also the checkpoint key's name.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Origin(String);

impl Origin {
    /// The origin of `club`'s log under `base`. Both must be non-empty and hold no space,
    /// `+` or control character; `base` has no scheme and no trailing slash, and the club id
    /// no slash.
    pub fn for_club(base: &str, club: &str) -> Result<Origin, CheckpointError> {
        let bad = |why| CheckpointError::BadOrigin(format!("{base}/clubs/{club}/log"), why);
        if base.is_empty() || base.contains("://") || base.ends_with('/') {
            return Err(bad(
                "the base must be a scheme-less URL with no trailing slash",
            ));
        }
        if club.is_empty() || club.contains('/') {
            return Err(bad("the club id must be non-empty, with no slash"));
        }
        let origin = format!("{base}/clubs/{club}/log");
        check_key_name(&origin).map_err(|_| bad("no spaces, '+' or control characters"))?;
        Ok(Origin(origin))
    }

    /// Any origin (of a log that is not a club's, or read from a checkpoint).
    pub fn new(origin: &str) -> Result<Origin, CheckpointError> {
        check_key_name(origin).map_err(|_| {
            CheckpointError::BadOrigin(
                origin.chars().take(100).collect(),
                "it must be non-empty, with no spaces, '+' or control characters",
            )
        })?;
        Ok(Origin(origin.to_string()))
    }

    /// The club whose log this is, when the origin has the form `…/clubs/<club>/log`.
    pub fn club(&self) -> Option<&str> {
        let rest = self.0.strip_suffix("/log")?;
        let (_, club) = rest.rsplit_once("/clubs/")?;
        (!club.is_empty() && !club.contains('/')).then_some(club)
    }

    /// The origin as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A checkpoint: a log's origin, size and root hash.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checkpoint {
    /// The log's origin.
    pub origin: Origin,
    /// How many leaves the tree holds.
    pub size: u64,
    /// The tree's root hash.
    pub root: Hash,
    /// Extension lines (none in the logs this service writes).
    pub extensions: Vec<String>,
}

impl Checkpoint {
    /// A checkpoint with no extension lines.
    pub fn new(origin: Origin, size: u64, root: Hash) -> Checkpoint {
        Checkpoint {
            origin,
            size,
            root,
            extensions: Vec::new(),
        }
    }

    /// The note text: origin, size, base64 root and extension lines, each ending in `\n`.
    pub fn text(&self) -> String {
        let mut t = format!(
            "{}\n{}\n{}\n",
            self.origin,
            self.size,
            STANDARD.encode(self.root.0)
        );
        for e in &self.extensions {
            t.push_str(e);
            t.push('\n');
        }
        t
    }

    /// Parse a checkpoint's text strictly: at least three lines, each non-empty, a size
    /// in decimal with no leading zero, a root of exactly 32 bytes in canonical padded
    /// base64.
    pub fn parse_text(text: &str) -> Result<Checkpoint, CheckpointError> {
        let body = text.strip_suffix('\n').ok_or(CheckpointError::Malformed(
            "the text does not end in a newline",
        ))?;
        let mut lines = body.split('\n');
        let (Some(origin), Some(size), Some(root)) = (lines.next(), lines.next(), lines.next())
        else {
            return Err(CheckpointError::Malformed("fewer than three lines"));
        };
        if origin.is_empty() {
            return Err(CheckpointError::Malformed("empty origin"));
        }
        let origin = Origin(origin.to_string());
        if size.is_empty()
            || !size.bytes().all(|b| b.is_ascii_digit())
            || (size.len() > 1 && size.starts_with('0'))
        {
            return Err(CheckpointError::Malformed(
                "the size is not a decimal with no leading zero",
            ));
        }
        let size: u64 = size
            .parse()
            .map_err(|_| CheckpointError::Malformed("the size is too large"))?;
        let root = decode_base64(root)
            .and_then(|b| <[u8; 32]>::try_from(b).ok())
            .map(Hash)
            .ok_or(CheckpointError::Malformed(
                "the root hash is not 32 bytes of base64",
            ))?;
        let extensions: Vec<String> = lines.map(str::to_string).collect();
        if extensions.iter().any(String::is_empty) {
            return Err(CheckpointError::Malformed("an empty extension line"));
        }
        if extensions.len() > MAX_EXTENSIONS {
            return Err(CheckpointError::Malformed("too many extension lines"));
        }
        Ok(Checkpoint {
            origin,
            size,
            root,
            extensions,
        })
    }

    /// Sign it: the signed note of its text.
    pub fn sign(&self, signer: &NoteSigner) -> Result<String, CheckpointError> {
        Ok(signer.sign_note(&self.text())?)
    }

    /// Open a signed checkpoint: the note must carry a valid signature by `verifier` (other
    /// signatures are ignored, C2SP signed-note) and its origin must be the verifier's key
    /// name, which this service always signs with.
    pub fn open(note: &str, verifier: &NoteVerifier) -> Result<Checkpoint, CheckpointError> {
        let text = open_note(note, std::slice::from_ref(verifier))?;
        let c = Checkpoint::parse_text(text)?;
        if c.origin.as_str() != verifier.name() {
            return Err(CheckpointError::WrongOrigin {
                expected: verifier.name().to_string(),
                found: c.origin.0.chars().take(200).collect(),
            });
        }
        Ok(c)
    }

    /// Read a signed checkpoint without checking any signature (to show what it says, or
    /// when the caller has no key; say so to the user).
    pub fn parse_unverified(note: &str) -> Result<Checkpoint, CheckpointError> {
        let (text, _) = super::note::parse_note(note)?;
        Checkpoint::parse_text(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::log::SigningKeyPair;

    fn signer(origin: &Origin) -> NoteSigner {
        NoteSigner::new(origin.as_str(), SigningKeyPair::from_secret([5; 32])).unwrap()
    }

    #[test]
    fn sign_then_open() {
        let origin = Origin::for_club("cards.example.org/v1", "tehran-club").unwrap();
        assert_eq!(
            origin.as_str(),
            "cards.example.org/v1/clubs/tehran-club/log"
        );
        assert_eq!(origin.club(), Some("tehran-club"));
        let c = Checkpoint::new(origin.clone(), 20852163, Hash([7; 32]));
        let s = signer(&origin);
        let note = c.sign(&s).unwrap();
        assert!(note.starts_with(
            "cards.example.org/v1/clubs/tehran-club/log\n20852163\nBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwc=\n\n\u{2014} cards.example.org/v1/clubs/tehran-club/log "
        ));
        assert_eq!(Checkpoint::open(&note, &s.verifier()).unwrap(), c);
        // Signed by the right key under another origin: refused.
        let other = Origin::new("elsewhere.example/log").unwrap();
        let wrong = Checkpoint::new(other, 1, Hash([7; 32]));
        let note = s.sign_note(&wrong.text()).unwrap();
        assert!(matches!(
            Checkpoint::open(&note, &s.verifier()),
            Err(CheckpointError::WrongOrigin { .. })
        ));
    }

    #[test]
    fn malformed_checkpoint_texts_are_refused() {
        let root = STANDARD.encode([1u8; 32]);
        assert!(Checkpoint::parse_text(&format!("o\n0\n{root}\n")).is_ok());
        assert_eq!(
            Checkpoint::parse_text(&format!("o\n5\n{root}\next a\n"))
                .unwrap()
                .extensions,
            vec!["ext a".to_string()]
        );
        for bad in [
            format!("o\n5\n{root}"),
            "o\n5\n".to_string(),
            format!("\n5\n{root}\n"),
            format!("o\n05\n{root}\n"),
            format!("o\n+5\n{root}\n"),
            format!("o\n-5\n{root}\n"),
            format!("o\n 5\n{root}\n"),
            format!("o\n18446744073709551616\n{root}\n"),
            format!("o\n5\n{}\n", STANDARD.encode([1u8; 31])),
            format!("o\n5\n{}\n", root.trim_end_matches('=')),
            format!("o\n5\n{root}\n\n"),
            format!("o\n5\n{root}\nx\n\ny\n"),
        ] {
            assert!(Checkpoint::parse_text(&bad).is_err(), "accepted {bad:?}");
        }
    }

    #[test]
    fn origins_must_be_key_names() {
        assert!(Origin::for_club("https://cards.example.org", "c").is_err());
        assert!(Origin::for_club("cards.example.org/", "c").is_err());
        assert!(Origin::for_club("cards.example.org", "a/b").is_err());
        assert!(Origin::for_club("cards.example.org", "a b").is_err());
        assert!(Origin::for_club("cards.example.org", "a+b").is_err());
        assert!(Origin::for_club("", "c").is_err());
        assert_eq!(Origin::new("x.example/log").unwrap().club(), None);
    }
}

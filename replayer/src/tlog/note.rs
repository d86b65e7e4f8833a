//! C2SP signed notes with Ed25519 signatures: signing, verifier keys (vkeys) and strict
//! opening.
//!
//! A signed note is its text (ending in a newline), a blank line, and one or more signature
//! lines `— <key name> <base64(key id || signature)>`. The Ed25519 key id is the first four
//! bytes of `SHA-256(key name || 0x0A || 0x01 || public key)`; the signature is over the
//! text, final newline included. A verifier key is written `<name>+<hex key id>+<base64(0x01
//! || public key)>`.
//!
//! Opening follows the spec: signatures by keys the verifier does not know (name and id not
//! both matching) are ignored; every signature by a known key must verify; at least one must.
//!
//! ```
//! use replayer::log::SigningKeyPair;
//! use replayer::tlog::{NoteSigner, open_note};
//!
//! let signer = NoteSigner::new("example.com/log", SigningKeyPair::from_secret([3; 32])).unwrap();
//! let note = signer.sign_note("hello\n").unwrap();
//! let text = open_note(&note, &[signer.verifier()]).unwrap();
//! assert_eq!(text, "hello\n");
//! ```

use std::fmt;

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use sha2::{Digest, Sha256};

use crate::log::{PublicKey, Signature, SigningKeyPair};

/// The signature type byte of Ed25519 in C2SP signed notes.
pub const ED25519_TYPE: u8 = 0x01;
/// The most signature lines a note may carry here (the spec asks for at least 16).
pub const MAX_SIGNATURES: usize = 100;
/// The largest note read (text and signatures), in bytes.
pub const MAX_NOTE_LEN: usize = 1 << 20;

const EM_DASH_SPACE: &str = "\u{2014} ";

/// Why a note, a key name or a verifier key was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NoteError {
    /// The note breaks the signed-note format.
    #[error("malformed note: {0}")]
    Malformed(&'static str),
    /// A key name is empty or holds a space or `+`.
    #[error("invalid key name {0:?}: it must be non-empty, with no spaces and no '+'")]
    BadKeyName(String),
    /// A verifier key is not `<name>+<8 hex>+<base64 of 0x01 || 32 bytes>`.
    #[error("malformed verifier key: {0}")]
    BadVerifierKey(&'static str),
    /// A signature by a known key does not verify.
    #[error("the signature by {name} (key id {key_id:08x}) does not verify")]
    BadSignature {
        /// The key's name.
        name: String,
        /// The key id.
        key_id: u32,
    },
    /// The same known key signed twice.
    #[error("two signatures by {0}")]
    DuplicateSignature(String),
    /// No signature is by a key the verifier knows.
    #[error("no signature by a known key (signed by: {0})")]
    NoKnownSignature(String),
}

/// Whether `name` may name a key: non-empty, no Unicode space, no `+`.
pub fn check_key_name(name: &str) -> Result<(), NoteError> {
    if name.is_empty() || name.contains('+') || name.chars().any(char::is_whitespace) {
        return Err(NoteError::BadKeyName(name.chars().take(100).collect()));
    }
    if name.chars().any(char::is_control) {
        return Err(NoteError::BadKeyName(name.chars().take(100).collect()));
    }
    Ok(())
}

/// The key id of an Ed25519 key of this name: the first four bytes, big-endian, of
/// `SHA-256(name || 0x0A || 0x01 || public key)`.
pub fn ed25519_key_id(name: &str, key: &PublicKey) -> u32 {
    let mut h = Sha256::new();
    h.update(name.as_bytes());
    h.update([0x0A, ED25519_TYPE]);
    h.update(key.0.as_bytes());
    let d = h.finalize();
    u32::from_be_bytes([d[0], d[1], d[2], d[3]])
}

/// A named Ed25519 key that checks note signatures.
#[derive(Clone, PartialEq, Eq)]
pub struct NoteVerifier {
    name: String,
    key_id: u32,
    key: PublicKey,
}

impl fmt::Debug for NoteVerifier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.vkey())
    }
}

impl NoteVerifier {
    /// The verifier of `key` under `name`.
    pub fn new(name: &str, key: PublicKey) -> Result<Self, NoteError> {
        check_key_name(name)?;
        Ok(NoteVerifier {
            key_id: ed25519_key_id(name, &key),
            name: name.to_string(),
            key,
        })
    }

    /// Parse a vkey, `<name>+<hex key id>+<base64(0x01 || public key)>`, checking that the
    /// key id is the one the name and key give.
    pub fn from_vkey(vkey: &str) -> Result<Self, NoteError> {
        let vkey = vkey.trim_end_matches(['\n', '\r']);
        // The name and the id hold no '+'; the base64 of the key may.
        let mut parts = vkey.splitn(3, '+');
        let (Some(name), Some(id), Some(key)) = (parts.next(), parts.next(), parts.next()) else {
            return Err(NoteError::BadVerifierKey("not three parts joined by '+'"));
        };
        check_key_name(name)?;
        if id.len() != 8
            || !id
                .bytes()
                .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase())
        {
            return Err(NoteError::BadVerifierKey(
                "key id is not 8 lowercase hex digits",
            ));
        }
        let id = u32::from_str_radix(id, 16)
            .map_err(|_| NoteError::BadVerifierKey("key id is not hex"))?;
        let raw = decode_base64(key).ok_or(NoteError::BadVerifierKey("key is not base64"))?;
        let (ty, bytes) = raw
            .split_first()
            .ok_or(NoteError::BadVerifierKey("empty key"))?;
        if *ty != ED25519_TYPE {
            return Err(NoteError::BadVerifierKey("not an Ed25519 key (type 0x01)"));
        }
        let bytes: [u8; 32] = bytes
            .try_into()
            .map_err(|_| NoteError::BadVerifierKey("Ed25519 key is not 32 bytes"))?;
        let key = ed25519_dalek::VerifyingKey::from_bytes(&bytes)
            .map(PublicKey)
            .map_err(|_| NoteError::BadVerifierKey("not a valid Ed25519 public key"))?;
        let v = NoteVerifier::new(name, key)?;
        if v.key_id != id {
            return Err(NoteError::BadVerifierKey(
                "key id does not match the name and key",
            ));
        }
        Ok(v)
    }

    /// The vkey text form.
    pub fn vkey(&self) -> String {
        let mut raw = vec![ED25519_TYPE];
        raw.extend_from_slice(self.key.0.as_bytes());
        format!("{}+{:08x}+{}", self.name, self.key_id, STANDARD.encode(raw))
    }

    /// The key name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The key id.
    pub fn key_id(&self) -> u32 {
        self.key_id
    }

    /// The public key.
    pub fn public_key(&self) -> &PublicKey {
        &self.key
    }
}

/// A named Ed25519 key that signs notes (the log's checkpoint key).
pub struct NoteSigner {
    verifier: NoteVerifier,
    key: SigningKeyPair,
}

impl fmt::Debug for NoteSigner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "NoteSigner({})", self.verifier.vkey())
    }
}

impl NoteSigner {
    /// The signer `key` under `name`.
    pub fn new(name: &str, key: SigningKeyPair) -> Result<Self, NoteError> {
        Ok(NoteSigner {
            verifier: NoteVerifier::new(name, key.public())?,
            key,
        })
    }

    /// Its verifier (to publish as a vkey).
    pub fn verifier(&self) -> NoteVerifier {
        self.verifier.clone()
    }

    /// The signature line over `text` (without the newline that ends it).
    pub fn signature_line(&self, text: &str) -> String {
        let sig = self.key.sign(text.as_bytes());
        let mut raw = self.verifier.key_id.to_be_bytes().to_vec();
        raw.extend_from_slice(&sig.0);
        format!(
            "{EM_DASH_SPACE}{} {}",
            self.verifier.name,
            STANDARD.encode(raw)
        )
    }

    /// Sign `text`: the signed note, `text`, a blank line and one signature line.
    pub fn sign_note(&self, text: &str) -> Result<String, NoteError> {
        check_text(text)?;
        Ok(format!("{text}\n{}\n", self.signature_line(text)))
    }
}

/// Strict base64 (standard alphabet, padded, canonical).
pub(crate) fn decode_base64(s: &str) -> Option<Vec<u8>> {
    let b = STANDARD.decode(s).ok()?;
    (STANDARD.encode(&b) == s).then_some(b)
}

/// A note's text must be non-empty, end in a newline, and hold no control character but
/// newlines.
fn check_text(text: &str) -> Result<(), NoteError> {
    if !text.ends_with('\n') {
        return Err(NoteError::Malformed("the text does not end in a newline"));
    }
    if text
        .chars()
        .any(|c| c != '\n' && c.is_control() && u32::from(c) < 0x20)
    {
        return Err(NoteError::Malformed(
            "a control character other than newline",
        ));
    }
    Ok(())
}

/// One signature line of a note, as read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NoteSignature {
    /// The key name.
    pub name: String,
    /// The key id.
    pub key_id: u32,
    /// The signature bytes after the key id.
    pub signature: Vec<u8>,
}

/// Split a signed note into its text and its signatures, refusing every malformed note: not
/// UTF-8 (refused by the caller's `&str`), a control character other than newline, no
/// blank line before the signatures, no signature, a signature line of the wrong form or
/// bad base64, more than [`MAX_SIGNATURES`].
pub fn parse_note(note: &str) -> Result<(&str, Vec<NoteSignature>), NoteError> {
    if note.len() > MAX_NOTE_LEN {
        return Err(NoteError::Malformed("note too long"));
    }
    if note.chars().any(|c| c != '\n' && u32::from(c) < 0x20) {
        return Err(NoteError::Malformed(
            "a control character other than newline",
        ));
    }
    if !note.ends_with('\n') {
        return Err(NoteError::Malformed("the note does not end in a newline"));
    }
    // The signatures follow the last blank line.
    let split = note
        .rfind("\n\n")
        .ok_or(NoteError::Malformed("no blank line before the signatures"))?;
    let text = note
        .get(..split + 1)
        .ok_or(NoteError::Malformed("no text"))?;
    let sigs = note.get(split + 2..).unwrap_or("");
    if sigs.is_empty() {
        return Err(NoteError::Malformed("no signature"));
    }
    let mut out = Vec::new();
    for line in sigs.strip_suffix('\n').unwrap_or(sigs).split('\n') {
        if out.len() == MAX_SIGNATURES {
            return Err(NoteError::Malformed("too many signatures"));
        }
        let rest = line
            .strip_prefix(EM_DASH_SPACE)
            .ok_or(NoteError::Malformed(
                "a signature line does not begin with an em dash and a space",
            ))?;
        let (name, b64) = rest.split_once(' ').ok_or(NoteError::Malformed(
            "a signature line has no space after its key name",
        ))?;
        check_key_name(name)
            .map_err(|_| NoteError::Malformed("a signature line's key name is invalid"))?;
        let raw = decode_base64(b64).ok_or(NoteError::Malformed("a signature is not base64"))?;
        let (id, sig) = raw.split_first_chunk::<4>().ok_or(NoteError::Malformed(
            "a signature is shorter than its key id",
        ))?;
        if sig.is_empty() {
            return Err(NoteError::Malformed("a signature is empty"));
        }
        out.push(NoteSignature {
            name: name.to_string(),
            key_id: u32::from_be_bytes(*id),
            signature: sig.to_vec(),
        });
    }
    Ok((text, out))
}

/// Open a signed note: its text, once at least one signature by a known key verifies and
/// none by a known key fails. Signatures by other keys are ignored.
pub fn open_note<'a>(note: &'a str, known: &[NoteVerifier]) -> Result<&'a str, NoteError> {
    let (text, sigs) = parse_note(note)?;
    let mut verified: Vec<&NoteVerifier> = Vec::new();
    for s in &sigs {
        let Some(v) = known
            .iter()
            .find(|v| v.name == s.name && v.key_id == s.key_id)
        else {
            continue;
        };
        if verified.contains(&v) {
            return Err(NoteError::DuplicateSignature(v.name.clone()));
        }
        let ok = <[u8; 64]>::try_from(s.signature.as_slice())
            .is_ok_and(|b| v.key.verify(text.as_bytes(), &Signature(b)));
        if !ok {
            return Err(NoteError::BadSignature {
                name: v.name.clone(),
                key_id: v.key_id,
            });
        }
        verified.push(v);
    }
    if verified.is_empty() {
        let names: Vec<String> = sigs
            .iter()
            .take(10)
            .map(|s| format!("{}+{:08x}", s.name, s.key_id))
            .collect();
        return Err(NoteError::NoKnownSignature(names.join(", ")));
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn signer(name: &str, secret: u8) -> NoteSigner {
        NoteSigner::new(name, SigningKeyPair::from_secret([secret; 32])).unwrap()
    }

    /// The example of C2SP signed-note: the vkey parses, and its note opens.
    #[test]
    fn the_spec_example_verifies() {
        let v = NoteVerifier::from_vkey(
            "example.com/foo+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k",
        )
        .unwrap();
        assert_eq!(v.key_id(), 0x530d903a);
        let note = "This is an example message.\n\n\u{2014} example.com/foo Uw2QOkn8srV1yJGh2VYRlL1Tnagv1YEq6TfXppzi2ONncAlTgK7Ztg1ERYNZXsYjOBH3mFXmRKuwHjG1Yu72IneyaQM=\n";
        assert_eq!(
            open_note(note, std::slice::from_ref(&v)).unwrap(),
            "This is an example message.\n"
        );
        assert_eq!(
            v.vkey(),
            "example.com/foo+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k"
        );
    }

    #[test]
    fn unknown_signatures_are_ignored_and_known_ones_must_all_verify() {
        let a = signer("a.example/log", 1);
        let b = signer("b.example/witness", 2);
        let text = "origin\n1\nAAAA\n";
        let note = format!(
            "{text}\n{}\n{}\n",
            b.signature_line(text),
            a.signature_line(text)
        );
        assert_eq!(open_note(&note, &[a.verifier()]).unwrap(), text);
        assert_eq!(
            open_note(&note, &[a.verifier(), b.verifier()]).unwrap(),
            text
        );
        // Only unknown keys: refused.
        let c = signer("c.example/other", 3);
        assert!(matches!(
            open_note(&note, &[c.verifier()]),
            Err(NoteError::NoKnownSignature(_))
        ));
        // Same name, other key (so other id): ignored, and so nothing verifies.
        let a2 = signer("a.example/log", 9);
        assert!(matches!(
            open_note(&note, &[a2.verifier()]),
            Err(NoteError::NoKnownSignature(_))
        ));
        // A known key's bad signature refuses the note even when another verifies.
        let forged = format!(
            "{text}\n{}\n{}\n",
            a.signature_line(text),
            b.signature_line("other\n")
        );
        assert!(matches!(
            open_note(&forged, &[a.verifier(), b.verifier()]),
            Err(NoteError::BadSignature { .. })
        ));
        // The same known key twice.
        let twice = format!(
            "{text}\n{}\n{}\n",
            a.signature_line(text),
            a.signature_line(text)
        );
        assert!(matches!(
            open_note(&twice, &[a.verifier()]),
            Err(NoteError::DuplicateSignature(_))
        ));
        // A changed text.
        let changed = note.replacen("1\n", "2\n", 1);
        assert!(open_note(&changed, &[a.verifier()]).is_err());
    }

    #[test]
    fn malformed_notes_are_refused() {
        let a = signer("a.example/log", 1);
        let good = a.sign_note("x\n").unwrap();
        assert!(open_note(&good, &[a.verifier()]).is_ok());
        let line = a.signature_line("x\n");
        for bad in [
            String::new(),
            "x\n".to_string(),
            "x\n\n".to_string(),
            format!("x\n{line}\n"),
            format!("x\n\n{line}"),
            format!("x\n\n{line}\n\n"),
            format!("x\r\n\n{line}\n"),
            format!("x\t\n\n{line}\n"),
            format!("x\n\n{}\n", line.replacen('\u{2014}', "-", 1)),
            format!("x\n\n{}=\n", line),
            format!("x\n\n{} \n", line),
            "x\n\n\u{2014} a.example/log AAAA\n".to_string(),
            "x\n\n\u{2014} a.example/log AAAAAA==\n".to_string(),
            "x\n\n\u{2014}  AAAAAAAA\n".to_string(),
        ] {
            assert!(
                open_note(&bad, &[a.verifier()]).is_err(),
                "accepted {bad:?}"
            );
        }
        assert!(a.sign_note("no newline").is_err());
        let many: String = (0..=MAX_SIGNATURES).map(|_| format!("{line}\n")).collect();
        assert!(matches!(
            parse_note(&format!("x\n\n{many}")),
            Err(NoteError::Malformed("too many signatures"))
        ));
    }

    /// Regression: a key whose base64 holds a `+` was refused as a vkey of four parts.
    #[test]
    fn a_vkey_whose_base64_holds_a_plus_parses() {
        let v = NoteVerifier::from_vkey(
            "cards.example.org/v1/clubs/tabriz-club/log+26553093+AROY9ixtGkV8UbpqS189vS9p/KkyFiGNyJl+QWvRfZPK",
        )
        .unwrap();
        assert_eq!(v.key_id(), 0x26553093);
    }

    #[test]
    fn vkeys_round_trip_and_bad_ones_are_refused() {
        let a = signer("a.example/log", 1);
        let vkey = a.verifier().vkey();
        assert_eq!(NoteVerifier::from_vkey(&vkey).unwrap(), a.verifier());
        let parts: Vec<&str> = vkey.split('+').collect();
        for bad in [
            "".to_string(),
            format!("{}+{}", parts[0], parts[1]),
            format!("{}+00000000+{}", parts[0], parts[2]),
            format!("{}+{}+{}", parts[0], parts[1].to_uppercase(), parts[2]),
            format!("other.example+{}+{}", parts[1], parts[2]),
            format!("{}+{}+{}+", parts[0], parts[1], parts[2]),
            format!("{}+{}+{}", parts[0], parts[1], &parts[2][1..]),
            format!("+{}+{}", parts[1], parts[2]),
        ] {
            assert!(NoteVerifier::from_vkey(&bad).is_err(), "accepted {bad:?}");
        }
        assert!(NoteSigner::new("has space", SigningKeyPair::from_secret([1; 32])).is_err());
        assert!(NoteSigner::new("a+b", SigningKeyPair::from_secret([1; 32])).is_err());
    }
}

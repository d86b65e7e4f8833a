//! The service's keys: the Ed25519 signing keyring (current key plus every older public
//! key, so old hands keep verifying under the key that signed them) and the seal key that
//! encrypts server seeds and recorded idempotent responses at rest.
//!
//! Layout of the data folder:
//!
//! ```text
//! <data>/keys/<hex id>.key   64 hex characters: an Ed25519 secret (mode 0600)
//! <data>/keys/<hex id>.pub   64 hex characters: a public key seen once (from --key-file)
//! <data>/keys/current        the hex id of the current key
//! <data>/seal.key            64 hex characters: the XChaCha20-Poly1305 seal key (mode 0600)
//! ```
//!
//! `<hex id>` is the key id without its `ed25519:` prefix. With `--key-file`, the signing
//! key is read from that file instead (and its public key remembered as a `.pub` file so
//! that it stays listed after the operator moves to another key file).

use std::collections::BTreeMap;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use chacha20poly1305::aead::{Aead, KeyInit, Payload};
use chacha20poly1305::{XChaCha20Poly1305, XNonce};
use replayer::log::{KeyId, PublicKey, SigningKeyPair};

/// Why the keys could not be loaded or written.
#[derive(Debug, thiserror::Error)]
pub enum KeyError {
    /// A file could not be read or written.
    #[error("{}: {cause}", path.display())]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// The cause.
        cause: std::io::Error,
    },
    /// A key file does not hold 64 hex characters.
    #[error("{0}: not a key file (expected 64 hex characters)")]
    Malformed(PathBuf),
    /// The operating system's random generator failed.
    #[error("the operating system's random number generator failed")]
    Random,
    /// `keys rotate` was asked while the signing key comes from `--key-file`.
    #[error("the signing key comes from --key-file: rotate by writing a new key file and pointing --key-file at it")]
    ExternalKey,
    /// Sealed data could not be opened (wrong key, or tampered with).
    #[error("sealed data could not be opened")]
    Unseal,
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> KeyError + '_ {
    move |cause| KeyError::Io {
        path: path.to_path_buf(),
        cause,
    }
}

fn random32() -> Result<[u8; 32], KeyError> {
    let mut b = [0u8; 32];
    getrandom::fill(&mut b).map_err(|_| KeyError::Random)?;
    Ok(b)
}

/// Creates a folder (and its parents) readable by the owner only.
fn private_dir(dir: &Path) -> Result<(), KeyError> {
    fs::create_dir_all(dir).map_err(io(dir))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(dir, fs::Permissions::from_mode(0o700)).map_err(io(dir))?;
    }
    Ok(())
}

/// Writes `text` to a new file of mode 0600. Fails if the file exists.
fn write_new_secret(path: &Path, text: &str) -> Result<(), KeyError> {
    let mut opts = fs::OpenOptions::new();
    opts.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        opts.mode(0o600);
    }
    let mut f = opts.open(path).map_err(io(path))?;
    f.write_all(text.as_bytes()).map_err(io(path))?;
    f.write_all(b"\n").map_err(io(path))?;
    f.sync_all().map_err(io(path))
}

/// Replaces `path` atomically with `text` (write a temporary file, then rename).
fn replace_file(path: &Path, text: &str) -> Result<(), KeyError> {
    let tmp = path.with_extension("tmp");
    let _ = fs::remove_file(&tmp);
    write_new_secret(&tmp, text)?;
    fs::rename(&tmp, path).map_err(io(path))
}

fn read_hex32(path: &Path) -> Result<[u8; 32], KeyError> {
    let text = fs::read_to_string(path).map_err(io(path))?;
    let mut out = [0u8; 32];
    hex::decode_to_slice(text.trim(), &mut out).map_err(|_| KeyError::Malformed(path.into()))?;
    Ok(out)
}

/// The id as used in file names: the key id without `ed25519:`.
fn file_id(id: &KeyId) -> String {
    id.0.trim_start_matches("ed25519:").to_string()
}

/// The service's signing keys: the current one and the public half of every older one.
#[derive(Debug)]
pub struct Keyring {
    current: SigningKeyPair,
    public: BTreeMap<KeyId, PublicKey>,
}

/// One entry of [`Keyring::list`].
#[derive(Clone, Debug, serde::Serialize, utoipa::ToSchema)]
pub struct KeyInfo {
    /// `ed25519:` and 16 hex characters.
    #[schema(value_type = String, example = "ed25519:34750f98bd59fcfc")]
    pub key_id: KeyId,
    /// The Ed25519 public key, 64 hex characters.
    #[schema(value_type = String)]
    pub public_key: PublicKey,
    /// The algorithm (always `ed25519`).
    pub algorithm: &'static str,
    /// Whether the service signs new events with it.
    pub current: bool,
}

impl Keyring {
    /// Loads the keyring from `<data>/keys`, creating a first key when there is none; or
    /// takes the current key from `key_file`.
    pub fn load_or_create(data_dir: &Path, key_file: Option<&Path>) -> Result<Keyring, KeyError> {
        let dir = data_dir.join("keys");
        private_dir(&dir)?;
        let current = match key_file {
            Some(path) => {
                let key = SigningKeyPair::from_secret(read_hex32(path)?);
                let pub_path = dir.join(format!("{}.pub", file_id(&key.key_id())));
                if !pub_path.exists()
                    && !dir.join(format!("{}.key", file_id(&key.key_id()))).exists()
                {
                    replace_file(&pub_path, &key.public().to_hex())?;
                }
                key
            }
            None => match fs::read_to_string(dir.join("current")) {
                Ok(id) => SigningKeyPair::from_secret(read_hex32(
                    &dir.join(format!("{}.key", id.trim())),
                )?),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => Self::new_key(&dir)?,
                Err(e) => return Err(io(&dir.join("current"))(e)),
            },
        };
        let mut public = Self::scan(&dir)?;
        public.insert(current.key_id(), current.public());
        Ok(Keyring { current, public })
    }

    /// Creates a new key in `dir` and makes it current.
    fn new_key(dir: &Path) -> Result<SigningKeyPair, KeyError> {
        let key = SigningKeyPair::from_secret(random32()?);
        let id = file_id(&key.key_id());
        write_new_secret(&dir.join(format!("{id}.key")), &hex::encode(key.secret()))?;
        replace_file(&dir.join("current"), &id)?;
        Ok(key)
    }

    /// Every public key found in `dir` (`*.key` and `*.pub`).
    fn scan(dir: &Path) -> Result<BTreeMap<KeyId, PublicKey>, KeyError> {
        let mut out = BTreeMap::new();
        for entry in fs::read_dir(dir).map_err(io(dir))? {
            let path = entry.map_err(io(dir))?.path();
            let public = match path.extension().and_then(|e| e.to_str()) {
                Some("key") => SigningKeyPair::from_secret(read_hex32(&path)?).public(),
                Some("pub") => {
                    let text = fs::read_to_string(&path).map_err(io(&path))?;
                    PublicKey::from_hex(text.trim()).map_err(|_| KeyError::Malformed(path))?
                }
                _ => continue,
            };
            out.insert(public.key_id(), public);
        }
        Ok(out)
    }

    /// `keys rotate`: a new current key; the old ones stay for verification.
    pub fn rotate(data_dir: &Path, key_file: Option<&Path>) -> Result<Keyring, KeyError> {
        if key_file.is_some() {
            return Err(KeyError::ExternalKey);
        }
        let dir = data_dir.join("keys");
        private_dir(&dir)?;
        Self::new_key(&dir)?;
        Self::load_or_create(data_dir, None)
    }

    /// The key new events are signed with.
    pub fn current(&self) -> &SigningKeyPair {
        &self.current
    }

    /// A public key by id (current or older).
    pub fn public(&self, id: &KeyId) -> Option<PublicKey> {
        self.public.get(id).copied()
    }

    /// Every public key, the current one included.
    pub fn public_keys(&self) -> Vec<PublicKey> {
        self.public.values().copied().collect()
    }

    /// The current key first, then the older ones by id.
    pub fn list(&self) -> Vec<KeyInfo> {
        let cur = self.current.key_id();
        let mut out = vec![KeyInfo {
            key_id: cur.clone(),
            public_key: self.current.public(),
            algorithm: "ed25519",
            current: true,
        }];
        out.extend(
            self.public
                .iter()
                .filter(|(id, _)| **id != cur)
                .map(|(id, k)| KeyInfo {
                    key_id: id.clone(),
                    public_key: *k,
                    algorithm: "ed25519",
                    current: false,
                }),
        );
        out
    }
}

/// The 32-byte key that seals (encrypts and authenticates) secrets at rest with
/// XChaCha20-Poly1305: a random 24-byte nonce per message, stored in front of the
/// ciphertext, and associated data naming what is sealed (so a sealed value cannot be
/// moved to another hand or shuffle).
pub struct SealKey([u8; 32]);

impl std::fmt::Debug for SealKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SealKey(<redacted>)")
    }
}

const NONCE_LEN: usize = 24;

impl SealKey {
    /// Loads `<data>/seal.key`, creating it (mode 0600) on first start.
    pub fn load_or_create(data_dir: &Path) -> Result<SealKey, KeyError> {
        private_dir(data_dir)?;
        let path = data_dir.join("seal.key");
        if !path.exists() {
            match write_new_secret(&path, &hex::encode(random32()?)) {
                Ok(()) => {}
                // Another process created it first: use theirs.
                Err(KeyError::Io { cause, .. })
                    if cause.kind() == std::io::ErrorKind::AlreadyExists => {}
                Err(e) => return Err(e),
            }
        }
        Ok(SealKey(read_hex32(&path)?))
    }

    /// A seal key from its bytes (tests).
    pub fn from_bytes(bytes: [u8; 32]) -> SealKey {
        SealKey(bytes)
    }

    /// `nonce || ciphertext` of `plain`, bound to `aad`.
    pub fn seal(&self, aad: &[u8], plain: &[u8]) -> Result<Vec<u8>, KeyError> {
        let cipher = XChaCha20Poly1305::new((&self.0).into());
        let mut nonce = [0u8; NONCE_LEN];
        getrandom::fill(&mut nonce).map_err(|_| KeyError::Random)?;
        let ct = cipher
            .encrypt(XNonce::from_slice(&nonce), Payload { msg: plain, aad })
            .map_err(|_| KeyError::Unseal)?;
        let mut out = nonce.to_vec();
        out.extend(ct);
        Ok(out)
    }

    /// Opens what [`SealKey::seal`] produced with the same `aad`.
    pub fn unseal(&self, aad: &[u8], sealed: &[u8]) -> Result<Vec<u8>, KeyError> {
        if sealed.len() < NONCE_LEN {
            return Err(KeyError::Unseal);
        }
        let (nonce, ct) = sealed.split_at(NONCE_LEN);
        XChaCha20Poly1305::new((&self.0).into())
            .decrypt(XNonce::from_slice(nonce), Payload { msg: ct, aad })
            .map_err(|_| KeyError::Unseal)
    }

    /// A keyed PRF (HMAC-SHA-256 under a key derived from the seal key): derives secrets
    /// that must come out the same on a retried request.
    pub fn prf(&self, label: &str, msg: &[u8]) -> [u8; 32] {
        use hmac::{Hmac, Mac};
        use sha2::Digest;
        let k = sha2::Sha256::new()
            .chain_update(b"persian-cards/service-prf/v1\0")
            .chain_update(self.0)
            .finalize();
        // HMAC pads a key shorter than the block to the block with zeros: this is
        // HMAC-SHA-256 under the 32-byte `k`.
        let mut block = [0u8; 64];
        block[..32].copy_from_slice(&k);
        let mut mac = <Hmac<sha2::Sha256> as KeyInit>::new(&block.into());
        mac.update(label.as_bytes());
        mac.update(&[0]);
        mac.update(msg);
        mac.finalize().into_bytes().into()
    }
}

/// Refuses a weak Ed25519 public key for `field` (an official's, a seat's): one of small
/// order (`VerifyingKey::is_weak`), under which signatures that anyone can forge verify
/// (for the identity point, any signature with `R` of small order and `s = 0`). `400
/// weak_public_key` names the field.
pub fn refuse_weak(key: &PublicKey, field: &str) -> Result<(), crate::api::errors::ApiError> {
    if key.0.is_weak() {
        return Err(crate::api::errors::ApiError::new(
            crate::api::errors::Code::WeakPublicKey,
            format!("{field} is a point of small order: anyone could forge signatures that verify under it; use a key made by an Ed25519 key generator"),
        )
        .with("field", field));
    }
    Ok(())
}

/// Associated data of a sealed server seed: `club | hand | shuffle`.
pub fn seed_aad(club: &str, hand: &str, shuffle: u32) -> Vec<u8> {
    format!("persian-cards/server-seed/v1|{club}|{hand}|{shuffle}").into_bytes()
}

/// Associated data of a sealed seed chain: `club | table | first hand | anchor`, under a
/// label of its own, so that a table's chain cannot pass for another table's (or another
/// of its chains), nor for a server seed or an opening.
pub fn chain_aad(club: &str, table: &str, first_hand_no: i64, anchor: &str) -> Vec<u8> {
    format!("persian-cards/seed-chain/v1|{club}|{table}|{first_hand_no}|{anchor}").into_bytes()
}

/// Associated data of a sealed opening of a private action: `club | hand | seq` under a
/// label of its own, so that a sealed opening cannot pass for a server seed (or another
/// hand's, or another seq's opening), nor a seed for an opening.
pub fn input_aad(club: &str, hand: &str, seq: u64) -> Vec<u8> {
    format!("persian-cards/private-input-opening/v1|{club}|{hand}|{seq}").into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seal_round_trip_and_aad_binding() {
        let k = SealKey::from_bytes([9; 32]);
        let s = k.seal(b"a", b"secret").unwrap();
        assert_eq!(k.unseal(b"a", &s).unwrap(), b"secret");
        assert!(k.unseal(b"b", &s).is_err());
        let mut t = s.clone();
        t[30] ^= 1;
        assert!(k.unseal(b"a", &t).is_err());
    }

    #[test]
    fn a_sealed_opening_and_a_sealed_seed_do_not_open_as_each_other() {
        let k = SealKey::from_bytes([7; 32]);
        let opening = k.seal(&input_aad("c1", "h1", 3), b"opening").unwrap();
        assert!(k.unseal(&input_aad("c1", "h1", 3), &opening).is_ok());
        for aad in [
            seed_aad("c1", "h1", 3),
            input_aad("c1", "h1", 4),
            input_aad("c1", "h2", 3),
            input_aad("c2", "h1", 3),
        ] {
            assert!(k.unseal(&aad, &opening).is_err());
        }
        let seed = k.seal(&seed_aad("c1", "h1", 3), b"seed").unwrap();
        assert!(k.unseal(&input_aad("c1", "h1", 3), &seed).is_err());
    }

    #[test]
    fn keyring_created_rotated_and_kept() {
        let dir = tempfile::tempdir().unwrap();
        let a = Keyring::load_or_create(dir.path(), None).unwrap();
        let again = Keyring::load_or_create(dir.path(), None).unwrap();
        assert_eq!(a.current().key_id(), again.current().key_id());
        let b = Keyring::rotate(dir.path(), None).unwrap();
        assert_ne!(a.current().key_id(), b.current().key_id());
        assert!(b.public(&a.current().key_id()).is_some());
        assert_eq!(b.list().len(), 2);
        assert!(b.list()[0].current);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let id = file_id(&b.current().key_id());
            let m = fs::metadata(dir.path().join("keys").join(format!("{id}.key")))
                .unwrap()
                .permissions()
                .mode();
            assert_eq!(m & 0o777, 0o600);
        }
    }
}

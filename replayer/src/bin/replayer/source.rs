//! Where a club log is read from: a directory laid out as the log serves it, or the log's
//! URL prefix over HTTP(S).

use anyhow::{anyhow, Result};

use replayer::tlog::{DirTiles, StoreError, TileId, TileReader};

/// The largest checkpoint read.
const MAX_CHECKPOINT: u64 = 1 << 20;
/// The largest tile or entry bundle read (a full entry bundle of 256 largest entries).
#[cfg(feature = "http")]
const MAX_TILE: u64 = 256 * (2 + 65_535);

/// A log's tiles and checkpoint.
pub enum Source {
    /// A directory holding `checkpoint` and `tile/…`.
    Dir(DirTiles),
    /// A URL prefix (`http://…` or `https://…`) under which `checkpoint` and `tile/…` are
    /// served.
    #[cfg(feature = "http")]
    Http(super::http::HttpSource),
}

impl Source {
    /// A directory path, or an `http://` or `https://` URL prefix.
    pub fn open(spec: &str) -> Result<Source> {
        if spec.starts_with("http://") || spec.starts_with("https://") {
            #[cfg(feature = "http")]
            return Ok(Source::Http(super::http::HttpSource::new(spec)));
            #[cfg(not(feature = "http"))]
            anyhow::bail!(
                "{spec}: this replayer was built without HTTP (feature \"http\"); give a directory"
            );
        }
        let dir = std::path::Path::new(spec);
        if !dir.is_dir() {
            return Err(anyhow!(
                "{spec:?} is neither an http(s):// URL nor a directory"
            ));
        }
        Ok(Source::Dir(DirTiles::new(dir)))
    }

    /// Where it reads from, for messages.
    pub fn describe(&self) -> String {
        match self {
            Source::Dir(d) => d.root().display().to_string(),
            #[cfg(feature = "http")]
            Source::Http(h) => h.prefix().to_string(),
        }
    }

    /// The log's current signed checkpoint, as text.
    pub fn checkpoint(&self) -> Result<String> {
        let bytes = match self {
            Source::Dir(d) => {
                let p = d.root().join("checkpoint");
                let b =
                    std::fs::read(&p).map_err(|e| anyhow!("cannot read {}: {e}", p.display()))?;
                if b.len() as u64 > MAX_CHECKPOINT {
                    return Err(anyhow!("{} is larger than a checkpoint", p.display()));
                }
                b
            }
            #[cfg(feature = "http")]
            Source::Http(h) => h
                .get("checkpoint", MAX_CHECKPOINT)?
                .ok_or_else(|| anyhow!("{}checkpoint: not found", h.prefix()))?,
        };
        String::from_utf8(bytes).map_err(|_| anyhow!("the checkpoint is not UTF-8"))
    }
}

impl TileReader for Source {
    fn read_tile(&self, tile: &TileId) -> Result<Option<Vec<u8>>, StoreError> {
        match self {
            Source::Dir(d) => d.read_tile(tile),
            #[cfg(feature = "http")]
            Source::Http(h) => h.get(&tile.path(), MAX_TILE).map_err(|e| StoreError::Io {
                what: format!("fetching {}{}", h.prefix(), tile.path()),
                message: format!("{e:#}"),
            }),
        }
    }
}

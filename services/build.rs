//! Rebuilds the crate when a migration is added under `schema/`: the embedded
//! migrations (`refinery::embed_migrations!`) track the files they found, not new ones.

fn main() {
    println!("cargo:rerun-if-changed=../schema");
}

//! The shipped library and the search budget shared by the template tests.

use hexproof::local::Budget;
use hexproof::templates::library::Library;
use std::path::Path;
use std::time::Duration;

pub fn library() -> Library {
    Library::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("templates"))
        .expect("the library loads")
}

pub fn budget() -> Budget {
    Budget {
        nodes: 50_000_000,
        time: Some(Duration::from_secs(60)),
        ..Budget::default()
    }
}

//! Whether this process may write an archive (and the files SQLite keeps
//! beside it), asked of the file system before anything is opened.

use std::path::{Path, PathBuf};

/// The file beside the archive that SQLite names `<archive><suffix>`.
pub fn beside(path: &Path, suffix: &str) -> PathBuf {
    let mut p = path.as_os_str().to_owned();
    p.push(suffix);
    PathBuf::from(p)
}

/// The folder a path is in (`.` for a bare file name).
pub(super) fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// Why this process may not write the archive at `path` (and the files
/// SQLite keeps beside it), if it may not.
pub fn write_denied(path: &Path) -> Option<String> {
    let folder = folder_of(path);
    if path.exists()
        && let Some(why) = access_denied(path)
    {
        return Some(why.describe("the file"));
    }
    access_denied(folder).map(|why| why.describe("its folder"))
}

pub(super) enum Denied {
    ReadOnlyFileSystem,
    Permission,
}

impl Denied {
    pub(super) fn describe(&self, what: &str) -> String {
        match self {
            Denied::ReadOnlyFileSystem => "it is on a read-only file system".into(),
            Denied::Permission => format!("no permission to write {what}"),
        }
    }
}

#[cfg(target_os = "linux")]
pub(super) fn access_denied(path: &Path) -> Option<Denied> {
    use std::os::unix::ffi::OsStrExt;
    let c = std::ffi::CString::new(path.as_os_str().as_bytes()).ok()?;
    // SAFETY: `c` is a NUL-terminated path that outlives the call.
    if unsafe { libc::access(c.as_ptr(), libc::W_OK) } == 0 {
        return None;
    }
    match std::io::Error::last_os_error().raw_os_error() {
        Some(libc::EROFS) => Some(Denied::ReadOnlyFileSystem),
        Some(libc::EACCES | libc::EPERM) => Some(Denied::Permission),
        _ => None,
    }
}

#[cfg(not(target_os = "linux"))]
pub(super) fn access_denied(path: &Path) -> Option<Denied> {
    let readonly = std::fs::metadata(path).ok()?.permissions().readonly();
    readonly.then_some(Denied::Permission)
}

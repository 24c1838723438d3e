//! The command line's inputs as the list of things to read: a folder
//! becomes every regular file under it, recursively, sorted by path; `-`
//! stays standard input; any other path stays as given.
//!
//! Skips hidden names, link loops and non-regular files; an unreadable
//! entry is reported ([`Expanded::unreadable`]), not fatal; the archive and
//! its companions (`exclude`) are never inputs, compared as files. Does not
//! open or read anything. In full: docs/architecture.md "Module notes".

use std::io;
use std::path::{Path, PathBuf};

use globset::{Glob, GlobSet, GlobSetBuilder};

use super::Origin;

#[derive(Debug, thiserror::Error)]
pub enum FolderError {
    #[error("cannot read {path}: {error}")]
    Walk { path: PathBuf, error: io::Error },
    #[error("folder {folder} has no files to import ({why})")]
    Empty { folder: PathBuf, why: String },
    #[error("{path} is the archive or one of its files, not an input")]
    Archive { path: PathBuf },
    #[error("--glob {glob:?}: {error}")]
    Glob { glob: String, error: String },
}

/// One file's identity, to compare files whatever the path's spelling:
/// device and inode on Unix, the canonical path elsewhere.
#[cfg(unix)]
type FileKey = (u64, u64);
#[cfg(not(unix))]
type FileKey = PathBuf;

#[cfg(unix)]
fn file_key(_path: &Path, meta: &std::fs::Metadata) -> Option<FileKey> {
    use std::os::unix::fs::MetadataExt;
    Some((meta.dev(), meta.ino()))
}

#[cfg(not(unix))]
fn file_key(path: &Path, _meta: &std::fs::Metadata) -> Option<FileKey> {
    path.canonicalize().ok()
}

/// What to leave out and what to take, for [`expand`].
pub struct Selection {
    globs: Option<GlobSet>,
    patterns: Vec<String>,
    excluded: Vec<FileKey>,
}

impl Selection {
    /// Files to take from folders: all (no globs) or those matching a glob;
    /// `exclude`: files never to read (those that do not exist are ignored).
    pub fn new(globs: &[String], exclude: &[PathBuf]) -> Result<Selection, FolderError> {
        let set = if globs.is_empty() {
            None
        } else {
            let mut b = GlobSetBuilder::new();
            for g in globs {
                b.add(Glob::new(g).map_err(|e| FolderError::Glob {
                    glob: g.clone(),
                    error: e.kind().to_string(),
                })?);
            }
            Some(b.build().map_err(|e| FolderError::Glob {
                glob: globs.join(" "),
                error: e.kind().to_string(),
            })?)
        };
        let excluded = exclude
            .iter()
            .filter_map(|p| file_key(p, &std::fs::metadata(p).ok()?))
            .collect();
        Ok(Selection {
            globs: set,
            patterns: globs.to_vec(),
            excluded,
        })
    }

    fn is_excluded(&self, path: &Path, meta: &std::fs::Metadata) -> bool {
        !self.excluded.is_empty()
            && file_key(path, meta).is_some_and(|k| self.excluded.contains(&k))
    }
}

/// An entry under a folder left out because it could not be read.
#[derive(Debug, thiserror::Error)]
#[error("{}: {error}", path.display())]
pub struct Unreadable {
    pub path: PathBuf,
    pub error: io::Error,
}

/// What the command line's arguments stand for.
#[derive(Debug, Default)]
pub struct Expanded {
    pub origins: Vec<Origin>,
    /// Entries under the folders that could not be read, in walk order.
    pub unreadable: Vec<Unreadable>,
}

/// The inputs the command line's `args` stand for, in order, each folder
/// replaced by its files; `-` is standard input, named `stdin_name`.
pub fn expand(
    args: &[PathBuf],
    sel: &Selection,
    stdin_name: &str,
) -> Result<Expanded, FolderError> {
    let mut out = Expanded {
        origins: Vec::with_capacity(args.len()),
        unreadable: Vec::new(),
    };
    for arg in args {
        let origin = Origin::from_arg(arg, stdin_name);
        let Origin::Path(path) = &origin else {
            out.origins.push(origin);
            continue;
        };
        match std::fs::metadata(path) {
            Ok(meta) if meta.is_dir() => out.origins.extend(walk(path, sel, &mut out.unreadable)?),
            Ok(meta) if sel.is_excluded(path, &meta) => {
                return Err(FolderError::Archive { path: path.clone() });
            }
            // Missing or unreadable: opening it says so.
            _ => out.origins.push(origin),
        }
    }
    Ok(out)
}

/// The files under `folder` that `sel` takes, sorted by path; entries
/// that cannot be read are added to `unreadable`.
fn walk(
    folder: &Path,
    sel: &Selection,
    unreadable: &mut Vec<Unreadable>,
) -> Result<Vec<Origin>, FolderError> {
    let mut files = Vec::new();
    let (mut hidden_or_excluded, mut unmatched) = (0usize, 0usize);
    let walker = walkdir::WalkDir::new(folder)
        .follow_links(true)
        .into_iter()
        .filter_entry(|e| e.depth() == 0 || !e.file_name().as_encoded_bytes().starts_with(b"."));
    for entry in walker {
        let entry = match entry {
            Ok(e) => e,
            // A link to its own ancestor: the folder is read once already.
            Err(e) if e.loop_ancestor().is_some() => continue,
            Err(e) => {
                let depth = e.depth();
                let path = e.path().unwrap_or(folder).to_path_buf();
                let error = walk_error(e);
                if depth == 0 {
                    return Err(FolderError::Walk { path, error });
                }
                unreadable.push(Unreadable { path, error });
                continue;
            }
        };
        if !entry.file_type().is_file() {
            continue;
        }
        let meta = match entry.metadata() {
            Ok(meta) => meta,
            Err(e) => {
                let path = entry.path().to_path_buf();
                unreadable.push(Unreadable {
                    path,
                    error: walk_error(e),
                });
                continue;
            }
        };
        if sel.is_excluded(entry.path(), &meta) {
            hidden_or_excluded += 1;
            continue;
        }
        if let Some(globs) = &sel.globs {
            let rel = entry.path().strip_prefix(folder).unwrap_or(entry.path());
            if !globs.is_match(rel) {
                unmatched += 1;
                continue;
            }
        }
        files.push(entry.into_path());
    }
    if files.is_empty() {
        let why = if !unreadable.is_empty() {
            format!("none of its {} entries could be read", unreadable.len())
        } else if unmatched > 0 {
            format!(
                "none of its {unmatched} files matches --glob {}",
                sel.patterns.join(", --glob ")
            )
        } else if hidden_or_excluded > 0 {
            "its only files are the archive's".to_string()
        } else {
            "no regular files outside hidden folders and files".to_string()
        };
        return Err(FolderError::Empty {
            folder: folder.to_path_buf(),
            why,
        });
    }
    files.sort_by(|a, b| {
        a.as_os_str()
            .as_encoded_bytes()
            .cmp(b.as_os_str().as_encoded_bytes())
    });
    Ok(files.into_iter().map(Origin::Path).collect())
}

/// Why walkdir could not read an entry, said for people: a dangling link
/// is named as one (the system only says the file does not exist).
fn walk_error(e: walkdir::Error) -> io::Error {
    let dangling = e
        .path()
        .is_some_and(|p| p.symlink_metadata().is_ok_and(|m| m.is_symlink()) && !p.exists());
    match e.into_io_error() {
        Some(io) if dangling && io.kind() == io::ErrorKind::NotFound => io::Error::new(
            io.kind(),
            "a symbolic link to nothing (its target does not exist)",
        ),
        Some(io) => io,
        None => io::Error::other("cannot read the entry"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree() -> tempfile::TempDir {
        let d = tempfile::tempdir().unwrap();
        for f in [
            "b.txt",
            "a/z.txt",
            "a.txt",
            "a/.hidden.txt",
            ".git/x.txt",
            "c.csv.gz",
        ] {
            let p = d.path().join(f);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, "x\n").unwrap();
        }
        d
    }

    fn names(d: &Path, got: Vec<Origin>) -> Vec<String> {
        got.iter()
            .map(|o| match o {
                Origin::Path(p) => p.strip_prefix(d).unwrap().display().to_string(),
                Origin::Stdin { name } => name.clone(),
            })
            .collect()
    }

    #[test]
    fn a_folder_is_its_visible_files_in_byte_order_of_their_paths() {
        let d = tree();
        let sel = Selection::new(&[], &[]).unwrap();
        let got = expand(&[d.path().to_path_buf()], &sel, "-")
            .unwrap()
            .origins;
        // "a.txt" sorts before "a/z.txt": '.' is below '/'.
        assert_eq!(
            names(d.path(), got),
            ["a.txt", "a/z.txt", "b.txt", "c.csv.gz"]
        );
    }

    #[test]
    fn globs_pick_files_at_any_depth_and_excluded_files_are_left_out() {
        let d = tree();
        let sel = Selection::new(
            &["*.txt".into(), "*.csv.gz".into()],
            &[d.path().join("b.txt"), d.path().join("missing-wal")],
        )
        .unwrap();
        let got = expand(&[d.path().to_path_buf()], &sel, "-")
            .unwrap()
            .origins;
        assert_eq!(names(d.path(), got), ["a.txt", "a/z.txt", "c.csv.gz"]);
        let named = expand(&[d.path().join("b.txt")], &sel, "-").unwrap_err();
        assert!(matches!(named, FolderError::Archive { .. }), "{named}");
    }

    #[test]
    fn a_folder_with_nothing_to_take_is_an_error_saying_why() {
        let d = tree();
        let sel = Selection::new(&["*.json".into()], &[]).unwrap();
        let e = expand(&[d.path().to_path_buf()], &sel, "-").unwrap_err();
        assert!(
            e.to_string()
                .contains("none of its 4 files matches --glob *.json"),
            "{e}"
        );
        let empty = tempfile::tempdir().unwrap();
        let e = expand(
            &[empty.path().to_path_buf()],
            &Selection::new(&[], &[]).unwrap(),
            "-",
        )
        .unwrap_err();
        assert!(e.to_string().contains("has no files to import"), "{e}");
        assert!(Selection::new(&["a[".into()], &[]).is_err());
    }

    #[cfg(unix)]
    #[test]
    fn a_dangling_link_is_left_out_and_reported_and_the_other_files_are_taken() {
        let d = tree();
        std::os::unix::fs::symlink(d.path().join("gone.txt"), d.path().join("a/dead.txt")).unwrap();
        let sel = Selection::new(&[], &[]).unwrap();
        let got = expand(&[d.path().to_path_buf()], &sel, "-").unwrap();
        assert_eq!(
            names(d.path(), got.origins),
            ["a.txt", "a/z.txt", "b.txt", "c.csv.gz"]
        );
        let [dead] = &got.unreadable[..] else {
            panic!("{:?}", got.unreadable)
        };
        assert_eq!(dead.path, d.path().join("a/dead.txt"));
        assert!(
            dead.to_string()
                .ends_with("a/dead.txt: a symbolic link to nothing (its target does not exist)"),
            "{dead}"
        );
        // A folder of nothing but dead links has nothing to import.
        let only = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(only.path().join("x"), only.path().join("y")).unwrap();
        let e = expand(&[only.path().to_path_buf()], &sel, "-").unwrap_err();
        assert!(
            e.to_string()
                .contains("none of its 1 entries could be read"),
            "{e}"
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_symlink_loop_is_not_followed() {
        let d = tree();
        std::os::unix::fs::symlink(d.path(), d.path().join("a/loop")).unwrap();
        let sel = Selection::new(&[], &[]).unwrap();
        let got = expand(&[d.path().to_path_buf()], &sel, "-")
            .unwrap()
            .origins;
        assert_eq!(
            names(d.path(), got),
            ["a.txt", "a/z.txt", "b.txt", "c.csv.gz"]
        );
    }
}

//! Transparent huge pages for SQLite's page cache, on Linux with glibc:
//! before anything else runs, the binary executes itself once more with
//! `glibc.malloc.hugetlb=1` added to `GLIBC_TUNABLES`, where the system's
//! setting is `madvise`.
//!
//! Must never change what a command does: it is skipped when the user set
//! the tunable, when the setting is `always` or `never`, for set-user-ID
//! processes and when the binary cannot be found again, and a failed `exec`
//! returns. Why, the conditions and the measurements: docs/architecture.md
//! "Module notes" and docs/performance.md (issue 24).

#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub use glibc::{advised_only, enable};

/// Elsewhere `malloc` is not glibc's, or huge pages are not Linux's.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub fn enable() {}

#[cfg(all(target_os = "linux", target_env = "gnu"))]
mod glibc {
    use std::ffi::{OsStr, OsString};

    /// The glibc tunable that makes `malloc` advise huge pages.
    const TUNABLE: &str = "glibc.malloc.hugetlb";
    /// The system's transparent huge page setting.
    const THP_SETTING: &str = "/sys/kernel/mm/transparent_hugepage/enabled";

    /// Executes this binary again with huge pages for `malloc` when that
    /// helps (see the module doc); returns when it does not, or cannot.
    pub fn enable() {
        use std::os::unix::process::CommandExt;

        let Some(tunables) = with_huge_pages(std::env::var_os("GLIBC_TUNABLES").as_deref()) else {
            return;
        };
        if !advised_only() {
            return;
        }
        // A set-user-ID or privileged start: glibc ignores or strips the
        // tunable then, which would make the restart go round for ever.
        // SAFETY: `getauxval` reads the auxiliary vector the kernel gave the
        // process; it has no preconditions.
        if unsafe { libc::getauxval(libc::AT_SECURE) } != 0 {
            return;
        }
        let Ok(exe) = std::env::current_exe() else {
            return;
        };
        let mut args = std::env::args_os();
        let Some(arg0) = args.next() else {
            return;
        };
        // Returns only on failure, which leaves this process as it was.
        let _ = std::process::Command::new(exe)
            .arg0(arg0)
            .args(args)
            .env("GLIBC_TUNABLES", tunables)
            .exec();
    }

    /// Whether this system gives huge pages only to memory advised to use
    /// them: the one setting where the tunable matters.
    pub fn advised_only() -> bool {
        std::fs::read_to_string(THP_SETTING).is_ok_and(|s| only_when_advised(&s))
    }

    /// `GLIBC_TUNABLES` with huge pages for `malloc` put before `current`,
    /// or `None` when `current` already names the tunable (whatever its
    /// value). A value that is not UTF-8 is left alone (`None`) too.
    pub(super) fn with_huge_pages(current: Option<&OsStr>) -> Option<OsString> {
        let current = match current {
            Some(value) => value.to_str()?,
            None => "",
        };
        if current
            .split(':')
            .any(|t| t.split_once('=').is_some_and(|(name, _)| name == TUNABLE))
        {
            return None;
        }
        let mut tunables = OsString::from(TUNABLE);
        tunables.push("=1");
        if !current.is_empty() {
            tunables.push(":");
            tunables.push(current);
        }
        Some(tunables)
    }

    /// Whether a setting of [`THP_SETTING`] is the one
    /// [`advised_only`] looks for (`always [madvise] never`).
    pub(super) fn only_when_advised(setting: &str) -> bool {
        setting.split_whitespace().any(|s| s == "[madvise]")
    }
}

#[cfg(all(test, target_os = "linux", target_env = "gnu"))]
mod tests {
    use std::ffi::{OsStr, OsString};
    use std::os::unix::ffi::OsStrExt;

    use super::glibc::{only_when_advised, with_huge_pages};

    #[test]
    fn the_tunable_is_added_beside_the_users_unless_already_named() {
        assert_eq!(
            with_huge_pages(None),
            Some(OsString::from("glibc.malloc.hugetlb=1"))
        );
        assert_eq!(
            with_huge_pages(Some(OsStr::new(""))),
            Some(OsString::from("glibc.malloc.hugetlb=1"))
        );
        assert_eq!(
            with_huge_pages(Some(OsStr::new("glibc.malloc.arena_max=2"))),
            Some(OsString::from(
                "glibc.malloc.hugetlb=1:glibc.malloc.arena_max=2"
            ))
        );
        // The user's own value stands, 0 included.
        for set in [
            "glibc.malloc.hugetlb=0",
            "glibc.malloc.hugetlb=2",
            "glibc.malloc.arena_max=2:glibc.malloc.hugetlb=0",
        ] {
            assert_eq!(with_huge_pages(Some(OsStr::new(set))), None, "{set}");
        }
        let not_utf8 = OsStr::from_bytes(b"glibc.malloc.arena_max=\xff");
        assert_eq!(with_huge_pages(Some(not_utf8)), None);
        // A tunable whose name only starts the same is another one.
        assert_eq!(
            with_huge_pages(Some(OsStr::new("glibc.malloc.hugetlbx=0"))),
            Some(OsString::from(
                "glibc.malloc.hugetlb=1:glibc.malloc.hugetlbx=0"
            ))
        );
    }

    #[test]
    fn only_the_madvise_setting_asks_for_the_tunable() {
        assert!(only_when_advised("always [madvise] never\n"));
        assert!(!only_when_advised("[always] madvise never\n"));
        assert!(!only_when_advised("always madvise [never]\n"));
        assert!(!only_when_advised(""));
    }
}

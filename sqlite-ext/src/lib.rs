//! `sudoku-archive`'s domain as SQL functions for the `sqlite3` shell:
//! `.load` this library and call the code the tool runs, so that a query
//! finds a puzzle through the archive's lookup tables (`puzzles_by_key`,
//! `puzzles_by_form`) from any string form,
//! decodes any form, and draws a grid.
//!
//! Every function takes a puzzle string in any form an import reads (or a
//! solver URL), read as an import reads a line (trailing text ignored), and
//! returns NULL for NULL and for every string an import rejects (by the
//! import's own judgement: not a puzzle, a contradiction, no solution, a
//! limit reached), so that a query over many rows does not stop at the
//! first bad one, and a value is always what an import would store:
//!
//! | function | returns |
//! |---|---|
//! | `sudoku_type(s)` | `sudoku`, `killer` or `str8ts` |
//! | `sudoku_identity(s)` | the identity an archive stores it under (`puzzles.givens`) |
//! | `sudoku_key(s)` | where its key starts (`puzzles_by_key.key`): the hash of type and identity |
//! | `sudoku_canonical(s)` | its isomorph canonical form (`puzzles.canonical`) |
//! | `sudoku_canonical_hash(s)` | its `puzzles.canonical_hash`, looked up in `puzzles_by_form` |
//! | `sudoku_form(s, f)` | the puzzle in form `f`, one of `export --form`'s |
//! | `sudoku_grid(s)` | the grid `show` draws |
//!
//! One definition for the tool and the shell: the verdict and the hashes
//! are the import's ([`sudoku_archive::pipeline::process::analyse_token`]), the forms
//! [`sudoku_archive::archive::export::FORMS`], the grid
//! [`sudoku_archive::cli::show::render`]. The functions are deterministic.
//!
//! **How it talks to SQLite.** A loadable extension must call the SQLite
//! of the program that loads it, through the table of function pointers
//! (`sqlite3_api_routines`) it is handed; it must not use the SQLite the
//! tool has compiled in. rusqlite's own support for extensions replaces
//! that compiled-in SQLite crate-wide (it cannot be built beside the tool)
//! and refuses hosts older than its bindings (3.50 here; Debian's shell is
//! 3.40). So the few entries needed are called here by their place in that
//! table, which SQLite only ever appends to ([`Api`]: the indexes are those
//! of `sqlite3ext.h`, the same in every version since each entry was added,
//! all before 3.7; the functions are flagged deterministic, which needs 3.8.3).

use std::ffi::{c_char, c_int, c_void};
use std::sync::atomic::{AtomicPtr, Ordering};

use sudoku_archive::archive::export;
use sudoku_archive::core::puzzle::{self, Analysis, TypeHint};
use sudoku_archive::input::extract::{Extracted, puzzle_token};
use sudoku_archive::pipeline::process::analyse_token;
use sudoku_archive::record::{Outcome, Record, Settings};

type Context = c_void;
type Value = c_void;
type XFunc = unsafe extern "C" fn(*mut Context, c_int, *mut *mut Value);

const SQLITE_OK: c_int = 0;
const SQLITE_UTF8: c_int = 1;
const SQLITE_DETERMINISTIC: c_int = 0x800;
const SQLITE_NULL: c_int = 5;
/// `SQLITE_TRANSIENT`: SQLite copies the text before the call returns.
const TRANSIENT: isize = -1;

/// The host's `sqlite3_api_routines`, set once by the entry point.
static API: AtomicPtr<*const c_void> = AtomicPtr::new(std::ptr::null_mut());

/// Places in `sqlite3_api_routines` (`sqlite3ext.h`): append-only.
struct Api;
impl Api {
    const CREATE_FUNCTION: usize = 45;
    const RESULT_ERROR: usize = 80;
    const RESULT_INT64: usize = 83;
    const RESULT_NULL: usize = 84;
    const RESULT_TEXT: usize = 85;
    const USER_DATA: usize = 101;
    const VALUE_BYTES: usize = 103;
    const VALUE_TEXT: usize = 109;
    const VALUE_TYPE: usize = 113;
}

/// The host's entry at `index`, as a function pointer of type `F`.
///
/// # Safety
/// `API` must be set, and `F` the type of that entry.
unsafe fn entry<F: Copy>(index: usize) -> F {
    let table = API.load(Ordering::Acquire);
    // SAFETY: the table holds function pointers, `index` is in it (see
    // `Api`), and the caller names the entry's type.
    unsafe { std::mem::transmute_copy(&*table.add(index)) }
}

/// The entry point `.load` looks for, named after the library file
/// (`libsudoku_archive_sqlite.so`).
///
/// # Safety
/// Called by SQLite with its own valid pointers.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sqlite3_sudokuarchivesqlite_init(
    db: *mut c_void,
    _error: *mut *mut c_char,
    api: *mut *const c_void,
) -> c_int {
    API.store(api, Ordering::Release);
    type Create = unsafe extern "C" fn(
        *mut c_void,
        *const c_char,
        c_int,
        c_int,
        *mut c_void,
        Option<XFunc>,
        Option<XFunc>,
        Option<unsafe extern "C" fn(*mut Context)>,
    ) -> c_int;
    for (i, f) in FUNCTIONS.iter().enumerate() {
        // SAFETY: entry 45 is `create_function`; the name is NUL-terminated.
        let rc = unsafe {
            entry::<Create>(Api::CREATE_FUNCTION)(
                db,
                f.name.as_ptr(),
                f.args,
                SQLITE_UTF8 | SQLITE_DETERMINISTIC,
                i as *mut c_void,
                Some(call),
                None,
                None,
            )
        };
        if rc != SQLITE_OK {
            return rc;
        }
    }
    SQLITE_OK
}

/// What a function returns.
enum Out {
    Null,
    Int(i64),
    Text(String),
    Error(String),
}

struct Function {
    name: &'static std::ffi::CStr,
    args: c_int,
    run: fn(&[Option<String>]) -> Out,
}

fn text(s: Option<String>) -> Out {
    s.map_or(Out::Null, Out::Text)
}

fn int(n: Option<i64>) -> Out {
    n.map_or(Out::Null, Out::Int)
}

/// The puzzle string of an argument, read as an import reads a line:
/// leading blanks and a byte-order mark dropped, trailing text (a rating,
/// a comment) ignored.
fn token(s: &str) -> Option<&str> {
    match puzzle_token(s) {
        Extracted::Puzzle(t) => Some(t),
        Extracted::Skip => None,
    }
}

/// What an import stores for a string, or `None` when it rejects it: the
/// import's own judgement (contradictions, no solution, limits included),
/// so that every function is NULL for exactly the strings an import
/// rejects.
fn stored(s: &str) -> Option<Box<Record>> {
    let settings = Settings {
        hint: TypeHint::Auto,
        canonical: true,
    };
    match analyse_token(token(s)?, settings) {
        Outcome::Accepted(record) => Some(record),
        _ => None,
    }
}

fn form(s: &str) -> Option<(String, i64)> {
    stored(s)?
        .canonical()
        .map(|(form, hash)| (form.to_owned(), hash))
}

fn analysis(s: &str) -> Option<Analysis> {
    stored(s)?;
    puzzle::analyse(token(s)?, TypeHint::Auto).ok()
}

fn first(a: &[Option<String>]) -> Option<&str> {
    a.first()?.as_deref()
}

const FUNCTIONS: &[Function] = &[
    Function {
        name: c"sudoku_type",
        args: 1,
        run: |a| text(first(a).and_then(stored).map(|r| r.kind.as_str().into())),
    },
    Function {
        name: c"sudoku_identity",
        args: 1,
        run: |a| text(first(a).and_then(stored).map(|r| r.givens().to_owned())),
    },
    Function {
        name: c"sudoku_key",
        args: 1,
        run: |a| int(first(a).and_then(stored).map(|r| r.key)),
    },
    Function {
        name: c"sudoku_canonical",
        args: 1,
        run: |a| text(first(a).and_then(form).map(|(f, _)| f)),
    },
    Function {
        name: c"sudoku_canonical_hash",
        args: 1,
        run: |a| int(first(a).and_then(form).map(|(_, h)| h)),
    },
    Function {
        name: c"sudoku_form",
        args: 2,
        run: |a| {
            let Some(name) = a.get(1).and_then(Option::as_deref) else {
                return Out::Null;
            };
            let Some(f) = export::form(name) else {
                let names: Vec<&str> = export::FORMS.iter().map(|f| f.name).collect();
                return Out::Error(format!(
                    "sudoku_form: no form {name:?} (there are {})",
                    names.join(", ")
                ));
            };
            text(first(a).and_then(analysis).and_then(|p| {
                let mut out = String::new();
                (f.write)(p.kind, &p.givens, &p.encoding, &mut out).ok()?;
                Some(out)
            }))
        },
    },
    Function {
        name: c"sudoku_grid",
        args: 1,
        run: |a| {
            text(
                first(a)
                    .and_then(analysis)
                    .map(|p| sudoku_archive::cli::show::render(&p)),
            )
        },
    },
];

/// Every function's `xFunc`: reads the arguments as text, runs the
/// function its user data names, and sets the result. A panic (none is
/// known) becomes an SQL error rather than unwinding into SQLite.
unsafe extern "C" fn call(ctx: *mut Context, argc: c_int, argv: *mut *mut Value) {
    type UserData = unsafe extern "C" fn(*mut Context) -> *mut c_void;
    type ValueType = unsafe extern "C" fn(*mut Value) -> c_int;
    type ValueText = unsafe extern "C" fn(*mut Value) -> *const u8;
    type ValueBytes = unsafe extern "C" fn(*mut Value) -> c_int;
    // SAFETY: SQLite calls this with a valid context and `argc` values,
    // after the entry point set `API`; each entry has the type named.
    unsafe {
        let index = entry::<UserData>(Api::USER_DATA)(ctx) as usize;
        let mut args = Vec::with_capacity(argc as usize);
        for i in 0..argc.max(0) as usize {
            let v = *argv.add(i);
            if entry::<ValueType>(Api::VALUE_TYPE)(v) == SQLITE_NULL {
                args.push(None);
                continue;
            }
            let p = entry::<ValueText>(Api::VALUE_TEXT)(v);
            let n = entry::<ValueBytes>(Api::VALUE_BYTES)(v).max(0) as usize;
            let bytes = if p.is_null() {
                &[][..]
            } else {
                std::slice::from_raw_parts(p, n)
            };
            args.push(Some(String::from_utf8_lossy(bytes).into_owned()));
        }
        let out = match FUNCTIONS.get(index) {
            Some(f) => std::panic::catch_unwind(|| (f.run)(&args))
                .unwrap_or_else(|_| Out::Error(format!("{:?} panicked", f.name))),
            None => Out::Error("no such function".into()),
        };
        set_result(ctx, out);
    }
}

/// # Safety
/// `ctx` is the context of the call being answered.
unsafe fn set_result(ctx: *mut Context, out: Out) {
    type Text = unsafe extern "C" fn(*mut Context, *const c_char, c_int, isize);
    type Int = unsafe extern "C" fn(*mut Context, i64);
    type Null = unsafe extern "C" fn(*mut Context);
    type Error = unsafe extern "C" fn(*mut Context, *const c_char, c_int);
    let len = |s: &str| c_int::try_from(s.len()).unwrap_or(c_int::MAX);
    // SAFETY: each entry has the type named; the text is copied by SQLite
    // (`SQLITE_TRANSIENT`) before `out` is dropped.
    unsafe {
        match &out {
            Out::Null => entry::<Null>(Api::RESULT_NULL)(ctx),
            Out::Int(n) => entry::<Int>(Api::RESULT_INT64)(ctx, *n),
            Out::Text(s) => {
                entry::<Text>(Api::RESULT_TEXT)(ctx, s.as_ptr().cast(), len(s), TRANSIENT)
            }
            Out::Error(s) => entry::<Error>(Api::RESULT_ERROR)(ctx, s.as_ptr().cast(), len(s)),
        }
    }
}

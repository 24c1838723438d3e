//! Chooses the platform kernels of the classic Sudoku solver once, for the
//! whole crate: `cfg(x86_64_kernels)` is set on x86_64 (SSE2 is part of
//! every x86_64 CPU, popcnt is detected at run time) unless the `portable`
//! feature asks for the portable twins, which every other target gets.
//! Each kernel tests this one cfg at its single dispatch point, so CI can
//! run the tests on the portable twins too (`--features portable`).

fn main() {
    println!("cargo::rustc-check-cfg=cfg(x86_64_kernels)");
    println!("cargo::rerun-if-changed=build.rs");
    let x86_64 = std::env::var("CARGO_CFG_TARGET_ARCH").is_ok_and(|arch| arch == "x86_64");
    let portable = std::env::var_os("CARGO_FEATURE_PORTABLE").is_some();
    if x86_64 && !portable {
        println!("cargo::rustc-cfg=x86_64_kernels");
    }
}

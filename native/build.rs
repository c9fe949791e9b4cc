// Build script: compiles the C core (csrc/units.txt: mldsa-native from native/vendor with
// pqid's configuration, pqid's SHAKE over liboqs' Keccak) with the `cc` crate, and sets up
// N-API linking. No cmake, no bindgen: the Rust side declares the few C functions it calls
// (src/ffi.rs).
//
// units.txt is the one list of what is compiled, with which include directories, defines and
// flags; the AArch64 emulation test (test/aarch64/) cross-compiles from the same file. Each
// unit's objects get only that unit's flags, so only the objects run behind a CPU check carry
// -mavx2 and friends. PQID_NATIVE_TUNE=native (feature `native-tune`) adds -march=native to
// every file and keeps the run-time dispatch.
use std::path::{Path, PathBuf};

/// One group of C/assembly files that share include directories, defines and flags.
#[derive(Default)]
struct Unit {
    name: String,
    files: Vec<PathBuf>,
    includes: Vec<PathBuf>,
    defines: Vec<(String, String)>,
    flags: Vec<String>,
}

/// The target a condition in units.txt is checked against.
struct Target {
    arch: String,
    os: String,
}

impl Target {
    /// `x86_64`, `linux|macos`, `!windows`: an architecture or OS name, alternatives, negation.
    fn holds(&self, cond: &str) -> bool {
        let (negate, names) = match cond.strip_prefix('!') {
            Some(rest) => (true, rest),
            None => (false, cond),
        };
        names.split('|').any(|n| n == self.arch || n == self.os) != negate
    }
}

/// The units of units.txt that apply to `target`, with the lines before the first unit merged
/// into each.
fn units(root: &Path, target: &Target) -> Vec<Unit> {
    let list = root.join("csrc/units.txt");
    let text = std::fs::read_to_string(&list).expect("csrc/units.txt");
    let mut common = Unit::default();
    let mut out: Vec<Unit> = Vec::new();
    let mut active = true;
    for (n, line) in text.lines().enumerate() {
        let mut words = line.split_whitespace();
        let Some(kind) = words.next().filter(|w| !w.starts_with('#')) else {
            continue;
        };
        let value = words.next().unwrap_or_else(|| panic!("units.txt:{}: no value", n + 1));
        let applies = words.all(|c| target.holds(c));
        if kind == "unit" {
            active = applies;
            if active {
                out.push(Unit {
                    name: value.into(),
                    ..Default::default()
                });
            }
            continue;
        }
        if !applies || !active {
            continue;
        }
        let u = out.last_mut().unwrap_or(&mut common);
        match kind {
            "include" => u.includes.push(root.join(value)),
            "define" => {
                let (k, v) = value.split_once('=').unwrap_or((value, "1"));
                u.defines.push((k.into(), v.into()));
            }
            "flag" => u.flags.push(value.into()),
            "file" => u.files.extend(expand(root, value)),
            _ => panic!("units.txt:{}: unknown directive {kind}", n + 1),
        }
    }
    for u in &mut out {
        u.includes.splice(0..0, common.includes.iter().cloned());
        u.defines.splice(0..0, common.defines.iter().cloned());
        u.flags.splice(0..0, common.flags.iter().cloned());
    }
    out
}

/// A path, or every file matching `*` in its last component (sorted).
fn expand(root: &Path, pattern: &str) -> Vec<PathBuf> {
    let path = root.join(pattern);
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    let Some((prefix, suffix)) = name.split_once('*') else {
        return vec![path];
    };
    let dir = path.parent().unwrap();
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let f = p.file_name().unwrap().to_string_lossy();
            f.len() >= prefix.len() + suffix.len() && f.starts_with(prefix) && f.ends_with(suffix)
        })
        .collect();
    files.sort();
    assert!(!files.is_empty(), "units.txt: nothing matches {pattern}");
    files
}

fn main() {
    napi_build::setup();
    println!("cargo::rustc-check-cfg=cfg(pqid_mldsa_native)");
    println!("cargo::rerun-if-env-changed=PQID_NATIVE_TUNE");
    println!("cargo::rerun-if-changed=csrc");
    println!("cargo::rerun-if-changed=vendor");

    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let target = Target {
        arch: std::env::var("CARGO_CFG_TARGET_ARCH").unwrap_or_default(),
        os: std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default(),
    };
    let tuned = std::env::var_os("CARGO_FEATURE_NATIVE_TUNE").is_some();
    let units = units(&root, &target);
    // The Rust side calls the native mldsa-native build only where it was compiled.
    if units.iter().any(|u| u.name == "mldsa-native") {
        println!("cargo:rustc-cfg=pqid_mldsa_native");
    }

    // Each unit compiles to objects with its own flags, in its own directory (two units may
    // compile files of the same name); all of them go into one static library.
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap());
    let mut objects = Vec::new();
    for u in &units {
        let mut b = base(tuned);
        b.out_dir(out.join(&u.name));
        for i in &u.includes {
            b.include(i);
        }
        for (k, v) in &u.defines {
            b.define(k, Some(v.as_str()));
        }
        for f in &u.flags {
            b.flag(f);
        }
        b.files(&u.files);
        objects.extend(b.compile_intermediates());
    }
    let mut lib = base(tuned);
    lib.objects(objects);
    lib.compile("pqid_mldsa");
    // cc's rustc-link-lib reaches only the library target; the direct benchmark (an example)
    // calls the same C code, so it links the archive too.
    println!("cargo::rustc-link-arg-examples=-lpqid_mldsa");
}

fn base(tuned: bool) -> cc::Build {
    let mut b = cc::Build::new();
    // Upstream code, compiled as upstream does; its warnings are not ours to fix here.
    b.warnings(false);
    if tuned {
        b.flag("-march=native");
    }
    b
}

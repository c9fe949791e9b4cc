// Build script: compiles the vendored, patched liboqs 0.13.0 C core (native/liboqs/) with the
// `cc` crate, and sets up N-API linking. No cmake, no bindgen: the configuration cmake would
// generate is the hand-written liboqs/include/oqs/oqsconfig.h, and the Rust side declares the
// few C functions it calls itself (src/ffi.rs).
//
// Two modes, as with liboqs' own cmake:
// - dist (default): portable code for every CPU plus the AVX2 code, chosen at run time
//   (OQS_DIST_BUILD). Only the AVX2 objects get -mavx2/-mpopcnt, file by file, exactly the
//   flags liboqs uses and the features its dispatch checks (so no file can execute an
//   instruction the dispatcher did not check for).
// - native-tuned (PQID_NATIVE_TUNE=native → feature `native-tune`): every file with
//   -march=native, the AVX2 code only when the build host has AVX2 and POPCNT.
use std::path::{Path, PathBuf};

/// One group of C/assembly files that share include directories, defines and flags.
struct Unit<'a> {
    files: Vec<PathBuf>,
    includes: Vec<PathBuf>,
    defines: Vec<(&'a str, &'a str)>,
    flags: &'a [&'a str],
}

fn main() {
    napi_build::setup();
    println!("cargo::rustc-check-cfg=cfg(pqid_avx2)");
    println!("cargo::rerun-if-env-changed=PQID_NATIVE_TUNE");
    println!("cargo::rerun-if-changed=liboqs");

    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap()).join("liboqs");
    let arch = std::env::var("CARGO_CFG_TARGET_ARCH").unwrap_or_default();
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let tuned = std::env::var_os("CARGO_FEATURE_NATIVE_TUNE").is_some();
    let unix = os == "linux" || os == "macos";

    // Mirrors oqsconfig.h: AVX2 code on x86-64 Linux/macOS, always in dist, in a tuned build
    // only when the host has it (-march=native then enables it).
    let x86_unix = arch == "x86_64" && unix;
    let avx2_mldsa = x86_unix && (!tuned || host_has(&["avx2", "popcnt"]));
    let avx2_keccak = x86_unix && (!tuned || host_has(&["avx2"]));
    let avx2_falcon = avx2_keccak;
    if avx2_mldsa {
        println!("cargo:rustc-cfg=pqid_avx2");
    }

    let src = root.join("src");
    let common = src.join("common");
    let shims = common.join("pqclean_shims");
    let xkcp = common.join("sha3/xkcp_low");
    let files = |dir: &Path, names: &[&str]| -> Vec<PathBuf> {
        names.iter().map(|n| dir.join(n)).collect()
    };
    // In a dist build the Keccak back ends get an _arch suffix and sha3 dispatches at run time.
    let suffix: &[(&str, &str)] = if tuned {
        &[]
    } else {
        &[("ADD_SYMBOL_SUFFIX", "1")]
    };

    let mut units = vec![Unit {
        files: [
            files(&common, &["common.c", "rand/rand.c"]),
            files(
                &common.join("sha3"),
                &["sha3.c", "sha3x4.c", "xkcp_sha3.c", "xkcp_sha3x4.c"],
            ),
            files(&shims, &["fips202.c", "fips202x4.c"]),
        ]
        .concat(),
        includes: vec![],
        defines: libc_defines(&os),
        flags: &[],
    }];
    // The portable Keccak is compiled whenever the AVX2 one is not the only one (dist builds
    // carry both; a tuned build on an AVX2 host only the AVX2 one), as in xkcp_low/CMakeLists.
    if !tuned || !avx2_keccak {
        let plain = xkcp.join("KeccakP-1600/plain-64bits");
        units.push(Unit {
            files: vec![
                plain.join("KeccakP-1600-opt64.c"),
                xkcp.join("KeccakP-1600times4/serial/KeccakP-1600-times4-on1.c"),
            ],
            includes: vec![plain],
            defines: suffix.to_vec(),
            flags: &[],
        });
    }
    if avx2_keccak {
        let avx2 = xkcp.join("KeccakP-1600/avx2");
        let mut defines = suffix.to_vec();
        if os == "macos" {
            defines.extend([("old_gas_syntax", "1"), ("no_plt", "1")]);
        }
        units.push(Unit {
            files: vec![
                avx2.join("KeccakP-1600-AVX2.S"),
                xkcp.join("KeccakP-1600times4/avx2/KeccakP-1600-times4-SIMD256.c"),
            ],
            includes: vec![avx2],
            defines,
            flags: &["-mavx2"],
        });
    }

    for (p, mode) in [("44", "2"), ("65", "3"), ("87", "5")] {
        let dir = src.join(format!(
            "sig/ml_dsa/pqcrystals-dilithium-standard_ml-dsa-{p}_ref"
        ));
        units.push(Unit {
            files: files(
                &dir,
                &[
                    "ntt.c",
                    "packing.c",
                    "poly.c",
                    "polyvec.c",
                    "reduce.c",
                    "rounding.c",
                    "sign.c",
                    "symmetric-shake.c",
                ],
            ),
            includes: vec![dir.clone(), shims.clone()],
            defines: vec![("DILITHIUM_MODE", mode)],
            flags: &[],
        });
        if avx2_mldsa {
            let dir = src.join(format!(
                "sig/ml_dsa/pqcrystals-dilithium-standard_ml-dsa-{p}_avx2"
            ));
            units.push(Unit {
                files: files(
                    &dir,
                    &[
                        "consts.c",
                        "invntt.S",
                        "ntt.S",
                        "packing.c",
                        "pointwise.S",
                        "poly.c",
                        "polyvec.c",
                        "rejsample.c",
                        "rounding.c",
                        "shuffle.S",
                        "sign.c",
                        "symmetric-shake.c",
                    ],
                ),
                includes: vec![dir.clone(), shims.clone()],
                defines: vec![("DILITHIUM_MODE", mode)],
                flags: &["-mavx2", "-mpopcnt"],
            });
        }
    }

    let falcon_files = [
        "codec.c",
        "common.c",
        "fft.c",
        "fpr.c",
        "keygen.c",
        "pqclean.c",
        "rng.c",
        "sign.c",
        "vrfy.c",
    ];
    for p in ["512", "1024"] {
        let dir = src.join(format!("sig/falcon/pqclean_falcon-{p}_clean"));
        let mut f = files(&dir, &falcon_files);
        f.push(src.join(format!("sig/falcon/sig_falcon_{p}.c")));
        units.push(Unit {
            files: f,
            includes: vec![dir.clone(), shims.clone()],
            defines: vec![],
            flags: &[],
        });
        if avx2_falcon {
            let dir = src.join(format!("sig/falcon/pqclean_falcon-{p}_avx2"));
            units.push(Unit {
                files: files(&dir, &falcon_files),
                includes: vec![dir.clone(), shims.clone()],
                defines: vec![],
                flags: &["-mavx2"],
            });
        }
    }

    // Each unit compiles to objects with its own flags; all of them go into one static library.
    let mut objects = Vec::new();
    for u in &units {
        let mut b = base(&root, tuned, &os);
        for i in &u.includes {
            b.include(i);
        }
        for (k, v) in &u.defines {
            b.define(k, Some(*v));
        }
        for f in u.flags {
            b.flag(f);
        }
        b.files(&u.files);
        objects.extend(b.compile_intermediates());
    }
    let mut lib = base(&root, tuned, &os);
    lib.objects(objects);
    lib.compile("pqid_liboqs");
    // cc's rustc-link-lib reaches only the library target; the direct benchmark (an example)
    // calls the same C code, so it links the archive too.
    println!("cargo::rustc-link-arg-examples=-lpqid_liboqs");
}

fn base(root: &Path, tuned: bool, os: &str) -> cc::Build {
    let mut b = cc::Build::new();
    b.include(root.join("include"))
        // Upstream code, compiled as upstream does; its warnings are not ours to fix here.
        .warnings(false)
        .flag_if_supported("-fomit-frame-pointer");
    if os != "macos" && os != "windows" {
        // The assembly files must not make the addon's stack executable.
        b.flag_if_supported("-Wa,--noexecstack");
    }
    if tuned {
        b.define("PQID_OQS_TUNED", Some("1")).flag("-march=native");
    }
    b
}

/// What liboqs' cmake probes for with check_symbol_exists, per C library.
fn libc_defines(os: &str) -> Vec<(&'static str, &'static str)> {
    match os {
        "linux" | "android" | "freebsd" | "openbsd" | "netbsd" => vec![
            ("OQS_HAVE_GETENTROPY", "1"),
            ("OQS_HAVE_ALIGNED_ALLOC", "1"),
            ("OQS_HAVE_POSIX_MEMALIGN", "1"),
            ("OQS_HAVE_EXPLICIT_BZERO", "1"),
        ],
        "macos" | "ios" => vec![
            ("OQS_HAVE_GETENTROPY", "1"),
            ("OQS_HAVE_POSIX_MEMALIGN", "1"),
            ("OQS_HAVE_MEMSET_S", "1"),
        ],
        _ => vec![],
    }
}

#[cfg(target_arch = "x86_64")]
fn host_has(features: &[&str]) -> bool {
    features.iter().all(|f| match *f {
        "avx2" => std::is_x86_feature_detected!("avx2"),
        "popcnt" => std::is_x86_feature_detected!("popcnt"),
        _ => false,
    })
}

#[cfg(not(target_arch = "x86_64"))]
fn host_has(_: &[&str]) -> bool {
    false
}

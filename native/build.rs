// Build script: N-API link setup, plus a cfg telling the Rust side whether liboqs
// contains the AVX2 ML-DSA objects (so we only declare symbols that exist).
fn main() {
    napi_build::setup();
    println!("cargo::rustc-check-cfg=cfg(pqid_avx2)");
    println!("cargo::rerun-if-env-changed=PQID_NATIVE_TUNE");
    let arch = std::env::var("CARGO_CFG_TARGET_ARCH").unwrap_or_default();
    let tuned = std::env::var_os("CARGO_FEATURE_NATIVE_TUNE").is_some();
    if arch == "x86_64" {
        // Dist build (OQS_DIST_BUILD=Yes) always compiles the AVX2 code and dispatches at run
        // time. A tuned build (OQS_DIST_BUILD=No) only compiles it when the build host has AVX2.
        let has = !tuned || host_has_avx2();
        if has {
            println!("cargo:rustc-cfg=pqid_avx2");
        }
    }
}

#[cfg(target_arch = "x86_64")]
fn host_has_avx2() -> bool {
    std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("popcnt")
}

#[cfg(not(target_arch = "x86_64"))]
fn host_has_avx2() -> bool {
    false
}

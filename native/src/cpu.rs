//! CPU feature detection, done once and cached. In the dist build we ask liboqs itself
//! (OQS_CPU_has_extension) so our AVX2/ref choice matches the one liboqs would make. In a
//! tuned build (OQS_DIST_BUILD=No) liboqs' detector is compiled out and always answers 0,
//! so we use Rust's std detection (same CPUID + OS XSAVE checks) instead.

use crate::ffi::*;
use std::sync::OnceLock;

#[derive(Clone, Copy, Debug)]
pub struct Cpu {
    pub avx2: bool,
    pub popcnt: bool,
    pub bmi2: bool,
    pub aesni: bool,
    pub neon: bool,
}

static CPU: OnceLock<Cpu> = OnceLock::new();

/// Initialise liboqs (CPU detection tables) exactly once, then report features.
pub fn cpu() -> Cpu {
    *CPU.get_or_init(|| {
        unsafe { OQS_init() };
        if tuned_build() {
            std_cpu()
        } else {
            let has = |e| unsafe { OQS_CPU_has_extension(e) } != 0;
            Cpu {
                avx2: has(OQS_CPU_EXT_AVX2),
                popcnt: has(OQS_CPU_EXT_POPCNT),
                bmi2: has(OQS_CPU_EXT_BMI2),
                aesni: has(OQS_CPU_EXT_AES),
                neon: has(OQS_CPU_EXT_ARM_NEON),
            }
        }
    })
}

#[cfg(target_arch = "x86_64")]
fn std_cpu() -> Cpu {
    use std::arch::is_x86_feature_detected as f;
    Cpu {
        avx2: f!("avx2"),
        popcnt: f!("popcnt"),
        bmi2: f!("bmi2"),
        aesni: f!("aes"),
        neon: false,
    }
}

#[cfg(target_arch = "aarch64")]
fn std_cpu() -> Cpu {
    let neon = std::arch::is_aarch64_feature_detected!("neon");
    Cpu {
        avx2: false,
        popcnt: false,
        bmi2: false,
        aesni: false,
        neon,
    }
}

#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
fn std_cpu() -> Cpu {
    Cpu {
        avx2: false,
        popcnt: false,
        bmi2: false,
        aesni: false,
        neon: false,
    }
}

/// Same predicate liboqs uses to pick the AVX2 ML-DSA code in a dist build.
pub fn use_avx2() -> bool {
    cfg!(pqid_avx2) && {
        let c = cpu();
        c.avx2 && c.popcnt
    }
}

pub fn liboqs_version() -> String {
    let _ = cpu();
    unsafe { std::ffi::CStr::from_ptr(OQS_version()) }
        .to_string_lossy()
        .into_owned()
}

pub fn tuned_build() -> bool {
    cfg!(feature = "native-tune")
}

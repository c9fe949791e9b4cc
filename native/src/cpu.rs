//! CPU features and the ML-DSA implementation they select, detected once and cached. The flags
//! come from liboqs' detection (CPUID and XGETBV, getauxval or sysctl), the same the SHA-3
//! dispatch uses; the choice from csrc/cpu.c, which mldsa-native's own capability checks ask
//! too, so Rust and C cannot disagree.

use crate::ffi::*;
use std::sync::OnceLock;

#[derive(Clone, Copy, Debug)]
pub struct Cpu {
    pub avx2: bool,
    pub popcnt: bool,
    pub bmi2: bool,
    pub aesni: bool,
    pub neon: bool,
    /// AVX-512F and AVX-512VL, with the OS state they need (csrc/cpu.c).
    pub avx512vl: bool,
    /// The native mldsa-native build was compiled in and this CPU can run it.
    pub mldsa_native: bool,
}

static CPU: OnceLock<Cpu> = OnceLock::new();

pub fn cpu() -> Cpu {
    *CPU.get_or_init(|| {
        let has = |e| unsafe { OQS_CPU_has_extension(e) } != 0;
        Cpu {
            avx2: has(OQS_CPU_EXT_AVX2),
            popcnt: has(OQS_CPU_EXT_POPCNT),
            bmi2: has(OQS_CPU_EXT_BMI2),
            aesni: has(OQS_CPU_EXT_AES),
            neon: has(OQS_CPU_EXT_ARM_NEON),
            avx512vl: unsafe { pqid_cpu_avx512vl() } != 0,
            mldsa_native: cfg!(pqid_mldsa_native) && unsafe { pqid_mldsa_native_detect() } != 0,
        }
    })
}

/// The name of the native build's back end on this architecture.
pub const NATIVE_NAME: &str = if cfg!(target_arch = "x86_64") {
    "x86_64-avx2"
} else if cfg!(target_arch = "aarch64") {
    "aarch64-neon"
} else {
    "native"
};

/// The implementations compiled into this binary, native first (`x86_64-avx2 + ref`).
pub fn compiled() -> Vec<&'static str> {
    let mut v = Vec::new();
    if cfg!(pqid_mldsa_native) {
        v.push(NATIVE_NAME);
    }
    v.push("ref");
    v
}

pub fn tuned_build() -> bool {
    cfg!(feature = "native-tune")
}

//! Hand-written declarations of the C functions pqid calls (csrc/ and native/vendor, built by
//! build.rs). No bindgen: the surface is small and fixed, and a hand-written list needs no
//! libclang on the build machine.
//!
//! ML-DSA goes through mldsa-native's FIPS 204 internal functions, which take the seed ξ and the
//! signing randomness `rnd` from the caller, so nothing in C draws random numbers and every call
//! is thread-safe. Two builds of the same code link in (csrc/mldsa_config.h): `mldsa{44,65,87}_*`
//! with the assembly back end of this architecture (only when build.rs compiled it, cfg
//! `pqid_mldsa_native`) and the portable `mldsa_ref{44,65,87}_*`.

use core::ffi::c_int;

/// `keypair_internal(pk, sk, ξ)`: FIPS 204 ML-DSA.KeyGen_internal.
pub type KeypairFn = unsafe extern "C" fn(pk: *mut u8, sk: *mut u8, seed: *const u8) -> c_int;

/// `signature_internal(sig, m, mlen, pre, prelen, rnd, sk, externalmu)`: FIPS 204
/// ML-DSA.Sign_internal over M′ = pre ‖ m, or, with `externalmu` ≠ 0, from the 64-byte μ in `m`
/// (Algorithm 7 from line 7; `pre` unused). The signature is always the full length.
pub type SignFn = unsafe extern "C" fn(
    sig: *mut u8,
    m: *const u8,
    mlen: usize,
    pre: *const u8,
    prelen: usize,
    rnd: *const u8,
    sk: *const u8,
    externalmu: c_int,
) -> c_int;

/// `verify_internal(sig, m, mlen, pre, prelen, pk, externalmu)`: FIPS 204
/// ML-DSA.Verify_internal; 0 when valid. `sig` must be exactly the signature length.
pub type VerifyFn = unsafe extern "C" fn(
    sig: *const u8,
    m: *const u8,
    mlen: usize,
    pre: *const u8,
    prelen: usize,
    pk: *const u8,
    externalmu: c_int,
) -> c_int;

macro_rules! decl {
    ($($keypair:ident, $sign:ident, $verify:ident;)*) => {
        extern "C" {
            $(
                pub fn $keypair(pk: *mut u8, sk: *mut u8, seed: *const u8) -> c_int;
                pub fn $sign(sig: *mut u8, m: *const u8, mlen: usize, pre: *const u8,
                    prelen: usize, rnd: *const u8, sk: *const u8, externalmu: c_int) -> c_int;
                pub fn $verify(sig: *const u8, m: *const u8, mlen: usize, pre: *const u8,
                    prelen: usize, pk: *const u8, externalmu: c_int) -> c_int;
            )*
        }
    };
}

decl! {
    mldsa_ref44_keypair_internal, mldsa_ref44_signature_internal, mldsa_ref44_verify_internal;
    mldsa_ref65_keypair_internal, mldsa_ref65_signature_internal, mldsa_ref65_verify_internal;
    mldsa_ref87_keypair_internal, mldsa_ref87_signature_internal, mldsa_ref87_verify_internal;
}

#[cfg(pqid_mldsa_native)]
decl! {
    mldsa44_keypair_internal, mldsa44_signature_internal, mldsa44_verify_internal;
    mldsa65_keypair_internal, mldsa65_signature_internal, mldsa65_verify_internal;
    mldsa87_keypair_internal, mldsa87_signature_internal, mldsa87_verify_internal;
}

/// `OQS_CPU_EXT` values (vendor/liboqs/include/oqs/common.h).
pub const OQS_CPU_EXT_AES: c_int = 2;
pub const OQS_CPU_EXT_AVX2: c_int = 4;
pub const OQS_CPU_EXT_BMI2: c_int = 7;
pub const OQS_CPU_EXT_POPCNT: c_int = 10;
pub const OQS_CPU_EXT_ARM_NEON: c_int = 17;

extern "C" {
    pub fn OQS_CPU_has_extension(ext: c_int) -> c_int;
    /// csrc/cpu.c: 1 when this CPU runs the native mldsa-native build.
    pub fn pqid_mldsa_native_detect() -> c_int;
    /// csrc/cpu.c: 1 when this CPU and OS run AVX-512VL code.
    pub fn pqid_cpu_avx512vl() -> c_int;
}

// pqid's SHAKE and its choice of Keccak permutation (csrc/pqid_keccak.h).
extern "C" {
    pub fn pqid_shake256(out: *mut u8, outlen: usize, input: *const u8, inlen: usize);
    pub fn pqid_keccak_active() -> c_int;
    pub fn pqid_keccak_available(imp: c_int) -> c_int;
    pub fn pqid_keccak_force(imp: c_int) -> c_int;
    pub fn pqid_keccak_count(on: c_int);
    pub fn pqid_keccak_counts(counts: *mut u64);
    pub fn pqid_keccak_shake_on(
        imp: c_int,
        rate: u32,
        out: *mut u8,
        outlen: usize,
        input: *const u8,
        inlen: usize,
        chunk: usize,
    ) -> c_int;
    pub fn pqid_keccak_shake_x4_on(
        imp: c_int,
        rate: u32,
        out: *mut u8,
        nblocks: usize,
        input: *const u8,
        inlen: usize,
    ) -> c_int;
}

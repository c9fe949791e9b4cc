//! Hand-written declarations of the C functions pqid calls in the vendored liboqs
//! (native/liboqs, built by build.rs). No bindgen: the surface is small and fixed, and a
//! hand-written list needs no libclang on the build machine.
//!
//! ML-DSA goes through the pqcrystals `*_internal` entry points that liboqs exports: they take
//! an explicit `rnd` (for key generation the seed ξ, through our patch 0003), which lets us
//! sign deterministically or with caller randomness without touching liboqs' process-global RNG. The AVX2 symbols exist only when build.rs compiled them
//! (cfg `pqid_avx2`).

use core::ffi::{c_char, c_int};

pub type SignInternalFn = unsafe extern "C" fn(
    sig: *mut u8,
    siglen: *mut usize,
    m: *const u8,
    mlen: usize,
    pre: *const u8,
    prelen: usize,
    rnd: *const u8,
    sk: *const u8,
) -> c_int;

/// `crypto_sign_keypair_internal` (liboqs/patches/0003): FIPS 204 KeyGen_internal(ξ).
pub type KeypairInternalFn = unsafe extern "C" fn(pk: *mut u8, sk: *mut u8, seed: *const u8) -> c_int;

/// `crypto_sign_signature_extmu` (liboqs/patches/0004): Sign_internal from a 64-byte external μ.
pub type SignMuFn = unsafe extern "C" fn(
    sig: *mut u8,
    siglen: *mut usize,
    mu: *const u8,
    rnd: *const u8,
    sk: *const u8,
) -> c_int;

pub type VerifyInternalFn = unsafe extern "C" fn(
    sig: *const u8,
    siglen: usize,
    m: *const u8,
    mlen: usize,
    pre: *const u8,
    prelen: usize,
    pk: *const u8,
) -> c_int;

macro_rules! decl {
    ($($keypair:ident, $sign:ident, $sign_mu:ident, $verify:ident;)*) => {
        extern "C" {
            $(
                pub fn $keypair(pk: *mut u8, sk: *mut u8, seed: *const u8) -> c_int;
                pub fn $sign_mu(sig: *mut u8, siglen: *mut usize, mu: *const u8, rnd: *const u8,
                    sk: *const u8) -> c_int;
                pub fn $sign(sig: *mut u8, siglen: *mut usize, m: *const u8, mlen: usize,
                    pre: *const u8, prelen: usize, rnd: *const u8, sk: *const u8) -> c_int;
                pub fn $verify(sig: *const u8, siglen: usize, m: *const u8, mlen: usize,
                    pre: *const u8, prelen: usize, pk: *const u8) -> c_int;
            )*
        }
    };
}

decl! {
    pqcrystals_ml_dsa_44_ref_keypair_internal,
    pqcrystals_ml_dsa_44_ref_signature_internal,
    pqcrystals_ml_dsa_44_ref_signature_extmu,
    pqcrystals_ml_dsa_44_ref_verify_internal;
    pqcrystals_ml_dsa_65_ref_keypair_internal,
    pqcrystals_ml_dsa_65_ref_signature_internal,
    pqcrystals_ml_dsa_65_ref_signature_extmu,
    pqcrystals_ml_dsa_65_ref_verify_internal;
    pqcrystals_ml_dsa_87_ref_keypair_internal,
    pqcrystals_ml_dsa_87_ref_signature_internal,
    pqcrystals_ml_dsa_87_ref_signature_extmu,
    pqcrystals_ml_dsa_87_ref_verify_internal;
}

#[cfg(pqid_avx2)]
decl! {
    pqcrystals_ml_dsa_44_avx2_keypair_internal,
    pqcrystals_ml_dsa_44_avx2_signature_internal,
    pqcrystals_ml_dsa_44_avx2_signature_extmu,
    pqcrystals_ml_dsa_44_avx2_verify_internal;
    pqcrystals_ml_dsa_65_avx2_keypair_internal,
    pqcrystals_ml_dsa_65_avx2_signature_internal,
    pqcrystals_ml_dsa_65_avx2_signature_extmu,
    pqcrystals_ml_dsa_65_avx2_verify_internal;
    pqcrystals_ml_dsa_87_avx2_keypair_internal,
    pqcrystals_ml_dsa_87_avx2_signature_internal,
    pqcrystals_ml_dsa_87_avx2_signature_extmu,
    pqcrystals_ml_dsa_87_avx2_verify_internal;
}

/// `OQS_STATUS`: 0 is OQS_SUCCESS.
pub type OqsStatus = c_int;
pub const OQS_SUCCESS: OqsStatus = 0;

/// `OQS_CPU_EXT` values (liboqs/include/oqs/common.h).
pub const OQS_CPU_EXT_AES: c_int = 2;
pub const OQS_CPU_EXT_AVX2: c_int = 4;
pub const OQS_CPU_EXT_BMI2: c_int = 7;
pub const OQS_CPU_EXT_POPCNT: c_int = 10;
pub const OQS_CPU_EXT_ARM_NEON: c_int = 17;

pub type FalconKeypairFn = unsafe extern "C" fn(pk: *mut u8, sk: *mut u8) -> OqsStatus;
pub type FalconSignFn = unsafe extern "C" fn(
    sig: *mut u8,
    siglen: *mut usize,
    m: *const u8,
    mlen: usize,
    sk: *const u8,
) -> OqsStatus;
pub type FalconVerifyFn = unsafe extern "C" fn(
    m: *const u8,
    mlen: usize,
    sig: *const u8,
    siglen: usize,
    pk: *const u8,
) -> OqsStatus;

/// `OQS_SIG_falcon_{512,1024}_length_*` (liboqs/include/oqs/sig_falcon.h).
pub const FALCON_512_LENGTHS: (usize, usize, usize) = (897, 1281, 752);
pub const FALCON_1024_LENGTHS: (usize, usize, usize) = (1793, 2305, 1462);

extern "C" {
    pub fn OQS_init();
    pub fn OQS_version() -> *const c_char;
    pub fn OQS_CPU_has_extension(ext: c_int) -> c_int;
    pub fn OQS_SHA3_shake256(output: *mut u8, outlen: usize, input: *const u8, inplen: usize);

    pub fn OQS_SIG_falcon_512_keypair(pk: *mut u8, sk: *mut u8) -> OqsStatus;
    pub fn OQS_SIG_falcon_512_sign(
        sig: *mut u8,
        siglen: *mut usize,
        m: *const u8,
        mlen: usize,
        sk: *const u8,
    ) -> OqsStatus;
    pub fn OQS_SIG_falcon_512_verify(
        m: *const u8,
        mlen: usize,
        sig: *const u8,
        siglen: usize,
        pk: *const u8,
    ) -> OqsStatus;
    pub fn OQS_SIG_falcon_1024_keypair(pk: *mut u8, sk: *mut u8) -> OqsStatus;
    pub fn OQS_SIG_falcon_1024_sign(
        sig: *mut u8,
        siglen: *mut usize,
        m: *const u8,
        mlen: usize,
        sk: *const u8,
    ) -> OqsStatus;
    pub fn OQS_SIG_falcon_1024_verify(
        m: *const u8,
        mlen: usize,
        sig: *const u8,
        siglen: usize,
        pk: *const u8,
    ) -> OqsStatus;
}

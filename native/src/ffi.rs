//! Raw declarations of the pqcrystals ML-DSA `*_internal` entry points that liboqs
//! exports (OQS_API) but oqs-sys does not bind. They take an explicit `rnd`, which is
//! what lets us sign deterministically or with caller randomness without touching
//! liboqs' process-global RNG. AVX2 symbols exist only when liboqs compiled them.

use core::ffi::c_int;

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
    ($($sign:ident, $verify:ident;)*) => {
        extern "C" {
            $(
                pub fn $sign(sig: *mut u8, siglen: *mut usize, m: *const u8, mlen: usize,
                    pre: *const u8, prelen: usize, rnd: *const u8, sk: *const u8) -> c_int;
                pub fn $verify(sig: *const u8, siglen: usize, m: *const u8, mlen: usize,
                    pre: *const u8, prelen: usize, pk: *const u8) -> c_int;
            )*
        }
    };
}

decl! {
    pqcrystals_ml_dsa_44_ref_signature_internal, pqcrystals_ml_dsa_44_ref_verify_internal;
    pqcrystals_ml_dsa_65_ref_signature_internal, pqcrystals_ml_dsa_65_ref_verify_internal;
    pqcrystals_ml_dsa_87_ref_signature_internal, pqcrystals_ml_dsa_87_ref_verify_internal;
}

#[cfg(pqid_avx2)]
decl! {
    pqcrystals_ml_dsa_44_avx2_signature_internal, pqcrystals_ml_dsa_44_avx2_verify_internal;
    pqcrystals_ml_dsa_65_avx2_signature_internal, pqcrystals_ml_dsa_65_avx2_verify_internal;
    pqcrystals_ml_dsa_87_avx2_signature_internal, pqcrystals_ml_dsa_87_avx2_verify_internal;
}

//! ML-DSA (FIPS 204) on liboqs' pqcrystals code, always through the `*_internal` functions:
//! keygen from the caller's 32-byte seed ξ (`keypair_internal`, our liboqs patch 0003), and
//! sign/verify with a 32-byte `rnd` that is always ours (hedged, deterministic or
//! caller-supplied), so liboqs' process-global RNG is never involved and every call is
//! thread-safe. Signing can also start from an external μ (`signature_extmu`, patch 0004).

use crate::errors::*;
use crate::ffi::*;
use std::sync::atomic::{AtomicU64, Ordering};
use zeroize::Zeroizing;

/// Seeds expanded into key pairs since the process started (tests check that no hot path
/// expands a seed per signature).
static SEED_EXPANSIONS: AtomicU64 = AtomicU64::new(0);

pub fn seed_expansions() -> u64 {
    SEED_EXPANSIONS.load(Ordering::Relaxed)
}

pub const SEED_BYTES: usize = 32;
pub const RND_BYTES: usize = 32;
pub const MAX_CONTEXT: usize = 255;
/// FIPS 204 μ: 64 bytes.
pub const MU_BYTES: usize = 64;

/// (encoded public key, expanded secret key).
pub type KeyPair = (Vec<u8>, Zeroizing<Vec<u8>>);
pub type Rnd = Zeroizing<[u8; RND_BYTES]>;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Impl {
    Ref,
    Avx2,
}

impl Impl {
    pub fn name(self) -> &'static str {
        match self {
            Impl::Ref => "ref",
            Impl::Avx2 => "avx2",
        }
    }
}

pub struct Params {
    pub name: &'static str,
    pub pk_len: usize,
    pub sk_len: usize,
    pub sig_len: usize,
    keygen_ref: KeypairInternalFn,
    sign_ref: SignInternalFn,
    sign_mu_ref: SignMuFn,
    verify_ref: VerifyInternalFn,
    #[allow(dead_code)]
    keygen_avx2: Option<KeypairInternalFn>,
    #[allow(dead_code)]
    sign_avx2: Option<SignInternalFn>,
    #[allow(dead_code)]
    sign_mu_avx2: Option<SignMuFn>,
    #[allow(dead_code)]
    verify_avx2: Option<VerifyInternalFn>,
}

macro_rules! avx2 {
    ($f:ident) => {{
        #[cfg(pqid_avx2)]
        let f: Option<_> = Some($f as _);
        #[cfg(not(pqid_avx2))]
        let f: Option<_> = None;
        f
    }};
}

pub static ML_DSA_44: Params = Params {
    name: "ML-DSA-44",
    pk_len: 1312,
    sk_len: 2560,
    sig_len: 2420,
    keygen_ref: pqcrystals_ml_dsa_44_ref_keypair_internal,
    sign_ref: pqcrystals_ml_dsa_44_ref_signature_internal,
    sign_mu_ref: pqcrystals_ml_dsa_44_ref_signature_extmu,
    verify_ref: pqcrystals_ml_dsa_44_ref_verify_internal,
    keygen_avx2: avx2!(pqcrystals_ml_dsa_44_avx2_keypair_internal),
    sign_avx2: avx2!(pqcrystals_ml_dsa_44_avx2_signature_internal),
    sign_mu_avx2: avx2!(pqcrystals_ml_dsa_44_avx2_signature_extmu),
    verify_avx2: avx2!(pqcrystals_ml_dsa_44_avx2_verify_internal),
};

pub static ML_DSA_65: Params = Params {
    name: "ML-DSA-65",
    pk_len: 1952,
    sk_len: 4032,
    sig_len: 3309,
    keygen_ref: pqcrystals_ml_dsa_65_ref_keypair_internal,
    sign_ref: pqcrystals_ml_dsa_65_ref_signature_internal,
    sign_mu_ref: pqcrystals_ml_dsa_65_ref_signature_extmu,
    verify_ref: pqcrystals_ml_dsa_65_ref_verify_internal,
    keygen_avx2: avx2!(pqcrystals_ml_dsa_65_avx2_keypair_internal),
    sign_avx2: avx2!(pqcrystals_ml_dsa_65_avx2_signature_internal),
    sign_mu_avx2: avx2!(pqcrystals_ml_dsa_65_avx2_signature_extmu),
    verify_avx2: avx2!(pqcrystals_ml_dsa_65_avx2_verify_internal),
};

pub static ML_DSA_87: Params = Params {
    name: "ML-DSA-87",
    pk_len: 2592,
    sk_len: 4896,
    sig_len: 4627,
    keygen_ref: pqcrystals_ml_dsa_87_ref_keypair_internal,
    sign_ref: pqcrystals_ml_dsa_87_ref_signature_internal,
    sign_mu_ref: pqcrystals_ml_dsa_87_ref_signature_extmu,
    verify_ref: pqcrystals_ml_dsa_87_ref_verify_internal,
    keygen_avx2: avx2!(pqcrystals_ml_dsa_87_avx2_keypair_internal),
    sign_avx2: avx2!(pqcrystals_ml_dsa_87_avx2_signature_internal),
    sign_mu_avx2: avx2!(pqcrystals_ml_dsa_87_avx2_signature_extmu),
    verify_avx2: avx2!(pqcrystals_ml_dsa_87_avx2_verify_internal),
};

impl Params {
    /// The implementation `auto` resolves to on this CPU (cached detection).
    pub fn auto_impl(&self) -> Impl {
        if self.sign_avx2.is_some() && crate::cpu::use_avx2() {
            Impl::Avx2
        } else {
            Impl::Ref
        }
    }

    fn fns(&self, imp: Impl) -> (SignInternalFn, VerifyInternalFn) {
        match (imp, self.sign_avx2, self.verify_avx2) {
            (Impl::Avx2, Some(s), Some(v)) => (s, v),
            _ => (self.sign_ref, self.verify_ref),
        }
    }

    /// FIPS 204 ML-DSA.KeyGen_internal(ξ): the encoded public key and the expanded secret key
    /// (the format liboqs signs with). AVX2 and ref give the same bytes (tested).
    pub fn keygen(&self, imp: Impl, seed: &[u8]) -> Res<KeyPair> {
        let seed: &[u8; SEED_BYTES] = match seed.try_into() {
            Ok(s) => s,
            Err(_) => {
                return fail(
                    ERR_INVALID_SEED,
                    format!(
                        "{} keygen needs a 32-byte seed, got {} bytes",
                        self.name,
                        seed.len()
                    ),
                )
            }
        };
        let f = match (imp, self.keygen_avx2) {
            (Impl::Avx2, Some(f)) => f,
            _ => self.keygen_ref,
        };
        let mut pk = vec![0u8; self.pk_len];
        let mut sk = Zeroizing::new(vec![0u8; self.sk_len]);
        let rc = unsafe { f(pk.as_mut_ptr(), sk.as_mut_ptr(), seed.as_ptr()) };
        if rc != 0 {
            return fail(ERR_INTERNAL, format!("{} key generation failed (rc={rc})", self.name));
        }
        SEED_EXPANSIONS.fetch_add(1, Ordering::Relaxed);
        Ok((pk, sk))
    }

    pub fn check_sk(&self, sk: &[u8]) -> Res<()> {
        if sk.len() != self.sk_len {
            return fail(
                ERR_INVALID_KEY_LENGTH,
                format!(
                    "{} secret key must be {} bytes, got {}",
                    self.name,
                    self.sk_len,
                    sk.len()
                ),
            );
        }
        Ok(())
    }

    /// Sign_internal(sk, pre ‖ M, rnd). `pre` is [0, |ctx|] ‖ ctx for pure ML-DSA or empty
    /// when the caller passes M′ itself (ACVP internal interface).
    pub fn sign_internal(
        &self,
        imp: Impl,
        sk: &[u8],
        msg: &[u8],
        pre: &[u8],
        rnd: &[u8; RND_BYTES],
    ) -> Res<Vec<u8>> {
        self.check_sk(sk)?;
        let mut sig = vec![0u8; self.sig_len];
        let mut siglen = 0usize;
        let rc = unsafe {
            (self.fns(imp).0)(
                sig.as_mut_ptr(),
                &mut siglen,
                msg.as_ptr(),
                msg.len(),
                pre.as_ptr(),
                pre.len(),
                rnd.as_ptr(),
                sk.as_ptr(),
            )
        };
        if rc != 0 || siglen != self.sig_len {
            return fail(
                ERR_INTERNAL,
                format!("{} signing failed (rc={rc})", self.name),
            );
        }
        Ok(sig)
    }

    /// Sign_internal from an external μ = H(tr ‖ M′, 64) (FIPS 204 Algorithm 7 from line 7).
    pub fn sign_mu(&self, imp: Impl, sk: &[u8], mu: &[u8], rnd: &[u8; RND_BYTES]) -> Res<Vec<u8>> {
        self.check_sk(sk)?;
        if mu.len() != MU_BYTES {
            return fail(
                ERR_INVALID_ARGUMENT,
                format!("external mu must be {MU_BYTES} bytes, got {}", mu.len()),
            );
        }
        let f = match (imp, self.sign_mu_avx2) {
            (Impl::Avx2, Some(f)) => f,
            _ => self.sign_mu_ref,
        };
        let mut sig = vec![0u8; self.sig_len];
        let mut siglen = 0usize;
        let rc = unsafe { f(sig.as_mut_ptr(), &mut siglen, mu.as_ptr(), rnd.as_ptr(), sk.as_ptr()) };
        if rc != 0 || siglen != self.sig_len {
            return fail(
                ERR_INTERNAL,
                format!("{} signing failed (rc={rc})", self.name),
            );
        }
        Ok(sig)
    }

    pub fn verify_internal(
        &self,
        imp: Impl,
        pk: &[u8],
        msg: &[u8],
        pre: &[u8],
        sig: &[u8],
    ) -> Res<bool> {
        self.check_verify_lengths(pk, sig)?;
        let rc = unsafe {
            (self.fns(imp).1)(
                sig.as_ptr(),
                sig.len(),
                msg.as_ptr(),
                msg.len(),
                pre.as_ptr(),
                pre.len(),
                pk.as_ptr(),
            )
        };
        Ok(rc == 0)
    }

    pub fn check_verify_lengths(&self, pk: &[u8], sig: &[u8]) -> Res<()> {
        if pk.len() != self.pk_len {
            return fail(
                ERR_INVALID_KEY_LENGTH,
                format!(
                    "{} public key must be {} bytes, got {}",
                    self.name,
                    self.pk_len,
                    pk.len()
                ),
            );
        }
        if sig.len() != self.sig_len {
            return fail(
                ERR_INVALID_SIGNATURE_LENGTH,
                format!(
                    "{} signature must be {} bytes, got {}",
                    self.name,
                    self.sig_len,
                    sig.len()
                ),
            );
        }
        Ok(())
    }
}

/// Pure ML-DSA domain separation prefix: 0x00 ‖ len(ctx) ‖ ctx.
pub fn pure_prefix(ctx: &[u8]) -> Res<Vec<u8>> {
    if ctx.len() > MAX_CONTEXT {
        return fail(
            ERR_CONTEXT_TOO_LONG,
            format!("context must be at most 255 bytes, got {}", ctx.len()),
        );
    }
    let mut pre = Vec::with_capacity(2 + ctx.len());
    pre.push(0);
    pre.push(ctx.len() as u8);
    pre.extend_from_slice(ctx);
    Ok(pre)
}

/// The per-signature randomness: caller's `rnd`, zeros when deterministic, else OS CSPRNG.
pub fn choose_rnd(rnd: Option<&[u8]>, deterministic: bool) -> Res<Rnd> {
    let mut out = Zeroizing::new([0u8; RND_BYTES]);
    match (rnd, deterministic) {
        (Some(_), true) => {
            return fail(
                ERR_INVALID_RND,
                "pass either rnd or deterministic: true, not both",
            )
        }
        (Some(r), false) => {
            if r.len() != RND_BYTES {
                return fail(
                    ERR_INVALID_RND,
                    format!("rnd must be 32 bytes, got {}", r.len()),
                );
            }
            out.copy_from_slice(r);
        }
        (None, true) => {}
        (None, false) => {
            if let Err(e) = getrandom::fill(&mut out[..]) {
                return fail(ERR_RNG, format!("OS random number generator failed: {e}"));
            }
        }
    }
    Ok(out)
}

//! ML-DSA (FIPS 204) on mldsa-native, always through its internal functions: keygen from the
//! caller's 32-byte seed ξ (KeyGen_internal), and signing with a 32-byte `rnd` that is always
//! ours (hedged, deterministic or the caller's), from M′ or from an external μ. mldsa-native never
//! draws random numbers itself, so every call is thread-safe.

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

/// Which build of mldsa-native runs: the one with this architecture's assembly, or portable C.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Impl {
    Ref,
    Native,
}

impl Impl {
    /// What `auto` resolves to on this CPU (cached detection).
    pub fn auto() -> Impl {
        if crate::cpu::cpu().mldsa_native {
            Impl::Native
        } else {
            Impl::Ref
        }
    }

    /// `ref`, or the native back end: `x86_64-avx2`, `aarch64-neon`.
    pub fn name(self) -> &'static str {
        match self {
            Impl::Ref => "ref",
            Impl::Native => crate::cpu::NATIVE_NAME,
        }
    }
}

/// One build's three entry points for one parameter set.
struct Fns {
    keypair: KeypairFn,
    sign: SignFn,
    verify: VerifyFn,
}

pub struct Params {
    pub name: &'static str,
    pub pk_len: usize,
    pub sk_len: usize,
    pub sig_len: usize,
    reference: Fns,
    native: Option<Fns>,
}

macro_rules! native {
    ($k:ident, $s:ident, $v:ident) => {{
        #[cfg(pqid_mldsa_native)]
        let f = Some(Fns {
            keypair: $k,
            sign: $s,
            verify: $v,
        });
        #[cfg(not(pqid_mldsa_native))]
        let f = None;
        f
    }};
}

pub static ML_DSA_44: Params = Params {
    name: "ML-DSA-44",
    pk_len: 1312,
    sk_len: 2560,
    sig_len: 2420,
    reference: Fns {
        keypair: mldsa_ref44_keypair_internal,
        sign: mldsa_ref44_signature_internal,
        verify: mldsa_ref44_verify_internal,
    },
    native: native!(mldsa44_keypair_internal, mldsa44_signature_internal, mldsa44_verify_internal),
};

pub static ML_DSA_65: Params = Params {
    name: "ML-DSA-65",
    pk_len: 1952,
    sk_len: 4032,
    sig_len: 3309,
    reference: Fns {
        keypair: mldsa_ref65_keypair_internal,
        sign: mldsa_ref65_signature_internal,
        verify: mldsa_ref65_verify_internal,
    },
    native: native!(mldsa65_keypair_internal, mldsa65_signature_internal, mldsa65_verify_internal),
};

pub static ML_DSA_87: Params = Params {
    name: "ML-DSA-87",
    pk_len: 2592,
    sk_len: 4896,
    sig_len: 4627,
    reference: Fns {
        keypair: mldsa_ref87_keypair_internal,
        sign: mldsa_ref87_signature_internal,
        verify: mldsa_ref87_verify_internal,
    },
    native: native!(mldsa87_keypair_internal, mldsa87_signature_internal, mldsa87_verify_internal),
};

impl Params {
    /// The build `imp` names, checked against the CPU: `Native` never reaches a CPU that lacks
    /// what the native build is compiled for (auto() would not have chosen it).
    fn fns(&self, imp: Impl) -> &Fns {
        match (&self.native, imp) {
            (Some(f), Impl::Native) if crate::cpu::cpu().mldsa_native => f,
            _ => &self.reference,
        }
    }

    /// FIPS 204 ML-DSA.KeyGen_internal(ξ): the encoded public key and the expanded secret key.
    /// Both builds give the same bytes (tested).
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
        let mut pk = vec![0u8; self.pk_len];
        let mut sk = Zeroizing::new(vec![0u8; self.sk_len]);
        let rc = unsafe { (self.fns(imp).keypair)(pk.as_mut_ptr(), sk.as_mut_ptr(), seed.as_ptr()) };
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
        self.sign(imp, sk, msg, pre, rnd, false)
    }

    /// Sign_internal from an external μ = H(tr ‖ M′, 64) (FIPS 204 Algorithm 7 from line 7).
    pub fn sign_mu(&self, imp: Impl, sk: &[u8], mu: &[u8], rnd: &[u8; RND_BYTES]) -> Res<Vec<u8>> {
        check_mu(mu)?;
        self.sign(imp, sk, mu, &[], rnd, true)
    }

    fn sign(
        &self,
        imp: Impl,
        sk: &[u8],
        m: &[u8],
        pre: &[u8],
        rnd: &[u8; RND_BYTES],
        external_mu: bool,
    ) -> Res<Vec<u8>> {
        self.check_sk(sk)?;
        let mut sig = vec![0u8; self.sig_len];
        let rc = unsafe {
            (self.fns(imp).sign)(
                sig.as_mut_ptr(),
                m.as_ptr(),
                m.len(),
                pre.as_ptr(),
                pre.len(),
                rnd.as_ptr(),
                sk.as_ptr(),
                external_mu.into(),
            )
        };
        if rc != 0 {
            return fail(ERR_INTERNAL, format!("{} signing failed (rc={rc})", self.name));
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
        self.verify(imp, pk, msg, pre, sig, false)
    }

    /// Verify_internal from an external μ (ACVP's external-μ sigVer groups).
    pub fn verify_mu(&self, imp: Impl, pk: &[u8], mu: &[u8], sig: &[u8]) -> Res<bool> {
        check_mu(mu)?;
        self.verify(imp, pk, mu, &[], sig, true)
    }

    fn verify(
        &self,
        imp: Impl,
        pk: &[u8],
        m: &[u8],
        pre: &[u8],
        sig: &[u8],
        external_mu: bool,
    ) -> Res<bool> {
        // mldsa-native reads exactly sig_len and pk_len bytes: the lengths are checked here.
        self.check_verify_lengths(pk, sig)?;
        let rc = unsafe {
            (self.fns(imp).verify)(
                sig.as_ptr(),
                m.as_ptr(),
                m.len(),
                pre.as_ptr(),
                pre.len(),
                pk.as_ptr(),
                external_mu.into(),
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

pub fn check_mu(mu: &[u8]) -> Res<()> {
    if mu.len() != MU_BYTES {
        return fail(
            ERR_INVALID_ARGUMENT,
            format!("external mu must be {MU_BYTES} bytes, got {}", mu.len()),
        );
    }
    Ok(())
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

/// Where a signature's 32-byte `rnd` comes from. Checked when the call is made (on the JS
/// thread); `Fresh` is drawn when the signature is computed (on the pool thread, so the
/// getrandom syscall is not paid on the JS thread).
pub enum RndSource {
    /// The caller's bytes, or zeros (deterministic).
    Given(Rnd),
    /// Hedged: fresh from the OS CSPRNG for each signature.
    Fresh,
}

impl RndSource {
    /// From the options: `rnd` (32 bytes), `deterministic` (zeros), neither (fresh), not both.
    pub fn new(rnd: Option<&[u8]>, deterministic: bool) -> Res<Self> {
        match (rnd, deterministic) {
            (Some(_), true) => fail(
                ERR_INVALID_RND,
                "pass either rnd or deterministic: true, not both",
            ),
            (Some(r), false) => {
                let Ok(r) = <[u8; RND_BYTES]>::try_from(r) else {
                    return fail(
                        ERR_INVALID_RND,
                        format!("rnd must be 32 bytes, got {}", r.len()),
                    );
                };
                Ok(RndSource::Given(Zeroizing::new(r)))
            }
            (None, true) => Ok(RndSource::Given(Zeroizing::new([0u8; RND_BYTES]))),
            (None, false) => Ok(RndSource::Fresh),
        }
    }

    /// The bytes for one signature (fresh ones drawn now).
    pub fn bytes(&self) -> Res<Rnd> {
        match self {
            RndSource::Given(r) => Ok(r.clone()),
            RndSource::Fresh => {
                let mut out = Zeroizing::new([0u8; RND_BYTES]);
                if let Err(e) = getrandom::fill(&mut out[..]) {
                    return fail(ERR_RNG, format!("OS random number generator failed: {e}"));
                }
                Ok(out)
            }
        }
    }

    pub fn is_fresh(&self) -> bool {
        matches!(self, RndSource::Fresh)
    }
}

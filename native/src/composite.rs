//! Composite ML-DSA (draft-ietf-lamps-pq-composite-sigs, as profiled for JOSE/COSE by
//! draft-ietf-jose-pq-composite-sigs-05), both halves in one call so that one pool task signs
//! or verifies a whole composite:
//!
//!   M′ = "CompositeAlgorithmSignatures2025" ‖ Label ‖ len(ctx) ‖ ctx ‖ PH(M)
//!   signature = ML-DSA.Sign(sk₁, M′, ctx = Label) ‖ Trad.Sign(sk₂, M′)
//!
//! The caller names the parameters (ML-DSA set, traditional algorithm, Label, PH), so this
//! module knows no JOSE identifiers.

use crate::errors::*;
use crate::mldsa::{self, Impl, Params};
use crate::trad::{Nonce, TradAlg, TradPublic, TradSecret};
use sha2::{Digest, Sha256, Sha512};
use std::sync::Arc;
use zeroize::Zeroizing;

pub const PREFIX: &[u8] = b"CompositeAlgorithmSignatures2025";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PreHash {
    Sha256,
    Sha512,
    /// SHAKE256 with 64 bytes of output.
    Shake256,
}

impl PreHash {
    /// Ids shared with core.js.
    pub fn from_id(id: u32) -> Res<Self> {
        Ok(match id {
            0 => PreHash::Sha256,
            1 => PreHash::Sha512,
            2 => PreHash::Shake256,
            _ => return fail(ERR_INVALID_ARGUMENT, format!("unknown pre-hash id {id}")),
        })
    }

    fn digest(self, m: &[u8], out: &mut Vec<u8>) {
        match self {
            PreHash::Sha256 => out.extend_from_slice(&Sha256::digest(m)),
            PreHash::Sha512 => out.extend_from_slice(&Sha512::digest(m)),
            PreHash::Shake256 => {
                let mut h = [0u8; 64];
                // The addon's own SHAKE (csrc/keccak.c), the one ML-DSA hashes with.
                crate::keccak::shake256(m, &mut h);
                out.extend_from_slice(&h);
            }
        }
    }
}

/// What one composite algorithm is: the same for every key of it.
pub struct Spec {
    pub mldsa: &'static Params,
    pub trad: TradAlg,
    pub label: Vec<u8>,
    pub ph: PreHash,
    /// 0x00 ‖ len(Label) ‖ Label: the ML-DSA half's pure-mode prefix (its context is the Label).
    mldsa_pre: Vec<u8>,
}

impl Spec {
    pub fn new(mldsa: &'static Params, trad: TradAlg, label: &[u8], ph: PreHash) -> Res<Arc<Self>> {
        if label.is_empty() {
            return fail(ERR_INVALID_ARGUMENT, "a composite Label cannot be empty");
        }
        Ok(Arc::new(Spec {
            mldsa,
            trad,
            label: label.to_vec(),
            ph,
            mldsa_pre: mldsa::pure_prefix(label)?,
        }))
    }

    /// M′ for message `m` and application context `ctx` (≤ 255 bytes, checked by the caller).
    pub fn message_representative(&self, ctx: &[u8], m: &[u8]) -> Vec<u8> {
        let mut out = Vec::with_capacity(PREFIX.len() + self.label.len() + 1 + ctx.len() + 64);
        out.extend_from_slice(PREFIX);
        out.extend_from_slice(&self.label);
        out.push(ctx.len() as u8);
        out.extend_from_slice(ctx);
        self.ph.digest(m, &mut out);
        out
    }

    pub fn min_sig_len(&self) -> usize {
        self.mldsa.sig_len + self.trad.min_sig_len()
    }

    pub fn max_sig_len(&self) -> usize {
        self.mldsa.sig_len + self.trad.max_sig_len()
    }

    pub fn public_len(&self) -> usize {
        self.mldsa.pk_len + self.trad.public_len()
    }

    fn same_as(&self, other: &Spec) -> bool {
        std::ptr::eq(self.mldsa, other.mldsa)
            && self.trad == other.trad
            && self.label == other.label
            && self.ph == other.ph
    }
}

/// A prepared composite private key: the expanded ML-DSA key and the parsed traditional key.
pub struct CompositeSecret {
    pub spec: Arc<Spec>,
    mldsa_sk: Zeroizing<Vec<u8>>,
    trad: TradSecret,
}

impl CompositeSecret {
    /// From the ML-DSA seed and the raw traditional key; returns the key and the composite public
    /// key (ML-DSA pk ‖ traditional pk).
    pub fn new(spec: Arc<Spec>, imp: Impl, seed: &[u8], trad: &[u8]) -> Res<(Self, Vec<u8>)> {
        let trad = TradSecret::import(spec.trad, trad)?;
        let (mut pk, mldsa_sk) = spec.mldsa.keygen(imp, seed)?;
        pk.extend_from_slice(&trad.public_bytes());
        Ok((
            CompositeSecret {
                spec,
                mldsa_sk,
                trad,
            },
            pk,
        ))
    }

    pub fn check_spec(&self, spec: &Spec) -> Res<()> {
        if !self.spec.same_as(spec) {
            return fail(
                ERR_KEY_ALGORITHM_MISMATCH,
                "the key belongs to a different composite algorithm",
            );
        }
        Ok(())
    }

    /// Both halves, in this thread: ML-DSA over M′ with ctx = Label and `rnd`, then the
    /// traditional algorithm over M′. `fresh`: `rnd` came from the OS (the hedged default), so
    /// an ECDSA half may take a fresh random k too; otherwise (the caller's `rnd`, or
    /// deterministic) its k is RFC 6979's from `rnd`, and the whole signature is reproducible.
    pub fn sign(
        &self,
        imp: Impl,
        m: &[u8],
        ctx: &[u8],
        rnd: &[u8; 32],
        fresh: bool,
    ) -> Res<Vec<u8>> {
        let s = &self.spec;
        let m_prime = s.message_representative(ctx, m);
        let mut sig = s
            .mldsa
            .sign_internal(imp, &self.mldsa_sk, &m_prime, &s.mldsa_pre, rnd)?;
        let nonce = if fresh {
            Nonce::Random
        } else {
            Nonce::Rfc6979(rnd)
        };
        sig.extend_from_slice(&self.trad.sign(&m_prime, nonce)?);
        Ok(sig)
    }
}

/// A parsed composite public key; parsing checks the traditional key (on the curve, etc.).
pub struct CompositePublic {
    pub spec: Arc<Spec>,
    mldsa_pk: Vec<u8>,
    trad: TradPublic,
}

impl CompositePublic {
    pub fn new(spec: Arc<Spec>, pk: &[u8]) -> Res<Self> {
        if pk.len() != spec.public_len() {
            return fail(
                ERR_INVALID_KEY_LENGTH,
                format!(
                    "{} + {} public key must be {} bytes, got {}",
                    spec.mldsa.name,
                    spec.trad.name(),
                    spec.public_len(),
                    pk.len()
                ),
            );
        }
        let (m, t) = pk.split_at(spec.mldsa.pk_len);
        let trad = TradPublic::import(spec.trad, t)?;
        Ok(CompositePublic {
            mldsa_pk: m.to_vec(),
            trad,
            spec,
        })
    }

    /// A signature whose length no composite of this kind can have is an error (as for pure
    /// ML-DSA); a malformed or wrong traditional half is just invalid. Both halves are always
    /// checked, with no early exit that would time which one failed.
    pub fn verify(&self, imp: Impl, m: &[u8], ctx: &[u8], sig: &[u8]) -> Res<bool> {
        let s = &self.spec;
        self.check_length(sig)?;
        let (ms, ts) = sig.split_at(s.mldsa.sig_len);
        let m_prime = s.message_representative(ctx, m);
        let a = s
            .mldsa
            .verify_internal(imp, &self.mldsa_pk, &m_prime, &s.mldsa_pre, ms)?;
        let b = self.trad.verify(s.trad, &m_prime, ts);
        Ok(a & b)
    }

    pub fn check_length(&self, sig: &[u8]) -> Res<()> {
        let s = &self.spec;
        if sig.len() < s.min_sig_len() || sig.len() > s.max_sig_len() {
            return fail(
                ERR_INVALID_SIGNATURE_LENGTH,
                format!(
                    "{} + {} signature must be {}–{} bytes, got {}",
                    s.mldsa.name,
                    s.trad.name(),
                    s.min_sig_len(),
                    s.max_sig_len(),
                    sig.len()
                ),
            );
        }
        Ok(())
    }
}

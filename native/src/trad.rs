//! The traditional halves of composite ML-DSA (draft-ietf-lamps-pq-composite-sigs), through
//! RustCrypto: Ed25519 (`ed25519-dalek`), ECDSA P-256 / P-384 (`p256`, `p384`) and Ed448
//! (`ed448-goldilocks`). Keys are raw (Ed25519/Ed448 seeds, the ECDSA scalar d; the caller
//! strips any ECPrivateKey wrapper), public keys are raw EdDSA or X9.62 uncompressed points,
//! and ECDSA signatures are the strict DER Ecdsa-Sig-Value the composite drafts require.
//!
//! Signing keys are parsed once (prepared) and zeroised on drop by their crates.

use crate::errors::*;
use ed25519_dalek::Signer as _;
use sha2::{Digest, Sha256, Sha384};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TradAlg {
    Ed25519,
    P256,
    P384,
    Ed448,
}

impl TradAlg {
    /// Ids shared with core.js.
    pub fn from_id(id: u32) -> Res<Self> {
        Ok(match id {
            0 => TradAlg::Ed25519,
            1 => TradAlg::P256,
            2 => TradAlg::P384,
            3 => TradAlg::Ed448,
            _ => {
                return fail(
                    ERR_INVALID_ALGORITHM,
                    format!("unknown traditional algorithm id {id}"),
                )
            }
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            TradAlg::Ed25519 => "Ed25519",
            TradAlg::P256 => "ECDSA P-256",
            TradAlg::P384 => "ECDSA P-384",
            TradAlg::Ed448 => "Ed448",
        }
    }

    /// Raw private key: EdDSA seed or ECDSA scalar d.
    pub fn secret_len(self) -> usize {
        match self {
            TradAlg::Ed25519 | TradAlg::P256 => 32,
            TradAlg::P384 => 48,
            TradAlg::Ed448 => 57,
        }
    }

    pub fn public_len(self) -> usize {
        match self {
            TradAlg::Ed25519 => 32,
            TradAlg::P256 => 65,
            TradAlg::P384 => 97,
            TradAlg::Ed448 => 57,
        }
    }

    /// Exact for EdDSA; the DER maximum for ECDSA (2 + 2 × (3 + n)).
    pub fn max_sig_len(self) -> usize {
        match self {
            TradAlg::Ed25519 => 64,
            TradAlg::P256 => 72,
            TradAlg::P384 => 104,
            TradAlg::Ed448 => 114,
        }
    }

    /// Exact for EdDSA; the shortest DER Ecdsa-Sig-Value (one-byte r and s).
    pub fn min_sig_len(self) -> usize {
        match self {
            TradAlg::Ed25519 => 64,
            TradAlg::P256 | TradAlg::P384 => 8,
            TradAlg::Ed448 => 114,
        }
    }
}

pub enum TradSecret {
    Ed25519(ed25519_dalek::SigningKey),
    P256(p256::ecdsa::SigningKey),
    P384(p384::ecdsa::SigningKey),
    Ed448(Box<ed448_goldilocks::SigningKey>),
}

fn key_len(alg: TradAlg, what: &str, got: usize, want: usize) -> Res<()> {
    if got != want {
        return fail(
            ERR_INVALID_KEY_LENGTH,
            format!("{} {what} must be {want} bytes, got {got}", alg.name()),
        );
    }
    Ok(())
}

impl TradSecret {
    pub fn import(alg: TradAlg, raw: &[u8]) -> Res<Self> {
        key_len(alg, "private key", raw.len(), alg.secret_len())?;
        let invalid = || Fail {
            code: ERR_INVALID_KEY,
            msg: format!("invalid {} private key (d must be in [1, n − 1])", alg.name()),
        };
        Ok(match alg {
            TradAlg::Ed25519 => {
                let mut seed = zeroize::Zeroizing::new([0u8; 32]);
                seed.copy_from_slice(raw);
                TradSecret::Ed25519(ed25519_dalek::SigningKey::from_bytes(&seed))
            }
            TradAlg::P256 => {
                TradSecret::P256(p256::ecdsa::SigningKey::from_slice(raw).map_err(|_| invalid())?)
            }
            TradAlg::P384 => {
                TradSecret::P384(p384::ecdsa::SigningKey::from_slice(raw).map_err(|_| invalid())?)
            }
            TradAlg::Ed448 => TradSecret::Ed448(Box::new(
                ed448_goldilocks::SigningKey::try_from(raw).map_err(|_| invalid())?,
            )),
        })
    }

    /// The public key in the composite encoding (raw EdDSA, X9.62 uncompressed point).
    pub fn public_bytes(&self) -> Vec<u8> {
        match self {
            TradSecret::Ed25519(k) => k.verifying_key().to_bytes().to_vec(),
            TradSecret::P256(k) => k.verifying_key().to_sec1_point(false).as_bytes().to_vec(),
            TradSecret::P384(k) => k.verifying_key().to_sec1_point(false).as_bytes().to_vec(),
            TradSecret::Ed448(k) => k.verifying_key().to_bytes().to_vec(),
        }
    }

    /// Signs `msg`. EdDSA is deterministic by definition. ECDSA uses RFC 6979 k generation with
    /// `rnd` as its additional data (hedged, RFC 6979 §3.6), or plain RFC 6979 when `rnd` is all
    /// zeros (the deterministic mode), so a deterministic composite is reproducible end to end.
    pub fn sign(&self, msg: &[u8], rnd: &[u8; 32]) -> Vec<u8> {
        let ad: &[u8] = if rnd.iter().all(|&b| b == 0) { &[] } else { rnd };
        match self {
            TradSecret::Ed25519(k) => k.sign(msg).to_bytes().to_vec(),
            TradSecret::P256(k) => {
                let z = Sha256::digest(msg);
                let (sig, _) = ecdsa::hazmat::sign_prehashed_rfc6979::<p256::NistP256, Sha256>(
                    k.as_nonzero_scalar(),
                    &z,
                    ad,
                );
                der_encode(&sig.to_bytes(), 32)
            }
            TradSecret::P384(k) => {
                let z = Sha384::digest(msg);
                let (sig, _) = ecdsa::hazmat::sign_prehashed_rfc6979::<p384::NistP384, Sha384>(
                    k.as_nonzero_scalar(),
                    &z,
                    ad,
                );
                der_encode(&sig.to_bytes(), 48)
            }
            TradSecret::Ed448(k) => k.sign_raw(msg).to_bytes().to_vec(),
        }
    }
}

/// EdDSA public keys that do not decode, or decode to a point of small order, are accepted here
/// (as OpenSSL accepts them) and verify nothing, so that importing a key behaves the same on
/// every backend; an ECDSA point that is not on the curve is an error, as in OpenSSL.
pub enum TradPublic {
    Ed25519(Option<ed25519_dalek::VerifyingKey>),
    P256(p256::ecdsa::VerifyingKey),
    P384(p384::ecdsa::VerifyingKey),
    Ed448(Option<ed448_goldilocks::VerifyingKey>),
}

impl TradPublic {
    pub fn import(alg: TradAlg, bytes: &[u8]) -> Res<Self> {
        key_len(alg, "public key", bytes.len(), alg.public_len())?;
        let invalid = |why: &str| Fail {
            code: ERR_INVALID_KEY,
            msg: format!("invalid {} public key: {why}", alg.name()),
        };
        let ec = matches!(alg, TradAlg::P256 | TradAlg::P384);
        if ec && bytes[0] != 0x04 {
            return Err(invalid("not an uncompressed point (0x04 ‖ x ‖ y)"));
        }
        Ok(match alg {
            TradAlg::Ed25519 => TradPublic::Ed25519(
                ed25519_dalek::VerifyingKey::from_bytes(bytes.try_into().expect("length checked"))
                    .ok()
                    .filter(|k| !k.is_weak()),
            ),
            TradAlg::P256 => TradPublic::P256(
                p256::ecdsa::VerifyingKey::from_sec1_bytes(bytes)
                    .map_err(|_| invalid("not a point on the curve"))?,
            ),
            TradAlg::P384 => TradPublic::P384(
                p384::ecdsa::VerifyingKey::from_sec1_bytes(bytes)
                    .map_err(|_| invalid("not a point on the curve"))?,
            ),
            // from_bytes refuses the identity; other small-order points are refused by verify.
            TradAlg::Ed448 => TradPublic::Ed448(
                ed448_goldilocks::VerifyingKey::from_bytes(
                    bytes.try_into().expect("length checked"),
                )
                .ok(),
            ),
        })
    }

    /// True only for a valid signature in the exact encoding (EdDSA: its fixed length; ECDSA:
    /// the strict DER of draft -05 §4.2.1). Anything malformed is simply invalid.
    ///
    /// Ed25519 is RFC 8032's cofactorless check with S < L, R compared as encoded, and neither
    /// A nor R of small order (`verify_strict`): what OpenSSL, and so the `node` backend, accepts.
    pub fn verify(&self, msg: &[u8], sig: &[u8]) -> bool {
        use p256::ecdsa::signature::Verifier as _;
        match self {
            TradPublic::Ed25519(None) | TradPublic::Ed448(None) => false,
            TradPublic::Ed25519(Some(k)) => match ed25519_dalek::Signature::from_slice(sig) {
                Ok(s) => k.verify_strict(msg, &s).is_ok(),
                Err(_) => false,
            },
            TradPublic::P256(k) => match der_decode(sig, 32)
                .and_then(|rs| p256::ecdsa::Signature::from_slice(&rs).ok())
            {
                Some(s) => k.verify(msg, &s).is_ok(),
                None => false,
            },
            TradPublic::P384(k) => match der_decode(sig, 48)
                .and_then(|rs| p384::ecdsa::Signature::from_slice(&rs).ok())
            {
                Some(s) => k.verify(msg, &s).is_ok(),
                None => false,
            },
            TradPublic::Ed448(Some(k)) => match ed448_goldilocks::Signature::from_slice(sig) {
                Ok(s) => k.verify_raw(&s, msg).is_ok(),
                Err(_) => false,
            },
        }
    }
}

/// r‖s (fixed width n each) → Ecdsa-Sig-Value, exactly as draft-ietf-jose-pq-composite-sigs-05
/// §4.2.1 builds it: minimal big-endian INTEGERs (0x00 prepended when the top bit is set),
/// short-form lengths (always enough for P-256 and P-384).
pub fn der_encode(rs: &[u8], n: usize) -> Vec<u8> {
    let int = |v: &[u8], out: &mut Vec<u8>| {
        let first = v.iter().position(|&b| b != 0).unwrap_or(v.len() - 1);
        let v = &v[first..];
        let pad = v[0] & 0x80 != 0;
        out.push(0x02);
        out.push((v.len() + pad as usize) as u8);
        if pad {
            out.push(0);
        }
        out.extend_from_slice(v);
    };
    let mut body = Vec::with_capacity(2 * n + 6);
    int(&rs[..n], &mut body);
    int(&rs[n..], &mut body);
    let mut out = Vec::with_capacity(body.len() + 2);
    out.push(0x30);
    out.push(body.len() as u8);
    out.extend_from_slice(&body);
    out
}

/// Strict DER Ecdsa-Sig-Value → r‖s (fixed width n each); None for any other encoding: long-form
/// or wrong lengths, non-minimal or negative INTEGERs, values wider than n bytes, trailing bytes
/// (draft -05 §4.2.1: "An Ecdsa-Sig-Value that is not encoded as described above MUST be
/// rejected"). Range checks (0 < r, s < n) are the curve crate's.
pub fn der_decode(der: &[u8], n: usize) -> Option<Vec<u8>> {
    if der.len() < 8 || der[0] != 0x30 || der[1] as usize != der.len() - 2 || der[1] >= 0x80 {
        return None;
    }
    let mut out = vec![0u8; 2 * n];
    let mut off = 2;
    for i in 0..2 {
        if *der.get(off)? != 0x02 {
            return None;
        }
        let len = *der.get(off + 1)? as usize;
        let v = der.get(off + 2..off + 2 + len)?;
        if len == 0 || len >= 0x80 || v[0] & 0x80 != 0 {
            return None; // empty, long form, or negative
        }
        if v[0] == 0 && (len == 1 || v[1] & 0x80 == 0) {
            return None; // non-minimal (a zero value is rejected later as out of range)
        }
        let mag = if v[0] == 0 { &v[1..] } else { v };
        if mag.len() > n {
            return None;
        }
        out[(i + 1) * n - mag.len()..(i + 1) * n].copy_from_slice(mag);
        off += 2 + len;
    }
    (off == der.len()).then_some(out)
}

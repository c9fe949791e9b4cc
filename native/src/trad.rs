//! The traditional halves of composite ML-DSA (draft-ietf-lamps-pq-composite-sigs). Keys are
//! raw (Ed25519/Ed448 seeds, the ECDSA scalar d; the caller strips any ECPrivateKey wrapper),
//! public keys are raw EdDSA or X9.62 uncompressed points, and ECDSA signatures are the strict
//! DER Ecdsa-Sig-Value the composite drafts require.
//!
//! Which library does what, and why (measured in docs/BENCHMARKS.md):
//! - ECDSA P-256 / P-384: AWS-LC (`aws-lc-rs`, assembly from s2n-bignum and OpenSSL) signs the
//!   hedged default and verifies, 2–5× faster than RustCrypto. AWS-LC cannot sign with a
//!   caller's nonce, so the reproducible modes (deterministic, or a caller's `rnd`) sign with
//!   RustCrypto's RFC 6979 (`p256`, `p384`), byte-equal to other RFC 6979 implementations.
//! - Ed25519: AWS-LC signs (twice as fast as `ed25519-dalek`; EdDSA is deterministic, so the
//!   bytes are the same); `ed25519-dalek`'s `verify_strict` verifies, because it refuses what
//!   OpenSSL refuses (small-order R or A), which AWS-LC's verifier does not check.
//! - Ed448: `ed448-goldilocks` (AWS-LC has no Ed448).
//!
//! Signing keys are parsed once (prepared) and zeroised on drop (RustCrypto's keys by their
//! crates, AWS-LC's by `OPENSSL_free`, which clears memory before freeing it).

use crate::errors::*;
use aws_lc_rs::signature::{self as aws, KeyPair as _};
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

    /// ECDSA: the byte length of r, s and d.
    fn ecdsa_n(self) -> usize {
        match self {
            TradAlg::P384 => 48,
            _ => 32,
        }
    }
}

/// How an ECDSA half chooses its per-signature secret k (EdDSA ignores it).
#[derive(Clone, Copy)]
pub enum Nonce<'a> {
    /// The hedged default: a fresh k from AWS-LC's CSPRNG, which also mixes in the key and the
    /// message (as BoringSSL does), so a weak RNG alone does not reveal the key.
    Random,
    /// RFC 6979 k with `rnd` as its additional data (hedged, §3.6), or plain RFC 6979 when
    /// `rnd` is all zeros (the deterministic mode): reproducible from the inputs.
    Rfc6979(&'a [u8; 32]),
}

/// The ECDSA private key twice: AWS-LC's for the fast random-nonce path, RustCrypto's for RFC 6979.
pub struct EcdsaSecret<K> {
    aws: aws::EcdsaKeyPair,
    rfc6979: K,
}

pub enum TradSecret {
    Ed25519(aws::Ed25519KeyPair),
    P256(EcdsaSecret<p256::ecdsa::SigningKey>),
    P384(EcdsaSecret<p384::ecdsa::SigningKey>),
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
            msg: format!(
                "invalid {} private key (d must be in [1, n − 1])",
                alg.name()
            ),
        };
        // RustCrypto checks d and derives the point; AWS-LC gets both and checks they agree.
        let aws_ecdsa = |signing: &'static aws::EcdsaSigningAlgorithm, point: &[u8]| {
            aws::EcdsaKeyPair::from_private_key_and_public_key(signing, raw, point).map_err(|e| {
                Fail {
                    code: ERR_INTERNAL,
                    msg: format!("AWS-LC refused a valid {} private key: {e}", alg.name()),
                }
            })
        };
        Ok(match alg {
            TradAlg::Ed25519 => TradSecret::Ed25519(
                aws::Ed25519KeyPair::from_seed_unchecked(raw).map_err(|_| invalid())?,
            ),
            TradAlg::P256 => {
                let rfc6979 = p256::ecdsa::SigningKey::from_slice(raw).map_err(|_| invalid())?;
                let point = rfc6979.verifying_key().to_sec1_point(false);
                let aws = aws_ecdsa(&aws::ECDSA_P256_SHA256_ASN1_SIGNING, point.as_bytes())?;
                TradSecret::P256(EcdsaSecret { aws, rfc6979 })
            }
            TradAlg::P384 => {
                let rfc6979 = p384::ecdsa::SigningKey::from_slice(raw).map_err(|_| invalid())?;
                let point = rfc6979.verifying_key().to_sec1_point(false);
                let aws = aws_ecdsa(&aws::ECDSA_P384_SHA384_ASN1_SIGNING, point.as_bytes())?;
                TradSecret::P384(EcdsaSecret { aws, rfc6979 })
            }
            TradAlg::Ed448 => TradSecret::Ed448(Box::new(
                ed448_goldilocks::SigningKey::try_from(raw).map_err(|_| invalid())?,
            )),
        })
    }

    /// The public key in the composite encoding (raw EdDSA, X9.62 uncompressed point).
    pub fn public_bytes(&self) -> Vec<u8> {
        match self {
            TradSecret::Ed25519(k) => k.public_key().as_ref().to_vec(),
            TradSecret::P256(k) => k.aws.public_key().as_ref().to_vec(),
            TradSecret::P384(k) => k.aws.public_key().as_ref().to_vec(),
            TradSecret::Ed448(k) => k.verifying_key().to_bytes().to_vec(),
        }
    }

    /// Signs `msg`. EdDSA is deterministic by definition; ECDSA picks k as `nonce` says.
    pub fn sign(&self, msg: &[u8], nonce: Nonce) -> Res<Vec<u8>> {
        Ok(match (self, nonce) {
            (TradSecret::Ed25519(k), _) => k.sign(msg).as_ref().to_vec(),
            (TradSecret::Ed448(k), _) => k.sign_raw(msg).to_bytes().to_vec(),
            (TradSecret::P256(k), Nonce::Random) => aws_ecdsa_sign(&k.aws, msg, 32)?,
            (TradSecret::P384(k), Nonce::Random) => aws_ecdsa_sign(&k.aws, msg, 48)?,
            (TradSecret::P256(k), Nonce::Rfc6979(rnd)) => {
                let z = Sha256::digest(msg);
                let (sig, _) = ecdsa::hazmat::sign_prehashed_rfc6979::<p256::NistP256, Sha256>(
                    k.rfc6979.as_nonzero_scalar(),
                    &z,
                    added_entropy(rnd),
                );
                der_encode(&sig.to_bytes(), 32)
            }
            (TradSecret::P384(k), Nonce::Rfc6979(rnd)) => {
                let z = Sha384::digest(msg);
                let (sig, _) = ecdsa::hazmat::sign_prehashed_rfc6979::<p384::NistP384, Sha384>(
                    k.rfc6979.as_nonzero_scalar(),
                    &z,
                    added_entropy(rnd),
                );
                der_encode(&sig.to_bytes(), 48)
            }
        })
    }
}

/// RFC 6979 §3.6 additional data: none in the deterministic mode (rnd all zeros).
fn added_entropy(rnd: &[u8; 32]) -> &[u8] {
    if rnd.iter().all(|&b| b == 0) {
        &[]
    } else {
        rnd
    }
}

/// AWS-LC's DER is already minimal; decoding and re-encoding it with our own strict codec
/// guarantees the -05 encoding whatever the library version does.
fn aws_ecdsa_sign(k: &aws::EcdsaKeyPair, msg: &[u8], n: usize) -> Res<Vec<u8>> {
    // The SecureRandom argument is ignored by aws-lc-rs: AWS-LC draws k from its own CSPRNG.
    let sig = k
        .sign(&aws_lc_rs::rand::SystemRandom::new(), msg)
        .map_err(|_| Fail {
            code: ERR_INTERNAL,
            msg: "AWS-LC ECDSA signing failed".into(),
        })?;
    match der_decode(sig.as_ref(), n) {
        Some(rs) => Ok(der_encode(&rs, n)),
        None => fail(
            ERR_INTERNAL,
            "AWS-LC returned a non-canonical ECDSA signature",
        ),
    }
}

/// EdDSA public keys that do not decode, or decode to a point of small order, are accepted here
/// (as OpenSSL accepts them) and verify nothing, so that importing a key behaves the same on
/// every backend; an ECDSA point that is not on the curve is an error, as in OpenSSL.
pub enum TradPublic {
    Ed25519(Option<ed25519_dalek::VerifyingKey>),
    /// AWS-LC's parsed (checked) point, for P-256 and P-384 alike.
    Ecdsa(aws::ParsedPublicKey),
    Ed448(Option<ed448_goldilocks::VerifyingKey>),
}

fn not_uncompressed(alg: TradAlg, bytes: &[u8]) -> Option<Fail> {
    (bytes[0] != 0x04).then(|| Fail {
        code: ERR_INVALID_KEY,
        msg: format!(
            "invalid {} public key: not an uncompressed point (0x04 ‖ x ‖ y)",
            alg.name()
        ),
    })
}

fn not_on_curve(alg: TradAlg) -> Fail {
    Fail {
        code: ERR_INVALID_KEY,
        msg: format!(
            "invalid {} public key: not a point on the curve",
            alg.name()
        ),
    }
}

impl TradPublic {
    pub fn import(alg: TradAlg, bytes: &[u8]) -> Res<Self> {
        key_len(alg, "public key", bytes.len(), alg.public_len())?;
        Ok(match alg {
            TradAlg::Ed25519 => TradPublic::Ed25519(
                ed25519_dalek::VerifyingKey::from_bytes(bytes.try_into().expect("length checked"))
                    .ok()
                    .filter(|k| !k.is_weak()),
            ),
            TradAlg::P256 | TradAlg::P384 => {
                if let Some(f) = not_uncompressed(alg, bytes) {
                    return Err(f);
                }
                let verifying: &'static aws::EcdsaVerificationAlgorithm = if alg == TradAlg::P256 {
                    &aws::ECDSA_P256_SHA256_ASN1
                } else {
                    &aws::ECDSA_P384_SHA384_ASN1
                };
                TradPublic::Ecdsa(
                    aws::ParsedPublicKey::new(verifying, bytes).map_err(|_| not_on_curve(alg))?,
                )
            }
            // from_bytes refuses the identity; other small-order points are refused by verify.
            // It ignores the unused bits 448–454 (RFC 8032 §5.2.2: they must be zero), so a key
            // with any set verifies nothing here, as in OpenSSL.
            TradAlg::Ed448 => TradPublic::Ed448(
                ed448_goldilocks::VerifyingKey::from_bytes(
                    bytes.try_into().expect("length checked"),
                )
                .ok()
                .filter(|_| ed448_canonical_bits(bytes)),
            ),
        })
    }

    /// True only for a valid signature in the exact encoding (EdDSA: its fixed length; ECDSA:
    /// the strict DER of draft -05 §4.2.1, checked by our decoder before AWS-LC sees it; AWS-LC
    /// then checks 0 < r, s < n). High-S is valid ECDSA and accepted, as OpenSSL does.
    ///
    /// Ed25519 is RFC 8032's cofactorless check with S < L, R compared as encoded, and neither
    /// A nor R of small order (`verify_strict`): what OpenSSL, and so the `node` backend, accepts.
    pub fn verify(&self, alg: TradAlg, msg: &[u8], sig: &[u8]) -> bool {
        match self {
            TradPublic::Ed25519(None) | TradPublic::Ed448(None) => false,
            TradPublic::Ed25519(Some(k)) => match ed25519_dalek::Signature::from_slice(sig) {
                Ok(s) => k.verify_strict(msg, &s).is_ok(),
                Err(_) => false,
            },
            TradPublic::Ecdsa(k) => {
                der_decode(sig, alg.ecdsa_n()).is_some() && k.verify_sig(msg, sig).is_ok()
            }
            // R's unused bits are checked here: ed448-goldilocks decodes R ignoring them, and the
            // key's owner can sign with such an R (Wycheproof ed448 tcId 63–65).
            TradPublic::Ed448(Some(k)) => match ed448_goldilocks::Signature::from_slice(sig) {
                Ok(s) => ed448_canonical_bits(&sig[..57]) && k.verify_raw(&s, msg).is_ok(),
                Err(_) => false,
            },
        }
    }
}

/// An encoded Ed448 point (57 bytes) with bits 448–454 zero: only bit 455, the sign of x, may be
/// set in the last byte (RFC 8032 §5.2.2).
fn ed448_canonical_bits(point: &[u8]) -> bool {
    point.len() == 57 && point[56] & 0x7f == 0
}

/// The RustCrypto ECDSA verifier (`p256`, `p384`) that preceded AWS-LC's, with the same strict
/// DER gate: the differential tests (internal.js) check that both give the same verdict on
/// every signature and key they construct. Public-key errors are those of `TradPublic::import`.
pub fn verify_ecdsa_rustcrypto(alg: TradAlg, public: &[u8], msg: &[u8], sig: &[u8]) -> Res<bool> {
    use p256::ecdsa::signature::Verifier as _;
    key_len(alg, "public key", public.len(), alg.public_len())?;
    if let Some(f) = not_uncompressed(alg, public) {
        return Err(f);
    }
    let rs = der_decode(sig, alg.ecdsa_n());
    Ok(match alg {
        TradAlg::P256 => {
            let k = p256::ecdsa::VerifyingKey::from_sec1_bytes(public)
                .map_err(|_| not_on_curve(alg))?;
            rs.and_then(|rs| p256::ecdsa::Signature::from_slice(&rs).ok())
                .is_some_and(|s| k.verify(msg, &s).is_ok())
        }
        TradAlg::P384 => {
            let k = p384::ecdsa::VerifyingKey::from_sec1_bytes(public)
                .map_err(|_| not_on_curve(alg))?;
            rs.and_then(|rs| p384::ecdsa::Signature::from_slice(&rs).ok())
                .is_some_and(|s| k.verify(msg, &s).is_ok())
        }
        _ => return fail(ERR_UNSUPPORTED, "only ECDSA has a second verifier"),
    })
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

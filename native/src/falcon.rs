//! Falcon-512/1024 (experimental, for size/throughput comparison) through liboqs' public
//! OQS_SIG API: random keygen only, no context, liboqs' own RNG and AVX2 dispatch.

use crate::errors::*;
use crate::ffi::*;
use zeroize::Zeroizing;


pub struct Params {
    pub name: &'static str,
    pub pk_len: usize,
    pub sk_len: usize,
    /// Falcon signatures are variable length; this is the maximum.
    pub sig_len: usize,
    keypair: FalconKeypairFn,
    sign: FalconSignFn,
    verify: FalconVerifyFn,
}

pub static FALCON_512: Params = Params {
    name: "Falcon-512",
    pk_len: FALCON_512_LENGTHS.0,
    sk_len: FALCON_512_LENGTHS.1,
    sig_len: FALCON_512_LENGTHS.2,
    keypair: OQS_SIG_falcon_512_keypair,
    sign: OQS_SIG_falcon_512_sign,
    verify: OQS_SIG_falcon_512_verify,
};

pub static FALCON_1024: Params = Params {
    name: "Falcon-1024",
    pk_len: FALCON_1024_LENGTHS.0,
    sk_len: FALCON_1024_LENGTHS.1,
    sig_len: FALCON_1024_LENGTHS.2,
    keypair: OQS_SIG_falcon_1024_keypair,
    sign: OQS_SIG_falcon_1024_sign,
    verify: OQS_SIG_falcon_1024_verify,
};

fn ok(st: OqsStatus) -> bool {
    st == OQS_SUCCESS
}

impl Params {
    /// liboqs picks AVX2 at run time when the CPU has it (dist build) — report the same.
    pub fn implementation(&self) -> &'static str {
        let c = crate::cpu::cpu();
        if cfg!(target_arch = "x86_64") && c.avx2 {
            "avx2"
        } else if cfg!(target_arch = "aarch64") {
            "aarch64"
        } else {
            "clean"
        }
    }

    pub fn keygen(&self) -> Res<crate::mldsa::KeyPair> {
        let _ = crate::cpu::cpu();
        let mut pk = vec![0u8; self.pk_len];
        let mut sk = Zeroizing::new(vec![0u8; self.sk_len]);
        if !ok(unsafe { (self.keypair)(pk.as_mut_ptr(), sk.as_mut_ptr()) }) {
            return fail(ERR_INTERNAL, format!("{} keygen failed", self.name));
        }
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

    pub fn sign(&self, sk: &[u8], msg: &[u8]) -> Res<Vec<u8>> {
        self.check_sk(sk)?;
        let mut sig = vec![0u8; self.sig_len];
        let mut len = 0usize;
        let st = unsafe {
            (self.sign)(
                sig.as_mut_ptr(),
                &mut len,
                msg.as_ptr(),
                msg.len(),
                sk.as_ptr(),
            )
        };
        if !ok(st) || len == 0 || len > self.sig_len {
            return fail(ERR_INTERNAL, format!("{} signing failed", self.name));
        }
        sig.truncate(len);
        Ok(sig)
    }

    pub fn verify(&self, pk: &[u8], msg: &[u8], sig: &[u8]) -> Res<bool> {
        self.check_verify_lengths(pk, sig)?;
        let st = unsafe {
            (self.verify)(
                msg.as_ptr(),
                msg.len(),
                sig.as_ptr(),
                sig.len(),
                pk.as_ptr(),
            )
        };
        Ok(ok(st))
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
        if sig.is_empty() || sig.len() > self.sig_len {
            return fail(
                ERR_INVALID_SIGNATURE_LENGTH,
                format!(
                    "{} signature must be 1..={} bytes, got {}",
                    self.name,
                    self.sig_len,
                    sig.len()
                ),
            );
        }
        Ok(())
    }
}

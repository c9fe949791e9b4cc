//! Secret keys live only in Rust memory. JS holds an opaque handle; the bytes are shared
//! through an `Arc` so an in-flight async sign keeps its own reference, and are zeroised
//! (via `Zeroizing`) when the last holder drops — on free(), on GC, or when a task ends.

use crate::composite::CompositeSecret;
use crate::errors::*;
use napi_derive::napi;
use std::sync::{Arc, Mutex};
use zeroize::Zeroizing;

pub enum Secret {
    /// An expanded ML-DSA secret key.
    Bytes(Zeroizing<Vec<u8>>),
    /// Both halves of a composite, prepared (each zeroised on drop).
    Composite(Box<CompositeSecret>),
}

pub struct KeyMaterial {
    pub alg: u32,
    pub secret: Secret,
}

impl KeyMaterial {
    pub fn bytes(&self) -> Res<&[u8]> {
        match &self.secret {
            Secret::Bytes(b) => Ok(b),
            Secret::Composite(_) => fail(ERR_KEY_ALGORITHM_MISMATCH, "this is a composite key"),
        }
    }

    pub fn composite(&self) -> Res<&CompositeSecret> {
        match &self.secret {
            Secret::Composite(c) => Ok(c),
            Secret::Bytes(_) => fail(ERR_KEY_ALGORITHM_MISMATCH, "this is not a composite key"),
        }
    }
}

#[napi]
pub struct SecretKeyHandle {
    alg: u32,
    /// Interior mutability: napi-rs keeps a shared borrow of the handle alive while an async
    /// task created from it is pending, so free() must work through `&self`.
    key: Mutex<Option<Arc<KeyMaterial>>>,
    /// Public key from keygen, handed to JS once (avoids a second native call shape).
    public_key: Mutex<Option<Vec<u8>>>,
}

impl SecretKeyHandle {
    pub fn new(alg: u32, secret: Secret, public_key: Option<Vec<u8>>) -> Self {
        Self {
            alg,
            key: Mutex::new(Some(Arc::new(KeyMaterial { alg, secret }))),
            public_key: Mutex::new(public_key),
        }
    }

    /// The live key for `alg`, or ERR_KEY_FREED / ERR_KEY_ALGORITHM_MISMATCH.
    pub fn material(&self, alg: u32) -> Res<Arc<KeyMaterial>> {
        let guard = self.key.lock().unwrap_or_else(|p| p.into_inner());
        let Some(k) = guard.as_ref() else {
            return fail(ERR_KEY_FREED, "secret key has been freed");
        };
        if k.alg != alg {
            return fail(
                ERR_KEY_ALGORITHM_MISMATCH,
                format!(
                    "secret key is for {}, not {}",
                    crate::alg_name(k.alg),
                    crate::alg_name(alg)
                ),
            );
        }
        Ok(Arc::clone(k))
    }
}

#[napi]
impl SecretKeyHandle {
    #[napi(getter)]
    pub fn alg(&self) -> u32 {
        self.alg
    }

    #[napi(getter)]
    pub fn freed(&self) -> bool {
        self.key.lock().unwrap_or_else(|p| p.into_inner()).is_none()
    }

    /// Drop this handle's reference now; bytes are zeroised unless an async task still holds them.
    #[napi]
    pub fn free(&self) {
        // Take the Arc out, then drop it outside the lock (zeroisation may run here).
        let taken = self.key.lock().unwrap_or_else(|p| p.into_inner()).take();
        drop(taken);
    }

    #[napi]
    pub fn take_public_key(&self) -> Option<napi::bindgen_prelude::Uint8Array> {
        self.public_key
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take()
            .map(Into::into)
    }
}
